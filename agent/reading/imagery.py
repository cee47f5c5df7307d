"""What kinds of imagery the task's input is: modalities named or implied by its sensors and
platforms ('optical', 'aerial', 'Maxar imagery'), not a map named as the labels' source or the map to
complete ('where OSM is incomplete'), and the bands named.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agent.query import EITHER_MODALITIES, Exclusions
from agent.reading.platforms import airborne_sensors, carried_platforms
from agent.reading.preferences import wished
from agent.reading.tables import cue_pattern, person_noun_after
from agent.reading.terms import TermSpan, find_terms
from rsfmd.vocab import airborne, sensor_gsd_m, sensor_modality, typical_modalities

# Imagery named without its kind ('satellite images'), and the inputs that are not imagery.
_GENERIC_IMAGERY = re.compile(
    r"\b(?:satellite|aerial|overhead|remote[\s-]sensing|earth observation|eo)\s+"
    r"(?:images?|imagery|data|photos?|tiles?|scenes?|patches)\b"
)
NOT_IMAGERY = frozenset({"Text", "Location", "Audio", "Vector map"})


# OpenStreetMap named as the map that falls short, the map to complete or the labels' source, not
# as an input: 'roads where OSM is incomplete', 'labels from OpenStreetMap', 'update OSM'.
_OSM = r"(?:openstreetmap|open\s+street\s+map|osm)"
_OSM_NOT_INPUT = re.compile(
    rf"\b{_OSM}(?:\s+[\w-]+){{0,3}}?\s+(?:is|are|remains?|stays?|looks?|seems?)\s+(?:\w+\s+)?"
    r"(?:incomplete|missing|outdated|out\s+of\s+date|sparse|poor|patchy|lacking|absent|wrong|unreliable|"
    r"empty|not\s+available|unavailable)\b"
    rf"|\b(?:incomplete|missing|outdated|sparse|patchy|poor|unreliable)\s+{_OSM}\b"
    r"|\b(?:labels?|annotations?|ground[\s-]truth|training\s+data|masks?|footprints?|polygons?|outlines?|references?)"
    r"\s+(?:(?:that|which)\s+)?(?:(?:come|came|were|are)\s+)?(?:taken\s+|derived\s+)?(?:from|of|in|out\s+of)"
    rf"\s+(?:the\s+)?(?:[\w-]+\s+(?:and|or)\s+)?{_OSM}\b"
    rf"|\b{_OSM}\s+(?:as\s+)?(?:labels?|annotations?|ground[\s-]truth|training\s+labels|reference\s+data)\b"
    r"|\b(?:update|updating|complete|completing|improve|improving|fill(?:ing)?\s+gaps\s+in|add(?:ing)?\s+to|"
    rf"contribut(?:e|ing)\s+to|enrich(?:ing)?)\s+(?:the\s+)?{_OSM}\b"
    rf"|\bnot\s+(?:yet\s+)?(?:in|on|mapped\s+(?:in|on))\s+{_OSM}\b"
)
_OSM_LABELS = re.compile(r"label|annotation|ground[\s-]truth|training|mask|footprint|polygon|reference")


def _osm_not_input(written: str, lowered: str, spans: Sequence[tuple[int, int]]) -> list[str]:
    """The phrases that name OpenStreetMap as no input ('where OSM is incomplete'), when every
    vector-map term of the task (at ``spans``) is OpenStreetMap named that way; else nothing."""
    contexts = [m.span() for m in _OSM_NOT_INPUT.finditer(lowered)]
    if not spans or not all(
        re.fullmatch(_OSM, lowered[s:e]) and any(a <= s and e <= b for a, b in contexts) for s, e in spans
    ):
        return []
    return [written[a:b] for a, b in contexts]


_PRETRAINED_BEFORE = re.compile(r"\bpre[\s-]?trained\s+$")

INFRARED_ADVICE = "say 'NIR' or 'multispectral' for near-infrared bands, or 'thermal' for thermal infrared"
# 'Infrared' with nothing to say which: near-infrared or thermal.
_INFRARED_ALONE = re.compile(r"(?<!near[\s-])(?<!short[\s-]wave\s)(?<!thermal\s)\binfra[\s-]?red\b")
# 'Optical' qualifying hyperspectral imagery rather than listed beside it.
_OPTICAL_HYPERSPECTRAL = re.compile(r"\boptical[\s-]+(?:\(\s*)?hyperspectral|\bhyperspectral[\s-]+optical\b")
# Words that ask for bands beyond true colour: with these, a VHR sensor is multispectral imagery.
_NAMES_BANDS = re.compile(
    r"\b(?:nir|near[\s-]infrared|swir|short[\s-]wave infrared|red[\s-]edge|coastal band|"
    r"yellow band|[4-9][\s-]?bands?|eight[\s-]bands?|four[\s-]bands?|rgbi|rgbn|ndvi|"
    r"spectral|pan[\s-]?chromatic)"
)


def _vhr_multispectral(sensor: str) -> bool:
    """A satellite sensor of multispectral imagery finer than 2 m (WorldView, Pleiades, SkySat)."""
    gsd = sensor_gsd_m().get(sensor)
    return (
        sensor_modality(sensor) == "Multispectral"
        and airborne(sensor) is False
        and gsd is not None
        and gsd < 2
    )


def data_terms(written: str) -> list[TermSpan]:
    """The modality terms of ``written``; 'a pretrained canopy height model' is a model that
    predicts heights, not a lidar product, 'SAR analysts' are people and 'high-elevation forests'
    a place."""
    lowered = written.lower()
    people, place = person_noun_after(), cue_pattern("place_property", "before")
    return [
        (m, s, e)
        for m, s, e in find_terms(written, "modalities")
        if not (lowered[s:e].endswith(("model", "models")) and _PRETRAINED_BEFORE.search(lowered, 0, s))
        # ('no SAR analyst', 'radar expertise'): a kind of imagery said of people is no data
        and not people.match(lowered, e)
        and not place.search(lowered, max(0, s - 15), s)
    ]


def _named_modalities(
    written: str, modality_terms: list[TermSpan], lowered: str, apps: list[TermSpan], notes: list[str]
) -> list[str]:
    """The modalities the task names (``modality_terms``: its ``data_terms``), not inside an
    application's name nor a map that is no input."""
    # A modality word inside an application's name is no input modality ('local climate zone'),
    # unless the application works on that modality ('hyperspectral image classification').
    modalities = [
        m
        for m, s, e in modality_terms
        if not any(a <= s and e <= b and m not in typical_modalities(app) for app, a, b in apps)
    ]
    vector_spans = [(s, e) for m, s, e in modality_terms if m == "Vector map"]
    if "Vector map" in modalities and (spans := _osm_not_input(written, lowered, vector_spans)):
        modalities.remove("Vector map")
        role = "the source of the labels" if _OSM_LABELS.search(spans[0].lower()) else "the map to complete"
        notes.append(f"'{spans[0]}' read as {role}, not as an input")
    if "Text" not in modalities and wished(lowered, "text_prompt"):
        # 'something I can just prompt with 'building'': a prompt given as a word is text.
        modalities.append("Text")
        notes.append("a prompt given as a quoted word read as a text prompt: models that read text")
    people = person_noun_after()
    if any(not people.match(lowered, m.end()) for m in re.finditer(r"\bsar\b|\bradar\b|\binsar\b", lowered)):
        modalities.append("SAR")
    return modalities


# Imagery of aircraft, drones and very-high-resolution sensors: true colour unless more is said.
_PLATFORM = re.compile(
    r"\baerial\b|\bdrone\b|\buav\b|\bvhr\b|very high[\s-]resolution|\b\d+(?:\.\d+)?\s?cm\b"
)


def _optical(
    lowered: str, modalities: list[str], exclusions: Exclusions, notes: list[str]
) -> tuple[bool, bool]:
    """Adds what 'optical' or a platform ('aerial', 'VHR') stands for to ``modalities``: (either RGB
    or multispectral serves, true colour read from the platform)."""
    either = False  # RGB or multispectral, either serving ('optical')
    by_platform = False
    if (
        re.search(r"\boptical\b", lowered)
        and not set(modalities) & {"RGB", "Multispectral"}
        # 'optical hyperspectral imagery' is hyperspectral; 'SAR, optical and hyperspectral' lists three
        and ("Hyperspectral" not in modalities or not _OPTICAL_HYPERSPECTRAL.search(lowered))
        and "Multispectral" not in exclusions.modalities
    ):
        modalities.extend(["Multispectral", "RGB"])
        either = True
        notes.append("'optical' read as multispectral or RGB imagery")
    if _PLATFORM.search(lowered) and not set(modalities) - {"Text", "Multi-temporal", "Location"}:
        modalities.append("RGB")
        by_platform = True  # 'aerial', 'VHR', '50 cm tiles': true colour, unless a sensor says more
    return either, by_platform


# Bands beyond true colour and near-infrared, and the imagery of aircraft, drones and VHR sensors.
_OTHER_BANDS = re.compile(
    r"\b(?:swir|short[\s-]wave|red[\s-]edge|coastal|yellow|[5-9][\s-]?bands?|(?:five|six|seven|eight|ten)"
    r"[\s-]bands?|thermal|hyperspectral|sentinel|landsat|all (?:the )?bands)"
)
_NIR = re.compile(r"\b(?:nir|near[\s-]infrared|rgbn|rgbi|irrg|4[\s-]?bands?|four[\s-]bands?)\b")
_VERY_FINE = re.compile(
    rf"{_PLATFORM.pattern}|\b(?:orthophotos?|orthomosaics?|naip|very[\s-]high[\s-]res\w*)\b"
)


def _true_colour_and_nir(
    lowered: str, modalities: list[str], exclusions: Exclusions, vhr_named: bool
) -> bool:
    """Whether the imagery is very-high-resolution true colour plus near-infrared (by the words, or
    a very-high-resolution sensor named: ``vhr_named``), and read as multispectral only."""
    return (
        "Multispectral" in modalities
        and not {"RGB", "Hyperspectral"} & set(modalities)
        and "RGB" not in exclusions.modalities
        and bool(_NIR.search(lowered) and (vhr_named or _VERY_FINE.search(lowered)))
        and not _OTHER_BANDS.search(lowered)
    )


def _vhr_as_either(
    written: str, sensor_terms: list[TermSpan], vhr: list[str], modalities: list[str], notes: list[str]
) -> None:
    """Reads the very-high-resolution sensors named (``vhr``: 'Maxar imagery') as RGB or
    multispectral imagery, either serving: both are added to ``modalities``."""
    # 'Maxar imagery': a very-high-resolution product comes as pan-sharpened true colour as
    # often as with all its bands, so models for either serve it.
    modalities.extend(["Multispectral", "RGB"])
    as_written = dict.fromkeys(written[a:b] for s, a, b in sensor_terms if s in vhr) or dict.fromkeys(vhr)
    notes.append(
        f"{' and '.join(repr(n) for n in as_written)} imagery read as RGB or multispectral (its "
        "products come as pan-sharpened true colour or with all bands); say 'multispectral' or "
        "name the bands to require them"
    )


def _implied_by_sensors(
    lowered: str,
    carried: set[str],
    sensors: list[str],
    vhr: list[str],
    modalities: list[str],
    either: bool,
    exclusions: Exclusions,
    notes: list[str],
) -> None:
    """Adds each input sensor's modality to ``modalities``; drops a sensor of a modality ruled out.
    ``carried``: the platforms said to carry a camera of another kind, which imply no RGB."""
    # 'NAIP 4 band', 'RGBI aerial orthophotos', 'multispectral drone imagery': bands named beyond
    # true colour make an RGB platform's imagery multispectral.
    bands_named = "Multispectral" in modalities and not either
    for sensor in list(sensors):
        implied = sensor_modality(sensor)
        if implied == "RGB" and bands_named and "RGB" not in modalities:
            continue
        if sensor in carried and "RGB" not in modalities:
            # 'a Headwall hyperspectral camera on a drone': the drone is the platform, not RGB imagery,
            # and models documented for airborne sensors of that kind take its data.
            notes.append(f"'{sensor}' read as the platform carrying the sensor named, not as RGB imagery")
            sensors.extend(s for s in airborne_sensors(modalities) if s not in sensors)
            continue
        if implied in exclusions.modalities:
            # 'Sentinel-1 but no SAR': the task contradicts itself; the exclusion stands, and says so.
            sensors.remove(sensor)
            notes.append(f"{sensor} is {implied} imagery, which the task rules out: {sensor} set aside")
        elif implied not in modalities and not (
            # 'RGB Maxar imagery': the true-colour product of a VHR sensor, not its other bands.
            "RGB" in modalities and sensor in vhr and not _NAMES_BANDS.search(lowered)
        ):
            modalities.append(implied)


def read_modalities(
    written: str,
    lowered: str,
    sensor_terms: list[TermSpan],
    sensors: list[str],
    apps: list[TermSpan],
    exclusions: Exclusions,
    notes: list[str],
) -> tuple[list[str], bool]:
    """The modalities of the task's input, and whether either RGB or multispectral serves; drops
    from ``sensors`` those of a modality ruled out; ``notes`` says what was inferred."""
    terms = data_terms(written)
    modalities = _named_modalities(written, terms, lowered, apps, notes)
    either, by_platform = _optical(lowered, modalities, exclusions, notes)
    vhr = [s for s in sensors if _vhr_multispectral(s)]
    if (
        vhr
        and (not set(modalities) - NOT_IMAGERY - {"Multi-temporal"} or by_platform)
        and not _NAMES_BANDS.search(lowered)
        and not EITHER_MODALITIES & set(exclusions.modalities)
    ):
        _vhr_as_either(written, sensor_terms, vhr, modalities, notes)
        either = True
    carried = carried_platforms(lowered, sensors, sensor_terms, modalities)
    _implied_by_sensors(lowered, carried, sensors, vhr, modalities, either, exclusions, notes)
    if by_platform and carried & set(sensors):
        modalities.remove("RGB")  # true colour read from the platform alone, which carries another camera
    if _true_colour_and_nir(lowered, modalities, exclusions, bool(vhr)):
        # 'aerial orthophotos, R, G, B and NIR': a model for true colour uses three of the four bands.
        modalities.append("RGB")
        either = True
        notes.append(
            "very-high-resolution RGB + near-infrared imagery read as RGB or multispectral: a model "
            "for true colour uses three of its four bands"
        )
    if "LiDAR" in modalities and "DEM" in modalities and _lidar_named_as_source(lowered, terms, sensor_terms):
        # 'an airborne LiDAR bare-earth DEM': the input is the elevation model LiDAR was made into.
        modalities.remove("LiDAR")
        notes.append("LiDAR named as the source of an elevation model: the elevation model is the input")
    modalities = [m for m in dict.fromkeys(modalities) if m not in exclusions.modalities]
    if _INFRARED_ALONE.search(lowered) and not set(modalities) & {
        "Thermal",
        "Multispectral",
        "Hyperspectral",
    }:
        # 'infrared imagery': near-infrared bands or thermal infrared, which take different models.
        notes.append(f"'infrared' is read as no imagery kind: {INFRARED_ADVICE}")
    if (task := _task_imagery(terms, lowered)) and (
        others := [m for m in modalities if m in _KINDS and m != task]
    ):
        # 'boats in the thermal frames' from a drone that carries an RGB camera too: the task's imagery.
        modalities = [m for m in modalities if m not in others]
        notes.append(
            f"the task is done on the {task} imagery: the {' and '.join(others)} imagery beside it "
            "is not required of a model"
        )
    return modalities, either


# Between LiDAR and the elevation model made of it: 'LiDAR-derived', 'LiDAR bare-earth', 'LiDAR 1 m'.
_TO_PRODUCT = re.compile(r"(?:[\s-]+(?!and\b|or\b|plus\b|with\b)[\w.]+){0,3}?[\s-]+$")


def _lidar_named_as_source(lowered: str, terms: list[TermSpan], sensor_terms: list[TermSpan]) -> bool:
    """Whether every mention of LiDAR (as data or as a sensor) names the source of an elevation
    model right after it ('a LiDAR-derived DEM', 'airborne LiDAR bare-earth DEM at 1 m')."""
    lidar = [(s, e) for m, s, e in terms if m == "LiDAR"]
    lidar += [(s, e) for name, s, e in sensor_terms if sensor_modality(name) == "LiDAR"]
    dems = [s for m, s, _ in terms if m == "DEM"]
    return bool(lidar) and all(
        any(start >= end and _TO_PRODUCT.fullmatch(lowered, end, start) for start in dems) for _, end in lidar
    )


# Kinds of imagery a task is done on (a DEM, text or a map comes beside them).
_KINDS = frozenset({"RGB", "Multispectral", "Hyperspectral", "SAR", "Thermal"})


def _task_imagery(terms: list[TermSpan], lowered: str) -> str | None:
    """The one kind of imagery ``terms`` (the text's ``data_terms``) name as what the task is done
    on ('find the seals in the thermal frames'), when one is (``cues.csv``, field
    ``task_imagery``); none when two are."""
    before, after = cue_pattern("task_imagery", "before"), cue_pattern("task_imagery", "after")
    named = {
        m
        for m, s, e in terms
        if m in _KINDS and after.match(lowered, e) and before.search(lowered, max(0, s - 60), s)
    }
    return named.pop() if len(named) == 1 else None


def add_usual_imagery(
    application: str,
    task_type: str | None,
    lowered: str,
    modalities: list[str],
    exclusions: Exclusions,
    notes: list[str],
) -> None:
    """'species occurrence from location and satellite images': imagery of no kind named beside
    inputs that are no imagery is the application's usual imagery, added to ``modalities``."""
    generic = _GENERIC_IMAGERY.search(lowered)
    # (not for generation, where the imagery named is the output)
    inputs = task_type != "generation"
    if generic and inputs and modalities and set(modalities) <= NOT_IMAGERY | {"Multi-temporal"}:
        # 'species occurrence from location and satellite images': imagery is an input too,
        # of a kind not named; the application's usual imagery stands for it.
        usual = [m for m in typical_modalities(application) if m not in NOT_IMAGERY]
        if usual:
            modalities.extend(m for m in usual if m not in exclusions.modalities)
            notes.append(
                f"'{generic.group(0)}' read as the usual imagery for {application} ({', '.join(usual)})"
            )


def named_bands(lowered: str) -> list[str]:
    """The spectral bands and SAR polarisations the task names ('NIR', 'red edge', 'VV')."""
    bands = [
        b
        for b in ("nir", "swir", "red edge", "thermal", "rgb", "vv", "vh")
        if re.search(rf"\b{b}\b", lowered)
    ]
    return [b.upper() if len(b) <= 4 else b for b in bands]
