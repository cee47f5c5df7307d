"""A task noun said once for two objects ('open-vocabulary or referring segmentation') names the
first object's application too; a task said by what does it ('tree-crown detectors') keeps that
task where the vocabulary reads it as a broader application; words describing the scene name no
task."""

import pytest

from agent.interpreter import interpret
from agent.query import StructuredQuery
from agent.reading import read


def _query(text: str) -> StructuredQuery:
    return interpret(read(text).required_text).query


@pytest.mark.parametrize(
    ("text", "application"),
    [
        (
            "We have 15 cm aerial orthophotos and no labels. Which models can do open-vocabulary or "
            "referring segmentation from typed prompts?",
            "open-vocabulary segmentation",
        ),
        (
            "We are scaling a building and road footprint segmentation to 30 cm aerial imagery of a "
            "whole state. Which backbones should we try?",
            "building segmentation",
        ),
        (
            "I run ship or vehicle detection on 0.5 m satellite scenes; which pretrained detectors "
            "are strongest?",
            "ship detection",
        ),
    ],
)
def test_a_task_noun_said_once_serves_the_first_object_too(text: str, application: str) -> None:
    assert _query(text).application == application


def test_one_object_alone_before_a_conjunction_names_nothing() -> None:
    # 'open-vocabulary' with no task noun after the second object is no task.
    query = _query(
        "Open-vocabulary and zero-shot models are popular; I need land cover mapping from Sentinel-2."
    )
    assert query.application == "land cover mapping"


@pytest.mark.parametrize(
    "text",
    [
        "From 3 cm drone orthophotos of oil palm plantations, which small tree-crown detectors would you "
        "use on a CPU laptop?",
        "I need a palm tree detector for drone orthophotos; which pretrained backbones are small enough "
        "for a laptop?",
    ],
)
def test_a_task_said_by_what_does_it_keeps_its_task(text: str) -> None:
    query = _query(text)
    assert query.application == "forest mapping"
    assert query.task_type == "detection"


def test_urban_and_rural_areas_are_the_scene_not_a_classification() -> None:
    query = _query(
        "We have UAV orthomosaics at 3 cm over peri-urban and rural sectors and want parcel boundaries "
        "extracted as thin connected lines. Which pretrained models would you fine-tune?"
    )
    assert query.application != "land cover classification"


@pytest.mark.parametrize(
    ("text", "application"),
    [
        (
            "We fly a drone over the wetlands of the Parana Delta to count marsh deer in 4K RGB frames. "
            "Which detectors would you fine-tune?",
            "wildlife detection",
        ),
        (
            "I run a VIIRS Day/Night Band vessel detector on a CPU and want a pretrained encoder for it.",
            "ship detection",
        ),
    ],
)
def test_of_two_applications_back_to_back_the_first_qualifies_the_second(text: str, application: str) -> None:
    assert _query(text).application == application


def test_a_phrase_opening_with_a_preposition_qualifies_nothing() -> None:
    query = _query(
        "Our team maps land cover around reservoirs from Gaofen-3 SAR. We have no labels, but we'd like "
        "to type class names in plain words and get masks back."
    )
    assert query.application == "open-vocabulary segmentation"


def test_a_task_said_by_its_verb_may_take_a_describing_word() -> None:
    query = _query(
        "We'd like a system that answers English questions about pairs of Sentinel-2 images over the "
        "Alps, with answers from a closed set of land-cover classes. Which open models can do this?"
    )
    assert query.application == "visual question answering"
