"""Which released variants of a model take the user's data, and the size that leaves the user.

Many records release one checkpoint per sensor or modality ("Sentinel1_SwinB_SI",
"Sentinel2_Resnet50_SI_MS", "RN50 SAR"). The size that matters to a user with Sentinel-1 data is
that of the smallest variant for Sentinel-1, not the smallest variant overall. A variant's data is
read from its name with the sensor and modality vocabularies; a variant naming neither is taken to
serve any data. A variant's size is its stated count, else the documented size of its backbone
(``rsfmd/vocab/backbones.csv``).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import cache

from agent.reading.terms import find_terms
from rsfmd.backbones import MatchStatus, match_backbone
from rsfmd.schema import ModelRecord, Variant
from rsfmd.vocab import sensor_family, sensor_modality

# Checkpoint names abbreviate multispectral ("RN50 MS", "Swin v2 MSI"), which the modality
# vocabulary does not hold: as a word of running text "MS" means too many other things.
_MULTISPECTRAL_TAG = re.compile(r"(?<![A-Za-z])MSI?(?![A-Za-z])")


@cache
def variant_data(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """(sensors, modalities) a variant's name says it is for; modalities include its sensors'."""
    sensors = frozenset(t[0] for t in find_terms(name, "sensors"))
    modalities = {t[0] for t in find_terms(name, "modalities")}
    modalities |= {kind for s in sensors if (kind := sensor_modality(s))}
    if _MULTISPECTRAL_TAG.search(name):
        modalities.add("Multispectral")
    return sensors, frozenset(modalities)


def variant_inputs(variant: Variant) -> tuple[frozenset[str], frozenset[str]]:
    """(sensors, modalities) of a variant: read from its name, with the inputs it states itself."""
    sensors, modalities = variant_data(variant.name)
    return sensors, modalities | frozenset(variant.modalities)


def sensors_taking(record: ModelRecord, modalities: Collection[str]) -> list[str]:
    """The sensors the record takes ``modalities`` from: when a checkpoint states inputs the others
    lack (a Landsat one taking thermal bands), those of the released checkpoints taking them, so
    SatlasPretrain's thermal is Landsat's, not its aerial checkpoint's; else every sensor it is
    documented for."""
    if not any(v.modalities for v in record.variants) or not modalities:
        return list(record.supported_sensors)
    named: set[str] = set()
    for variant in record.released_variants:
        sensors, kinds = variant_inputs(variant)
        if kinds & set(modalities):
            named |= set().union(*map(sensor_family, sensors)) if sensors else set(record.supported_sensors)
    return [s for s in record.supported_sensors if s in named]


def variant_size(variant: Variant) -> float | None:
    """Parameters (millions): as stated, else the documented size of the variant's backbone."""
    if variant.num_parameters is not None:
        return variant.num_parameters
    return _backbone_size(variant.backbone) if variant.backbone else None


@cache
def _backbone_size(backbone: str) -> float | None:
    match = match_backbone(backbone)
    return match.backbone.params_m if match.status == MatchStatus.matched and match.backbone else None


def size_for_data(record: ModelRecord, sensors: Collection[str], modalities: Collection[str]) -> float | None:
    """The smallest size among the variants for the user's ``sensors`` (with the sensors that stand
    in for them) or ``modalities`` (with compatible ones), never below the smallest stated size;
    the smallest overall when no variant is for other data, or when the sizes of those for the
    user's data are not known."""
    smallest = record.smallest_parameters
    if len(record.released_variants) < 2 or not (sensors or modalities):
        return smallest
    fitting, other = [], False
    for variant in record.released_variants:
        named_sensors, named_modalities = variant_inputs(variant)
        if named_sensors and sensors:
            fits = bool(named_sensors & set(sensors))  # the sensor decides: Aerial RGB is not Sentinel-2
        else:
            fits = not named_modalities or bool(named_modalities & set(modalities))
        if fits:
            fitting.append(variant)
        else:
            other = True
    sizes = [s for v in fitting if (s := variant_size(v)) is not None]
    if smallest is None or not other or not sizes:
        return smallest
    # A backbone's standard size is derived, not stated: it can show that the variant for the
    # user's data is larger than the smallest stated one, never make a model smaller than that.
    return max(min(sizes), smallest)


def dedicated_variant(record: ModelRecord, sensors: Collection[str], kinds: Collection[str]) -> str | None:
    """The name of a released variant whose name says it is for the user's ``sensors`` or kinds of
    imagery (``kinds``, with the modalities that stand in for them) and for nothing else: a
    checkpoint pretrained on the user's kind of imagery alone ("RN50 SAR", "Sentinel1_SwinB_SI")."""
    for variant in record.released_variants:
        named_sensors, named_modalities = variant_inputs(variant)
        if named_sensors and sensors:
            if named_sensors <= set(sensors):
                return variant.name
        elif named_modalities and named_modalities <= set(kinds):
            return variant.name
    return None


# A size written in a result's variant name: 'Prithvi-EO-V2 600M TL', 'BFM 1.3B'.
_COUNT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?([MB])(?![A-Za-z])")
# Size words of variant names: 'TerraMind-V1-Large', 'TerraMind-B' (a letter stands for its word).
_SIZE_WORD = re.compile(
    r"(?<![A-Za-z0-9])(tiny|small|base|large|huge|giant|Ti|S|B|L|H)(?![A-Za-z0-9])", re.IGNORECASE
)
_LETTERS = {"ti": "tiny", "s": "small", "b": "base", "l": "large", "h": "huge"}


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def result_variant_size(record: ModelRecord, name: str) -> float | None:
    """Parameters (millions) of the variant a reported result names, when the name tells it: a
    count in the name, a variant of that name, a named backbone, or a size word that variants'
    names share ('TerraMind-V1-Large' and 'TerraMind-1.0-large'; the smallest such variant)."""
    if count := _COUNT.search(name):
        return float(count.group(1)) * (1000.0 if count.group(2) == "B" else 1.0)
    for variant in record.variants:
        if _norm(variant.name) == _norm(name):
            return variant_size(variant)
    if (size := _backbone_size(name)) is not None:
        return size
    words = [w.lower() for w in _SIZE_WORD.findall(name)]
    word = next((_LETTERS.get(w, w) for w in reversed(words)), None)
    if word is None:
        return None
    same = [s for v in record.variants if word in v.name.lower() and (s := variant_size(v)) is not None]
    return min(same) if same else None
