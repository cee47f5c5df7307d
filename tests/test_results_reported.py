"""A result the user reports ('our U-Net reached 0.62 mIoU') is what they run today: its score is no
floor and its architecture no wish; a score wished for ('a model that reaches 0.9 F1') still is.
A word of the sensor table that is also a common name ('Urban Atlas') names no sensor."""

import pytest

from agent.interpreter import interpret
from agent.query import StructuredQuery
from agent.reading import read


def _query(text: str) -> StructuredQuery:
    """The task as the offline engine reads it: role spans first, then the rules."""
    return interpret(read(text).required_text).query


@pytest.mark.parametrize(
    "text",
    [
        "Gap-filling NDVI with a CNN-LSTM before a rule-based detector gets event F1 around 0.84; we want "
        "more accurate mowing detection from Sentinel-1 and Sentinel-2 time series.",
        "Land cover of Senegal from Sentinel-2 on my laptop; a U-Net with a ResNet-34 reached 0.62 mIoU "
        "and mangroves are confused with forest.",
        "Crop mapping from Sentinel-2: our 1D-CNN plus U-Net reaches 87% overall accuracy but macro-F1 is "
        "only 0.35 because rare crops get swallowed.",
        "Drone images of pits; a Mask R-CNN with an ImageNet ResNet-50 backbone reaches an F1 near 0.8 "
        "on boxes, but misses the smallest targets.",
        "About 300 labelled drone frames; SegFormer-B5 from ImageNet reaches the high 60s mIoU but is weak "
        "on humans and static cars.",
        "Land cover from 0.12 m orthophotos: common classes already map very well with a CNN, but the plant "
        "communities blur into each other.",
        "Fire spread from MODIS sequences; our ConvLSTM baseline, reaching 94% overall accuracy, misses the "
        "onset.",
    ],
)
def test_a_result_reported_is_no_floor_and_no_architecture(text):
    query = _query(text)
    assert query.min_performance is None
    assert query.architectures == []
    assert query.backbones == []


def test_a_score_wished_for_is_a_floor():
    floor = _query("Crop mapping from Sentinel-2; we need a model that reaches 0.9 F1.").min_performance
    assert floor is not None and floor.metric == ["F1"]
    assert _query("Sentinel-2 crops, the model must reach 85% overall accuracy.").min_performance is not None


def test_an_allocation_is_no_result():
    # A number of hours is no score: the sentence stays the user's own.
    query = _query("Our group just got an allocation of roughly 2000 GPU hours for Sentinel-2 crop mapping.")
    assert query.own_work


def test_overall_is_not_over():
    query = _query(
        "Lithology from EnMAP: an SVM reaches about 91% overall accuracy and a 3D-CNN about 95%, and we "
        "need to beat both."
    )
    assert query.min_performance is None


@pytest.mark.parametrize(
    ("text", "lidar"),
    [
        ("Urban Atlas classes of Warsaw from TerraSAR-X and Sentinel-1.", False),
        ("Snow cover in the Moroccan Atlas from MODIS.", False),
        ("Shallow-water bathymetry from ATLAS photon returns over reefs.", True),
    ],
)
def test_atlas_is_a_lidar_only_as_written_for_the_instrument(text, lidar):
    assert ("ICESat-2" in _query(text).sensor) is lidar


def test_a_measure_after_a_score_verb_is_no_result():
    # ('we get 0.5 m imagery' says what the user's data is, not a score)
    query = _query("We get 0.5 m Pleiades imagery every month and need building footprints.")
    assert query.spatial_resolution_m == 0.5


def test_a_range_of_resolutions_after_a_score_verb_is_no_result():
    query = _query(
        "After an earthquake we get 0.3-0.5 m post-event satellite scenes and must flag collapsed buildings."
    )
    assert query.own_work and query.spatial_resolution_m is not None


def test_an_error_reported_with_its_unit_is_no_floor():
    query = _query(
        "We trained a U-Net on Sentinel-2 composites against GEDI footprints, reaching RMSE 7.5 m and MAE "
        "5.7 m - already better than the global canopy-height products. Which pretrained representations "
        "predict canopy height better?"
    )
    assert query.min_performance is None


@pytest.mark.parametrize(
    "text",
    [
        "Blight severity from 5-band drone images: on the public drone dataset a U-Net++ with an "
        "EfficientNet-B3 encoder scores very high, but I doubt it transfers. Which encoders for this?",
        "Solar plants from Sentinel-2 series: a CNN on the orthophotos works very well, F1 around 0.95, but "
        "flights are rare. Which time-series models?",
    ],
)
def test_a_result_said_in_words_is_what_the_user_runs(text):
    assert _query(text).architectures == []


def test_the_hardware_a_result_was_reached_on_is_the_users():
    query = _query(
        "Organic versus conventional fields from Sentinel-2 series: a TSViT trained from scratch on a 4xA100 "
        "node works for winter cereals (F1 above 0.8) but fails on grassland."
    )
    assert query.compute.device_class == "multi-gpu"


def test_architectures_that_work_but_fall_short_are_what_the_user_runs():
    query = _query(
        "Solar panels from 1 m RGB orthophotos: U-Net, FPN and PSPNet with EfficientNet-B5 and ResNet-50 "
        "encoders work, but small rooftop arrays are missed. Which backbones?"
    )
    assert query.architectures == [] and query.priorities == []
