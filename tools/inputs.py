"""Which inputs a task asks for, and which record modalities serve them: as an input (the hard
constraint), in part (a fit the ranking weighs, and the last a closest match bends) or not at all."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from agent.query import EITHER_MODALITIES, StructuredQuery
from rsfmd.schema import Alignment, ModelRecord
from rsfmd.vocab import sensor_body, sensor_family, typical_modalities

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
# LiDAR used as points ('per-point classes', 'on the point cloud itself') is no raster: a model of
# elevation rasters takes none of it, not even in part.
AS_POINTS: dict[str, frozenset[str]] = {"LiDAR": frozenset({"LiDAR"})}
_COMPATIBLE_AS_POINTS = {**COMPATIBLE_MODALITIES, **AS_POINTS}
_INPUTS_AS_POINTS = {**INPUT_MODALITIES, **AS_POINTS}


def compatible_for(query: StructuredQuery) -> Mapping[str, frozenset[str]]:
    """COMPATIBLE_MODALITIES for this task: LiDAR points are served by LiDAR models alone."""
    return _COMPATIBLE_AS_POINTS if query.point_cloud else COMPATIBLE_MODALITIES


def inputs_for(query: StructuredQuery) -> Mapping[str, frozenset[str]]:
    """INPUT_MODALITIES for this task: LiDAR points are taken by LiDAR models alone."""
    return _INPUTS_AS_POINTS if query.point_cloud else INPUT_MODALITIES


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


def _must_take(query: StructuredQuery) -> set[str]:
    """The requested modalities a model must take: Text is the prompt or the answer, a DEM or LiDAR
    heights a layer beside the imagery, so with imagery asked for a model must take the imagery."""
    wanted = requested_modalities(query)
    return wanted - AUXILIARY_INPUTS if wanted - AUXILIARY_INPUTS else wanted


def modality_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The record takes none of the requested modalities nor data that can stand for them, or none
    of the kinds of imagery that name the model asked for ('a hyperspectral encoder'), or saw only
    another planet's imagery."""
    bodies = {sensor_body(s) for s in record.supported_sensors}
    if bodies and "" not in bodies and not bodies & {sensor_body(s) for s in query.sensor}:
        return f"pretrained on imagery of {' and '.join(sorted(bodies))} only, not of Earth"
    wanted = _must_take(query)
    if not wanted:
        return None
    if not record.modalities:
        return "input modalities unknown"
    compatible = compatible_for(query)
    if not takes_any(record, wanted, compatible):
        return f"takes {', '.join(record.modalities)}, not {', '.join(sorted(wanted))}"
    if query.model_kinds and not takes_any(record, query.model_kinds, compatible):
        asked = " or ".join(query.model_kinds)
        return f"takes {', '.join(record.modalities)}: not the {asked} model asked for"
    return None


def imagery_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The record takes the user's kind of data only through a related one (RGB of their
    multispectral bands, a LiDAR model for their terrain model): a weaker fit, which closest matches
    bend before the task. A model taking nothing related breaks ``modality_violation`` instead."""
    wanted = _must_take(query)
    if not wanted or not record.modalities:
        return None
    # A wavelength-aware model takes any band set the user asks it to ('arbitrary spectral bands').
    any_set = query.any_bands and record.spectral_alignment == Alignment.full
    if (
        takes_any(record, wanted, inputs_for(query))
        or any_set
        or not takes_any(record, wanted, compatible_for(query))
    ):
        return None
    return f"takes {', '.join(record.modalities)}: {', '.join(sorted(wanted))} only through related input"


def all_inputs_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user needs one model taking every kind of imagery asked for ('takes both Sentinel-1 and
    Sentinel-2', 'optical and radar fusion') and the record does not take one of them; of one kind
    from several sensors ('VIIRS night lights together with Sentinel-2'), is not documented for one."""
    if not query.all_inputs:
        return None
    wanted = requested_imagery(query)  # without Multi-temporal, which requested_modalities drops
    either = wanted & EITHER_MODALITIES if query.either_modality else set()
    groups = ([either] if either else []) + [{m} for m in sorted(wanted - either)]
    if len(groups) < 2:
        unseen = [s for s in query.sensor if not set(record.supported_sensors) & sensor_family(s)]
        if unseen and len({frozenset(sensor_family(s)) for s in query.sensor}) > 1:
            return f"is not documented for {unseen[0]} beside the other inputs"
        return None
    if missing := [g for g in groups if not takes_any(record, g, compatible_for(query))]:
        return f"does not take {' or '.join(sorted(missing[0]))} beside the other inputs"
    return None
