"""The same request, worded two ways, reads the same: each case gives two phrasings a practitioner
might use for one fact, and the reading must not depend on which was chosen."""

from __future__ import annotations

import pytest

from agent.interpreter import interpret
from agent.reading import read


def _read(text: str):  # type: ignore[no-untyped-def]
    return interpret(read(text).required_text).query


@pytest.mark.parametrize(
    "hardware",
    [
        "Compute: 2x RTX A6000.",
        "Compute is two RTX A6000s.",
        "We have two RTX A6000 cards (48 GB apiece).",
        "We train on a pair of RTX 3090s.",
    ],
)
def test_several_gpus_named_by_count_are_several(hardware: str) -> None:
    query = _read(f"Umbra X-band scenes, no labels yet; we want to continue pretraining. {hardware}")
    assert query.compute.device_class == "multi-gpu"


@pytest.mark.parametrize("hardware", ["on my laptop's RTX 3050 (4 GB)", "on my laptop GPU (RTX 3050, 4 GB)"])
def test_the_memory_of_a_named_card_is_read_after_a_comma(hardware: str) -> None:
    query = _read(f"Parking lots from 20 cm orthophotos; I retrain in an hour {hardware}.")
    assert query.compute.parameter_limit() == pytest.approx(62.5)


@pytest.mark.parametrize(
    "labels",
    [
        "I can label a few hundred parking polygons myself.",
        "I can draw a few hundred parking-lot polygons myself.",
    ],
)
def test_labels_the_user_can_draw_are_few_labels(labels: str) -> None:
    assert _read(f"A binary parking-lot map from 20 cm orthophotos. {labels}").data_regime == "few-shot"


@pytest.mark.parametrize(
    "asked",
    [
        "Which pretrained models actually know Landsat rather than just RGB?",
        "Which pretrained models genuinely understand Landsat rather than just RGB?",
    ],
)
def test_a_model_said_to_understand_a_sensor_must_take_its_imagery(asked: str) -> None:
    assert _read(f"Mine-tailings mapping in Chile from Landsat 8 OLI. {asked}").model_kinds == [
        "Multispectral"
    ]


@pytest.mark.parametrize(
    "asked",
    [
        "I want the strongest SAR-specific pretrained backbone available.",
        "I'm looking for the strongest pretrained backbone specific to SAR.",
        "Which newer model handles 6-band HLS input?",
    ],
)
def test_a_model_asked_for_by_what_it_is_specific_to_must_take_it(asked: str) -> None:
    query = _read(f"We have Sentinel-1 and Sentinel-2 over the Alps. {asked}")
    assert query.model_kinds in (["SAR"], ["Multispectral"])
    assert query.model_kinds == (["Multispectral"] if "HLS" in asked else ["SAR"])


@pytest.mark.parametrize(
    "asked",
    [
        "I want the strongest pretrained backbone I can actually download and fine-tune.",
        "I want the strongest pretrained backbone that I can actually download and fine-tune.",
        "Which SAR foundation models release both checkpoints and pretraining code?",
        "Which SAR foundation models come with released checkpoints and the pretraining code?",
    ],
)
def test_weights_to_download_are_asked_for_however_said(asked: str) -> None:
    assert _read(
        f"Several thousand Sentinel-1 scenes over Norway, almost none labelled. {asked}"
    ).open_weights


@pytest.mark.parametrize(
    "labels",
    ["~150 hand-digitised 512x512 tiles so far.", "So far we have around 150 hand-digitised 512x512 tiles."],
)
def test_what_the_user_has_so_far_is_theirs(labels: str) -> None:
    assert _read(f"Roof masks from 3 cm drone RGB. {labels}").data_regime == "few-shot"
    tried = read("So far I've only compared TESSERA embeddings against Google's embedding layer.")
    assert [s.role for s in tried.spans] == ["reference"]


@pytest.mark.parametrize("labels", ["with plenty of labelled tiles", "with lots of labelled tiles"])
def test_many_labelled_tiles_are_enough_to_fine_tune(labels: str) -> None:
    assert _read(f"Building vs not building from 0.3 m RGB aerial orthophotos, {labels}.").data_regime == (
        "full-labels"
    )


@pytest.mark.parametrize(
    "optical",
    [
        "because haze makes optical useless half the year",
        "because haze makes optical unusable for half the year",
    ],
)
def test_optical_said_unusable_is_no_input(optical: str) -> None:
    query = _read(f"The land/water line from Sentinel-1 GRD (VV+VH) every 12 days, {optical}.")
    assert query.modality == ["SAR"]


@pytest.mark.parametrize(
    "said",
    [
        "Models built around 10 m Sentinel-2 patches seem a poor fit.",
        "Models designed around 10 m Sentinel-2 patches don't look like a good match.",
    ],
)
def test_models_said_to_fit_badly_are_background(said: str) -> None:
    query = _read(f"Eleven SEVIRI channels from visible to thermal infrared at 3 km. {said}")
    assert "Sentinel-2" not in query.sensor and "Thermal" in query.modality


@pytest.mark.parametrize(
    "said",
    [
        "the way RSP did for optical images with MillionAID",
        "in the spirit of what RSP did for optical imagery",
    ],
)
def test_what_a_named_model_did_for_other_imagery_is_background(said: str) -> None:
    query = _read(f"400k unlabelled Sentinel-1 chips; we want our own SAR-pretrained backbone, {said}.")
    assert query.modality == ["SAR"]


def test_imagery_a_model_might_also_take_is_optional() -> None:
    query = _read(
        "Flood extent from Sentinel-1 GRD within hours of landfall. If a model can also take Sentinel-2 "
        "on the rare occasions a clear scene exists, that's a bonus, not a requirement."
    )
    assert query.modality == ["SAR"] and query.sensor == ["Sentinel-1"]


def test_what_makes_a_target_stand_out_is_no_imagery_made_unusable() -> None:
    query = _read("Tailings dams from Sentinel-2, all 13 bands: SWIR is what makes tailings stand out.")
    assert "SWIR" in query.bands
