"""The Capabilities map tab: models and datasets in the fitted encoding, and one model's standing."""

from __future__ import annotations

from typing import Any

import gradio as gr
from matplotlib.figure import Figure

from agent.resources import get_resources
from agent.settings import Settings
from tools.capenc.predict import CapabilitiesPredictor, MapPoint

STANDING_HEADERS = [
    "Dataset column",
    "Reported gap",
    "Predicted gap",
    "± uncertainty",
    "Predicted − reported",
]
MODEL_COLOUR = "#1565c0"
DATASET_COLOUR = "#ef6c00"
HIGHLIGHT_COLOUR = "#c62828"


def dataset_name(column_label: str) -> str:
    """The dataset part of a column label such as 'Sen1Floods11 mIoU (fine-tune)'."""
    head = column_label.split(" (", 1)[0]
    words = head.split(" ")
    return " ".join(words[:-1]) if len(words) > 1 else head


def map_figure(models: list[MapPoint], datasets: list[MapPoint], highlight: str | None = None) -> Figure:
    """Scatter of model rows (circles, labelled) and dataset columns (triangles, one label per dataset)."""
    fig = Figure(figsize=(11, 8), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    ax.scatter([p.x for p in datasets], [p.y for p in datasets], marker="^", s=22, c=DATASET_COLOUR,
               alpha=0.6, label="dataset column (dataset · metric · protocol)")  # fmt: skip
    centres: dict[str, list[MapPoint]] = {}
    for p in datasets:  # one label per dataset, at the mean of its columns, keeps the map readable
        centres.setdefault(dataset_name(p.label), []).append(p)
    for name, points in centres.items():
        x = sum(p.x for p in points) / len(points)
        y = sum(p.y for p in points) / len(points)
        ax.annotate(name, (x, y), fontsize=6, color="#8d4004", ha="center", va="top", alpha=0.9)
    plain = [p for p in models if p.model_id != highlight]
    ax.scatter([p.x for p in plain], [p.y for p in plain], marker="o", s=30, c=MODEL_COLOUR, label="model")
    for p in plain:
        ax.annotate(
            p.label, (p.x, p.y), fontsize=6.5, color="#0d3c78", xytext=(3, 3), textcoords="offset points"
        )
    chosen = [p for p in models if p.model_id == highlight]
    if chosen:
        ax.scatter([p.x for p in chosen], [p.y for p in chosen], marker="o", s=90, c=HIGHLIGHT_COLOUR,
                   edgecolors="black", zorder=5, label="chosen model")  # fmt: skip
        for p in chosen:
            ax.annotate(p.label, (p.x, p.y), fontsize=9, fontweight="bold", color=HIGHLIGHT_COLOUR,
                        xytext=(4, 4), textcoords="offset points")  # fmt: skip
    ax.set_xlabel("principal axis 1")
    ax.set_ylabel("principal axis 2")
    ax.set_title("Capabilities encoding: a model lies close to the datasets it does well on")
    ax.grid(alpha=0.25)
    ax.legend(loc="best", fontsize=8)
    return fig


def standing_rows(predictor: CapabilitiesPredictor, model_id: str) -> list[list[Any]]:
    """Per dataset column: reported gap (if any), predicted gap, its uncertainty and the difference.

    Gaps are normalised: 0 = best model on that column, 1 = worst. Reported columns come first.
    """
    rows: list[list[Any]] = []
    for column in predictor.columns():
        p = predictor.predict(model_id, column.key)
        reported = round(p.observed_gap, 3) if p.observed_gap is not None else ""
        diff = round(p.gap - p.observed_gap, 3) if p.observed_gap is not None else ""
        rows.append([p.column_label, reported, round(p.gap, 3), round(p.uncertainty, 3), diff])
    return sorted(rows, key=lambda r: (r[1] == "", r[2]))


class CapabilitiesTab:
    """Builds the capabilities-map tab; the predictor is loaded when the tab is first opened."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        gr.Markdown(
            "Models and benchmark datasets placed in the fitted capabilities encoding (2-D projection). "
            "Pick a model to highlight it and to see, per dataset column, its reported versus predicted "
            "standing (normalised gap: 0 = best model on that column, 1 = worst)."
        )
        self.message = gr.Markdown(elem_id="capmap-message")
        self.model = gr.Dropdown([], value=None, label="Model", elem_id="capmap-model")
        self.plot = gr.Plot(label="Capabilities map", elem_id="capmap-plot")
        self.table = gr.Dataframe(
            headers=STANDING_HEADERS, interactive=False, max_height=360, label="Standing"
        )

    def wire(self, tab: Any) -> None:
        """Draw the map when its tab is opened; redraw and tabulate when a model is picked."""
        tab.select(self.open, outputs=[self.message, self.model, self.plot], api_visibility="private")
        self.model.change(
            self.choose, inputs=[self.model], outputs=[self.plot, self.table], api_visibility="private"
        )

    def _predictor(self) -> CapabilitiesPredictor | None:
        predictor: CapabilitiesPredictor | None = get_resources(self.settings).capabilities(self.settings)
        return predictor

    def _problem(self) -> str:
        if not self.settings.capabilities.enabled:
            return "The capabilities encoding is switched off (REMSA_CAPABILITIES__ENABLED=false)."
        error = get_resources(self.settings).predictor_error
        return f"The capabilities encoding is unavailable: {error or 'too few benchmark results'}."

    def open(self) -> tuple[str, Any, Any]:
        """The map, and the models that can be picked."""
        predictor = self._predictor()
        if predictor is None:
            return self._problem(), gr.Dropdown(choices=[]), None
        models, datasets = predictor.project_2d()
        ids = sorted({p.model_id for p in models if p.model_id}, key=str.lower)
        note = (
            f"{len(ids)} models and {len(datasets)} dataset columns, fitted on {predictor.n_results} "
            "reported results."
        )
        return note, gr.Dropdown(choices=ids), map_figure(models, datasets)

    def choose(self, model_id: str | None) -> tuple[Any, Any]:
        """Highlight one model and tabulate its reported versus predicted standing."""
        predictor = self._predictor()
        if predictor is None:
            return None, gr.Dataframe(value=[])
        models, datasets = predictor.project_2d()
        if not model_id or not predictor.has_model(model_id):
            return map_figure(models, datasets), gr.Dataframe(value=[], headers=STANDING_HEADERS)
        rows = standing_rows(predictor, model_id)
        return map_figure(models, datasets, model_id), gr.Dataframe(value=rows, headers=STANDING_HEADERS)
