"""The land imagery lies over is the scene, not the task; a task's object may be the second of two, and
a participle may be joined by another; embeddings a user would happily use are accepted, not required."""

import pytest

from agent.interpreter import interpret
from agent.query import StructuredQuery
from agent.reading import read


def _query(text: str) -> StructuredQuery:
    """The task as the offline engine reads it: role spans first, then the rules."""
    return interpret(read(text).required_text).query


@pytest.mark.parametrize(
    ("text", "application"),
    [
        (
            "We fly a drone over farmland to detect people and livestock in the RGB frames.",
            "livestock detection",
        ),
        (
            "Our aerial survey frames over Arctic sea ice are thermal; we need to detect seals and "
            "polar bears.",
            "wildlife detection",
        ),
        (
            "Our drone flies over informal settlements at 5 cm GSD. We want semantic segmentation into "
            "7 classes: metal roof, paved, trees, water.",
            "land cover mapping",
        ),
        # (an aircraft named in several words)
        (
            "Our drone team flies a Mavic 3 Enterprise (M3E) over informal settlements at 5 to 20 cm GSD. "
            "We need semantic segmentation into roughly 7 classes: metal roof, other roof, paved, unpaved "
            "track, trees, low vegetation, water.",
            "land cover mapping",
        ),
    ],
)
def test_the_land_imagery_lies_over_is_the_scene_not_the_task(text: str, application: str) -> None:
    assert _query(text).application == application


@pytest.mark.parametrize(
    ("text", "application"),
    [
        # The scene is the task when nothing else is named as one.
        (
            "We have Sentinel-2 imagery over farmland in Kenya and want to map field boundaries.",
            "cropland mapping",
        ),
        (
            "Sentinel-1 scenes over the Amazon, to monitor deforestation every month.",
            "deforestation monitoring",
        ),
        # Over a place the task is about: the task named, not the place.
        (
            "Drone images over flooded villages; we need to detect damaged buildings.",
            "building damage assessment",
        ),
    ],
)
def test_a_task_named_with_its_scene_stays_the_task(text: str, application: str) -> None:
    assert _query(text).application == application


@pytest.mark.parametrize(
    ("text", "application"),
    [
        ("I need to detect people and livestock in drone frames.", "livestock detection"),
        ("Which model can detect vehicles or aircraft in 30 cm satellite images?", "vehicle detection"),
        # The first object keeps its own reading.
        ("map floods and land cover with Sentinel-1", "flood mapping"),
    ],
)
def test_a_tasks_object_may_be_the_second_of_two(text: str, application: str) -> None:
    assert _query(text).application == application


def test_a_participle_joined_to_another_still_names_the_application() -> None:
    query = _query("I need a first map of collapsed or changed buildings between the two image dates.")
    assert query.application == "building damage assessment"


def test_embeddings_the_user_would_happily_use_are_accepted_not_required() -> None:
    said = "Sentinel-2 land cover on a laptop; I would happily use precomputed embeddings if they exist."
    assert not _query(said).precomputed_embeddings
    assert _query("Sentinel-2 land cover on a laptop; I want precomputed embeddings.").precomputed_embeddings


def test_a_detector_to_train_asks_for_detection():
    assert (
        _query("I plan to train a detector for vehicles on drone frames; one GPU.").task_type == "detection"
    )
    assert _query("We want a change detector for Sentinel-2 image pairs.").task_type == "change detection"


@pytest.mark.parametrize(
    "text",
    [
        "We screen Sentinel-1 scenes for oil slicks; the task is just spill or no spill on chips cut "
        "around dark patches.",
        "The answer we need is fire vs. no fire for each tile of the SWIR composite.",
    ],
)
def test_presence_or_absence_per_chip_is_a_label_per_image(text: str) -> None:
    assert _query(text).task_type == "classification"
