"""What the Capabilities map shows: placed models by name, benchmark points, who is not placed and why.

Pure functions over a fitted ``CapabilitiesPredictor``; the interactive figure is Plotly, imported
when a figure is first drawn.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from agent.query import StructuredQuery
from rsfmd.datasets import dataset_identities, dataset_identity
from rsfmd.schema import ModelRecord
from tools.capenc.matrix import ROW_SEPARATOR, build_matrix
from tools.capenc.predict import CapabilitiesPredictor

MODEL_COLOUR = "#1565c0"
BENCHMARK_COLOUR = "#ef6c00"
CHOSEN_COLOUR = "#c62828"
TASK_BENCHMARK_COLOUR = "#6a1b9a"
FIGURE_HEIGHT = 640

# Why a model has no point, in the order the checks run; {n} is the fit's minimum of results.
UNPLACED_REASONS: dict[str, str] = {
    "no_results": "no benchmark result in RS-FMD",
    "few_results": "fewer than {n} reported results in all",
    "split_variants": "{n} or more results, but spread over variants (sizes) with fewer than {n} each; "
    "the map places each variant by its own results",
    "unshared": "{n} or more results, but fewer than {n} on the map's benchmarks (those that at least "
    "{n} placed models or variants report), so too little ties them to the rest of the map",
    "pruned": "{n} or more results on the map's benchmarks, but set aside while the fit pruned rows and "
    "benchmarks with too few results or no spread",
}


@dataclass(frozen=True)
class ModelPoint:
    """One placed model row (a model, or one variant of it) on the map."""

    model_id: str
    name: str
    variant: str | None
    x: float
    y: float
    n_results: int

    @property
    def label(self) -> str:
        """The model's name, with the variant when the row is one."""
        return f"{self.name} · {self.variant}" if self.variant else self.name


@dataclass(frozen=True)
class BenchmarkPoint:
    """One benchmark column (dataset, metric, setting) on the map."""

    dataset: str
    label: str
    x: float
    y: float


@dataclass(frozen=True)
class MapLayout:
    """Every placed model row and benchmark column, in map coordinates."""

    models: list[ModelPoint]
    benchmarks: list[BenchmarkPoint]

    def model_choices(self) -> list[tuple[str, str]]:
        """(name, model id) of each placed model, by name."""
        names = {p.model_id: p.name for p in self.models}
        return sorted(((name, mid) for mid, name in names.items()), key=lambda c: c[0].lower())

    def datasets(self) -> list[str]:
        """The datasets of the placed benchmark columns, by name."""
        return sorted({p.dataset for p in self.benchmarks}, key=str.lower)


@dataclass(frozen=True)
class UnplacedGroup:
    """Models that have no point on the map for one reason."""

    reason: str
    names: list[str]


def map_layout(predictor: CapabilitiesPredictor, names: Mapping[str, str]) -> MapLayout:
    """The predictor's 2-D projection with model names (``names``: model id -> name) and result counts."""
    models, columns = predictor.project_2d()
    counts = (~np.isnan(predictor.gaps)).sum(axis=1)
    placed = [
        ModelPoint(
            model_id=str(point.model_id),
            name=names.get(str(point.model_id), str(point.model_id)),
            variant=row.split(ROW_SEPARATOR, 1)[1] if ROW_SEPARATOR in row else None,
            x=point.x,
            y=point.y,
            n_results=int(count),
        )
        for point, row, count in zip(models, predictor.row_ids, counts, strict=True)
    ]
    benchmarks = [
        BenchmarkPoint(column.dataset, column.label, point.x, point.y)
        for point, column in zip(columns, predictor.columns(), strict=True)
    ]
    return MapLayout(placed, benchmarks)


def unplaced_models(
    records: Sequence[ModelRecord], predictor: CapabilitiesPredictor, min_results: int
) -> list[UnplacedGroup]:
    """The records without a point, grouped by why (UNPLACED_REASONS), largest group first."""
    matrix = build_matrix(records)
    observed = ~np.isnan(matrix.values)
    fitted = {c.key for c in predictor.columns()}
    kept = np.array([c.key in fitted for c in matrix.columns], dtype=bool)
    rows_of: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(matrix.model_ids):
        rows_of[row.split(ROW_SEPARATOR, 1)[0]].append(i)
    groups: dict[str, list[str]] = defaultdict(list)
    for record in records:
        if predictor.has_model(record.model_id):
            continue
        rows = rows_of.get(record.model_id, [])
        if not rows:
            reason = "no_results"
        elif observed[rows].sum() < min_results:
            reason = "few_results"
        elif observed[rows].sum(axis=1).max() < min_results:
            reason = "split_variants"
        elif observed[rows][:, kept].sum(axis=1).max() < min_results:
            reason = "unshared"
        else:
            reason = "pruned"
        groups[reason].append(record.model_name)
    return [
        UnplacedGroup(UNPLACED_REASONS[key].format(n=min_results), sorted(names, key=str.lower))
        for key, names in sorted(groups.items(), key=lambda item: -len(item[1]))
    ]


def task_datasets(predictor: CapabilitiesPredictor, query: StructuredQuery) -> list[str]:
    """The map's datasets for a chat task: those it named, else those most like it (as the ranker uses)."""
    named = dataset_identities(query.datasets)
    chosen = [c.dataset for c in predictor.columns() if dataset_identity(c.dataset) in named]
    if not chosen:
        columns = predictor.nearest_columns(query.task_type, query.application, query.sensor, query.modality)
        chosen = [c.dataset for c in columns]
    return list(dict.fromkeys(chosen))


def _hover(point: ModelPoint) -> str:
    variant = f"<br>variant: {point.variant}" if point.variant else ""
    return f"<b>{point.name}</b>{variant}<br>placed by {point.n_results} reported results"


def _model_trace(points: Sequence[ModelPoint], name: str, *, chosen: bool) -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "markers+text" if chosen else "markers",
        "name": name,
        "x": [p.x for p in points],
        "y": [p.y for p in points],
        "text": [p.label for p in points] if chosen else None,
        "textposition": "top center",
        "textfont": {"size": 13, "color": CHOSEN_COLOUR},
        "hovertext": [_hover(p) for p in points],
        "hoverinfo": "text",
        "marker": {
            "size": 16 if chosen else 9,
            "color": CHOSEN_COLOUR if chosen else MODEL_COLOUR,
            "line": {"width": 1.5 if chosen else 0.5, "color": "black" if chosen else "white"},
        },
    }


def _benchmark_trace(points: Sequence[BenchmarkPoint], name: str, *, task: bool) -> dict[str, Any]:
    labelled: set[str] = set()
    text = []
    for p in points:  # on the task's benchmarks, one dataset name per dataset
        text.append(p.dataset if task and p.dataset not in labelled else "")
        labelled.add(p.dataset)
    return {
        "type": "scatter",
        "mode": "markers+text" if task else "markers",
        "name": name,
        "x": [p.x for p in points],
        "y": [p.y for p in points],
        "text": text if task else None,
        "textposition": "bottom center",
        "textfont": {"size": 12, "color": TASK_BENCHMARK_COLOUR},
        "hovertext": [p.label for p in points],
        "hoverinfo": "text",
        "marker": {
            "symbol": "triangle-up",
            "size": 13 if task else 8,
            "color": TASK_BENCHMARK_COLOUR if task else BENCHMARK_COLOUR,
            "opacity": 1.0 if task else 0.45,
            "line": {"width": 1 if task else 0, "color": "black"},
        },
    }


def figure_data(layout: MapLayout, chosen: str | None, datasets: Collection[str]) -> dict[str, Any]:
    """The map as a Plotly figure dictionary: benchmarks, models, then the highlighted ones on top."""
    wanted = set(datasets)
    traces = [
        _benchmark_trace(
            [p for p in layout.benchmarks if p.dataset not in wanted],
            "benchmark (hover for its name)",
            task=False,
        ),
        _model_trace(
            [p for p in layout.models if p.model_id != chosen], "model (hover for its name)", chosen=False
        ),
    ]
    task = [p for p in layout.benchmarks if p.dataset in wanted]
    if task:
        traces.append(_benchmark_trace(task, "highlighted benchmark", task=True))
    picked = [p for p in layout.models if p.model_id == chosen]
    if picked:
        traces.append(_model_trace(picked, picked[0].name, chosen=True))
    return {
        "data": traces,
        "layout": {
            "height": FIGURE_HEIGHT,
            "margin": {"l": 10, "r": 10, "t": 30, "b": 10},
            "template": "plotly_white",
            "hovermode": "closest",
            "dragmode": "zoom",
            "uirevision": "capabilities-map",  # keep the user's zoom when the highlight changes
            "legend": {"orientation": "h", "y": -0.01, "yanchor": "top", "x": 0},
            "xaxis": {"showticklabels": False, "title": {"text": ""}, "zeroline": False},
            "yaxis": {"showticklabels": False, "scaleanchor": "x", "zeroline": False},
        },
    }


def capabilities_figure(layout: MapLayout, chosen: str | None = None, datasets: Collection[str] = ()) -> Any:
    """The interactive map (a ``plotly.graph_objects.Figure``) for gradio's Plot."""
    from plotly import graph_objects

    return graph_objects.Figure(figure_data(layout, chosen, datasets), skip_invalid=False)
