"""LiDAR used as points ('per-point classes', 'on the point cloud itself') is no elevation raster:
a model of DEMs does not take it, while LiDAR the user rasterises still goes to one."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.interpreter import interpret
from agent.reading import read
from rsfmd.loader import load_records
from tools.filtering import modality_violation

RECORDS = {r.model_id: r for r in load_records()}


def _read(text: str):  # type: ignore[no-untyped-def]
    return interpret(read(text).required_text).query


@pytest.mark.parametrize(
    "text",
    [
        "Our corridor flights give airborne LiDAR at 20 pts/m2 and we need per-point classes: ground, "
        "wires, pylons, vegetation. Which pretrained model could we fine-tune?",
        "Is there a pretrained remote-sensing model that works on the LiDAR point cloud itself?",
        "We want tree species per tree directly from the ALS point clouds, not from rasterised canopy "
        "models.",
        "Our laser scans are point clouds, and rasterising them to a CHM would throw away the vertical "
        "structure. I want a model working directly on the 3D points.",
        # the wish after what most models take is the user's own
        "We have ALS point clouds of our forests. Most Earth-observation foundation models I come across "
        "take 2D image patches, and I'd rather work directly on the 3D points than rasterise everything.",
    ],
)
def test_lidar_worked_on_as_points_takes_no_elevation_model(text: str) -> None:
    query = _read(text)
    assert query.point_cloud and "LiDAR" in query.modality
    assert modality_violation(RECORDS["decur"], query) is not None  # RGB, SAR, multispectral, DEM
    assert modality_violation(RECORDS["mm-sam"], query) is None


@pytest.mark.parametrize(
    "text",
    [
        "We classify airborne LiDAR point clouds per point; ideally a model works directly on the points, "
        "but a raster route (nDSM, intensity) would be acceptable.",
        "We can rasterise the point cloud to a 10 cm canopy height model; which pretrained model works "
        "directly on that?",
        "Building masks from aerial RGB plus a rasterised nDSM from the national airborne LiDAR.",
    ],
)
def test_lidar_the_user_rasterises_still_goes_to_an_elevation_model(text: str) -> None:
    query = _read(text)
    assert not query.point_cloud
    assert modality_violation(RECORDS["decur"], query) is None


def test_an_answer_for_points_holds_no_model_of_elevation_rasters_alone() -> None:
    selection = select_models(
        "Our drone survey team produces classified LAS files, ground vs non-ground only. Clients want "
        "buildings, power lines and vegetation as separate point classes; we labelled 40 tiles and have "
        "one RTX 4090. Is there a pretrained model that works on the point cloud itself?",
        k=3,
        clarify=False,
    )
    assert selection.models
    assert all("LiDAR" in RECORDS[m.model_id].modalities for m in selection.models)
    assert any("LiDAR used as points" in n for n in selection.assumptions)


def test_scans_of_a_spinning_lidar_are_points_and_a_lidar_model_asked_for_takes_them() -> None:
    query = _read(
        "Our UAV carries an RGB camera, a thermal camera and a spinning LiDAR, and everything runs on the "
        "on-board Jetson. I have some annotated scans from test flights. Is there any pretrained "
        "remote-sensing model that handles thermal and LiDAR?"
    )
    assert query.point_cloud and {"Thermal", "LiDAR"} <= set(query.model_kinds)
    # DeCUR takes the RGB, but it is no thermal or LiDAR model: its DEM branch takes no points
    assert modality_violation(RECORDS["decur"], query) is not None
    assert modality_violation(RECORDS["mm-sam"], query) is None
