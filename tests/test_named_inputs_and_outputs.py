"""Inputs and outputs named in the user's words: ancillary rasters fed beside imagery, and
continuous outputs said as fractions or cover."""

from __future__ import annotations

from agent.api import select_models
from agent.query import StructuredQuery
from rsfmd.loader import load_records
from tools.filtering import imagery_violation, modality_violation


def _query(text: str) -> StructuredQuery:
    return select_models(text, k=3, clarify=False).query


def test_bathymetry_and_sea_surface_temperature_are_inputs_of_their_kinds() -> None:
    query = _query(
        "I estimate kelp canopy fraction from Sentinel-2 along a rocky coast and want to add a "
        "bathymetry raster and sea-surface temperature as extra channels. I have 200 field plots."
    )
    assert {"Multispectral", "DEM", "Climate"} <= set(query.modality)


def test_a_fraction_said_to_be_continuous_is_regression() -> None:
    query = _query(
        "From PlanetScope tiles I need percent cover of invasive shrubs per 3 m pixel, a continuous "
        "value, not classes. About 400 labelled plots, one GPU."
    )
    assert query.task_type == "regression"


def test_classes_written_as_prompts_ask_for_zero_shot_scene_classification() -> None:
    query = _query(
        "I have 3,000 aerial chips at 1 m and no labels, and want to sort them into about ten scene classes "
        "such as 'marina', 'quarry' and 'vineyard' by writing the class names as prompts. CPU only."
    )
    assert "Text" in query.modality
    assert query.task_type == "zero-shot classification"


def test_a_class_list_ends_at_its_last_item() -> None:
    from agent.reading import class_list_spans

    text = (
        "Sort the tiles into classes such as marina, quarry and vineyard by writing their names as prompts."
    )
    (span,) = class_list_spans(text)
    assert text[span.start : span.end] == "marina, quarry and vineyard"


def test_a_list_ending_in_and_so_on_keeps_its_last_items() -> None:
    from agent.reading import class_list_spans

    text = "We need a map of 20 urban classes: sidewalks, crosswalks, parking, cars, trees and so on."
    (span,) = class_list_spans(text)
    assert text[span.start : span.end].endswith("trees and so on")


def test_field_reports_still_to_come_are_not_text_the_model_reads() -> None:
    query = _query(
        "I need to find new landslides in Sentinel-2 pre- and post-event pairs; there are no masks "
        "and field reports will take months. One 12 GB GPU."
    )
    assert "Text" not in query.modality


def test_feature_differences_to_threshold_are_unlabelled_use_of_an_encoder() -> None:
    query = _query(
        "With no labels at all, which pretrained Sentinel-2 encoder gives feature differences I can "
        "threshold or cluster to find new clear-cuts between two dates?"
    )
    assert query.data_regime == "unlabeled"


def test_one_model_for_two_sensors_of_one_kind_must_be_documented_for_both() -> None:
    from rsfmd.loader import load_records
    from tools.filtering import all_inputs_violation

    query = _query(
        "Is there a pretrained model that takes the VIIRS night lights together with Sentinel-2 "
        "imagery, to map where activity is at 10 m? One 12 GB GPU, a few dozen survey points."
    )
    assert query.all_inputs and {"VIIRS", "Sentinel-2"} <= set(query.sensor)
    records = {r.model_id: r for r in load_records()}
    assert all_inputs_violation(records["galileo"], query) is None  # VIIRS and Sentinel-2
    assert "VIIRS" in (all_inputs_violation(records["ssl4eo-s12"], query) or "")
    # one sensor named: nothing more to require
    single = query.model_copy(update={"sensor": ["Sentinel-2"]})
    assert all_inputs_violation(records["ssl4eo-s12"], single) is None


def test_a_nearest_neighbour_query_over_embeddings_is_unlabelled_use() -> None:
    query = _query(
        "I have one confirmed example site and no labelled dataset; I want Sentinel-2 embeddings where "
        "'looks like this site' becomes a nearest-neighbour query over 20,000 km2."
    )
    assert query.data_regime == "unlabeled"


def test_a_task_said_in_a_phrase_read_for_want_of_its_own_application_is_the_task() -> None:
    query = _query(
        "I detect individual trees in 3 cm drone orthomosaics and want four species groups. About 400 "
        "annotated crowns, laptop CPU only."
    )
    assert (query.application, query.task_type) == ("forest mapping", "detection")


def test_sensor_families_join_imaging_spectrometers_and_aerial_surveys() -> None:
    from rsfmd.vocab import sensor_family

    # airborne scenes (Indian Pines, Pavia) are where spaceborne-pretrained hyperspectral models report
    assert {"EnMAP", "Hyperion", "Gaofen-5"} <= sensor_family("AVIRIS")
    assert "DESIS" not in sensor_family("AVIRIS")  # stops at 1000 nm
    # LiDAR surface models are flown with the orthophotos
    assert "Aerial" in sensor_family("Airborne LiDAR")
    assert "Sentinel-1" not in sensor_family("Airborne LiDAR")
    # sub-metre satellites
    assert {"WorldView-3", "Aerial"} <= sensor_family("SkySat")


def test_a_speed_is_no_resolution() -> None:
    query = _query(
        "We fly a fixed-wing UAV at about 120 km/h and detect dolphins in 1080p frames on a Jetson "
        "Xavier; the detector must stay under 50M parameters."
    )
    assert query.spatial_resolution_m is None


def test_bands_beyond_rgb_asked_for_rule_out_a_model_of_rgb_alone() -> None:
    query = _query(
        "Our WorldView-3 scenes come as 4-band blue, green, red and NIR, plus the panchromatic band. "
        "Which backbone really uses the NIR band, not just RGB, for segmenting braided river channels?"
    )
    assert "RGB" in query.exclusions.modalities
    assert query.modality == ["Multispectral"]


def test_a_dem_model_takes_lidar_heights_and_a_lidar_model_no_terrain_model() -> None:
    records = {r.model_id: r for r in load_records()}
    terrain = _query(
        "Classify landforms from a national 30 m DEM with an encoder that takes elevation; one GPU."
    )
    assert terrain.modality == ["DEM"]
    assert imagery_violation(records["mm-sam"], terrain) is not None  # documented for LiDAR
    assert modality_violation(records["decur"], terrain) is None
    assert imagery_violation(records["decur"], terrain) is None
    lidar = _query("Segment tree crowns from our airborne LiDAR canopy height rasters; one GPU.")
    assert "LiDAR" in lidar.modality
    assert imagery_violation(records["decur"], lidar) is None  # a DEM model takes the rasterised heights


def test_lidar_named_as_the_source_of_an_elevation_model_is_no_input_of_its_own() -> None:
    derived = _query(
        "Wetlands in 25 cm aerial orthophotos (RGB + NIR); I want the model to see a LiDAR-derived "
        "DEM as extra channels. Is there a pretrained model that ingests optical plus elevation?"
    )
    assert "DEM" in derived.modality and "LiDAR" not in derived.modality
    both = _query("Buildings from airborne LiDAR point clouds and a DEM of the valley.")
    assert {"LiDAR", "DEM"} <= set(both.modality)


def test_what_is_typed_is_text_given_to_the_model() -> None:
    for text in (
        "We want to pull out solar farms from 30 cm orthophotos just by typing what we are looking for.",
        "Which text-promptable detection models for aerial imagery would you suggest?",
    ):
        assert "Text" in _query(text).modality, text


def test_the_imagery_of_a_benchmark_trained_on_is_the_users() -> None:
    query = _query("I'm training oriented object detection on DOTA-v1.5 and I'm stuck at 71 mAP.")
    assert query.modality == ["RGB"]
