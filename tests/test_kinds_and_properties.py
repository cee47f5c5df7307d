"""Reading the kind of model asked for, sizes given as a standard backbone, counts of labels to be
drawn, and words that name a property of the place or the image rather than data; and ranking a
model far over the device's budget after one that runs there."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.catalogue_questions import size_question
from agent.interpreter import interpret
from agent.reading import read
from rsfmd.loader import load_records
from tools.fit import imagery_fit

RECORDS = {r.model_id: r for r in load_records()}


def _read(text: str):  # type: ignore[no-untyped-def]
    return interpret(read(text).required_text).query


@pytest.mark.parametrize(
    "asked",
    [
        "What's the strongest SAR-capable model to try?",
        "Which pretrained SAR-aware backbone makes sense with so few labels?",
        "Storm clouds hide most events, so the model has to work on SAR alone.",
        "Is there a pretrained backbone for SAR that fits?",
    ],
)
def test_a_model_asked_for_by_the_kind_it_must_handle_must_take_it(asked: str) -> None:
    text = f"We map floods from Sentinel-1 VV/VH chips, with Sentinel-2 when the sky is clear. {asked}"
    query = _read(text)
    assert set(query.modality) >= {"SAR", "Multispectral"}
    assert query.model_kinds == ["SAR"]


def test_a_kind_named_as_the_only_input_names_the_model_asked_for() -> None:
    query = _read("Estimate tree height from RGB alone; Sentinel-2 only gives context.")
    assert query.model_kinds == ["RGB"]


@pytest.mark.parametrize(
    "said",
    [
        "anything much bigger than ViT-Base is ruled out",
        "anything larger than ViT-B won't fit",
        "anything much beyond ViT-Base size is out",
    ],
)
def test_anything_bigger_than_a_standard_backbone_is_a_size_limit(said: str) -> None:
    query = _read(f"Avalanche debris from Sentinel-1 on one RTX 3060 with 150 outlines; {said}.")
    assert query.compute.max_parameters_m == pytest.approx(95.0)


def test_labels_still_to_be_drawn_count_as_labels() -> None:
    # 'out of the box' is said of a detector the user tried; the labels are theirs to draw
    query = _read(
        "Out of the box, the ArcGIS tree detector drew tiny boxes on our 5 cm drone orthomosaic. "
        "Labelling a few hundred crowns by hand is doable, and training would be on a 12 GB RTX 4070."
    )
    assert query.data_regime == "few-shot"


@pytest.mark.parametrize("resolution", ["25 cm per pixel", "a few centimetres per pixel", "10 m per pixel"])
def test_a_ground_size_per_pixel_is_the_resolution_not_a_per_pixel_output(resolution: str) -> None:
    query = _read(f"We fly a quadcopter and get plain RGB orthomosaics at {resolution}.")
    assert query.task_type is None
    assert _read(f"RGB orthomosaics at {resolution}; we need per-pixel masks of gullies.").task_type == (
        "segmentation"
    )


@pytest.mark.parametrize(
    "place", ["errors in tall and high-elevation forests are what auditors flag", "forests at high elevation"]
)
def test_elevation_as_a_property_of_the_place_is_no_elevation_data(place: str) -> None:
    query = _read(f"Canopy height from 0.5 m Maxar RGB; {place}.")
    assert "DEM" not in query.modality
    assert "DEM" in _read("Canopy height from 0.5 m Maxar RGB plus elevation.").modality


def test_data_kept_for_calibration_and_testing_is_no_input() -> None:
    query = _read(
        "We need metre-scale canopy height from 0.5 m satellite RGB (Maxar and Pleiades). We have "
        "airborne-LiDAR canopy height models from about 40 sites for calibration and testing."
    )
    assert "LiDAR" not in query.modality and query.modality == ["RGB"]


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("What are the biggest public RS vision models for VHR RGB?", "largest"),
        ("I'd like the largest openly released remote-sensing backbone.", "largest"),
        ("Which is the smallest public SAR model?", "smallest"),
    ],
)
def test_a_size_superlative_with_words_of_availability_is_a_size_question(text: str, end: str) -> None:
    assert size_question(text) == end


def test_a_model_far_over_the_devices_budget_comes_after_one_that_runs_there() -> None:
    text = (
        "We count deer at night from a drone with a 640x512 thermal camera and a zoomable RGB camera. "
        "Detection must run live on a Jetson Orin NX, and we have about 2,000 annotated thermal frames. "
        "Is there any pretrained model for aerial thermal imagery small enough for this?"
    )
    result = select_models(text, k=3, clarify=False)
    assert result.models
    for model in result.models:
        assert "Thermal" in RECORDS[model.model_id].modalities
        size = RECORDS[model.model_id].smallest_parameters
        assert size is not None and size <= 4 * 50, model.model_id


def test_kinds_joined_after_the_one_that_names_the_model_name_it_too() -> None:
    query = _read(
        "Urban land cover over Houston from multispectral LiDAR rasters, 48-band hyperspectral and 5 cm RGB. "
        "Which pretrained models can actually ingest the LiDAR and/or the hyperspectral layers, rather "
        "than only the RGB?"
    )
    assert sorted(query.model_kinds) == ["Hyperspectral", "LiDAR"]


def test_text_answers_about_a_change_need_pairs_but_other_questions_with_pairs_do_not() -> None:
    damage = _read(
        "After each hurricane we get post-event satellite tiles at 0.3-0.5 m and no labels. I need an open "
        "vision-language model that names the disaster type, rates building damage and explains what it "
        "sees, zero-shot, ideally with pre/post image pairs."
    )
    assert not damage.series_model
    change = _read(
        "We have bi-temporal 0.5 m image pairs and want a vision-language model that writes change "
        "captions, sentences describing what changed between the two dates."
    )
    assert change.series_model


@pytest.mark.parametrize(
    "text",
    [
        "I want to fuse Sentinel-1 VV/VH and Sentinel-2 time series in one model for crop mapping.",
        "Which pretrained radar-optical encoder should I fine-tune for crop maps on Sentinel-1 and -2?",
        "We need a SAR-optical foundation model for Sentinel-1 and Sentinel-2 crop maps.",
    ],
)
def test_radar_and_optical_fused_in_one_model_need_a_model_taking_both(text: str) -> None:
    assert _read(text).all_inputs


def test_the_main_input_is_the_kind_of_model_asked_for_when_none_is_named() -> None:
    query = _read(
        "Clear-cuts in the Amazon: my primary input is Sentinel-1 VV/VH time series (10 m), with Sentinel-2 "
        "filling in only when skies are clear. About 1,500 labelled change polygons."
    )
    assert query.model_kinds == ["SAR"]
    # (a kind of model named keeps the model to it: the main input does not widen it)
    named = _read(
        "My main input is Sentinel-3 SLSTR thermal channels. Which thermal-capable models should I try?"
    )
    assert named.model_kinds == ["Thermal"]


def test_a_satellite_that_names_the_model_is_what_its_fit_is_judged_on() -> None:
    query = interpret(
        read(
            "Mangrove maps every five years from 1990: Landsat 5 TM and Landsat 7 before 2013, later "
            "Landsat 8 and Sentinel-2. Are there models pretrained on Landsat data, including the older TM "
            "sensor, that I could fine-tune?"
        ).required_text
    ).query
    assert "Sentinel-2" in query.sensor and "Sentinel-2" not in query.model_sensors
    assert "Landsat-4/5" in query.model_sensors
    records = {r.model_id: r for r in load_records()}
    landsat, _ = imagery_fit(records["ssl4eo-l"], query)
    sentinel, _ = imagery_fit(records["ssl4eo-s12"], query)
    assert landsat > sentinel
