"""Markdown report and PNG charts of a benchmark evaluation (matplotlib Agg, no pyplot state)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from evaluation.metrics import SystemMetrics
from evaluation.rubric import WEIGHTS, Criterion
from rsfmd.loader import atomic_write_text

if TYPE_CHECKING:
    from evaluation.runner import Evaluation

REPORT_FILE = "report.md"
METRICS_CHART = "metrics_per_system.png"
HEATMAP_CHART = "template_heatmap.png"

_CRITERION_SHORT = {
    Criterion.application: "App",
    Criterion.modality: "Mod",
    Criterion.performance: "Perf",
    Criterion.efficiency: "Eff",
    Criterion.generalisability: "Gen",
    Criterion.popularity: "Pop",
    Criterion.recency: "Rec",
}


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _main_rows(metrics: Sequence[SystemMetrics]) -> list[list[str]]:
    return [
        [
            m.system,
            f"{m.avg_top1:.2f}",
            f"{m.avg_set:.2f}",
            f"{100 * m.top1_hit:.2f}%",
            f"{100 * m.hq_hit:.2f}%",
            f"{m.mrr:.2f}",
            _seconds(m.latency_p50_s),
            _seconds(m.latency_p95_s),
            str(m.queries),
            str(m.failed),
        ]
        for m in metrics
    ]


def _sensitivity_cell(m: SystemMetrics | None) -> str:
    return "-" if m is None else f"{m.avg_set:.2f} / {100 * m.top1_hit:.1f}% / {m.mrr:.2f}"


def _criterion_means(evaluation: Evaluation) -> list[list[str]]:
    sums: dict[str, dict[Criterion, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[str, int] = defaultdict(int)
    for line in evaluation.picks:
        if line.pick.status == "skipped" or not line.pick.model_ids:
            continue
        score = evaluation.pair_scores[(line.query_id, line.pick.model_ids[0])]
        for criterion, value in score.scores().items():
            sums[line.system][criterion] += value
        counts[line.system] += 1
    return [
        [system, *(f"{sums[system][c] / counts[system]:.2f}" for c in Criterion)] for system in sorted(counts)
    ]


def _engines(evaluation: Evaluation) -> str:
    """The LLMs the systems ran with ('' when none did)."""
    used: dict[str, set[str]] = {}
    for line in evaluation.picks:
        if line.pick.engine:
            used.setdefault(line.pick.engine, set()).add(line.system)
    return "".join(
        f"LLM `{engine}` ran {', '.join(sorted(systems))}.\n" for engine, systems in sorted(used.items())
    )


def render_markdown(evaluation: Evaluation, charts: Sequence[str] = ()) -> str:
    """The report text: paper-style comparison, skipped systems, ranking, per template, sensitivity, picks."""
    systems = [m.system for m in evaluation.metrics]
    parts = [
        "# REMSA benchmark report\n",
        f"{len(evaluation.queries)} queries, top-{evaluation.k} picks, "
        f"systems: {', '.join(evaluation.systems) or 'none'}. "
        f"RS-FMD version `{evaluation.database_version[:12] or 'unknown'}`"
        + (f" ({evaluation.database_errors} invalid lines ignored)" if evaluation.database_errors else "")
        + ".\n",
        *filter(None, [_engines(evaluation)]),
        "Scores are the rubric of the REMSA paper (App. G rules, App. I weights), 1-100: "
        "final = 100 x sum(w_i s_i) / (5 sum(w_i)). Top-1 Hit and MRR compare against the best-scored "
        "candidate among all scored systems' picks for the query; HQ Hit means top-1 >= 80.\n",
        "## Comparison (paper Table 2)\n",
        _table(
            [
                "System",
                "Avg Top-1",
                "Avg Set",
                "Top-1 Hit",
                "HQ Hit",
                "MRR",
                "p50 s",
                "p95 s",
                "Queries",
                "No answer",
            ],
            _main_rows(evaluation.metrics),
        ),
    ]
    if evaluation.skipped:
        parts.append("## Skipped systems\n")
        parts.append(_table(["System", "Reason"], [[s, r] for s, r in evaluation.skipped.items()]))
    if evaluation.ranking.systems:
        parts.append("## Cross-template ranking (task-difficulty weighted)\n")
        parts.append(
            "Per template, systems are ranked by Avg Top-1 (ties share the better rank); each template "
            "is weighted by the standard deviation of Avg Top-1 across systems "
            "(EO embedding benchmark, Eq. 2).\n"
        )
        parts.append(
            _table(
                ["Rank", "System", "Weighted rank", "Mean Avg Top-1"],
                [
                    [str(r.rank), r.system, f"{r.weighted_rank:.3f}", f"{r.mean_quality:.2f}"]
                    for r in evaluation.ranking.systems
                ],
            )
        )
        weights = evaluation.ranking.task_weights
        parts.append(_table(["Template", "Weight"], [[t, f"{w:.3f}"] for t, w in weights.items()]))
    if evaluation.by_template:
        parts.append("## Avg Top-1 per template\n")
        rows = []
        for template, metrics in evaluation.by_template.items():
            by_system = {m.system: m.avg_top1 for m in metrics}
            rows.append([template, *(f"{by_system[s]:.1f}" if s in by_system else "-" for s in systems)])
        parts.append(_table(["Template", *systems], rows))
    if evaluation.sensitivity:
        parts.append("## Sensitivity to criteria (paper Table 3; weights re-normalised)\n")
        rows = []
        for setting, metrics in evaluation.sensitivity.items():
            found = {m.system: m for m in metrics}
            rows.append([setting, *(_sensitivity_cell(found.get(s)) for s in systems)])
        parts.append("Cells: Avg Set / Top-1 Hit / MRR.\n")
        parts.append(_table(["Setting", *systems], rows))
    criterion_rows = _criterion_means(evaluation)
    if criterion_rows:
        parts.append("## Mean criterion scores of the top-1 picks\n")
        header = [f"{_CRITERION_SHORT[c]} ({round(100 * WEIGHTS[c])}%)" for c in Criterion]
        parts.append(_table(["System", *header], criterion_rows))
    parts += [f"![{name}]({name})\n" for name in charts]
    parts.append("## Picks\n")
    rows = []
    for line in evaluation.picks:
        picked = [
            f"{m} ({evaluation.pair_scores[(line.query_id, m)].final:.1f})"
            for m in line.pick.model_ids[: evaluation.k]
        ]
        note = line.pick.detail or ""
        rows.append(
            [line.query_id, line.template, line.system, line.pick.status, "; ".join(picked) or "-", note]
        )
    parts.append(_table(["Query", "Template", "System", "Status", "Models (score)", "Detail"], rows))
    return "\n".join(parts)


def plot_metrics(metrics: Sequence[SystemMetrics], path: Path) -> None:
    """Grouped bars: Avg Top-1, Avg Set, Top-1 Hit, HQ Hit (percent) and MRR (x100) per system."""
    from agent.extras import require

    require("matplotlib", "bench", "The benchmark's charts (or --no-charts)")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = ["Avg Top-1", "Avg Set", "Top-1 Hit %", "HQ Hit %", "MRR x100"]
    fig = Figure(figsize=(9, 4.5))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(metrics))
    for i, m in enumerate(metrics):
        values = [m.avg_top1, m.avg_set, 100 * m.top1_hit, 100 * m.hq_hit, 100 * m.mrr]
        ax.bar([x + i * width for x in range(len(names))], values, width, label=m.system)
    ax.set_xticks([x + width * (len(metrics) - 1) / 2 for x in range(len(names))], names)
    ax.set_ylim(0, 100)
    ax.set_ylabel("score")
    ax.set_title("Benchmark metrics per system")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def plot_template_heatmap(by_template: dict[str, list[SystemMetrics]], path: Path) -> None:
    """Heatmap of Avg Top-1, templates x systems."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    templates = list(by_template)
    systems = sorted({m.system for ms in by_template.values() for m in ms})
    grid = [[float("nan")] * len(systems) for _ in templates]
    for i, template in enumerate(templates):
        for m in by_template[template]:
            grid[i][systems.index(m.system)] = m.avg_top1
    fig = Figure(figsize=(1.6 + 1.4 * len(systems), 1.2 + 0.4 * len(templates)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    image = ax.imshow(grid, vmin=0, vmax=100, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(systems)), systems, rotation=30, ha="right")
    ax.set_yticks(range(len(templates)), templates)
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if value == value:  # not NaN
                ax.text(
                    j, i, f"{value:.0f}", ha="center", va="center", color="white" if value < 60 else "black"
                )
    fig.colorbar(image, ax=ax, label="Avg Top-1")
    ax.set_title("Avg Top-1 per template")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def write_report(evaluation: Evaluation, out_dir: Path, charts: bool = True) -> Path:
    """Write report.md (and the PNG charts when ``charts`` and there is something to plot)."""
    chart_names: list[str] = []
    if charts and evaluation.metrics:
        plot_metrics(evaluation.metrics, out_dir / METRICS_CHART)
        plot_template_heatmap(evaluation.by_template, out_dir / HEATMAP_CHART)
        chart_names = [METRICS_CHART, HEATMAP_CHART]
    path = out_dir / REPORT_FILE
    atomic_write_text(path, render_markdown(evaluation, chart_names))
    return path
