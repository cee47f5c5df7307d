"""What a user moves away from is not their data; per-point classes and per-object outlines are
outputs of their own kinds; a backbone family limits only when asked for; the application is what the
task asks for."""

import pytest

from agent.interpreter import interpret
from agent.query import StructuredQuery
from agent.reading import read


def _query(text: str) -> StructuredQuery:
    """The task as the offline engine reads it: role spans first, then the rules."""
    return interpret(read(text).required_text).query


@pytest.mark.parametrize(
    ("text", "kept", "left"),
    [
        (
            "I'm extending the SpaceNet building-footprint pipeline from 3-band pan-sharpened RGB to "
            "the 8-band WorldView-3 multispectral product, with tens of thousands of labels.",
            "Multispectral",
            "RGB",
        ),
        ("We are moving from Landsat 8 to Sentinel-2 for our crop maps.", "Sentinel-2", "Landsat-8"),
        ("We switched from SAR to optical imagery last year to map floods.", "Multispectral", "SAR"),
    ],
)
def test_what_a_user_moves_away_from_is_not_their_data(text: str, kept: str, left: str) -> None:
    query = _query(text)
    read_as = set(query.modality) | set(query.sensor)
    assert kept in read_as
    assert left not in read_as


def test_data_that_comes_from_somewhere_stays_the_users() -> None:
    query = _query("Our tiles come from Sentinel-2 going back to 2017, and we map burn scars.")
    assert "Sentinel-2" in query.sensor


@pytest.mark.parametrize(
    "text",
    [
        "Clients keep asking for buildings, power lines, vegetation, vehicles and water as separate "
        "point classes in our drone LiDAR point clouds.",
        "We fly airborne LiDAR corridors along transmission lines and need per-point classes: ground, "
        "vegetation, conductor wires, pylons, buildings.",
    ],
)
def test_classes_per_point_are_segmentation(text: str) -> None:
    query = _query(text)
    assert query.task_type == "segmentation"
    assert "LiDAR" in query.modality


def test_an_outline_for_each_object_is_instance_segmentation() -> None:
    query = _query(
        "We map dwellings in refugee camps from 0.3 m WorldView imagery. A per-camp number is not "
        "enough: every dwelling needs its own footprint so an analyst can check it."
    )
    assert query.task_type == "instance segmentation"


@pytest.mark.parametrize(
    "text",
    [
        "I'm re-training a marine-debris detector built on PlanetScope tiles with an SSD ResNet-101 "
        "pretrained on Open Images; now I have the 8-band SuperDove product and 250 boxes.",
        "The paper's ResNet-50, LRCN and 3D-CNN baselines are my starting point for Sentinel-2 crop types.",
        "Our network has to stay around ResNet-50 size, 30M parameters at most, for Sentinel-2 tiles.",
        "I started with a Swin-L encoder pretrained on RGB and it struggles on the NIR band.",
        # the way without a pretrained model, offered as the other choice
        "I have a few hundred thermal frames; is there any pretrained remote-sensing model small enough "
        "to start from, or should I simply train a tiny CNN?",
        # the model to replace or beat
        "A 1D-CNN gets an F1 of about 0.84 on our meadows. Which pretrained time-series encoders could "
        "replace the CNN?",
        "Oriented R-CNN on a ResNet-50 is stuck at 71 mAP on DOTA. Which backbones would beat the ResNet?",
    ],
)
def test_a_backbone_family_only_mentioned_asks_for_nothing(text: str) -> None:
    assert _query(text).architectures == []


@pytest.mark.parametrize(
    ("text", "families"),
    [
        ("The network must be a quantisable CNN of roughly 15 M parameters for the cubesat.", ["CNN"]),
        ("Is there a pretrained tiny ViT for Sentinel-2 that runs on a laptop?", ["transformer"]),
        ("land cover from Sentinel-2, CNN only", ["CNN"]),
    ],
)
def test_a_backbone_family_wanted_or_asked_about_is_asked_for(text: str, families: list[str]) -> None:
    assert _query(text).architectures == families


def test_a_length_is_no_count_of_labels_and_a_count_may_look_like_a_year() -> None:
    tiles = _query("The detector was built on 3 m PlanetScope RGB tiles; I have 40,000 labelled boxes.")
    assert tiles.data_regime == "full-labels"
    assert _query("building change detection from 25 cm aerial photos, 2000 labels").data_regime == "few-shot"


def test_cpu_offload_is_a_technique_not_the_device() -> None:
    query = _query(
        "Our node has 8x RTX 3090 (24 GB each), and full fine-tuning runs out of memory even with ZeRO-3 "
        "and CPU offload, so it will have to be LoRA. Which VLMs handle 8k-pixel aerial scenes?"
    )
    assert query.compute.device_class == "multi-gpu"


def test_a_short_sensor_code_inside_a_product_name_names_no_sensor() -> None:
    query = _query("Inference has to run on an ESP32-S3 next to the drone's thermal camera.")
    assert "Sentinel-3" not in query.sensor
    assert "Sentinel-3" in _query("We use S3 OLCI chlorophyll products.").sensor


def test_explanation_heat_maps_are_no_thermal_task() -> None:
    query = _query(
        "We map mangroves from drone RGB orthomosaics with a SegFormer-B0 and have started adding heat "
        "maps (Grad-CAM, integrated gradients) because partners ask why a stretch of shore was flagged."
    )
    assert query.application != "land surface temperature estimation"
    thermal = _query("urban heat mapping from Landsat thermal bands")
    assert thermal.application == "land surface temperature estimation"


# The application is what the task asks for: changes told in text are change captioning, answers
# with boxes are grounding, images found by their likeness or from text queries are retrieval
# whatever they show.
@pytest.mark.parametrize(
    ("text", "application"),
    [
        (
            "Every detected change between two 0.5 m Pleiades images has to come with a written description "
            "of what changed. Which models can describe vegetation, water and land-use changes in text?",
            "change captioning",
        ),
        (
            "Analysts only act on a flagged WorldView-3 tile if the system shows what it saw and where; I'm "
            "open to a vision-language model if it answers with boxes or masks.",
            "visual grounding",
        ),
        (
            "I want a tool over 1 m NAIP imagery: click a centre-pivot field, a solar farm or a landfill and "
            "get every visually similar 128x128 tile back. There are no labels at all.",
            "content-based image retrieval",
        ),
        (
            "Analysts ask free-text questions like 'fishing boats moored along a pier' or 'construction "
            "cranes'. There's no training budget and no labels; we just need the right tiles back.",
            "image-text retrieval",
        ),
    ],
)
def test_the_application_is_what_the_task_asks_for(text: str, application: str) -> None:
    assert _query(text).application == application
