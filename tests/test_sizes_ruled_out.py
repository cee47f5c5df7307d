"""A size said too slow or too big is a limit under it; a model asked for by what it can use or fuse
takes that data; a parenthesis just before a backward cue belongs to what the cue is said of."""

from __future__ import annotations

import pytest

from agent.interpreter import interpret
from agent.query import StructuredQuery
from agent.reading import read


def _query(text: str) -> StructuredQuery:
    return interpret(read(text).required_text).query


_TASK = "Vehicle detection on 0.3 m WorldView-3 tiles, trained on one RTX 3090. "


@pytest.mark.parametrize(
    ("said", "limit"),
    [
        ("ViT-Large-class backbones (300M+) are too slow for us.", 300.0),
        ("ViT-L backbones are too slow for us.", 307.0),
        ("A ViT-L was too slow to fine-tune.", 307.0),
        ("300M+ models are too slow for us.", 300.0),
        ("The big 300M+ ViTs are overkill for this.", 300.0),
        ("Anything ViT-L sized is out for us.", 307.0),
        ("ViT-Large-class backbones are too big for us.", 307.0),
    ],
)
def test_a_size_said_too_slow_or_too_big_is_a_limit_under_it(said: str, limit: float) -> None:
    query = _query(_TASK + said + " Which pretrained backbone should we use?")
    assert query.compute.limit_said
    assert query.compute.parameter_limit() is not None
    assert query.compute.parameter_limit() < limit


def test_a_model_tried_and_found_too_slow_names_no_size() -> None:
    query = _query(_TASK + "We tried Prithvi and it was too slow. Which pretrained backbone should we use?")
    assert not query.compute.limit_said


def test_a_backbone_size_ruled_out_rules_out_no_family() -> None:
    query = _query(_TASK + "ViT-L backbones are too slow for us. Which pretrained backbone should we use?")
    assert not query.architectures


def test_of_several_sizes_the_tightest_limit_holds() -> None:
    query = _query(
        "Sentinel-1 wave-mode vignettes to classify on a fanless laptop with no GPU. I'm limiting myself "
        "to ResNet-50 scale; the ViT-Base SAR models my colleagues bring up would be too slow here."
    )
    limit = query.compute.parameter_limit()
    assert limit is not None and limit < 30


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (
            "Tree species from 1 m imaging spectroscopy, 10 cm RGB and a lidar canopy height model. Which "
            "pretrained models can actually use the full hyperspectral cube?",
            {"Hyperspectral"},
        ),
        (
            "Land cover from 48-band airborne hyperspectral, LiDAR and 5 cm RGB orthophotos. Which "
            "pretrained models can fuse hyperspectral and LiDAR for a 20-class legend?",
            {"Hyperspectral", "LiDAR"},
        ),
        (
            "Crop types from Landsat 8 scenes. Is there a pretrained model that also uses the thermal band?",
            {"Thermal"},
        ),
    ],
)
def test_a_model_asked_for_by_what_it_uses_or_fuses_takes_that_data(text: str, kinds: set[str]) -> None:
    assert kinds <= set(_query(text).model_kinds)


def test_a_parenthesis_before_a_backward_cue_belongs_to_what_it_is_said_of() -> None:
    query = _query(
        "My labels are OpenStreetMap polygons (buildings, roads, water, parks) rasterised over a WorldView "
        "basemap at 0.5 m, RGB only. Which pretrained backbone for multi-class segmentation?"
    )
    assert "Vector map" not in query.modality


@pytest.mark.parametrize(
    "said",
    [
        "We have many A100 nodes, so a multi-billion-parameter encoder is fine.",
        "Compute is a cluster of commodity GPUs, so a billion-parameter encoder is feasible.",
        "We will fine-tune whatever is strongest, a billion-parameter backbone included.",
        "We can afford continued self-supervised pretraining and full fine-tuning of billion-parameter "
        "models.",
        "We would happily fine-tune billion-parameter vision transformers.",
    ],
)
def test_a_size_allowed_is_no_size_asked_for(said: str) -> None:
    assert _query(_TASK + said).compute.min_parameters_m is None


def test_a_number_of_billions_or_fewer_is_a_limit_and_a_size_avoided_is_no_floor() -> None:
    compute = _query(_TASK + "The model must be 4 billion parameters or fewer.").compute
    assert compute.min_parameters_m is None and compute.max_parameters_m == 4000.0
    avoided = _query(_TASK + "I'd prefer to stay away from anything of 300M+ parameters.").compute
    assert avoided.min_parameters_m is None


def test_a_billion_parameter_model_asked_for_is_still_a_floor() -> None:
    compute = _query(_TASK + "Which billion-parameter backbones exist for this?").compute
    assert compute.min_parameters_m == 1000.0


def test_a_size_included_among_others_is_no_floor() -> None:
    said = "I'd like the strongest backbones, including billion-parameter ones if weights are public."
    assert _query(_TASK + said).compute.min_parameters_m is None
