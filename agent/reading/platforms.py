"""Platforms that carry a camera of another kind: a drone or an aircraft named with thermal,
hyperspectral, LiDAR or SAR data is the platform, not RGB imagery ('a Headwall hyperspectral camera
on a drone', 'thermal frames from a drone')."""

from __future__ import annotations

import re

from agent.reading.terms import TermSpan, find_terms
from rsfmd.vocab import airborne, get_vocabulary, sensor_modality

# A platform carrying a camera: 'on a drone', 'drone-borne', 'mounted on the aircraft'.
_CARRIED = re.compile(
    r"\b(?:on|onboard|aboard|mounted\s+on|flown\s+on|carried\s+by)\s+(?:an?\s+|the\s+|our\s+)?$"
)
_OTHER_KINDS = frozenset({"Hyperspectral", "Thermal", "LiDAR", "Multispectral", "SAR"})
# Cameras an aircraft or drone carries instead of a colour one.
_CAMERA_KINDS = frozenset({"Hyperspectral", "Thermal"})
_IMAGERY_AFTER = re.compile(
    r"[\s-]*(?:imagery|images?|frames?|photos?|orthophotos?|data|footage|videos?|mosaics?)\b"
)
_KIND_BEFORE = re.compile(r"(?:hyperspectral|thermal|lidar|multispectral)[\s-]+$")
# 'UAV laser scans', 'drone-borne LiDAR': the platform named before the kind it carries.
_KIND_AFTER = re.compile(r"(?:-borne)?[\s-]+(?:hyperspectral|thermal|lidar|multispectral|laser\s+scan)")
# Words of pictures: a task without any says no imagery of its own ('our drone team produces LAS
# files'), so a platform there carries the other kind of data named with it.
_PICTURE_WORDS = re.compile(
    r"\b(?:rgb|imagery|images?|photos?|photographs?|orthophotos?|orthomosaics?|mosaics?|frames?|"
    r"videos?|footage|cameras?|optical|true[\s-]colou?r)\b"
)


def _platform_carries_other(lowered: str, sensor: str, sensor_terms: list[TermSpan]) -> bool:
    """Whether every mention of a platform (a drone, an aircraft) carries a camera of another kind
    named in its sentence ('a Headwall hyperspectral camera on a drone', 'thermal drone')."""
    if not airborne(sensor):
        return False
    spans = [(a, b) for s, a, b in sensor_terms if s == sensor]
    if not spans:
        return False
    pictured = bool(_PICTURE_WORDS.search(lowered))
    for a, b in spans:
        start = max(lowered.rfind(".", 0, a), lowered.rfind(";", 0, a)) + 1
        end = min(p for p in (lowered.find(".", b), lowered.find(";", b), len(lowered)) if p >= 0)
        named = {m for m, _, _ in find_terms(lowered[start:end], "modalities")}
        kinds = named | {
            k for s, x, y in sensor_terms if start <= x and y <= end and (k := sensor_modality(s)) != "RGB"
        }
        # 'on a drone' names the platform; 'on drone imagery' the imagery.
        right_before = _CARRIED.search(lowered, max(0, a - 30), a) and not _IMAGERY_AFTER.match(lowered, b)
        adjacent = _KIND_BEFORE.search(lowered, max(0, a - 20), a) or _KIND_AFTER.match(lowered, b)
        # ('Sentinel-2 and NAIP': a satellite's kind beside an aerial product is not carried by it)
        unpictured = named & _OTHER_KINDS and not pictured
        if not (kinds & _OTHER_KINDS and (right_before or adjacent or unpictured)):
            return False
    return True


def airborne_sensors(modalities: list[str]) -> list[str]:
    """The generic airborne sensors ('Airborne LiDAR') of the kinds of data in ``modalities``."""
    vocab = get_vocabulary("sensors")
    return [
        name
        for name in vocab.names
        if name.startswith("Airborne")
        and vocab.column(name, "platform") == "aerial"
        and vocab.column(name, "modality") in set(modalities) & _OTHER_KINDS
    ]


def carried_platforms(
    lowered: str, sensors: list[str], sensor_terms: list[TermSpan], modalities: list[str]
) -> set[str]:
    """The drones and aircraft among ``sensors`` that carry a camera of another kind than RGB, so
    imply no RGB imagery; ``modalities``: the kinds of imagery named in the task."""
    carried = {
        s
        for s in sensors
        if sensor_modality(s) == "RGB" and _platform_carries_other(lowered, s, sensor_terms)
    }
    if set(modalities) & _CAMERA_KINDS and "RGB" not in modalities and all(airborne(s) for s in sensors):
        # 'thermal frames from a drone', no colour imagery named: the platform carries that camera.
        carried |= {s for s in sensors if sensor_modality(s) == "RGB"}
    return carried
