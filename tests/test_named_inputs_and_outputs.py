"""Inputs and outputs named in the user's words: ancillary rasters fed beside imagery, and
continuous outputs said as fractions or cover."""

from __future__ import annotations

from agent.api import select_models
from agent.query import StructuredQuery


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
