"""Weights asked for in words are weights the sources must show, and a model the user cannot download
comes after every one they can; a size with no public checkpoint does not count; a model of
hyperspectral cubes does not take a few broad bands unless the user asks for any band set."""

import pytest

from agent.api import select_models
from agent.interpreter import interpret
from rsfmd.loader import load_records
from rsfmd.schema import Category
from tests.records import make_record
from tools.candidate import Candidate
from tools.closest import filter_candidates
from tools.evidence import EvidenceIndex
from tools.filtering import (
    cannot_download,
    compute_violation,
    encoder_violation,
    imagery_violation,
    modality_violation,
    weights_violation,
)
from tools.ranking import score_candidates


def test_weights_asked_for_rule_out_a_model_whose_release_is_unknown() -> None:
    unknown = next(
        r for r in load_records() if r.weights_released is None and r.category != Category.embedding_product
    )
    asked = interpret(
        "Which VLMs with released weights answer questions about pre- and post-disaster pairs?"
    ).query
    assert asked.open_weights
    assert weights_violation(unknown, asked) == "no release of its weights is known"
    # Weights only implied (a model to run on one GPU) leave an unknown release to the ranking.
    implied = interpret("Which VLMs answer questions about disaster pairs on one 48 GB GPU?").query
    assert not implied.open_weights and weights_violation(unknown, implied) is None


def test_a_hyperspectral_model_takes_multispectral_bands_only_when_any_band_set_is_asked() -> None:
    hypersl = next(r for r in load_records() if r.model_id == "hypersl")
    landsat = interpret("Land-cover change from Landsat 5 TM and Landsat 8 OLI, 7 bands, on a CPU").query
    # (it takes the bands only through a related input: a closest match at most)
    assert modality_violation(hypersl, landsat) is None and imagery_violation(hypersl, landsat) is not None
    anyset = select_models("which models handle arbitrary spectral bands?", k=3, clarify=False).query
    assert anyset.any_bands and modality_violation(hypersl, anyset) is None
    assert imagery_violation(hypersl, anyset) is None


def test_a_closest_match_far_over_the_budget_comes_after_those_near_it() -> None:
    # (a budget read from the device; one the user states is not bent at all)
    selection = select_models(
        "I fly a drone with a radiometric thermal camera over solar farms and want to sort panel crops into "
        "normal, hotspot and defective. The model has to run on an ESP32 microcontroller next to the camera.",
        k=6,
        clarify=False,
    )
    records = {r.model_id: r for r in load_records()}
    limit = selection.query.compute.parameter_limit()
    assert limit == 50 and selection.query.compute.max_parameters_m is None
    over = [
        (records[m.model_id].smallest_parameters or 0) >= 10 * limit
        for m in selection.models
        if "compute" in m.relaxed_constraints
    ]
    assert any(over) and over == sorted(over)  # those far over come last


def test_images_found_by_images_need_no_vision_language_model() -> None:
    selection = select_models(
        "Search two million Sentinel-1 wave-mode vignettes for scenes that look like a given rain cell "
        "or iceberg field, without training anything; one GPU.",
        k=5,
        clarify=False,
    )
    assert selection.query.application == "content-based image retrieval"
    records = {r.model_id: r for r in load_records()}
    image_only = [m for m in selection.models if records[m.model_id].category != Category.vision_language]
    assert image_only
    for model in image_only:
        assert not any("needs a vision-language model" in r for r in model.reasons + model.trade_offs)
        assert not any("needs at least a trained head" in r for r in model.reasons + model.trade_offs)


def test_a_model_the_user_cannot_download_comes_after_every_closest_match() -> None:
    query = interpret("Segment water in Sentinel-1 scenes, about 300 labelled chips, one RTX 4090.").query
    unknown = make_record("unknown", modalities=["SAR"], task_types=["segmentation"])  # release unknown
    closed = make_record("closed", modalities=["SAR"], task_types=["segmentation"], weights_available=False)
    other_task = make_record(
        "other", modalities=["SAR"], task_types=["classification"], weights_available=True
    )
    candidates = [
        Candidate(unknown),
        Candidate(closed, relaxed=["weights"]),
        Candidate(other_task, relaxed=["task"]),
    ]
    ranked = score_candidates(candidates, query, EvidenceIndex([]))
    assert ranked[0].record.model_id == "other"
    # Without weights needed (a question about the catalogue), the model doing the task comes first.
    about = interpret("Which SAR models segment water?").query
    assert score_candidates(candidates, about, EvidenceIndex([]))[0].record.model_id != "other"


def test_a_size_without_a_public_checkpoint_does_not_count() -> None:
    described = make_record(
        "m",
        num_parameters=307,
        variants=[
            {"name": "M ViT-L", "num_parameters": 307, "weights": "https://example.org/vitl.pth"},
            {"name": "M ViT-B", "num_parameters": 86, "released": False},
        ],
    )
    assert described.smallest_parameters == 307
    capped = interpret(
        "Building footprints from 0.5 m imagery on a laptop CPU, well under 100M parameters"
    ).query
    assert compute_violation(described, capped) is not None
    scale_mae = next(r for r in load_records() if r.model_id == "scale-mae")
    assert scale_mae.smallest_parameters == 307  # its ViT-B checkpoint link was taken down


def test_models_whose_release_is_unknown_do_not_count_towards_enough() -> None:
    query = interpret("Segment water in Sentinel-1 scenes, about 300 labelled chips, one RTX 4090.").query
    common = {"modalities": ["SAR"], "supported_sensors": ["Sentinel-1"], "num_parameters": 25}
    known = [make_record(m, task_types=["segmentation"], weights_available=True, **common) for m in "ab"]
    unknown = make_record("unknown", task_types=["segmentation"], **common)
    assert filter_candidates([*known, unknown], query, minimum=3).short
    assert not filter_candidates([*known, unknown], query, minimum=2).short
    # A question about the catalogue downloads nothing: a model whose release is unknown counts.
    about = interpret("Which SAR models segment water?").query
    assert not filter_candidates([*known, unknown], about, minimum=3).short


def test_a_catalogue_question_lists_models_the_user_cannot_download_last() -> None:
    # 'Is there a model whose backbone ingests thermal?' from a team that will train it: the models
    # taking RGB and thermal together answer it in full, but one whose release no source shows
    # still comes after every model the user can download.
    selection = select_models(
        "Our drone carries a paired RGB + thermal (LWIR) camera and we fly traffic surveys into the "
        "night. We have about 30k annotated RGB-infrared pairs and two A100s, so I plan to train the "
        "whole network rather than a head. Is there a remote-sensing foundation model whose backbone "
        "actually ingests the thermal channel, rather than an RGB-only backbone?",
        k=6,
        clarify=False,
    )
    assert any("answer it in full first" in a for a in selection.answers)
    by_id = {r.model_id: r for r in load_records()}
    blocked = [
        cannot_download(by_id[m.model_id], selection.query, m.relaxed_constraints) for m in selection.models
    ]
    assert blocked == sorted(blocked)  # every downloadable model first


@pytest.mark.parametrize("wanted", [2, 3])
def test_a_model_whose_weights_are_not_released_never_fills_a_short_answer(wanted: int) -> None:
    # The user trains on their chips: a model shown on another task joins the closest matches, one
    # they cannot download does not, however few models are left.
    query = interpret("Segment water in Sentinel-1 scenes, about 300 labelled chips, one RTX 4090.").query
    fits = make_record("fits", modalities=["SAR"], task_types=["segmentation"], weights_available=True)
    closed = make_record("closed", modalities=["SAR"], task_types=["segmentation"], weights_available=False)
    other = make_record("other", modalities=["SAR"], task_types=["classification"], weights_available=True)
    outcome = filter_candidates([fits, closed, other], query, minimum=wanted)
    assert [r.model_id for r in outcome.survivors] == ["fits", "other"]


def test_a_size_cap_the_user_states_is_not_bent_to_fill_a_short_answer() -> None:
    common = {"modalities": ["Thermal"], "task_types": ["classification"], "weights_available": True}
    tiny = make_record("tiny", num_parameters=1.4, **common)
    larger = make_record("larger", num_parameters=11.2, **common)
    capped = interpret(
        "Sort thermal drone crops of solar panels into three classes; the model must stay under 5 "
        "million parameters. A few hundred labelled frames."
    ).query
    unknown = make_record("unknown", **common)  # no size known: not known to fit the cap
    assert capped.compute.limit_said
    kept = filter_candidates([tiny, larger, unknown], capped, minimum=3).survivors
    assert [r.model_id for r in kept] == ["tiny"]
    # A budget read from the device alone (a laptop) is an estimate: a larger model comes closest.
    laptop = interpret(
        "Sort thermal drone crops of solar panels into three classes on a laptop CPU. A few hundred "
        "labelled frames."
    ).query
    assert laptop.compute.max_parameters_m is None
    over = make_record("over", num_parameters=300, **common)
    assert "over" in [r.model_id for r in filter_candidates([tiny, over], laptop, minimum=3).survivors]


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Is there any pretrained remote-sensing model for LiDAR that we could fine-tune?", True),
        ("Which SAR backbones can we fine-tune on 300 labelled chips?", True),
        ("I want a model I can adapt to our Sentinel-2 crops.", True),
        ("I do not want a model I would need to fine-tune.", False),
        ("Which SAR models segment water?", False),
    ],
)
def test_a_model_the_user_will_fine_tune_needs_released_weights(text: str, asked: bool) -> None:
    assert interpret(text).query.open_weights is asked


@pytest.mark.parametrize(
    "text",
    [
        "We flew a DJI L1 over our cherry orchard and have a 10 cm canopy height model. Which pretrained "
        "model takes LiDAR-derived height and gives fine tree crown boundaries?",
        "I'm mapping tree crowns from a LiDAR canopy height model. Which pretrained model takes the height "
        "layer and gives fine crown boundaries?",
    ],
)
def test_a_user_with_work_of_their_own_is_not_offered_weights_never_released(text: str) -> None:
    # No machine, labels or archive named: data or work of their own is still a model to use.
    query = interpret(text).query
    assert query.own_work
    unreleased = next(
        r for r in load_records() if r.weights_released is False and r.category != Category.embedding_product
    )
    assert weights_violation(unreleased, query) == "pretrained weights are not released"
    by_id = {r.model_id: r for r in load_records()}
    shown = select_models(text, k=5, clarify=False).models
    assert shown and all(by_id[m.model_id].weights_released is not False for m in shown)
    # Asked about the models alone, with nothing of their own, the user may see one.
    assert not interpret("Which pretrained models take LiDAR-derived height for tree crowns?").query.own_work


def test_work_of_their_own_alone_may_be_served_by_embeddings_already_computed() -> None:
    alphaearth = next(r for r in load_records() if r.model_id == "alphaearth-foundations")
    own = interpret(
        "We map field boundaries across our provinces every year. Which embeddings would help?"
    ).query
    assert own.own_work and encoder_violation(alphaearth, own) is None
    # On their own machine, embeddings whose encoder is not released are nothing to run.
    machine = interpret(
        "We map field boundaries on our own 24 GB GPU every year. Which model would help?"
    ).query
    assert encoder_violation(alphaearth, machine) is not None
