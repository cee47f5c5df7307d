"""Ranking tool: score filtered candidates on evidence, with weights that follow the query.

Seven criteria after the REMSA rubric (application compatibility, modality match, reported
performance, efficiency, generalisability, popularity, recency) plus data-regime fit when the user
states how much labelled data they have. Each criterion is a score in [0, 1], the evidence behind
it, and whether that evidence is real (``known``) or a default. Weights start from the paper's
expert weights (25/20/20/15/10/5/5) and shift with the query's priorities (templates A1-D4).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar, cast

from agent.query import EITHER_MODALITIES, StructuredQuery
from agent.reading.terms import find_terms
from agent.wording import with_article
from rsfmd.datasets import (
    bench_application,
    dataset_identity,
    dataset_info,
    described_for,
    evaluated_on,
    find_dataset,
    pretrained_on,
    strip_qualifier,
)
from rsfmd.licenses import allows_commercial_use, within_licenses
from rsfmd.regions import Coverage, coverage, region_kind
from rsfmd.schema import Alignment, Category, ModelRecord
from rsfmd.vocab import get_vocabulary
from tools.evidence import (
    RELATED_TASKS,
    RELEVANCE_WEIGHT,
    EvidenceIndex,
    EvidenceItem,
    same_imagery,
    setting_class,
)
from tools.filtering import (
    COMPATIBLE_MODALITIES,
    reads_no_text_for,
    requested_imagery,
    requested_modalities,
)
from tools.fit import LOW_CONFIDENCE, availability_fit, field_confidence, imagery_fit, results_far_from

BASE_WEIGHTS: dict[str, float] = {
    "application": 0.25,
    "modality": 0.20,
    "performance": 0.20,
    "efficiency": 0.15,
    "generalizability": 0.10,
    "popularity": 0.05,
    "recency": 0.05,
}
# How much a strong result counts by what it is a result on. Results on the user's application
# count in full; results on other applications of the same task type, or on related tasks, count
# far less, so that many rows on other tasks do not outweigh a model made for the user's data.
LEVEL_CREDIT = {"application": 1.0, "task": 0.65, "related": 0.45}
# No reported result at all: unknown, not bad (the criterion is marked unknown and lowers confidence).
NO_RESULTS = 0.3
VL_TASKS = frozenset({"captioning", "vqa", "visual grounding", "retrieval", "zero-shot classification"})
# Applications whose input is an image pair, though their task type is shared with single-image
# ones: a change captioner writes about a before and an after image, not about one image.
PAIR_INPUT_APPLICATIONS = frozenset({"change captioning"})

Predict = Callable[[ModelRecord, StructuredQuery], "Prediction | None"]


@dataclass(frozen=True)
class Prediction:
    """A capabilities-encoding estimate of a model's standing on datasets like the user's."""

    score: float
    uncertainty: float
    summary: str
    other_imagery: bool = False
    """The datasets it places the model on share none of the user's imagery (optical for SAR)."""


@dataclass
class Criterion:
    """One criterion's score, weight and evidence."""

    score: float
    weight: float = 0.0
    evidence: list[str] = field(default_factory=list)
    known: bool = True


@dataclass
class Candidate:
    """A record being ranked."""

    record: ModelRecord
    similarity: float = 0.0
    criteria: dict[str, Criterion] = field(default_factory=dict)
    score: float = 0.0
    confidence: float = 0.0
    relaxed: list[str] = field(default_factory=list)
    evidence_items: list[EvidenceItem] = field(default_factory=list)
    predicted: Prediction | None = None
    memory_delta: float = 0.0
    memory_note: str | None = None


def size_confidence(record: ModelRecord) -> float:
    """The curator's confidence in the size shown for a record (its smallest variant's): that of
    ``num_parameters`` when it is that size, else the lower of it and that of ``variants``."""
    if record.num_parameters is not None and record.num_parameters == record.smallest_parameters:
        return field_confidence(record, "num_parameters")
    return min(field_confidence(record, "num_parameters"), field_confidence(record, "variants"))


def query_weights(query: StructuredQuery) -> dict[str, float]:
    """Criterion weights for this query (sum to 1)."""
    w = dict(BASE_WEIGHTS)
    priorities = set(query.priorities)
    if "accuracy" in priorities:
        w["performance"] += 0.10
        w["efficiency"] -= 0.05
    if priorities & {"precision", "recall"}:
        w["performance"] += 0.05
    if priorities & {"speed", "efficiency"} or query.compute.device_class in {"edge", "cpu"}:
        w["efficiency"] += 0.15
        w["performance"] -= 0.03
    if query.compute.device_class == "multi-gpu" and "accuracy" not in priorities:
        w["performance"] += 0.05
        w["efficiency"] -= 0.07
    if "generalization" in priorities:
        w["generalizability"] += 0.10
    if "recency" in priorities:
        w["recency"] += 0.15
    if "adoption" in priorities:
        w["popularity"] += 0.15
    if query.data_regime is not None:
        # Without labels, a model that must be trained first is hardly usable at all.
        w["data_regime"] = {"zero-shot": 0.30, "full-labels": 0.08}.get(query.data_regime, 0.18)
    if query.frozen_encoder:
        w["frozen_encoder"] = 0.15
    # Using a model on one's own data: its pretraining imagery against the user's sensor and
    # resolution, and whether the weights can be had at all.
    if query.sensor or query.spatial_resolution_m is not None:
        w["imagery"] = 0.15
    w["availability"] = 0.12
    total = sum(max(v, 0.0) for v in w.values())
    return {k: max(v, 0.0) / total for k, v in w.items()}


def _dataset_list(names: Sequence[str], named: int) -> str:
    """'EuroSAT, BigEarthNet'; a long list (a suite) is counted: '9 of the 12 named datasets (A, B, ...)'."""
    if len(names) <= 4:
        return ", ".join(names)
    return f"{len(names)} of the {named} named datasets ({', '.join(names[:3])}, ...)"


def application_fit(c: Candidate, query: StructuredQuery, unevidenced: bool = False) -> Criterion:
    """Does the model do the user's kind of task? ``unevidenced``: no candidate reports a result on
    the application, so a model whose description names it is the nearest thing to evidence."""
    r = c.record
    tasks = set(r.all_task_types)
    shown_on_application = evaluated_on(r, query.application)
    # Retrieval pairs images with another modality: text (vision-language) or sound (vision-audio).
    cross_modal = (
        {Category.vision_language, Category.vision_audio}
        if query.task_type == "retrieval"
        else {Category.vision_language}
    )
    if query.task_type in VL_TASKS and r.category not in cross_modal and not shown_on_application:
        return Criterion(0.1, evidence=[f"{query.task_type} needs a vision-language model"], known=True)
    if reads_no_text_for(r, query):
        # 'open-vocabulary detection': the classes come as text, which a closed-set model cannot read.
        return Criterion(0.1, evidence=[f"{query.application} needs a model that reads text"], known=True)
    if query.conversational and not r.writes_text:
        # A CLIP-style model answers a question only by choosing among answers it is given.
        return Criterion(0.2, evidence=["writes no free text: it can only pick among given answers"])
    if query.application == "promptable segmentation" and not shown_on_application:
        # Clicks or boxes in, masks out: a segmenter trained with class heads takes no prompts.
        if r.takes_prompts:
            return Criterion(0.9, evidence=["segments from point or box prompts (SAM-style)"])
        # As a vision-language task needs a vision-language model: without prompts it cannot be done.
        if {"segmentation", "instance segmentation"} & tasks:
            return Criterion(0.1, evidence=["segments, but takes no point or box prompts"], known=True)
        return Criterion(0.1, evidence=["takes no point or box prompts"], known=True)
    if query.datasets:
        have = {dataset_identity(b.dataset) for b in r.benchmarks}
        if shown := sorted({d for d in query.datasets if dataset_identity(d) in have}):
            return Criterion(1.0, evidence=[f"evaluated on {_dataset_list(shown, len(query.datasets))}"])
    if shown_on_application and query.datasets:
        text = (
            f"evaluated on {query.application}, not on {_dataset_list(query.datasets, len(query.datasets))}"
        )
        # The user named the benchmark: a result elsewhere on the application is not a result there.
        return Criterion(0.8, evidence=[text])
    if shown_on_application:
        imagery = requested_imagery(query)
        on_users_imagery = not imagery or any(
            bench_application(b) == query.application and same_imagery(b, imagery) for b in r.benchmarks
        )
        if on_users_imagery:
            return Criterion(1.0, evidence=[f"evaluated on {query.application}"])
        return Criterion(0.9, evidence=[f"evaluated on {query.application}, but on other imagery"])
    if unevidenced and query.application and described_for(r, query.application):
        # 'archaeological sites': DeepAndes reports no result yet, but was built for them.
        return Criterion(0.9, evidence=[f"described as a model for {query.application}, no result recorded"])
    if pairs := image_pairs_only(r, query):
        return Criterion(0.3, evidence=[f"{query.task_type} of image pairs only ({', '.join(pairs)})"])
    if query.task_type and query.task_type in tasks:
        return Criterion(0.75, evidence=[f"handles {query.task_type}"])
    if query.task_type and tasks & RELATED_TASKS.get(query.task_type, frozenset()):
        return Criterion(0.55, evidence=[f"handles related tasks ({', '.join(sorted(tasks)[:3])})"])
    if not tasks:
        base = 0.35 + 0.3 * max(0.0, min(1.0, c.similarity))
        return Criterion(base, evidence=["task coverage not documented"], known=False)
    if query.task_type is None:
        return Criterion(
            0.5 + 0.3 * max(0.0, min(1.0, c.similarity)), evidence=["no task stated"], known=False
        )
    return Criterion(0.2, evidence=[f"shown on {', '.join(sorted(tasks)[:3])}, not {query.task_type}"])


_WAVELENGTH_AWARE = "wavelength-aware: takes arbitrary band sets"


def modality_fit(c: Candidate, query: StructuredQuery) -> Criterion:
    """Does the model take the user's data: modality, sensor, time series?"""
    found = _modality_fit(c, query)
    if (
        query.any_bands
        and c.record.spectral_alignment == Alignment.full
        and _WAVELENGTH_AWARE not in found.evidence
    ):
        found.evidence.insert(0, _WAVELENGTH_AWARE)  # what the user asked for first
    if query.pretrained_on and (matched := pretrained_on(c.record, query.pretrained_on)):
        found.evidence.insert(0, f"pretrained on {' and '.join(matched)}, as asked")
    return found


def _modality_fit(c: Candidate, query: StructuredQuery) -> Criterion:
    r = c.record
    wanted = requested_modalities(query)
    have = set(r.modalities)
    evidence: list[str] = []
    if not wanted:
        usual = set(query.assumed_modality) - {"Multi-temporal"}
        if usual and have & usual:
            found = Criterion(
                0.75, evidence=[f"takes {', '.join(sorted(have & usual))}, the usual input"], known=False
            )
        elif usual:
            found = Criterion(
                0.35, evidence=[f"takes {', '.join(sorted(have)) or 'unknown inputs'}"], known=False
            )
        else:
            found = Criterion(0.6, evidence=["no modality stated"], known=False)
        if coarse := _coarser_grid(r, query):
            found.score *= 0.5
            found.evidence.append(coarse)
        return found
    exact = wanted & have
    partial = {m for m in wanted - exact if have & COMPATIBLE_MODALITIES.get(m, frozenset())}
    either = wanted & EITHER_MODALITIES if query.either_modality else set()
    if either & exact:
        # 'Optical imagery': RGB or multispectral, either serving; a model for one meets the wish.
        partial -= either
        wanted = (wanted - either) | (either & exact)
    elif either:
        # One wish, met at best through related input (Hyperspectral for multispectral).
        one = min(either & partial or either)
        wanted = (wanted - either) | {one}
        partial = (partial - either) | ({one} & partial)
    # Coordinates with no imagery ('from coordinates alone'): a model that takes a location only
    # beside its imagery, as metadata, half meets it; a location encoder meets it.
    beside_imagery = (
        "Location" in exact and not requested_imagery(query) and r.category != Category.vision_location
    )
    # Each modality counts by its rarity in RS-FMD: beside common Multispectral, the thermal band
    # or the hyperspectral cube the user names is what makes the task theirs.
    weight = modality_rarity()
    total = sum(weight(m) for m in wanted)
    score = (
        sum(weight(m) for m in exact)
        - 0.5 * beside_imagery * weight("Location")
        + 0.5 * sum(weight(m) for m in partial)
    ) / total
    if beside_imagery:
        evidence.append("takes Location, but beside imagery (not a location encoder)")
        exact = exact - {"Location"}
    if exact:
        evidence.append(f"takes {', '.join(sorted(exact))}")
    if partial:
        through = sorted({h for m in partial for h in have & COMPATIBLE_MODALITIES[m]})
        evidence.append(f"{', '.join(sorted(partial))} only through related input ({', '.join(through)})")
    # How the model's pretraining imagery fits the user's sensor is the imagery criterion's.
    if coarse := _coarser_grid(r, query):
        score *= 0.5
        evidence.append(coarse)
    if query.multi_temporal:
        temporal = "Multi-temporal" in have or r.temporal_alignment in {Alignment.full, Alignment.partial}
        score = 0.8 * score + (0.2 if temporal else 0.0)
        evidence.append("models time series" if temporal else "single-date input only")
    return Criterion(min(score, 1.0), evidence=evidence)


@cache
def modality_rarity() -> Callable[[str], float]:
    """Weight of a modality in the modality fit: 1/sqrt(records in RS-FMD that take it)."""
    import json
    from collections import Counter

    from rsfmd.loader import data_files

    # Read from the shipped records' JSON (no validation needed to count a list of names).
    counts: Counter[str] = Counter()
    for file in data_files(None):
        for line in file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                counts.update(json.loads(line).get("modalities", []))
    return lambda modality: 1.0 / math.sqrt(max(counts.get(modality, 1), 1))


def image_pairs_only(record: ModelRecord, query: StructuredQuery) -> list[str]:
    """The image-pair applications (change captioning) a model does its task type on, when those
    are all it does it on and the user's task takes single images; else nothing. Read from its
    results of that task type, or, with none, from its description."""
    if not query.task_type or query.multi_temporal or query.application in PAIR_INPUT_APPLICATIONS:
        return []
    on_task = [bench_application(b) for b in record.benchmarks if b.task_type == query.task_type]
    if on_task:
        pairs = [a for a in on_task if a in PAIR_INPUT_APPLICATIONS]
        return sorted(set(pairs)) if len(pairs) == len(on_task) else []
    return sorted(a for a in PAIR_INPUT_APPLICATIONS if described_for(record, a))


def _coarser_grid(record: ModelRecord, query: StructuredQuery) -> str | None:
    """Why an embedding product is too coarse for the user's resolution: its embeddings cannot be
    finer than their grid."""
    grid = product_resolution_m(record) if record.category == Category.embedding_product else None
    wanted_m = query.spatial_resolution_m
    if grid is not None and wanted_m is not None and grid > 2 * wanted_m:
        return f"embeddings at {record.spatial_resolution}, coarser than your {wanted_m:g} m"
    return None


_LENGTH = re.compile(r"(\d+(?:\.\d+)?)\s*(km|m|cm|deg(?:ree)?s?|°)(?![a-z])", re.IGNORECASE)
_METRES = {"km": 1000.0, "m": 1.0, "cm": 0.01}


def product_resolution_m(record: ModelRecord) -> float | None:
    """The grid of an embedding product in metres ('10 m', '0.25 degree grid': about 27.8 km)."""
    match = _LENGTH.search(record.spatial_resolution or "")
    if match is None:
        return None
    value, unit = float(match.group(1)), match.group(2).lower()
    return value * _METRES.get(unit, 111_320.0)  # a degree of latitude


def performance_fit(
    c: Candidate, query: StructuredQuery, index: EvidenceIndex, predict: Predict | None
) -> Criterion:
    """Reported results on matching datasets, else a capabilities-encoding prediction."""
    items = index.relevant(c.record, query)
    # Within each relevance level, results under the user's label budget come first, then those
    # with the encoder frozen when the user will keep it frozen.
    wanted: list[str] = [query.data_regime] if query.data_regime in {"few-shot", "zero-shot"} else []
    if query.frozen_encoder:
        wanted.append("frozen")
    # With labels aplenty or none stated, a result from a 1% label split says less than one trained
    # on all labels: such results come last within their level and their standing counts half.
    few_labels_unasked = query.data_regime in {None, "full-labels"}

    def discounted(i: EvidenceItem) -> bool:
        return few_labels_unasked and i.setting == "few-shot"

    if wanted or few_labels_unasked:
        items = sorted(
            items,
            key=lambda i: (
                -RELEVANCE_WEIGHT[i.relevance],
                wanted.index(i.setting) if i.setting in wanted else len(wanted),
                discounted(i),
            ),
        )
    c.evidence_items = items
    # No result on the user's application itself: ask the capabilities encoding how the model
    # stands on the most similar datasets in the performance matrix.
    prediction = None
    if predict is not None and not any(i.relevance == "application" for i in items):
        prediction = predict(c.record, query)
        c.predicted = prediction
    # A prediction is task-level evidence; on other imagery it is only related evidence, as a
    # reported result on other imagery would be.
    predicted_score = (
        LEVEL_CREDIT["related" if prediction.other_imagery else "task"]
        * prediction.score
        * (1.0 - 0.5 * min(prediction.uncertainty, 1.0))
        if prediction
        else None
    )
    if items:
        level = items[0].relevance
        top = _distinct([i for i in items if i.relevance == level])[:3]
        values = [
            0.55 if i.standing is None else 0.55 + 0.5 * (i.standing - 0.55) if discounted(i) else i.standing
            for i in top
        ]
        score = LEVEL_CREDIT[level] * (0.25 + 0.75 * sum(values) / len(values))
        # Results on another application say what they are about ('on PASTIS, a crop type mapping
        # benchmark'), so they are not read as results on the user's application.
        evidence = [i.describe(name_application=query.application not in {None, i.application}) for i in top]
        if far := results_far_from([i.dataset for i in top], query):
            # Strong numbers on imagery unlike the user's transfer only in part.
            score *= 0.7
            evidence.append(far)
        if prediction is not None and predicted_score is not None:
            score = 0.5 * score + 0.5 * predicted_score
            evidence.append(f"predicted: {prediction.summary}")
        return Criterion(score, evidence=evidence)
    if prediction is not None and predicted_score is not None:
        return Criterion(predicted_score, evidence=[f"predicted: {prediction.summary}"], known=True)
    if c.record.benchmarks:
        return Criterion(0.3, evidence=["results reported only on unrelated tasks"], known=True)
    return Criterion(NO_RESULTS, evidence=["no reported results"], known=False)


def _distinct(items: list[EvidenceItem]) -> list[EvidenceItem]:
    """One item per dataset (protocol aside, as in ``EvidenceIndex.relevant``), metric, setting and
    variant, the first kept: a second source's other number for the same result stays in the
    evidence table, with its source, not in the reasons."""
    seen: set[tuple[str, str, str, str | None]] = set()
    out = []
    for item in items:
        key = (dataset_identity(item.dataset), item.metric, item.setting, item.variant)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def efficiency_fit(c: Candidate, query: StructuredQuery) -> Criterion:
    """Size of the smallest variant against the user's budget (log scale)."""
    size = c.record.smallest_parameters
    limit = query.compute.parameter_limit()
    if c.record.category == Category.embedding_product:
        return Criterion(1.0, evidence=["precomputed embeddings: no model to run"])
    if size is None:
        # Under a tight budget an undocumented size is a real risk (it is often an LLM-sized model).
        return Criterion(0.25 if limit is not None else 0.35, evidence=["size not documented"], known=False)
    floor = query.compute.min_parameters_m
    if floor is not None and query.compute.wants_large():
        # Asked for a large model ('over 1B parameters'): reaching the size is the fit, not smallness.
        largest = c.record.largest_parameters or size
        reached = query.compute.reaches_floor(largest)
        score = 1.0 if reached else max(0.05, 0.7 - 0.45 * math.log10(max(floor / largest, 1.0)))
        bound = "more than" if query.compute.above_floor else "at least"
        return Criterion(
            score, evidence=[f"largest variant {largest:g}M parameters (asked for {bound} {floor:g}M)"]
        )
    # Without a budget: 1.0 up to 25M parameters, 0.65 at 250M, 0.3 at 2.5B.
    absolute = max(0.05, min(1.0, 1.0 - 0.35 * math.log10(max(size, 1.0) / 25.0)))
    if limit is not None:
        # 1.0 at a quarter of the budget, 0.7 at the budget, 0.5 at 2.5x, near 0 at 50x: models over
        # the budget stay distinguishable when a closest match has to exceed it.
        score = max(0.03, min(1.0, 0.7 - 0.45 * math.log10(size / limit)))
        if {"efficiency", "speed"} & set(query.priorities):
            # Asked to be efficient under a loose budget (a GPU): smaller still counts.
            score = min(score, absolute)
    else:
        score = absolute
    budget = f" (budget {limit:g}M)" if limit is not None else ""
    confidence = size_confidence(c.record)
    if confidence < LOW_CONFIDENCE:
        # Derived (a named backbone's standard size, a count from released code) or secondary.
        text = (
            f"about {size:g}M parameters (not stated by the authors: derived or secondary, "
            f"confidence {confidence:.2g}){budget}"
        )
        return Criterion(score, evidence=[text], known=False)
    return Criterion(score, evidence=[f"smallest variant {size:g}M parameters{budget}"])


def generalizability_fit(c: Candidate, query: StructuredQuery | None = None) -> Criterion:
    """Diversity and scale of pretraining: regions, modalities, sensors, images.

    When the task names a region, geography is how well the pretraining regions, and the
    datasets the model was evaluated on, cover it.
    """
    r = c.record
    names = _region_names(r)
    regions = " ".join(n.lower() for n in names)
    images = sum(p.num_images or 0 for p in r.pretraining_phases)
    known = bool(regions or images or r.supported_sensors)
    geo = 1.0 if ("global" in regions or "world" in regions) else 0.6 if regions else 0.4
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
    scale = min(1.0, math.log10(images) / 7) if images > 0 else 0.3
    if query is not None and (query.modality or query.sensor):
        # The user's data is known: breadth over other modalities and sensors serves them not at
        # all (fit to their own data is judged by the modality and imagery criteria).
        score = 0.55 * geo + 0.45 * scale
    else:
        score = 0.35 * geo + 0.25 * mods + 0.15 * sensors + 0.25 * scale
    if names and not any(e.startswith("pretrain") for e in evidence):
        evidence.append(f"pretrained on data covering {_shorten(', '.join(names), 60)}")
    if images:
        evidence.append(f"{images:,} pretraining images")
    return Criterion(score, evidence=evidence, known=known)


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
    region_names, derived_from = _region_names(record), ""
    if not region_names:
        region_names, corpora = _pretraining_dataset_regions(record)
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
    names = _shorten(", ".join(region_names), 60) + derived_from
    # The pretraining regions that give the coverage: 'global', 'Africa', not every region listed.
    via = [n for n in region_names if coverage(_regions_in(n), wanted) is pretraining]
    shown = "global" if any(region_kind(g) == "scope" for n in via for g in _regions_in(n)) else ""
    shown = (shown or _shorten(", ".join(via), 40)) + derived_from
    evidence: list[str] = []
    if pretraining is Coverage.covers:
        evidence.append(f"pretraining data covers {where} ({shown})")
    elif pretraining is Coverage.inside:
        evidence.append(f"pretraining data covers part of {where} ({shown})")
    if from_region:
        groups = "; ".join(
            f"{region}: {', '.join(sorted(sets))}" for region, sets in sorted(from_region.items())
        )
        evidence.append(f"evaluated on data from {_shorten(groups, 70)}")
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


# Pretext descriptions that say the model learnt from labels (or was only fine-tuned).
_NOT_SELF_SUPERVISED = re.compile(r"\s*(?:none\b|n/a\b|(?:fully )?supervised\b)", re.IGNORECASE)


def _region_names(record: ModelRecord) -> list[str]:
    """Pretraining regions, each once ('global' is dropped when 'global (1.2M locations)' is there)."""
    names: dict[str, str] = {}
    for phase in record.pretraining_phases:
        for region in phase.regions_coverage:
            if region.strip():
                names.setdefault(region.strip().lower(), region.strip())
    return [n for k, n in names.items() if not any(o != k and o.startswith(k + " (") for o in names)]


def _shorten(text: str, limit: int) -> str:
    """``text`` cut at a word boundary before ``limit`` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;( ")
    return f"{cut}…"


def popularity_fit(c: Candidate) -> Criterion:
    """Stars or citations when known; else how many independent evaluations include the model."""
    r = c.record
    if r.github_stars is not None or r.citations is not None:
        count = max(r.github_stars or 0, r.citations or 0)
        return Criterion(min(1.0, math.log10(count + 1) / 3.5), evidence=[f"{count} stars/citations"])
    # The model's own pages (its paper, repository and the sources its record cites) are no
    # independent evaluation of it.
    own = {s.url for s in r.sources}
    prefixes = tuple(u.rstrip("/") for u in (r.repository, r.paper_link) if u)
    sources = {
        url
        for b in r.benchmarks
        if (url := b.source_url) not in own and not (prefixes and url.startswith(prefixes))
    }
    score = min(1.0, 0.3 + 0.2 * len(sources))
    return Criterion(score, evidence=[f"in {len(sources)} independent evaluation(s)"], known=bool(sources))


def _release_day(record: ModelRecord) -> dt.date | None:
    """The release date, or mid-year when only the year is known; None when neither is."""
    if record.release_date is not None:
        return record.release_date
    return dt.date(record.year, 7, 1) if record.year is not None else None


def recency_fit(c: Candidate, newest: dt.date | None = None) -> Criterion:
    """Release year, as in the rubric (2025+ best).

    When the user asks for the latest models, ``newest`` (the latest release among the candidates)
    sets a finer scale: 1.0 for it, 0.2 less for every year before it.
    """
    released = _release_day(c.record)
    if released is None:
        return Criterion(0.4, evidence=["release date unknown"], known=False)
    year = released.year
    if newest is not None:
        score = max(0.0, 1.0 - 0.2 * (newest - released).days / 365.25)
        shown = c.record.release_date.isoformat() if c.record.release_date else str(year)
        return Criterion(min(score, 1.0), evidence=[f"released {shown}"])
    score = {2026: 1.0, 2025: 1.0, 2024: 0.8, 2023: 0.6, 2022: 0.4}.get(year, 0.2 if year < 2022 else 1.0)
    return Criterion(score, evidence=[f"released {year}"])


def _result_settings(record: ModelRecord) -> set[tuple[str, str]]:
    """(task type, coarse setting) of every reported result."""
    return {(b.task_type, setting_class(b)) for b in record.benchmarks}


def regime_fit(c: Candidate, query: StructuredQuery) -> Criterion:
    """How usable the model is with the user's amount of labelled data."""
    r = c.record
    tasks = set(r.all_task_types)
    settings = {i.setting for i in c.evidence_items}
    if query.data_regime == "zero-shot":
        # Usable without labels means usable for *this* task without training a head.
        task = query.task_type
        classification_like = task in {None, "classification", "zero-shot classification", "retrieval"}
        if r.category == Category.vision_language:
            # Declared abilities or zero-shot results count; a benchmark with a trained decoder does not.
            zero_shot = set(r.task_types) | {
                t for t, setting in _result_settings(r) if setting == "zero-shot"
            }
            if (
                task is not None
                and task in zero_shot
                and task not in {"classification", "multi-label classification"}
            ):
                return Criterion(1.0, evidence=[f"does {task} from text prompts, without training"])
            if classification_like and tasks & {"zero-shot classification", "retrieval"}:
                return Criterion(1.0, evidence=["usable without training (zero-shot vision-language)"])
            return Criterion(0.45, evidence=[f"vision-language, but not shown doing {task} without training"])
        if "zero-shot" in settings:
            return Criterion(0.9, evidence=["zero-shot results reported"])
        if r.category == Category.embedding_product:
            return Criterion(0.7, evidence=["precomputed embeddings: cluster or search them without labels"])
        return Criterion(0.25, evidence=["needs at least a trained head"])
    if query.data_regime == "few-shot":
        low = [i for i in c.evidence_items if i.setting == "few-shot"]
        if low:
            # A low-label result shows the model was tried with few labels; on what, and how it
            # did, say how well: #1 on the user's application counts fully, an unranked result
            # on a related task little more than good frozen features.
            best = max(low, key=_strength)
            return Criterion(0.65 + 0.35 * _strength(best), evidence=[f"low-label result: {best.describe()}"])
        if "frozen" in settings or r.category == Category.embedding_product:
            return Criterion(0.75, evidence=["strong frozen features (linear probe / kNN)"])
        return Criterion(0.5, evidence=["no low-label results reported"], known=False)
    if query.data_regime == "unlabeled":
        if r.category == Category.embedding_product:
            return Criterion(1.0, evidence=["precomputed embeddings for unsupervised use"])
        if evaluated_on(r, query.application) and r.weights_released:
            # Released weights already trained for the user's application need no labels of theirs.
            return Criterion(0.9, evidence=[f"released weights already trained for {query.application}"])
        pretext = r.pretext_training_type or ""
        if _NOT_SELF_SUPERVISED.match(pretext):
            text = f"pretrained with labels, not self-supervised ({_shorten(pretext, 40)})"
            return Criterion(0.4, evidence=[text])
        if pretext:
            return Criterion(0.8, evidence=[f"self-supervised pretraining ({_shorten(pretext, 40)})"])
        return Criterion(0.5, known=False)
    return Criterion(0.7, evidence=["full fine-tuning possible"])


def _strength(i: EvidenceItem) -> float:
    """What a result under a protocol says of a model: #1 on the user's application counts fully,
    an unranked result on a related task little more than half."""
    standing = i.standing if i.standing is not None else 0.55
    return RELEVANCE_WEIGHT[i.relevance] * (0.5 + 0.5 * standing)


def frozen_fit(c: Candidate) -> Criterion:
    """How well the model serves with its encoder frozen (linear probe, k-NN, similarity search)."""
    r = c.record
    if r.category == Category.embedding_product:
        return Criterion(0.9, evidence=["precomputed embeddings: frozen features by design"])
    if r.category == Category.generative:
        return Criterion(0.2, evidence=["a generative model, not an encoder"])
    frozen = [i for i in c.evidence_items if i.setting == "frozen"]
    if frozen:
        best = max(frozen, key=_strength)
        return Criterion(0.6 + 0.4 * _strength(best), evidence=[best.describe()])
    if any(setting_class(b) == "frozen" for b in r.benchmarks):
        return Criterion(0.6, evidence=["frozen-encoder results reported on other tasks"])
    if r.benchmarks:
        return Criterion(0.4, evidence=["no result reported with the encoder frozen"], known=False)
    return Criterion(0.45, known=False)


def unconfirmed_requirements(record: ModelRecord, query: StructuredQuery) -> list[str]:
    """The user's licence, weights, release-year and backbone requirements RS-FMD cannot confirm for
    this record."""
    out = []
    if query.licenses and within_licenses(record.license, query.licenses) is None:
        out.append(f"{with_article(' or '.join(query.licenses))} licence")
    elif query.commercial_use and allows_commercial_use(record.license) is None:
        out.append("commercial use")
    if query.open_weights and record.weights_released is None:
        out.append("downloadable weights")
    if (years := query.release_years()) and record.year is None:
        out.append(years)
    if query.architectures and not record.architectures:
        out.append(f"{with_article(' or '.join(query.architectures))} backbone")
    return out


def no_result_on_application(candidates: Sequence[Candidate], query: StructuredQuery) -> bool:
    """Whether the task names an application on which none of ``candidates`` reports a result."""
    return bool(query.application) and not any(evaluated_on(c.record, query.application) for c in candidates)


def score_candidates(
    candidates: Sequence[Candidate],
    query: StructuredQuery,
    index: EvidenceIndex,
    predict: Predict | None = None,
    unevidenced: bool | None = None,
) -> list[Candidate]:
    """Score every candidate (0-100) with per-model confidence; best first. ``unevidenced``:
    ``no_result_on_application`` of the candidates, when the caller has it already."""
    weights = query_weights(query)
    dates = [d for c in candidates if (d := _release_day(c.record))]
    newest = max(dates) if "recency" in query.priorities and dates else None
    if unevidenced is None:
        unevidenced = no_result_on_application(candidates, query)
    for c in candidates:
        crit = {
            "application": application_fit(c, query, unevidenced),
            "modality": modality_fit(c, query),
            "performance": performance_fit(c, query, index, predict),
            "efficiency": efficiency_fit(c, query),
            "generalizability": generalizability_fit(c, query),
            "popularity": popularity_fit(c),
            "recency": recency_fit(c, newest),
        }
        if "data_regime" in weights:
            crit["data_regime"] = regime_fit(c, query)
        if "frozen_encoder" in weights:
            crit["frozen_encoder"] = frozen_fit(c)
        if "imagery" in weights and (imagery := imagery_fit(c.record, query)) is not None:
            crit["imagery"] = Criterion(imagery[0], evidence=imagery[1])
        available, why, known = availability_fit(c.record)
        crit["availability"] = Criterion(available, evidence=why, known=known)
        for name, criterion in crit.items():
            criterion.weight = weights[name]
        c.criteria = crit
        raw = sum(cr.score * cr.weight for cr in crit.values()) + c.memory_delta
        # A broken constraint (closest match) costs more than a requirement no source confirms.
        penalty = 0.08 * len(c.relaxed) + 0.04 * len(unconfirmed_requirements(c.record, query))
        c.score = round(100.0 * max(0.0, min(1.0, raw - penalty)), 1)
    # Models that meet every constraint come before closest matches, whatever their scores.
    ranked = sorted(candidates, key=lambda x: (bool(x.relaxed), -x.score, x.record.model_name.lower()))
    for i, c in enumerate(ranked):
        coverage = sum(cr.weight for cr in c.criteria.values() if cr.known)
        nxt = ranked[i + 1].score if i + 1 < len(ranked) else c.score - 10.0
        margin = min(1.0, max(0.0, c.score - nxt) / 6.0)
        c.confidence = round(max(0.0, min(1.0, 0.65 * coverage + 0.35 * margin - 0.15 * len(c.relaxed))), 2)
    return ranked


def overall_confidence(ranked: Sequence[Candidate], k: int, query: StructuredQuery) -> float:
    """Confidence in the top-k as a whole: per-model confidences, less for missing mandatory fields."""
    top = ranked[:k]
    if not top:
        return 0.0
    mean = sum(c.confidence for c in top) / len(top)
    return round(max(0.0, mean - 0.2 * len(query.missing_mandatory())), 2)
