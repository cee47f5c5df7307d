"""The REMSA paper's seven-criterion rubric (Table 1, App. G rules, App. I weights), scored from query slots.

Every criterion is a pure function of the benchmark query's ground-truth constraints and the RS-FMD
record; it returns a score (half steps) and a short reason. Scores are 1-5, except efficiency, which
the paper puts on 0-5 (App. G; Table 6 has a 0).

Final score (App. I, "linearly mapped to 1-100"): ``final = 100 * sum(w_i * s_i) / (5 * sum(w_i))``,
i.e. 20 x the weighted mean. This reproduces 15 of the 17 rows of the paper's Table 6 exactly once
Table 6's CR5 column is read as popularity and CR6 as generalisability (the caption swaps the two
labels; with the caption's order only 3 rows match); the remaining two rows are typos in the table
(see tests/test_rubric.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from benchmark_queries.generate import BenchmarkQuery, SlotVocabulary, load_slot_vocabulary
from evaluation.evidence import (
    GLOBAL_WORDS,
    MODALITY_PARTIAL,
    PerformanceIndex,
    QueryConstraints,
    clip,
    matches_application,
    record_modalities,
    record_sensors,
    regime_fits,
    related_task,
    round_half,
    same_domain,
)
from rsfmd.schema import ModelRecord


class Criterion(StrEnum):
    """The seven criteria of the paper's Table 1."""

    application = "application_compatibility"
    modality = "modality_match"
    performance = "reported_performance"
    efficiency = "efficiency"
    generalisability = "generalisability"
    popularity = "popularity"
    recency = "recency"


WEIGHTS: Mapping[Criterion, float] = {
    Criterion.application: 0.25,
    Criterion.modality: 0.20,
    Criterion.performance: 0.20,
    Criterion.efficiency: 0.15,
    Criterion.generalisability: 0.10,
    Criterion.popularity: 0.05,
    Criterion.recency: 0.05,
}
"""Appendix I weights (fractions)."""

NEUTRAL = 2.5
"""Score given when the evidence a criterion needs is unknown (stated in the reason)."""

# Efficiency anchors: parameters (millions) that score 5 and 0 for each compute budget (log scale).
_EFFICIENCY_ANCHORS: Mapping[str, tuple[float, float]] = {
    "strict": (5.0, 500.0),
    "moderate": (10.0, 3000.0),
    "lenient": (100.0, 30000.0),
}
_STRICT_BUDGETS = frozenset({"cpu", "edge", "lightweight", "limited"})


class CriterionScore(BaseModel):
    """One criterion's score for one model-query pair, with the reason shown in the report."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    criterion: Criterion
    score: float = Field(ge=0, le=5)
    reason: str


class PairScore(BaseModel):
    """All criteria and the final 1-100 score of one model for one query."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    query_id: str
    model_id: str
    in_database: bool = True
    criteria: list[CriterionScore]
    final: float = Field(ge=0, le=100)

    def scores(self) -> dict[Criterion, float]:
        """Criterion to score."""
        return {c.criterion: c.score for c in self.criteria}

    def final_with(self, weights: Mapping[Criterion, float]) -> float:
        """The final score under other weights (e.g. with a criterion removed)."""
        return final_score(self.scores(), weights) if self.in_database else 0.0


def final_score(scores: Mapping[Criterion, float], weights: Mapping[Criterion, float] = WEIGHTS) -> float:
    """Weighted criterion scores mapped to 100: ``100 * sum(w*s) / (5 * sum(w))`` over weighted criteria."""
    total = sum(weights.values())
    if total <= 0:
        raise ValueError("weights must sum to a positive number")
    return 100.0 * sum(w * scores[c] for c, w in weights.items()) / (5.0 * total)


def weights_without(
    removed: Iterable[Criterion], weights: Mapping[Criterion, float] = WEIGHTS
) -> dict[Criterion, float]:
    """Weights with ``removed`` criteria dropped and the rest re-normalised to sum 1 (paper Table 3)."""
    kept = {c: w for c, w in weights.items() if c not in set(removed)}
    total = sum(kept.values())
    if total <= 0:
        raise ValueError("cannot remove every weighted criterion")
    return {c: w / total for c, w in kept.items()}


def application_compatibility(q: QueryConstraints, record: ModelRecord) -> CriterionScore:
    """Query application/task type against the record's benchmarks and task types (vocabulary match)."""
    c = Criterion.application
    if q.application is None or q.task_type is None:
        return CriterionScore(criterion=c, score=3.0, reason="query names no application; neutral 3")
    if any(matches_application(b, q) for b in record.benchmarks):
        return CriterionScore(criterion=c, score=5.0, reason=f"benchmarked on {q.application}")
    tasks = record.all_task_types
    if q.task_type in tasks:
        if any(same_domain(b, q) for b in record.benchmarks):
            return CriterionScore(
                criterion=c, score=4.5, reason=f"does {q.task_type}; benchmarked in {q.domain}"
            )
        return CriterionScore(
            criterion=c, score=4.0, reason=f"does {q.task_type}, not shown on {q.application}"
        )
    related = [t for t in tasks if related_task(t, q.task_type)]
    if related:
        return CriterionScore(criterion=c, score=3.0, reason=f"related task only ({', '.join(related)})")
    if not tasks:
        return CriterionScore(criterion=c, score=2.0, reason="record lists no task types")
    return CriterionScore(criterion=c, score=1.5, reason=f"no {q.task_type} or related task")


def _modality_relation(wanted: str, offered: set[str]) -> tuple[float, str]:
    if wanted in offered:
        return 5.0, f"takes {wanted}"
    partial = [(MODALITY_PARTIAL[(wanted, m)], m) for m in offered if (wanted, m) in MODALITY_PARTIAL]
    if partial:
        score, modality = max(partial)
        return score, f"takes {modality}, not {wanted} (partial)"
    return 1.0, f"does not take {wanted}"


def modality_match(q: QueryConstraints, record: ModelRecord) -> CriterionScore:
    """Query sensor/modality against the record's supported sensors and modalities."""
    c = Criterion.modality
    offered = record_modalities(record)
    if not offered:
        return CriterionScore(criterion=c, score=2.0, reason="record lists no modality or sensor")
    if q.sensor is not None:
        if q.sensor in record_sensors(record):
            return CriterionScore(criterion=c, score=5.0, reason=f"supports {q.sensor}")
        if q.modality in offered:
            return CriterionScore(criterion=c, score=4.0, reason=f"takes {q.modality}, {q.sensor} not listed")
        score, reason = _modality_relation(q.modality or "", offered)
        return CriterionScore(criterion=c, score=min(score, 3.5), reason=reason)
    if q.modality is not None:
        score, reason = _modality_relation(q.modality, offered)
        return CriterionScore(criterion=c, score=score, reason=reason)
    if not q.application_modalities:
        return CriterionScore(criterion=c, score=3.0, reason="query states no modality; neutral 3")
    typical = sorted(offered & set(q.application_modalities))
    if typical:
        return CriterionScore(
            criterion=c, score=4.0, reason=f"no modality stated; takes {', '.join(typical)}"
        )
    return CriterionScore(
        criterion=c, score=2.0, reason="no modality stated; takes none typical for the task"
    )


def _tier_score(level: float, steps: Sequence[tuple[float, float]], floor: float) -> float:
    for threshold, score in steps:
        if level >= threshold:
            return score
    return floor


def reported_performance(q: QueryConstraints, record: ModelRecord, index: PerformanceIndex) -> CriterionScore:
    """Benchmarks of the same application, else same task type, else related task; none scores 1."""
    c = Criterion.performance
    benchmarks = record.benchmarks
    if q.application is not None and q.task_type is not None:
        tiers = [
            (
                "same application",
                [b for b in benchmarks if matches_application(b, q)],
                [(0.9, 5.0), (0.75, 4.5), (0.5, 4.0)],
                3.5,
            ),
            (
                "same task type",
                [b for b in benchmarks if b.task_type == q.task_type],
                [(0.9, 4.0), (0.75, 3.5)],
                3.0,
            ),
            (
                "related task",
                [b for b in benchmarks if related_task(b.task_type, q.task_type)],
                [(0.75, 2.5)],
                2.0,
            ),
        ]
    else:
        tiers = [
            (
                "same sensor",
                [b for b in benchmarks if q.sensor and q.sensor in b.sensor],
                [(0.9, 4.0), (0.75, 3.5)],
                3.0,
            ),
            ("any task", list(benchmarks), [(0.75, 2.5)], 2.0),
        ]
    for name, found, steps, floor in tiers:
        if not found:
            continue
        best = max(found, key=lambda b: index.level(record.model_id, b))
        level = index.level(record.model_id, best)
        score = _tier_score(level, steps, floor)
        reason = f"{name}: {best.dataset} (standing {level:.2f})"
        if any(regime_fits(b, q.data_regime) for b in found):
            score = min(5.0, score + 0.5)
            reason += f"; {q.data_regime} protocol reported"
        return CriterionScore(criterion=c, score=score, reason=reason)
    return CriterionScore(criterion=c, score=1.0, reason="no relevant benchmark reported")


def _budget(q: QueryConstraints) -> str:
    if q.compute in _STRICT_BUDGETS or q.priority == "speed":
        return "strict"
    if q.compute == "cluster" or (q.compute is None and q.priority == "accuracy"):
        return "lenient"
    return "moderate"


def efficiency(q: QueryConstraints, record: ModelRecord, performance: float) -> CriterionScore:
    """Normalised parameter count (0-5 complexity, per the query's compute budget) relative to performance.

    complexity = 5 * log-position of the parameters between the budget's anchors; efficiency =
    5 - complexity / (0.5 + 0.5 * performance/5), so strong reported results soften the size penalty.
    """
    c = Criterion.efficiency
    budget = _budget(q)
    params = (
        record.smallest_parameters
        if budget == "strict"
        else (record.num_parameters or record.smallest_parameters)
    )
    if params is None:
        return CriterionScore(criterion=c, score=NEUTRAL, reason="parameter count unknown; neutral 2.5")
    small, large = _EFFICIENCY_ANCHORS[budget]
    position = (math.log10(max(params, 1e-3)) - math.log10(small)) / (math.log10(large) - math.log10(small))
    complexity = 5.0 * clip(position, 0.0, 1.0)
    score = round_half(clip(5.0 - complexity / (0.5 + 0.5 * performance / 5.0), 0.0, 5.0))
    return CriterionScore(criterion=c, score=score, reason=f"{params:g}M parameters for a {budget} budget")


def _log_score(value: int, low: float, high: float) -> float:
    position = (math.log10(value + 1) - math.log10(low)) / (math.log10(high) - math.log10(low))
    return round_half(1.0 + 4.0 * clip(position, 0.0, 1.0))


def popularity(record: ModelRecord) -> CriterionScore:
    """GitHub stars (10 -> 1, 5000 -> 5, log scale) when known, else citations (5 -> 1, 2000 -> 5)."""
    c = Criterion.popularity
    if record.github_stars is not None:
        score = _log_score(record.github_stars, 10, 5000)
        return CriterionScore(criterion=c, score=score, reason=f"{record.github_stars} GitHub stars")
    if record.citations is not None:
        score = _log_score(record.citations, 5, 2000)
        return CriterionScore(criterion=c, score=score, reason=f"{record.citations} citations")
    return CriterionScore(criterion=c, score=NEUTRAL, reason="stars and citations unknown; neutral 2.5")


def _geographic(record: ModelRecord) -> tuple[float | None, str]:
    regions = {r.strip().lower() for p in record.pretraining_phases for r in p.regions_coverage if r.strip()}
    if not regions:
        return None, "regions unknown"
    if any(word in r for r in regions for word in GLOBAL_WORDS):
        return 5.0, "global"
    if len(regions) >= 3:
        return 4.0, f"{len(regions)} regions"
    if len(regions) == 2:
        return 3.0, "2 regions"
    return 1.5, "single region"


def _scale(record: ModelRecord) -> tuple[float | None, str]:
    counts = [p.num_images for p in record.pretraining_phases if p.num_images]
    if not counts:
        return None, "scale unknown"
    total = sum(counts)
    for threshold, score in ((10_000_000, 5.0), (1_000_000, 4.0), (100_000, 3.0), (10_000, 2.0)):
        if total >= threshold:
            return score, f"{total:,} images"
    return 1.0, f"{total:,} images"


def generalisability(record: ModelRecord) -> CriterionScore:
    """Mean of geographic diversity, modality diversity and pretraining scale (unknown parts neutral)."""
    c = Criterion.generalisability
    geo, geo_reason = _geographic(record)
    modalities = record_modalities(record)
    diversity = min(5.0, 1.0 + len(modalities)) if modalities else None
    scale, scale_reason = _scale(record)
    parts = [geo, diversity, scale]
    if all(p is None for p in parts):
        return CriterionScore(criterion=c, score=NEUTRAL, reason="pretraining data undocumented; neutral 2.5")
    score = round_half(sum(p if p is not None else NEUTRAL for p in parts) / 3)
    reason = f"{geo_reason}; {len(modalities)} modalities; {scale_reason}"
    return CriterionScore(criterion=c, score=score, reason=reason)


def recency(record: ModelRecord) -> CriterionScore:
    """Latest of release and last update: 2025-2026 = 5, 2024 = 4, 2023 = 3, 2022 = 2, older = 1."""
    c = Criterion.recency
    years = [y for y in (record.year, record.last_updated.year if record.last_updated else None) if y]
    if not years:
        return CriterionScore(criterion=c, score=1.0, reason="release date unknown")
    year = max(years)
    score = 5.0 if year >= 2025 else {2024: 4.0, 2023: 3.0, 2022: 2.0}.get(year, 1.0)
    return CriterionScore(criterion=c, score=score, reason=f"{year}")


class Rubric:
    """Scores models for benchmark queries against RS-FMD (the judge; it never asks a selection system)."""

    def __init__(self, records: Sequence[ModelRecord], vocabulary: SlotVocabulary | None = None) -> None:
        self._records = {r.model_id: r for r in records}
        self._index = PerformanceIndex(records)
        self._vocabulary = vocabulary or load_slot_vocabulary()

    def constraints(self, query: BenchmarkQuery) -> QueryConstraints:
        """The query's ground-truth constraints."""
        return QueryConstraints.from_query(query, self._vocabulary)

    def score(self, query: BenchmarkQuery, model_id: str) -> PairScore:
        """All seven criteria and the final score; a model id not in RS-FMD scores 0 on everything."""
        record = self._records.get(model_id)
        if record is None:
            reason = "not in RS-FMD"
            criteria = [CriterionScore(criterion=c, score=0.0, reason=reason) for c in Criterion]
            return PairScore(
                query_id=query.id, model_id=model_id, in_database=False, criteria=criteria, final=0.0
            )
        q = self.constraints(query)
        performance = reported_performance(q, record, self._index)
        criteria = [
            application_compatibility(q, record),
            modality_match(q, record),
            performance,
            efficiency(q, record, performance.score),
            generalisability(record),
            popularity(record),
            recency(record),
        ]
        final = final_score({s.criterion: s.score for s in criteria})
        return PairScore(query_id=query.id, model_id=model_id, criteria=criteria, final=round(final, 4))
