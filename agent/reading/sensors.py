"""Which sensors are the task's input, and what it rules out: a sensor named as the labels' source
('labels from WorldView-3', 'GEDI labels') or a platform carrying another payload ('drone LiDAR') is
no input; 'no SAR', 'except Europe' are exclusions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from agent.mentions import NOT
from agent.query import Exclusions
from agent.reading.platforms import carried_platforms
from agent.reading.slips import find_terms_fuzzy
from agent.reading.tables import model_noun_after, person_noun_after, table_rows
from agent.reading.terms import TermSpan, find_terms
from rsfmd.vocab import get_vocabulary, sensor_gsd_m, sensor_modality

_EXCLUDE = re.compile(
    # ('why not Sentinel-2?' asks about it; it does not rule it out)
    rf"(?:\bno\b|\bwithout\b|{NOT}\b|\bexclude\b|\bexcluding\b|\bexcept\b|\bavoid\b|"
    r"(?:don'?t|do not|doesn'?t|does not) (?:have|want|need|use)|other than|rather than|instead of)\s+"
    # ('not from the optical data': what the task is not to be read from)
    r"(?:(?:from|using|via)\s+)?((?:any\s+)?[a-z0-9][a-z0-9\s\-+/]{0,24})"
)


_NOT_JUST = re.compile(r"not\s+(?:just|only|merely|simply|solely)\b")
# ('no change captions of my own': captions and question-answer pairs are the labels of text tasks)
_LABELS = re.compile(
    r"\b(?:labels?|labell?ed|annotations?|ground truth|captions?|"
    r"question[\s-]answer pairs|q\s?&\s?a pairs|qa pairs)\b"
)
# Words that end what a negation rules out: 'except Europe with Sentinel-1' excludes Europe only.
_EXCLUSION_END = re.compile(
    r"\b(?:with|using|via|from|for|in|on|at|to|but|that|which|because|since)\b|\s[-–—](?=\s)"
)


# What comes between a negation and what it rules out: 'not trained on Chinese data', "don't want
# optical models", 'not interested in SAR', "I'm not looking for captioning models".
_RULED_OUT_LEAD = re.compile(
    r"^(?:(?:(?:pre)?trained|tuned|built|made|developed|based)\s+(?:on|in|with)|want|need|care\s+about|"
    r"(?:interested|keen)\s+in|(?:looking|searching|asking)\s+for|after)\s+"
)


def _ruled_out(match: re.Match[str]) -> tuple[int, str]:
    """Where what a negation rules out starts, and its words."""
    lead = _RULED_OUT_LEAD.match(match.group(1))
    start = match.start(1) + (lead.end() if lead else 0)
    fragment = match.group(1)[lead.end() if lead else 0 :]
    return start, _EXCLUSION_END.split(fragment, maxsplit=1)[0]


def ruled_out_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` rules something out ('no VHR or SAR', 'without elevation'): the words after
    the negation up to the end of what it covers."""
    out = []
    for match in _EXCLUDE.finditer(text):
        start, fragment = _ruled_out(match)
        out.append((start, start + len(fragment)))
    return out


def read_exclusions(text: str) -> Exclusions:
    """The modalities, sensors and regions the task rules out ("no SAR", "anywhere except Europe")."""
    modalities: list[str] = []
    sensors: list[str] = []
    regions: list[str] = []
    # ('no SAR analyst to make any'): a kind of imagery said of people is no data ruled out
    people = person_noun_after()
    for match in _EXCLUDE.finditer(text):
        _, fragment = _ruled_out(match)
        if _LABELS.search(fragment):
            continue  # "we don't have time-series labels": a statement about labels, not the data
        if _NOT_JUST.match(text, match.start()):
            # 'all the bands, not just RGB' rules out models taking RGB alone; 'not just RGB+NIR'
            # asks for more than four bands, which no kind of imagery says: nothing is ruled out.
            if _rgb_alone(fragment):
                modalities.append("RGB")
            continue
        for canonical, _, _ in find_terms(fragment, "sensors"):
            sensors.append(canonical)
        for canonical, _, end in find_terms(fragment, "modalities"):
            if not people.match(fragment, end):
                modalities.append(canonical)
        for canonical, _, _ in find_terms(fragment, "regions"):
            regions.append(canonical)
        if (sar := re.match(r"(?:(?:any|the|an?)\s+)?(?:sar|radar)\b", fragment)) and not people.match(
            fragment, sar.end()
        ):
            modalities.append("SAR")
        if re.match(r"(?:(?:any|the|an?)\s+)?optical\b", fragment):
            modalities.extend(["RGB", "Multispectral", "Hyperspectral"])
    return Exclusions(
        modalities=list(dict.fromkeys(modalities)),
        sensors=list(dict.fromkeys(sensors)),
        regions=list(dict.fromkeys(regions)),
    )


def keep_own_data(
    exclusions: Exclusions,
    lowered: str,
    sensor_terms: Sequence[TermSpan],
    ruled: Sequence[tuple[int, int]],
    rgb_alone: bool = False,
) -> Exclusions:
    """``exclusions`` without a kind of imagery ruled out only as a kind of model when a sensor of
    that kind is the task's own data: 'we have Sentinel-1 vignettes; the ViT-Base SAR models would
    be too slow' rules out a size of model, not the user's SAR ('Sentinel-1 but no SAR' still
    rules out SAR). A drone carrying another camera is no RGB of the user's, and RGB ruled out as
    the only input (``rgb_alone``) stays ruled out. ``ruled``: the ``ruled_out_spans`` of ``lowered``."""
    carried = carried_platforms(lowered, [name for name, _, _ in sensor_terms], list(sensor_terms), [])
    own = {
        sensor_modality(name)
        for name, start, end in sensor_terms
        if not any(s <= start and end <= e for s, e in ruled) and name not in carried
    }
    if rgb_alone:
        own.discard("RGB")
    said = [
        (name, s + end)
        for s, e in ruled
        for name, _, end in find_terms(lowered[s:e], "modalities")
        if name in own
    ]
    models_only = {
        m
        for m in own
        if any(n == m for n, _ in said)
        and all(model_noun_after().match(lowered, end) for n, end in said if n == m)
    }
    kept = [m for m in exclusions.modalities if m not in models_only]
    return exclusions if kept == exclusions.modalities else exclusions.model_copy(update={"modalities": kept})


# 'an RGB-only backbone', 'models taking only RGB', 'RGB alone'.
_RGB_ONLY = re.compile(r"\brgb[\s-]only\b|\bonly\s+(?:\w+\s+)?rgb\b|\brgb\s+alone\b")


def rules_out_rgb_alone(text: str) -> bool:
    """Whether the task rules out models taking RGB alone ('uses the NIR band, not just RGB', 'no
    RGB-only backbone'): said of imagery that has the RGB bands, so naming them as the user's own
    does not undo it."""
    for match in _EXCLUDE.finditer(text):
        fragment = _ruled_out(match)[1]
        if (_NOT_JUST.match(text, match.start()) or _RGB_ONLY.search(fragment)) and _rgb_alone(fragment):
            return True
    return False


def _rgb_alone(fragment: str) -> bool:
    """Whether what 'not just' rules out is RGB and nothing else ('not just RGB', not 'RGB+NIR')."""
    return [m for m, _, _ in find_terms(fragment, "modalities")] == ["RGB"]


def keep_named_elsewhere(
    exclusions: Exclusions, unruled: str, bands: Sequence[str], rgb_alone: bool = False
) -> Exclusions:
    """``exclusions`` without a kind of imagery or a sensor the task also names as its own, outside
    what it rules out: 'I want the TIRS bands ... some scenes came as products without thermal
    bands' keeps thermal; 'my only input is a DTM ... so I'm not forcing a DTM through an RGB stem'
    keeps the DEM; 'Sentinel-1 and -2 are the only imagery I can afford ... running a big encoder
    over six years of S1/S2 is out' keeps both sensors. RGB ruled out as the only input
    (``rgb_alone``: 'not just RGB') stays ruled out. ``unruled``: the task with what it rules out
    blanked; ``bands``: the bands it names there."""
    vocabulary = get_vocabulary("modalities")
    named = {name for name, _, _ in find_terms(unruled, "modalities")}
    named |= {m for b in bands if (m := vocabulary.get(b)) is not None}
    if rgb_alone:
        named.discard("RGB")
    own_sensors = {name for name, _, _ in find_terms(unruled, "sensors")}
    kept = [m for m in exclusions.modalities if m not in named]
    sensors = [s for s in exclusions.sensors if s not in own_sensors]
    if kept == exclusions.modalities and sensors == exclusions.sensors:
        return exclusions
    return exclusions.model_copy(update={"modalities": kept, "sensors": sensors})


# 'GEDI labels', 'GEDI footprints as labels', 'labels from GEDI': a sensor named as the labels'
# source ('Sentinel-2 as reference' stays an input).
_LABEL_WORDS = (
    r"(?:labels?|annotations?|ground[\s-]truth|training\s+(?:labels|targets|data)|targets?|"
    r"reference\s+(?:data|heights?|values|measurements))"
)
_LABELS_AFTER = re.compile(
    rf"(?:\s+(?:lidar|footprints?|heights?|data))?\s+(?:as\s+(?:the\s+)?)?{_LABEL_WORDS}\b"
)
_LABELS_BEFORE = re.compile(
    rf"\b{_LABEL_WORDS}\s+(?:come\s+|taken\s+|derived\s+|are\s+)?(?:from|of)\s+(?:the\s+)?$"
)
# Spaceborne LiDAR whose footprints are the usual reference, not the input, for these applications.
_REFERENCE_SENSORS = frozenset({"GEDI", "ICESat-2"})
_REFERENCE_APPLICATIONS = frozenset({"canopy height estimation", "biomass estimation"})
_AS_INPUT = re.compile(r"\s+(?:\w+\s+){0,2}?as\s+(?:an?\s+)?(?:inputs?|features?|predictors?)\b")


def _label_sources(written: str, terms: Sequence[tuple[str, int, int]]) -> dict[str, str]:
    """Sensors the task names as the source of its labels, not of its input: {sensor: phrase}."""
    lowered = written.lower()
    out: dict[str, str] = {}
    for sensor, start, end in terms:
        if after := _LABELS_AFTER.match(lowered, end):
            out[sensor] = written[start : after.end()]
        elif before := _LABELS_BEFORE.search(lowered[max(0, start - 40) : start]):
            out[sensor] = written[start - len(before.group(0)) : end]
    return out


# Platform words read as their true-colour camera, and what they may carry instead.
_PLATFORM_CAMERAS = frozenset({"Aerial", "UAV"})
_OTHER_PAYLOAD = re.compile(
    r"[\s-]*(?:\(\s*)?(?:lidar|laser scann|als\b|sar\b|radar|hyperspectral|thermal|point[\s-]clouds?)"
)


def read_sensors(
    written: str,
    lowered: str,
    sensor_terms: list[TermSpan],
    apps: list[TermSpan],
    exclusions: Exclusions,
    notes: list[str],
) -> list[str]:
    """The sensors of the task's input, saying in ``notes`` which were read as the labels' source."""
    labelled = _label_sources(written, sensor_terms)
    for phrase in labelled.values():
        notes.append(f"'{phrase}' read as the source of the labels, not as an input")
    imaging = {s for s, _, _ in sensor_terms if sensor_modality(s) != "LiDAR"}
    for sensor, start, end in sensor_terms:
        if (
            sensor in _REFERENCE_SENSORS
            and sensor not in labelled
            and imaging
            and apps
            and apps[0][0] in _REFERENCE_APPLICATIONS
            and not _AS_INPUT.match(lowered, end)
        ):
            # 'canopy height from GEDI and Sentinel-2': GEDI footprints are the usual reference
            # heights, and the imagery the input.
            labelled[sensor] = written[start:end]
            notes.append(
                f"'{written[start:end]}' read as the source of the labels (the usual reference for "
                f"{apps[0][0]}), not as an input; say '{written[start:end]} as input' to use it as one"
            )
    sensors = [
        s
        for s, _, end in sensor_terms
        if s not in exclusions.sensors
        and s not in labelled
        # 'aerial LiDAR', 'drone SAR': the platform carries the sensor named next, not a camera
        and not (s in _PLATFORM_CAMERAS and _OTHER_PAYLOAD.match(lowered, end))
    ]
    if not sensors:
        for sensor, slip in find_terms_fuzzy(lowered, "sensors"):
            if sensor not in exclusions.sensors:
                sensors.append(sensor)
                notes.append(f"read '{slip}' as {sensor}")
    return sensors


# A sensor this many times coarser than the pixels the user states is not their imagery: '0.5 m
# chips cut around each VIIRS detection', 'CoastSat works on Landsat pixels, not on our 10 cm
# drone tiles', 'data in S3' beside 50 cm orthoimagery.
_FAR_COARSER = 100.0
_IMAGERY = frozenset({"RGB", "Multispectral", "Hyperspectral", "SAR", "Thermal"})


def at_the_resolution(sensors: list[str], resolution_m: float | None, notes: list[str]) -> list[str]:
    """``sensors`` less the imaging sensors far coarser than the stated resolution (reanalysis and
    other gridded data stay: they are fused with imagery at any resolution)."""
    if resolution_m is None:
        return sensors
    kept = []
    for sensor in sensors:
        gsd = sensor_gsd_m().get(sensor, 0.0)
        if gsd >= _FAR_COARSER * resolution_m and sensor_modality(sensor) in _IMAGERY:
            notes.append(f"{sensor} ({gsd:g} m pixels) read as other than your {resolution_m:g} m imagery")
        else:
            kept.append(sensor)
    return kept


@cache
def _missions() -> tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...]:
    """(mission, pattern, its imaging satellites) from ``missions.csv``."""
    return tuple(
        (row["mission"], re.compile(row["pattern"]), tuple(row["sensors"].split("|")))
        for row in table_rows("missions.csv")
    )


def imagery_of_missions(lowered: str, notes: list[str]) -> list[str]:
    """The kinds of imagery of a mission named without its satellite ('Sentinel-based models',
    'Sentinel data'), from ``missions.csv``: what any of its imaging satellites take."""
    kinds: list[str] = []
    for mission, pattern, sensors in _missions():
        if pattern.search(lowered):
            found = [m for s in sensors if (m := sensor_modality(s)) and m not in kinds]
            kinds += found
            notes.append(f"'{mission}' read as {' or '.join(sensors)} ({', '.join(found)})")
    return kinds
