"""Which inputs a task asks for, and which record modalities serve them: as an input (the hard
constraint) or in part (a fit the ranking weighs)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from agent.query import StructuredQuery
from rsfmd.schema import Alignment, ModelRecord
from rsfmd.vocab import typical_modalities

# Which record modalities can serve a requested modality (beyond an exact match).
COMPATIBLE_MODALITIES: dict[str, frozenset[str]] = {
    "RGB": frozenset({"RGB", "Multispectral"}),
    "Multispectral": frozenset({"Multispectral", "RGB", "Hyperspectral"}),
    "Hyperspectral": frozenset({"Hyperspectral"}),
    "SAR": frozenset({"SAR"}),
    "LiDAR": frozenset({"LiDAR", "DEM"}),
    "DEM": frozenset({"DEM", "LiDAR"}),
}
# Which record modalities meet a requested one as an input (the hard constraint): a model for RGB
# alone does not take the user's multispectral bands, nor a Sentinel-2 model their RGB photographs,
# nor a model of hyperspectral cubes their few broad bands; such a model still fits in part
# (COMPATIBLE_MODALITIES, in ranking) and comes as a closest match. LiDAR rasterised is an
# elevation model, so a DEM model takes a LiDAR user's heights; a DEM is no LiDAR, so a model
# documented for LiDAR does not take a DEM user's terrain.
INPUT_MODALITIES: dict[str, frozenset[str]] = {
    **COMPATIBLE_MODALITIES,
    "RGB": frozenset({"RGB"}),
    "Multispectral": frozenset({"Multispectral"}),
    "DEM": frozenset({"DEM"}),
}


def requested_modalities(query: StructuredQuery) -> set[str]:
    """Input modalities a model must take (time series is a preference, not an input type)."""
    return set(query.modality) - {"Multi-temporal"}


NOT_IMAGERY = frozenset({"Text", "Location", "Audio"})
# Inputs that come beside imagery rather than as it.
AUXILIARY_INPUTS = frozenset({"Text", "DEM", "LiDAR", "Vector map", "Land cover map"})
# Maps beside imagery are mostly where labels come from (OpenStreetMap footprints, a land cover
# product): never what makes a task the user's, nor a kind of imagery a model must take.
MAP_INPUTS = frozenset({"Vector map", "Land cover map"})


def requested_imagery(query: StructuredQuery) -> set[str]:
    """The requested modalities that are imagery: what a benchmark's images are compared with."""
    return requested_modalities(query) - NOT_IMAGERY


def models_time(record: ModelRecord) -> bool:
    """Whether the record takes image series or pairs (as an input, or by modelling time)."""
    over_time = record.temporal_alignment in {Alignment.full, Alignment.partial}
    return over_time or "Multi-temporal" in record.modalities


def compatible_modalities(modalities: Collection[str]) -> set[str]:
    """``modalities`` with the record modalities that can stand for each (RGB for Multispectral)."""
    return set().union(*(COMPATIBLE_MODALITIES.get(m, frozenset({m})) for m in modalities))


def takes_any(
    record: ModelRecord,
    modalities: Collection[str],
    table: Mapping[str, frozenset[str]] = COMPATIBLE_MODALITIES,
) -> bool:
    """Whether the record takes one of ``modalities``, or data that can stand for it (by ``table``)."""
    if "Multi-temporal" in modalities and models_time(record):
        return True
    return bool(set(record.modalities) & set().union(*(table.get(m, frozenset({m})) for m in modalities)))


def images_with_images(query: StructuredQuery) -> bool:
    """Whether the task finds images by images ('find tiles that look like this one'): no text or
    sound goes in, so an image encoder's embeddings serve as they are."""
    # (an application RS-FMD does not hold pairs images with no one knows what: not only images)
    typical = typical_modalities(query.application) or ["Text"]
    return query.task_type == "retrieval" and not {"Text", "Audio"} & set(typical)
