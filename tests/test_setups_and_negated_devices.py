"""What the user runs today and what others did (no wishes), hardware said not to be had, and the
words a task is given in: a yes/no per patch, a burn map, deer to count, class names to pick from."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.query import StructuredQuery
from rsfmd.loader import load_records
from tools.filtering import reads_no_text_for


def _query(text: str) -> StructuredQuery:
    return select_models(text, k=3, clarify=False).query


@pytest.mark.parametrize(
    "text",
    [
        "Today it's Mask R-CNN with a ResNet backbone; I want the strongest very-high-res backbone for "
        "instance segmentation of ice-wedge polygons.",
        "Today we run Mask R-CNN with a ResNet backbone; I want the strongest very-high-res backbone for "
        "instance segmentation of ice-wedge polygons.",
        "Right now our pipeline is a U-Net with a ResNet-50 encoder; which pretrained backbone should "
        "replace it for flood mapping?",
        "At the moment I'm running a ResNet-34 U-Net for flood mapping and want something stronger.",
    ],
)
def test_what_runs_today_is_no_wish_for_its_backbone(text: str) -> None:
    query = _query(text)
    assert not query.backbones and not query.architectures


def test_a_backbone_asked_for_is_still_a_wish() -> None:
    query = _query("I want a ResNet backbone for flood mapping on Sentinel-1.")
    assert query.backbones == ["ResNet"]


def test_the_data_and_task_of_what_runs_today_stay_the_users() -> None:
    query = _query("Right now we use Sentinel-2 composites for crop type mapping.")
    assert query.sensor == ["Sentinel-2"]
    query = _query("Right now we use a U-Net with a ResNet-50 encoder on Sentinel-2 for flood mapping.")
    assert (query.sensor, query.application, query.backbones) == (["Sentinel-2"], "flood mapping", [])


def test_a_model_run_today_is_not_offered_again() -> None:
    selection = select_models(
        "Today we run Prithvi-EO-2.0 on our HLS tiles for burn scar mapping; can something do better?",
        k=3,
        clarify=False,
    )
    assert "prithvi-eo-2.0" not in [m.model_id for m in selection.models]
    assert any("already tried" in note for note in selection.assumptions)


def test_what_people_do_on_other_imagery_is_no_input_of_the_user() -> None:
    query = _query(
        "We have an EnMAP scene over the Punjab with roughly 220 bands and no crop labels. Ideally I'd "
        "type 'wheat', 'rice', 'sugarcane' and get a map, like people do with CLIP on RGB."
    )
    # The class names typed in are text the model reads; RGB is what other people use.
    assert sorted(query.modality) == ["Hyperspectral", "Text"]


@pytest.mark.parametrize(
    ("text", "device"),
    [
        ("Compute is one 24 GB A5000; I'm not going to pay for a multi-GPU node.", "single-gpu"),
        ("One GPU; no multi-GPU cluster.", "single-gpu"),
        ("No cloud GPUs, just our RTX 4090 workstation.", "single-gpu"),
        ("We can't afford a GPU cluster, so a laptop it is.", "cpu"),
        ("We don't have a GPU, only a laptop.", "cpu"),
        ("Training runs on two A100s.", "multi-gpu"),
    ],
)
def test_hardware_said_not_to_be_had_is_not_the_users(text: str, device: str) -> None:
    assert _query(f"Flood mapping from Sentinel-1. {text}").compute.device_class == device


def test_every_gpu_of_the_memory_table_names_a_single_gpu() -> None:
    assert _query("Flood mapping from Sentinel-1 on one A5000.").compute.device_class == "single-gpu"


def test_outlines_that_came_out_of_osm_are_no_vector_input() -> None:
    query = _query(
        "I have a few thousand building and land-use outlines that came out of SAM and OSM, but most have no "
        "category. I want a CLIP-type model trained on aerial imagery to pick the closest word for "
        "a NAIP chip under each polygon."
    )
    assert "Vector map" not in query.modality
    assert query.task_type == "zero-shot classification"


def test_a_yes_or_no_per_patch_is_classification() -> None:
    query = _query(
        "From Maxar post-event imagery I don't need damage grades, just a yes/no per image patch: does "
        "this tile contain collapsed buildings or not?"
    )
    assert query.task_type == "classification"


@pytest.mark.parametrize(
    ("text", "application"),
    [
        (
            "The burn map from the Prithvi demo is wrong; I can fine-tune on a few hundred burn-scar chips.",
            "burn scar mapping",
        ),
        ("Drone survey: I want to detect and count white-tailed deer in the pastures.", "wildlife detection"),
    ],
)
def test_the_task_in_the_words_people_use(text: str, application: str) -> None:
    assert _query(text).application == application


def test_class_names_to_pick_from_need_a_model_that_reads_text() -> None:
    records = {r.model_id: r for r in load_records()}
    query = StructuredQuery(application="land cover mapping", task_type="zero-shot classification")
    assert reads_no_text_for(records["clay"], query)
    assert not reads_no_text_for(records["remoteclip"], query)
    assert not reads_no_text_for(records["clay"], query.model_copy(update={"task_type": "segmentation"}))


def test_an_application_done_from_text_prompts_without_labels_is_its_open_vocabulary_form() -> None:
    asked = (
        "Greenland fjords: I need masks of icebergs and supraglacial lakes from Sentinel-2 and have zero "
        "labels. Is there something that segments these out of the box, from a text prompt?"
    )
    assert _query(asked).application == "open-vocabulary segmentation"
    without_text = asked.replace(", from a text prompt", "")
    assert _query(without_text).application == "glacier mapping"


def test_a_model_tried_out_of_the_box_that_fell_short_sets_no_regime() -> None:
    query = _query(
        "Ice-wedge polygons from sub-metre Maxar imagery: SAM out of the box leaked across the fuzzy "
        "edges. Which model should I fine-tune on our few thousand hand-labelled polygons?"
    )
    assert query.data_regime != "zero-shot"
    assert _query("Segment ice-wedge polygons out of the box, we have no labels.").data_regime == "zero-shot"


def test_words_that_are_acronyms_or_brands_only_when_written_so() -> None:
    query = _query("Thaw slumps from Maxar imagery: what we track is where the slump headwall sits.")
    assert "Hyperspectral" not in query.modality and "Multi-temporal" not in query.modality
    assert "Multi-temporal" in _query("Crop types from Sentinel-2 SITS.").modality


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Land cover from Sentinel-2 on an ordinary desktop GPU.", "device", "single-gpu"),
        ("Land cover from Sentinel-2 on an ordinary desktop PC.", "device", "cpu"),
        (
            "Coffee mapping from Sentinel-2: what gives the most consistent coverage across regions?",
            "priority",
            "generalization",
        ),
        (
            "GPS-denied UAV navigation: match each thermal frame against a satellite basemap.",
            "application",
            "geolocalization",
        ),
    ],
)
def test_phrasings_of_hardware_priority_and_task(text: str, field: str, value: str) -> None:
    query = _query(text)
    read = {"device": query.compute.device_class, "application": query.application}
    assert value in query.priorities if field == "priority" else read[field] == value


def test_a_captioner_on_a_board_is_bound_by_the_boards_memory() -> None:
    # A chat model's 16-bit weights in the board's memory, not the encoder budget of a small board.
    text = (
        "We triage post-hurricane chips on a Jetson Orin Nano with 8 GB of shared memory: the model "
        "must say whether a chip shows damage and write a short caption for responders."
    )
    query = _query(text)
    assert query.compute.device_class == "edge"
    assert query.compute.parameter_limit() == 3200.0
    encoder = _query("We segment burn scars on a Jetson Orin Nano with 8 GB of shared memory.")
    assert encoder.compute.parameter_limit() is not None and encoder.compute.parameter_limit() < 500


def test_the_model_that_gets_the_user_a_score_today_is_no_wish_but_its_metric_stays() -> None:
    query = _query(
        "Bi-temporal building change detection on 0.5 m imagery with 8,000 labelled tile pairs. A small "
        "Mamba-based change model gets me about 0.82 F1, and I want the best F1 achievable on a 48 GB GPU. "
        "Which pretrained backbones give the highest F1?"
    )
    assert not query.architectures
    assert "F1" in query.priority_metrics


@pytest.mark.parametrize(
    "text",
    [
        "Our U-Net models with ImageNet ResNet encoders struggle on braided channels in WorldView-2 "
        "tiles; which pretrained model that uses the NIR band would transfer best?",
        "We currently train a UNet with an ImageNet ResNet-34 encoder on DEM chips; which pretrained "
        "model saw elevation data?",
    ],
)
def test_the_backbone_of_the_users_baseline_is_no_backbone_asked_for(text: str) -> None:
    assert not _query(text).backbones


def test_the_place_of_what_runs_today_stays_the_users() -> None:
    query = _query(
        "Today we run a U-Net on our Sentinel-2 tiles over Kenya for flood mapping and want something "
        "stronger."
    )
    assert query.region == ["Kenya"] and not query.architectures


@pytest.mark.parametrize(
    "said",
    [
        "It all has to run on my laptop (RTX 3050, 4 GB), so 100M parameters at most.",
        "My only GPU is an 8 GB RTX 4060 laptop card.",
    ],
)
def test_a_laptop_with_a_named_gpu_is_one_gpu(said: str) -> None:
    assert _query(f"Building segmentation from 0.3 m aerial RGB. {said}").compute.device_class == "single-gpu"


def test_a_laptop_alone_is_still_a_cpu() -> None:
    assert _query("Building segmentation from 0.3 m aerial RGB on my laptop.").compute.device_class == "cpu"


def test_anywhere_names_no_region() -> None:
    query = _query("Aerial RGB scene classification on small edge boxes, no GPU anywhere in the field.")
    assert "Global" not in query.region and "Global" not in query.exclusions.regions
    assert "Global" in _query("Land cover from Sentinel-2 worldwide.").region
