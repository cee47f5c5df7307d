"""The platform the user's imagery comes from: a drone carrying a thermal camera gives thermal frames,
not colour ones; a model pretrained on satellite thermal bands does not take them as a model
documented for airborne imagery does; a model asked for by what it was trained on."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.interpreter import interpret
from agent.query import StructuredQuery
from rsfmd.loader import load_records
from rsfmd.vocab import airborne
from tests.records import make_record
from tools.filtering import violations
from tools.ranking import flown_apart, takes_rare
from tools.variants import sensors_taking


def _query(text: str) -> StructuredQuery:
    return select_models(text, k=3, clarify=False).query


def test_sensors_know_their_platform() -> None:
    assert airborne("UAV") is True
    assert airborne("Airborne hyperspectral") is True
    assert airborne("Landsat-8") is False
    assert airborne("ERA5") is None


@pytest.mark.parametrize(
    "text",
    [
        "We detect people in thermal frames shot from a small drone, 640x512, on a laptop CPU.",
        "Our team flies a DJI drone over meadows at dawn and wants to spot fawns in the 640x512 thermal "
        "frames; about 300 annotated frames, one RTX 4060.",
    ],
)
def test_a_drone_with_a_thermal_camera_gives_thermal_imagery(text: str) -> None:
    selection = select_models(text, k=3, clarify=False)
    assert selection.query.modality == ["Thermal"]
    assert any("platform carrying the sensor" in note for note in selection.assumptions)


@pytest.mark.parametrize(
    "text",
    [
        "We fly a drone with a thermal camera plus an RGB camera over a game reserve to count elephants.",
        "Drone surveys with a colour camera: we segment roofs in 5 cm orthomosaics.",
        "Landsat 8 thermal bands and 10 cm aerial orthophotos for an urban heat study.",
    ],
)
def test_colour_imagery_named_or_a_satellite_beside_keeps_rgb(text: str) -> None:
    assert "RGB" in _query(text).modality


@pytest.mark.parametrize(
    "text",
    [
        "Is there any foundation model pretrained on thermal imagery that is small enough for a Jetson "
        "on our drone?",
        "Is there any pretrained model that has actually seen thermal infrared, for water segmentation "
        "from a drone?",
    ],
)
def test_a_model_asked_for_by_what_it_was_trained_on(text: str) -> None:
    assert "Thermal" in _query(text).model_kinds


def test_a_model_trained_on_other_data_is_no_model_kind() -> None:
    text = "Our model was trained on thermal imagery from last season; we now have Sentinel-2 for crops."
    assert "Thermal" not in _query(text).model_kinds


def test_satellite_thermal_is_flown_apart_from_drone_frames() -> None:
    records = {r.model_id: r for r in load_records()}
    query = _query("We segment water in 640x512 thermal frames from a drone at night, one RTX 3090.")
    assert flown_apart(records["ssl4eo-l"], query)
    assert not flown_apart(records["mm-sam"], query)
    landsat = _query("We map urban heat from Landsat 8 thermal bands, one RTX 3090.")
    assert not flown_apart(records["ssl4eo-l"], landsat)


def test_for_drone_thermal_a_model_for_airborne_imagery_comes_before_satellite_thermal() -> None:
    selection = select_models(
        "Our fawn-rescue group flies a drone with a thermal camera over meadows and wants to spot roe-deer "
        "fawns in the 640x512 thermal frames. We have about 300 annotated frames and one RTX 4060.",
        k=3,
        clarify=False,
    )
    ids = [m.model_id for m in selection.models]
    assert ids[0] == "mm-sam"


def test_satellite_thermal_does_not_lift_a_model_above_those_for_the_colour_frames() -> None:
    selection = select_models(
        "We detect people in thermal frames and RGB frames shot from a small drone; anything much above "
        "30M parameters is too slow on my laptop CPU.",
        k=3,
        clarify=False,
    )
    satellite_thermal = {"ssl4eo-l", "olmoearth", "thor"}
    assert not satellite_thermal & {m.model_id for m in selection.models}


def test_a_model_for_very_high_resolution_satellite_rgb_passes_for_aerial_orthophotos() -> None:
    records = {r.model_id: r for r in load_records()}
    query = _query("Land cover segmentation of 20 cm aerial orthophotos, about 200 labelled tiles, one GPU.")
    assert "Aerial" in query.sensor
    assert "sensor" not in violations(records["satdino"], query)  # documented for WorldView


@pytest.mark.parametrize(
    ("text", "modalities", "either"),
    [
        (
            "We digitise small rivers and canals from 0.5 m satellite imagery in the Mekong delta and need a "
            "connected network.",
            ["RGB", "Multispectral"],
            True,
        ),
        (
            "Given a handful of known pits, flag every other gold-mining site in 10 m imagery.",
            ["Multispectral"],
            False,
        ),
    ],
)
def test_imagery_named_by_its_resolution_alone_is_optical(
    text: str, modalities: list[str], either: bool
) -> None:
    selection = select_models(text, k=3, clarify=False)
    assert (selection.query.modality, selection.query.either_modality) == (modalities, either)
    assert any("with no kind named" in note for note in selection.assumptions)


def test_a_named_kind_is_kept_whatever_the_resolution() -> None:
    assert _query("Ship detection in 0.5 m SAR imagery, one GPU.").modality == ["SAR"]


def test_the_imagery_a_task_is_done_on_is_the_one_a_model_must_take() -> None:
    boats = interpret(
        "Our quadcopters carry a paired RGB and LWIR camera; we need to segment boats in the thermal frames "
        "during night patrols. Training on one RTX 4070."
    )
    assert boats.query.modality == ["Thermal"]
    assert any("task is done on the Thermal imagery" in n for n in boats.notes)
    # Two kinds named as the task's imagery: both stay.
    both = interpret("We count people in the thermal frames and in the RGB frames shot from a small drone.")
    assert {"Thermal", "RGB"} <= set(both.query.modality)


def test_a_checkpoint_stating_its_own_inputs_decides_where_the_model_takes_them_from() -> None:
    # SatlasPretrain's Landsat checkpoint takes bands B1-B11, thermal included; its aerial one
    # takes RGB. It is a thermal model for Landsat, not for drone frames.
    satlas = next(r for r in load_records() if r.model_id == "satlaspretrain")
    assert "Thermal" in satlas.modalities
    assert set(sensors_taking(satlas, {"Thermal"})) == {"Landsat-8", "Landsat-9"}
    assert "Aerial" in sensors_taking(satlas, {"RGB"})
    plain = make_record("plain", modalities=["RGB"], supported_sensors=["Aerial", "Sentinel-2"])
    assert sensors_taking(plain, {"RGB"}) == ["Aerial", "Sentinel-2"]
    drone = StructuredQuery(modality=["RGB", "Thermal"], sensor=["UAV"])
    assert not takes_rare(satlas, drone, frozenset({"Thermal"}))
    with pytest.raises(ValueError, match="add it to the model's modalities"):
        make_record("x", modalities=["RGB"], variants=[{"name": "x-tir", "modalities": ["Thermal"]}])


def test_a_model_taking_thermal_only_from_landsat_is_no_strict_fit_for_drone_thermal_frames() -> None:
    records = {r.model_id: r for r in load_records()}
    drone = StructuredQuery(modality=["Thermal"], sensor=["UAV"])
    landsat = StructuredQuery(modality=["Thermal"], sensor=["Landsat-8"])
    assert "sensor" in violations(records["satlaspretrain"], drone)
    assert not violations(records["satlaspretrain"], landsat)
