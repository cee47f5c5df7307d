"""Parameter caps said as a cap on weights, maps beside imagery, and unlabelled data to pretrain on."""

import pytest

from agent.api import select_models
from agent.interpreter import interpret
from agent.query import StructuredQuery
from tools.ranking import distinctive_modalities


@pytest.mark.parametrize(
    ("text", "cap"),
    [
        ("On a small CPU server I'm capping the detector backbone at about 30 M parameters.", 30.0),
        ("The backbone is capped at 50M parameters by our deployment team.", 50.0),
        ("It must fit on the sensor. Anything above roughly 8 million int8 weights is out.", 8.0),
        ("Anything over 20M parameters will not fit on the board.", 20.0),
        ("We have 40 labelled scenes and tried a 600M-parameter model, which is out of reach.", None),
    ],
)
def test_a_cap_said_in_other_words_is_read(text, cap):
    assert interpret(text).query.compute.max_parameters_m == cap


def test_osm_footprints_beside_imagery_are_labels_not_a_rare_input():
    # A map beside the imagery is where labels come from, not what a model must take first.
    query = StructuredQuery(application="building segmentation", modality=["Vector map", "RGB"])
    assert distinctive_modalities(query) == frozenset()
    selection = select_models(
        "We run an AI-assisted mapping tool for OpenStreetMap volunteers that predicts building "
        "footprints on drone and aerial imagery (5-30 cm RGB) after training on a few hundred local "
        "footprints. Which pretrained segmentation models should we start from?",
        k=3,
        clarify=False,
    )
    assert all("RGB" in m.modalities for m in selection.models)
    assert not any(a.startswith("Models that take Vector map come first") for a in selection.assumptions)


@pytest.mark.parametrize(
    "text",
    [
        "We have a few hundred unlabelled EnMAP scenes and no annotations yet; I want strong embeddings, "
        "from an existing hyperspectral model or by continuing its pretraining on our tiles.",
        "No labels at all: we'd continue pretraining a Sentinel-1 encoder on our own archive first.",
    ],
)
def test_no_labels_and_pretraining_further_is_unlabelled_use_not_zero_shot(text):
    query = interpret(text).query
    assert query.data_regime == "unlabeled"
    assert query.pretrain_further
    assert query.task_type != "zero-shot classification"


def test_a_ground_resolution_under_a_metre_is_no_parameter_cap():
    text = "Single-channel Umbra X-band SAR tiles at well under 1 m, eight land-cover classes."
    assert interpret(text).query.compute.max_parameters_m is None
    assert interpret("A backbone under 100M for a laptop.").query.compute.max_parameters_m == 100.0


def test_imagery_the_labels_were_drawn_on_is_not_the_input():
    selection = select_models(
        "Land cover from single-channel Umbra X-band SAR at test time. The labels were drawn on "
        "near-date optical images, so a building can be almost invisible in the radar. One 24 GB GPU.",
        k=3,
        clarify=False,
    )
    assert selection.query.modality == ["SAR"]
    assert all("SAR" in m.modalities for m in selection.models)
