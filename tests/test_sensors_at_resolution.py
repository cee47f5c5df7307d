"""A sensor a hundred times coarser than the pixels the user states is not their imagery; gridded
reanalysis fused with imagery is."""

import pytest

from agent.interpreter import interpret
from agent.reading import read


def _sensors(text: str) -> list[str]:
    return interpret(read(text).required_text).query.sensor


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        (
            "VIIRS Nightfire hands us hot-spot detections; we cut a daytime RGB chip (about 0.5 m) around "
            "each one and sort them into gas flare, refinery or biomass fire, from class names alone.",
            "VIIRS",
        ),
        (
            "National land-cover segmentation of 4-band 50 cm satellite orthoimagery, data in S3 and "
            "training on EC2.",
            "Sentinel-3",
        ),
        (
            "Weed maps from 1 cm drone multispectral orthomosaics; satellite models expect Sentinel-2 "
            "band sets at 10 m.",
            "Sentinel-2",
        ),
    ],
)
def test_a_sensor_far_coarser_than_the_stated_pixels_is_not_the_users(text, gone):
    assert gone not in _sensors(text)


def test_sensors_near_the_stated_pixels_and_reanalysis_stay():
    assert "Sentinel-2" in _sensors("Crop types from 10 m Sentinel-2 time series.")
    assert "ERA5" in _sensors("Yield from 10 m Sentinel-2 composites plus ERA5 weather.")


def test_a_mission_named_without_its_satellite_names_the_kinds_of_its_imagery():
    query = interpret(
        read(
            "Flag land-cover change in settlements on office laptops; which Sentinel-based models or "
            "ready-made embedding products would you use?"
        ).required_text
    ).query
    assert set(query.modality) == {"SAR", "Multispectral"}
    # (a satellite named beside it says which; 'Sentinel Hub' is a service)
    assert (
        "SAR" not in interpret("Crop types from Sentinel-2 series; Sentinel Hub serves them.").query.modality
    )
