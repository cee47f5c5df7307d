"""Geography and breadth of pretraining: the generalisability criterion, and how a model's
pretraining and evaluation data cover the user's region."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar, cast

from agent.query import StructuredQuery
from agent.reading.terms import find_terms
from rsfmd.datasets import dataset_info, find_dataset, strip_qualifier
from rsfmd.regions import Coverage, coverage, region_kind
from rsfmd.schema import ModelRecord
from rsfmd.vocab import get_vocabulary
from tools.candidate import Candidate, Criterion


def generalizability_fit(c: Candidate, query: StructuredQuery | None = None) -> Criterion:
    """Diversity and scale of pretraining: regions, modalities, sensors, images.

    When the task names a region, geography is how well the pretraining regions, and the
    datasets the model was evaluated on, cover it.
    """
    r = c.record
    # (a region or image count no source gives counts as middling, not as worst)
    names, corpora = _pretraining_regions(r)
    regions = " ".join(n.lower() for n in names)
    images = sum(p.num_images or 0 for p in r.pretraining_phases)
    known = bool(regions or images or r.supported_sensors)
    geo = 1.0 if ("global" in regions or "world" in regions) else 0.6 if regions else _UNKNOWN_SCORE
    evidence: list[str] = []
    if query is not None and query.region:
        fit = region_fit(r, query.region)
        geo = _COVERAGE_SCORE.get(fit.pretraining, geo)
        if fit.evaluated_in:
            geo = max(geo, 0.9)
        evidence.extend(fit.evidence)
        known = known or bool(fit.evaluated_in)
    mods = min(1.0, len(set(r.modalities) - {"Text", "Location"}) / 3)
    sensors = min(1.0, len(r.supported_sensors) / 4)
    scale = min(1.0, math.log10(images) / 7) if images > 0 else _UNKNOWN_SCORE
    if query is not None and (query.modality or query.sensor):
        # The user's data is known: breadth over other modalities and sensors serves them not at
        # all (fit to their own data is judged by the modality and imagery criteria).
        score = 0.55 * geo + 0.45 * scale
    else:
        score = 0.35 * geo + 0.25 * mods + 0.15 * sensors + 0.25 * scale
    if names and not any(e.startswith("pretrain") for e in evidence):
        after = f" (after its pretraining data {', '.join(corpora)})" if corpora else ""
        evidence.append(f"pretrained on data covering {shorten(', '.join(names), 60)}{after}")
    if images:
        evidence.append(f"{images:,} pretraining images")
    return Criterion(score, evidence=evidence, known=known)


# A breadth of pretraining no source states: the middle of the scale, so that a sparse record
# is not ranked as if its model had been pretrained narrowly.
_UNKNOWN_SCORE = 0.6

# Geography score by how pretraining regions cover the user's region (unknown keeps the default).
_COVERAGE_SCORE = {Coverage.covers: 1.0, Coverage.inside: 0.8, Coverage.near: 0.6, Coverage.elsewhere: 0.1}


@dataclass(frozen=True)
class RegionFit:
    """How a model's pretraining and evaluation data relate to the user's region."""

    pretraining: Coverage
    evaluated_in: tuple[str, ...]  # datasets from the user's region the model has results on
    evidence: tuple[str, ...]
    mismatch: str | None  # said as a trade-off: pretrained only on other continents


# Values computed per record object (and key): ranking and explanation ask for the same records.
_PER_RECORD: dict[tuple[int, Hashable], tuple[ModelRecord, Any]] = {}
_T = TypeVar("_T")


def _per_record(record: ModelRecord, key: Hashable, compute: Callable[[], _T]) -> _T:
    """``compute()`` once per record object and ``key``; records do not change once loaded."""
    slot = (id(record), key)
    if (hit := _PER_RECORD.get(slot)) is not None and hit[0] is record:
        return cast(_T, hit[1])
    if len(_PER_RECORD) > 20_000:
        _PER_RECORD.clear()
    value = compute()
    _PER_RECORD[slot] = (record, value)
    return value


def region_fit(record: ModelRecord, wanted: Sequence[str]) -> RegionFit:
    """Pretraining coverage of the user's regions, and results on datasets from them.

    A record that states no pretraining regions is read through the regions the dataset table gives
    its pretraining datasets (fMoW: global; BigEarthNet: Europe), and the evidence says so.
    """
    return _per_record(record, ("region fit", tuple(wanted)), lambda: _region_fit(record, wanted))


def _region_fit(record: ModelRecord, wanted: Sequence[str]) -> RegionFit:
    region_names, corpora = _pretraining_regions(record)
    derived_from = f", after its pretraining data {', '.join(corpora)}" if corpora else ""
    have = [g for n in region_names for g in _regions_in(n)]
    pretraining = coverage(have, wanted)
    # Datasets from the user's region, by the region the table gives them ('Europe' for EuroSAT
    # when the user is in Germany: said as Europe, not as Germany).
    from_region: dict[str, set[str]] = {}
    for (label, regions), datasets in _regional_results(record).items():
        if coverage(regions, wanted) in {Coverage.covers, Coverage.inside}:
            from_region.setdefault(label, set()).update(datasets)
    evaluated = sorted(d for names_ in from_region.values() for d in names_)
    where = " and ".join(wanted)
    names = shorten(", ".join(region_names), 60) + derived_from
    # The pretraining regions that give the coverage: 'global', 'Africa', not every region listed.
    via = [n for n in region_names if coverage(_regions_in(n), wanted) is pretraining]
    shown = "global" if any(region_kind(g) == "scope" for n in via for g in _regions_in(n)) else ""
    shown = (shown or shorten(", ".join(via), 40)) + derived_from
    evidence: list[str] = []
    if pretraining is Coverage.covers:
        evidence.append(f"pretraining data covers {where} ({shown})")
    elif pretraining is Coverage.inside:
        evidence.append(f"pretraining data covers part of {where} ({shown})")
    if from_region:
        groups = "; ".join(
            f"{region}: {', '.join(sorted(sets))}" for region, sets in sorted(from_region.items())
        )
        evidence.append(f"evaluated on data from {shorten(groups, 70)}")
    mismatch = None
    if pretraining is Coverage.elsewhere:
        mismatch = f"pretrained only on data from {names}, not {where}"
        evidence.append(mismatch)
    return RegionFit(pretraining, tuple(evaluated), tuple(evidence), mismatch)


def _regional_results(record: ModelRecord) -> dict[tuple[str, tuple[str, ...]], set[str]]:
    """The record's result datasets that the dataset table places somewhere other than 'global',
    by (region as the table writes it, canonical regions); computed once per record object."""
    return _per_record(record, "regional results", lambda: _compute_regional_results(record))


def _compute_regional_results(record: ModelRecord) -> dict[tuple[str, tuple[str, ...]], set[str]]:
    out: dict[tuple[str, tuple[str, ...]], set[str]] = {}
    for b in record.benchmarks:
        info = find_dataset(b.dataset)
        if info is None or not (regions := _dataset_regions(info.name)):
            continue
        if not any(region_kind(g) == "scope" for g in regions):
            out.setdefault((", ".join(info.regions), regions), set()).add(strip_qualifier(b.dataset))
    return out


_DATASET_LIST = re.compile(r"\s*(?:\+|,|;|/|\band\b)\s*")


def _pretraining_regions(record: ModelRecord) -> tuple[list[str], list[str]]:
    """(regions, datasets): the pretraining regions the record states, or, when it states none, the
    dataset table's regions for its pretraining datasets (and those datasets); once per record."""
    return _per_record(record, "pretraining regions", lambda: _stated_or_derived_regions(record))


def _stated_or_derived_regions(record: ModelRecord) -> tuple[list[str], list[str]]:
    stated = _region_names(record)
    return (stated, []) if stated else _pretraining_dataset_regions(record)


def _pretraining_dataset_regions(record: ModelRecord) -> tuple[list[str], list[str]]:
    """(regions, datasets): the dataset table's regions for the record's pretraining datasets."""
    regions: list[str] = []
    corpora: list[str] = []
    for phase in record.pretraining_phases:
        for part in _DATASET_LIST.split(phase.dataset or ""):
            info = find_dataset(part.strip()) if part.strip() else None
            if info is not None and info.regions:
                corpora.append(info.name)
                regions.extend(r for r in info.regions if r not in regions)
    return regions, list(dict.fromkeys(corpora))


@cache
def _regions_in(text: str) -> tuple[str, ...]:
    """Canonical regions named in a free-text region ('United States (42 cities)')."""
    return tuple(dict.fromkeys(g for g, _, _ in find_terms(text, "regions")))


@cache
def _dataset_regions(name: str) -> tuple[str, ...]:
    vocab = get_vocabulary("regions")
    return tuple(g for r in dataset_info(name).regions if (g := vocab.get(r)))


def _region_names(record: ModelRecord) -> list[str]:
    """Pretraining regions, each once ('global' is dropped when 'global (1.2M locations)' is there)."""
    names: dict[str, str] = {}
    for phase in record.pretraining_phases:
        for region in phase.regions_coverage:
            if region.strip():
                names.setdefault(region.strip().lower(), region.strip())
    return [n for k, n in names.items() if not any(o != k and o.startswith(k + " (") for o in names)]


def shorten(text: str, limit: int) -> str:
    """``text`` cut at a word boundary before ``limit`` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;( ")
    return f"{cut}…"
