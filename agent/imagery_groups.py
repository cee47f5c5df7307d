"""The imagery a task asks for, as groups a model must each take one of: whether a model takes them
all, answers a question about the catalogue in full, and which groups no model shown takes."""

from __future__ import annotations

from agent.query import StructuredQuery
from rsfmd.schema import Alignment, ModelRecord
from rsfmd.vocab import sensor_family
from tools.candidate import Candidate
from tools.inputs import requested_imagery, requested_modalities
from tools.ranking import distinctive_modalities, flown_apart, takes_rare


def imagery_groups(imagery: set[str]) -> list[tuple[str, frozenset[str]]]:
    """The imagery a model must take all of, as (name, modalities) groups, each met by any one of its
    modalities. RGB is met by multispectral imagery too, and 'optical' (multispectral and RGB asked
    for alike) is one group, not two."""
    optical = imagery & {"Multispectral", "RGB"}
    groups: list[tuple[str, frozenset[str]]] = []
    if optical == {"Multispectral", "RGB"}:
        groups.append(("optical (multispectral or RGB)", frozenset(optical)))
    elif optical == {"RGB"}:
        groups.append(("RGB", frozenset({"RGB", "Multispectral"})))
    elif optical:
        groups.append(("Multispectral", frozenset(optical)))
    return groups + [(m, frozenset({m})) for m in sorted(imagery - optical)]


def imagery_not_shown(ranked: list[Candidate], k: int, query: StructuredQuery) -> list[str]:
    """'power line detection from drone LiDAR': the imagery asked for that no model shown takes (a
    model passes on any one of the imagery asked for), with where the first model taking it ranks."""
    imagery = requested_imagery(query)
    if len(imagery) < 2:
        return []
    notes = []
    for name, members in imagery_groups(imagery):
        if any(set(c.record.modalities) & members for c in ranked[:k]):
            continue
        takers = [i for i, c in enumerate(ranked) if set(c.record.modalities) & members]
        if takers:
            first = ranked[takers[0]].record.model_name
            notes.append(
                f"None of the models shown takes {name}: {len(takers)} in this ranking do, the first "
                f"{first} at rank {takers[0] + 1}"
            )
        else:
            notes.append(f"None of the models that fit the rest of this task takes {name}")
    return notes + _distinctive_first(ranked, k, query)


def _distinctive_first(ranked: list[Candidate], k: int, query: StructuredQuery) -> list[str]:
    """Why a model taking the rare input asked for ranks above a higher-scored one without it."""
    rare = distinctive_modalities(query)
    shown = [c for c in ranked[:k] if takes_rare(c.record, query, rare)]
    if not (rare and shown):
        return []
    passed = [c for c in ranked if not takes_rare(c.record, query, rare) and c.score > shown[-1].score]
    if not passed:
        return []
    first = passed[0]
    if rare == {"Multi-temporal"}:
        why = (
            "Models that take image pairs or series come first: your question is about change between images"
        )
    else:
        names = " and ".join(sorted(rare))
        why = f"Models that take {names} come first: of your inputs it is the one few models take"
    model = first.record.model_name
    return [f"{why}, so a model without it (such as {model}, scored {first.score:g}) ranks after them"]


def answers_in_full(
    record: ModelRecord, query: StructuredQuery, groups: list[tuple[str, frozenset[str]]]
) -> bool:
    """Whether a model that passes a question about the catalogue answers all of it: takes every
    imagery asked for, LiDAR or DEM itself (not the other), and is documented for every sensor named
    (or takes any band set), taking each from the user's kind of platform (Landsat's thermal bands
    do not answer it for drone frames)."""
    if not takes_all(record, groups) or any(flown_apart(record, query, kinds) for _, kinds in groups):
        return False
    if any(m not in record.modalities for m in requested_modalities(query) & {"LiDAR", "DEM"}):
        return False
    return (
        len(query.sensor) < 2
        or record.spectral_alignment == Alignment.full
        or documented_for_all(record, query.sensor)
    )


def documented_for_all(record: ModelRecord, sensors: list[str]) -> bool:
    """Whether the record is documented for every one of ``sensors`` (or a sensor of its family)."""
    return all(set(record.supported_sensors) & sensor_family(s) for s in sensors)


def takes_all(record: ModelRecord, groups: list[tuple[str, frozenset[str]]]) -> bool:
    """Whether the record takes some modality of every group."""
    return all(set(record.modalities) & members for _, members in groups)
