"""How what the user says about size and hardware changes what a model's lightness earns."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.catalogue_questions import size_question
from agent.query import StructuredQuery
from rsfmd.loader import load_records
from rsfmd.schema import Category
from tools.ranking import query_weights

# The task the size phrasings below are added to.
_FLOOD_TASK = "I segment flooded fields in Sentinel-1 SAR scenes and have 3,000 labelled chips."


def _query(text: str) -> StructuredQuery:
    return select_models(text, k=3, clarify=False).query


@pytest.mark.parametrize(
    "said",
    [
        "Model size is not an issue, we have a cluster.",
        "We have cloud credits and don't care about model size.",
        "Budget for a big model is fine.",
        "Parameter count and training cost are not a concern.",
        "A multi-billion-parameter encoder is fine.",
    ],
)
def test_size_said_not_to_matter_takes_the_weight_off_lightness(said: str) -> None:
    query = _query(f"{_FLOOD_TASK} {said}")
    assert query.compute.size_waived
    assert query_weights(query)["efficiency"] == 0.0


@pytest.mark.parametrize(
    "said",
    [
        "Speed is not a concern.",
        "Labels are not a concern.",
        "A ViT-B or ViT-L is fine.",
    ],
)
def test_other_things_said_not_to_matter_leave_size_weighed(said: str) -> None:
    query = _query(f"{_FLOOD_TASK} {said}")
    assert not query.compute.size_waived
    assert query_weights(query)["efficiency"] > 0.0


def test_a_stated_cap_still_weighs_size_when_size_is_otherwise_waived() -> None:
    query = _query(
        "Model size is no concern for training, but the encoder must stay under 100M parameters for "
        "the field tablets. I map crop types from Sentinel-2 with 5,000 labelled parcels."
    )
    assert query.compute.max_parameters_m == 100.0
    assert not query.compute.size_waived
    assert query_weights(query)["efficiency"] > 0.0


def test_size_waived_with_memory_named_keeps_the_memory_bound_but_not_the_weight() -> None:
    query = _query(
        "We fine-tune on a single cloud A100, so model size is not the issue; IoU on the damaged "
        "buildings class is. About 2,000 annotated buildings of 0.3 m imagery per event."
    )
    assert query.compute.size_waived and query.compute.max_parameters_m is not None
    assert query_weights(query)["efficiency"] == 0.0


@pytest.mark.parametrize(
    ("said", "limit"),
    [
        # A number restating a limit after ', say' or ', i.e.' belongs to the limit it restates.
        ("That rules out anything much larger than a ViT-B, say 150M parameters for both towers.", 150.0),
        ("It has to stay small, i.e. under 40M parameters, because it runs on a Jetson.", 40.0),
    ],
)
def test_a_limit_restated_as_a_number_is_that_number(said: str, limit: float) -> None:
    assert _query(f"{_FLOOD_TASK} {said}").compute.max_parameters_m == limit


@pytest.mark.parametrize(
    ("said", "device"),
    [
        ("My laptop has an RTX 3050 with 4 GB.", "single-gpu"),
        ("I work on a laptop with an RTX 3050 (4 GB).", "single-gpu"),
        ("My laptop has 16 GB RAM and no GPU.", "cpu"),
    ],
)
def test_a_laptop_with_a_gpu_is_a_gpu(said: str, device: str) -> None:
    assert _query(f"{_FLOOD_TASK} {said}").compute.device_class == device


@pytest.mark.parametrize(
    "said",
    [
        "I want a sensible balance of accuracy and size rather than the biggest model around.",
        "Ideally under about 100M parameters, not the biggest model around.",
        "We don't need the biggest model, just a good trade-off.",
        "A sensible mid-size model beats the biggest one.",
        "A small ResNet is about the largest model I can afford.",
    ],
)
def test_a_size_superlative_the_user_does_not_ask_for_is_no_size_question(said: str) -> None:
    assert size_question(said) is None
    result = select_models(f"{_FLOOD_TASK} {said}", k=3, clarify=False)
    assert not any(a.startswith(("Largest of", "Smallest of")) for a in result.answers)


def test_the_largest_models_for_an_imagery_task_are_not_chat_models() -> None:
    # A vision-language model's size is mostly its language model; for captions it counts.
    asked = "What are the biggest public RS vision models for VHR RGB scene classification?"
    vision = select_models(asked, k=3)
    note = next(a for a in vision.answers if a.startswith("Largest of"))
    by_name = {r.model_name: r for r in load_records()}
    listed = [name.strip().split(" (")[0] for name in note.split(": ", 1)[1].split("), ")]
    assert listed and all(by_name[n].category != Category.vision_language for n in listed)
    captions = select_models("What is the largest model for captioning aerial RGB images?", k=3)
    note = next(a for a in captions.answers if a.startswith("Largest of"))
    first = note.split(": ", 1)[1].split(" (")[0]
    assert by_name[first].category == Category.vision_language
