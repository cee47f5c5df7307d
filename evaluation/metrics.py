"""Benchmark metrics of the REMSA paper (Table 2, Table 3) and a task-difficulty-weighted ranking.

Conventions where the paper is silent:

- A system whose every pick is ``skipped`` is not scored (it is listed as skipped). Skipped picks
  never enter the candidate pool of a query.
- A non-skipped pick with no model (failed, needs clarification) counts as score 0, no hit, RR 0.
- Avg Set averages the models a system returned (up to k); Top-1 Hit and MRR compare against the
  best final score among all scored systems' top-k candidates for the query; ties count as hits.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel

from evaluation.rubric import WEIGHTS, Criterion, PairScore, weights_without

HQ_THRESHOLD = 80.0
_EPS = 1e-9

ScoreTable = Mapping[tuple[str, str], float]
"""(query id, model id) to final 1-100 score."""


@dataclass(frozen=True)
class Outcome:
    """What one system answered for one query, as the metrics need it."""

    system: str
    query_id: str
    template: str
    model_ids: tuple[str, ...]
    status: str = "ok"
    latency_s: float = 0.0


class SystemMetrics(BaseModel):
    """Paper Table 2 metrics for one system, plus coverage and latency."""

    system: str
    queries: int
    failed: int
    avg_top1: float
    avg_set: float
    top1_hit: float
    hq_hit: float
    mrr: float
    latency_p50_s: float | None
    latency_p95_s: float | None


class RankedSystem(BaseModel):
    """One system in the cross-template ranking."""

    system: str
    rank: int
    weighted_rank: float
    mean_quality: float


class CrossTemplateRanking(BaseModel):
    """Difficulty-weighted ranking (EO embedding benchmark, section 3, Eq. 2) over templates."""

    systems: list[RankedSystem]
    task_weights: dict[str, float]
    task_ranks: dict[str, dict[str, int]]


def scored_outcomes(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """Outcomes that take part in scoring (not skipped)."""
    return [o for o in outcomes if o.status != "skipped"]


def skipped_systems(outcomes: Sequence[Outcome]) -> list[str]:
    """Systems all of whose outcomes are skipped."""
    systems = {o.system for o in outcomes}
    scored = {o.system for o in scored_outcomes(outcomes)}
    return sorted(systems - scored)


def best_scores(outcomes: Sequence[Outcome], scores: ScoreTable, k: int = 3) -> dict[str, float]:
    """Per query: the best score among all scored systems' top-k candidates."""
    best: dict[str, float] = {}
    for o in scored_outcomes(outcomes):
        for model_id in o.model_ids[:k]:
            value = scores[(o.query_id, model_id)]
            best[o.query_id] = max(value, best.get(o.query_id, float("-inf")))
    return best


def reciprocal_rank(model_ids: Sequence[str], query_id: str, scores: ScoreTable, best: float | None) -> float:
    """1/rank of the first model in the list that reaches the best score; 0 when none does."""
    if best is None:
        return 0.0
    for rank, model_id in enumerate(model_ids, start=1):
        if scores[(query_id, model_id)] >= best - _EPS:
            return 1.0 / rank
    return 0.0


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolation percentile (numpy default); None for no values."""
    return float(np.percentile(np.asarray(values, dtype=float), q)) if values else None


def system_metrics(
    outcomes: Sequence[Outcome], scores: ScoreTable, k: int = 3, hq_threshold: float = HQ_THRESHOLD
) -> list[SystemMetrics]:
    """Avg Top-1, Avg Set, Top-1 Hit, HQ Hit, MRR and latency per scored system (sorted by name)."""
    scored = scored_outcomes(outcomes)
    best = best_scores(scored, scores, k)
    by_system: dict[str, list[Outcome]] = defaultdict(list)
    for o in scored:
        by_system[o.system].append(o)
    out: list[SystemMetrics] = []
    for system in sorted(by_system):
        rows = by_system[system]
        top1: list[float] = []
        sets: list[float] = []
        hits = hq = 0
        rr: list[float] = []
        for o in rows:
            ids = o.model_ids[:k]
            values = [scores[(o.query_id, m)] for m in ids]
            top1.append(values[0] if values else 0.0)
            sets.append(sum(values) / len(values) if values else 0.0)
            query_best = best.get(o.query_id)
            hits += int(bool(values) and query_best is not None and values[0] >= query_best - _EPS)
            hq += int(bool(values) and values[0] >= hq_threshold)
            rr.append(reciprocal_rank(ids, o.query_id, scores, query_best))
        latencies = [o.latency_s for o in rows]
        n = len(rows)
        out.append(
            SystemMetrics(
                system=system,
                queries=n,
                failed=sum(1 for o in rows if not o.model_ids),
                avg_top1=sum(top1) / n,
                avg_set=sum(sets) / n,
                top1_hit=hits / n,
                hq_hit=hq / n,
                mrr=sum(rr) / n,
                latency_p50_s=percentile(latencies, 50),
                latency_p95_s=percentile(latencies, 95),
            )
        )
    return out


def per_template(
    outcomes: Sequence[Outcome], scores: ScoreTable, k: int = 3
) -> dict[str, list[SystemMetrics]]:
    """System metrics within each template (the candidate pool stays per query)."""
    templates = sorted({o.template for o in outcomes})
    return {t: system_metrics([o for o in outcomes if o.template == t], scores, k) for t in templates}


SENSITIVITY_SETTINGS: Mapping[str, tuple[Criterion, ...]] = {
    "Full scoring (all criteria)": (),
    "w/o Application compatibility": (Criterion.application,),
    "w/o Modality match": (Criterion.modality,),
    "w/o Reported performance": (Criterion.performance,),
    "w/o Efficiency": (Criterion.efficiency,),
    "w/o Generalisability": (Criterion.generalisability,),
    "w/o Popularity": (Criterion.popularity,),
    "w/o Recency": (Criterion.recency,),
    "w/o Popularity+Recency": (Criterion.popularity, Criterion.recency),
}
"""Paper Table 3 settings (plus popularity and recency removed one at a time)."""


def sensitivity(
    outcomes: Sequence[Outcome], pair_scores: Mapping[tuple[str, str], PairScore], k: int = 3
) -> dict[str, list[SystemMetrics]]:
    """Metrics with each criterion removed in turn, remaining weights re-normalised."""
    out: dict[str, list[SystemMetrics]] = {}
    for name, removed in SENSITIVITY_SETTINGS.items():
        weights = weights_without(removed, WEIGHTS)
        table = {key: score.final_with(weights) for key, score in pair_scores.items()}
        out[name] = system_metrics(outcomes, table, k)
    return out


def competition_ranks(values: Mapping[str, float]) -> dict[str, int]:
    """Rank 1 = highest value; tied entries all get the better (lower) rank."""
    return {name: 1 + sum(1 for other in values.values() if other > v + _EPS) for name, v in values.items()}


def difficulty_weighted_ranking(quality: Mapping[str, Mapping[str, float]]) -> CrossTemplateRanking:
    """Rank systems across tasks, weighting each task by the spread of its scores across systems.

    ``quality`` maps task (template) to system to quality (here Avg Top-1). Following the EO embedding
    benchmark (Eq. 2): R_t per task (ties share the better rank), w_t = std_p(Q_t) / sum_t std_p(Q_t)
    with the population std, s(p) = sum_t w_t R_t, final rank by ascending s. Only tasks every system
    has a value for are used; when every task has zero spread the weights are uniform.
    """
    systems = sorted({s for per_task in quality.values() for s in per_task})
    tasks = sorted(t for t, per_task in quality.items() if systems and all(s in per_task for s in systems))
    if not systems or not tasks:
        return CrossTemplateRanking(systems=[], task_weights={}, task_ranks={})
    spreads = {t: float(np.std([quality[t][s] for s in systems])) for t in tasks}
    total = sum(spreads.values())
    weights = {t: (spreads[t] / total if total > _EPS else 1.0 / len(tasks)) for t in tasks}
    ranks = {t: competition_ranks({s: quality[t][s] for s in systems}) for t in tasks}
    weighted = {s: sum(weights[t] * ranks[t][s] for t in tasks) for s in systems}
    final = competition_ranks({s: -v for s, v in weighted.items()})
    ranked = [
        RankedSystem(
            system=s,
            rank=final[s],
            weighted_rank=weighted[s],
            mean_quality=sum(quality[t][s] for t in tasks) / len(tasks),
        )
        for s in systems
    ]
    ranked.sort(key=lambda r: (r.rank, r.system))
    return CrossTemplateRanking(systems=ranked, task_weights=weights, task_ranks=ranks)


def template_quality(by_template: Mapping[str, Sequence[SystemMetrics]]) -> dict[str, dict[str, float]]:
    """Template to system to Avg Top-1, the per-task quality of the cross-template ranking."""
    return {t: {m.system: m.avg_top1 for m in metrics} for t, metrics in by_template.items()}
