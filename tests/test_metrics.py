"""Metrics on small hand-made cases with known answers."""

from __future__ import annotations

import math

import pytest

from evaluation.metrics import (
    Outcome,
    SystemMetrics,
    competition_ranks,
    difficulty_weighted_ranking,
    per_template,
    percentile,
    sensitivity,
    skipped_systems,
    system_metrics,
)
from evaluation.rubric import Criterion, CriterionScore, PairScore, final_score

SCORES = {
    ("qa", "m1"): 90.0,
    ("qa", "m2"): 70.0,
    ("qa", "m3"): 60.0,
    ("qa", "m4"): 85.0,
    ("qa", "m5"): 50.0,
    ("qa", "m9"): 100.0,
    ("qb", "n1"): 82.0,
    ("qb", "n2"): 60.0,
    ("qb", "n3"): 40.0,
}
TOY = [
    Outcome("A", "qa", "T1", ("m2", "m1", "m3"), latency_s=1.0),
    Outcome("A", "qb", "T2", ("n1", "n2"), latency_s=3.0),
    Outcome("B", "qa", "T1", ("m4", "m5", "m1"), latency_s=2.0),
    Outcome("B", "qb", "T2", ("n3", "n2", "n1"), latency_s=4.0),
]


def by_name(
    outcomes: list[Outcome], scores: dict[tuple[str, str], float] = SCORES
) -> dict[str, SystemMetrics]:
    return {m.system: m for m in system_metrics(outcomes, scores)}


def test_two_system_toy_case() -> None:
    metrics = by_name(TOY)
    a, b = metrics["A"], metrics["B"]
    assert a.avg_top1 == pytest.approx(76.0)
    assert a.avg_set == pytest.approx(((70 + 90 + 60) / 3 + (82 + 60) / 2) / 2)
    assert a.top1_hit == pytest.approx(0.5)
    assert a.hq_hit == pytest.approx(0.5)
    assert a.mrr == pytest.approx((1 / 2 + 1) / 2)
    assert b.avg_top1 == pytest.approx(62.5)
    assert b.avg_set == pytest.approx(((85 + 50 + 90) / 3 + (40 + 60 + 82) / 3) / 2)
    assert b.top1_hit == 0.0
    assert b.hq_hit == pytest.approx(0.5)
    assert b.mrr == pytest.approx(1 / 3)


def test_best_candidate_pool_spans_all_systems() -> None:
    short_b = Outcome("B", "qa", "T1", ("m4", "m5"))
    alone = by_name([short_b])["B"]
    assert alone.top1_hit == 1.0 and alone.mrr == 1.0  # m4 (85) is the best of B's own picks
    together = by_name([short_b, TOY[0]])["B"]
    assert together.top1_hit == 0.0 and together.mrr == 0.0  # A's m1 (90) is better and B lacks it


def test_ties_count_as_hits() -> None:
    scores = {("q", "x"): 80.0, ("q", "y"): 80.0}
    metrics = by_name([Outcome("A", "q", "T", ("x",)), Outcome("B", "q", "T", ("y",))], scores)
    assert metrics["A"].top1_hit == metrics["B"].top1_hit == 1.0
    assert metrics["A"].hq_hit == 1.0


def test_skipped_picks_are_not_scored_nor_in_the_pool() -> None:
    skipped = [
        Outcome("C", "qa", "T1", ("m9",), status="skipped"),
        Outcome("C", "qb", "T2", (), status="skipped"),
    ]
    metrics = by_name(TOY + skipped)
    assert set(metrics) == {"A", "B"}
    assert metrics["A"].mrr == pytest.approx(0.75)
    assert skipped_systems(TOY + skipped) == ["C"]


def test_a_failed_pick_counts_as_zero() -> None:
    failed = [Outcome("D", "qa", "T1", (), status="failed"), Outcome("D", "qb", "T2", ("n1",))]
    metrics = by_name(TOY + failed)["D"]
    assert metrics.avg_top1 == pytest.approx(41.0)
    assert metrics.failed == 1
    assert metrics.mrr == pytest.approx(0.5)


def test_only_top_k_are_scored() -> None:
    long = [Outcome("A", "qa", "T1", ("m5", "m3", "m2", "m1"))]
    metrics = system_metrics(long, SCORES, k=3)[0]
    assert metrics.mrr == pytest.approx(1 / 3)  # pool is the top 3 only: best is m2 (70), not m1 (90)
    assert metrics.avg_set == pytest.approx(60.0)


def test_latency_percentiles() -> None:
    metrics = by_name(TOY)
    assert metrics["A"].latency_p50_s == pytest.approx(2.0)
    assert metrics["A"].latency_p95_s == pytest.approx(2.9)
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == pytest.approx(2.5)
    assert percentile([], 50) is None


def test_per_template_breakdown() -> None:
    table = per_template(TOY, SCORES)
    assert list(table) == ["T1", "T2"]
    t1 = {m.system: m for m in table["T1"]}
    assert t1["A"].avg_top1 == 70.0 and t1["B"].avg_top1 == 85.0


def pair(query_id: str, model_id: str, scores: dict[Criterion, float]) -> PairScore:
    criteria = [CriterionScore(criterion=c, score=scores[c], reason="") for c in Criterion]
    return PairScore(query_id=query_id, model_id=model_id, criteria=criteria, final=final_score(scores))


def test_sensitivity_removes_one_criterion_and_renormalises() -> None:
    efficient = pair("q", "a", dict.fromkeys(Criterion, 3.0) | {Criterion.efficiency: 5.0})
    accurate = pair("q", "b", dict.fromkeys(Criterion, 3.5) | {Criterion.efficiency: 0.0})
    assert efficient.final == pytest.approx(66.0) and accurate.final == pytest.approx(59.5)
    outcomes = [Outcome("X", "q", "T", ("a",)), Outcome("Y", "q", "T", ("b",))]
    result = sensitivity(outcomes, {("q", "a"): efficient, ("q", "b"): accurate})
    full = {m.system: m for m in result["Full scoring (all criteria)"]}
    no_eff = {m.system: m for m in result["w/o Efficiency"]}
    assert full["X"].top1_hit == 1.0 and full["Y"].top1_hit == 0.0
    assert no_eff["X"].top1_hit == 0.0 and no_eff["Y"].top1_hit == 1.0
    assert no_eff["X"].avg_set == pytest.approx(60.0) and no_eff["Y"].avg_set == pytest.approx(70.0)
    assert "w/o Popularity+Recency" in result and len(result) == 9


def test_competition_ranks_give_ties_the_better_rank() -> None:
    assert competition_ranks({"a": 90, "b": 50, "c": 50}) == {"a": 1, "b": 2, "c": 2}


def test_difficulty_weighted_ranking() -> None:
    quality = {
        "t1": {"A": 90.0, "B": 50.0, "C": 50.0},
        "t2": {"A": 60.0, "B": 70.0, "C": 80.0},
        "t3": {"A": 50.0, "B": 50.0, "C": 50.0},
    }
    ranking = difficulty_weighted_ranking(quality)
    std1, std2 = math.sqrt(((90 - 190 / 3) ** 2 + 2 * (50 - 190 / 3) ** 2) / 3), math.sqrt(200 / 3)
    w1, w2 = std1 / (std1 + std2), std2 / (std1 + std2)
    assert ranking.task_weights == pytest.approx({"t1": w1, "t2": w2, "t3": 0.0})
    scores = {r.system: r.weighted_rank for r in ranking.systems}
    assert scores == pytest.approx({"A": w1 * 1 + w2 * 3, "B": 2.0, "C": w1 * 2 + w2 * 1})
    assert [r.system for r in ranking.systems] == ["A", "C", "B"]
    assert [r.rank for r in ranking.systems] == [1, 2, 3]
    # Unweighted mean ranks would put C first; the spread weighting changes the order.
    assert ranking.systems[0].mean_quality == pytest.approx(200 / 3)


def test_ranking_with_no_spread_is_uniform_and_ties() -> None:
    ranking = difficulty_weighted_ranking({"t1": {"A": 50.0, "B": 50.0}, "t2": {"A": 60.0, "B": 60.0}})
    assert ranking.task_weights == {"t1": 0.5, "t2": 0.5}
    assert [r.rank for r in ranking.systems] == [1, 1]


def test_ranking_uses_only_tasks_every_system_has() -> None:
    ranking = difficulty_weighted_ranking({"t1": {"A": 90.0, "B": 10.0}, "t2": {"A": 10.0}})
    assert list(ranking.task_weights) == ["t1"]
    assert difficulty_weighted_ranking({}).systems == []
