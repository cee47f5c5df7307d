"""The Capabilities map tab: placed models and benchmarks on an interactive map, and one model's standing."""

from __future__ import annotations

from typing import Any

import gradio as gr

from agent.resources import get_resources
from agent.settings import Settings
from tools.capenc.predict import CapabilitiesPredictor
from ui.capmap_figure import (
    MapLayout,
    UnplacedGroup,
    capabilities_figure,
    map_layout,
    task_datasets,
    unplaced_models,
)

HOW_TO_READ = (
    "**How to read the map:** each dot is a model (one dot per size or variant) and each triangle a "
    "benchmark (one dataset, metric and setting); a model lies close to the benchmarks where it did "
    "best and far from those where it fell behind, so models close together have similar strengths. "
    "Hover for names, drag to zoom, double-click to zoom out."
)
STANDING_HELP = (
    "Each row is one benchmark. Scores run from **0 = the best result any model reported there** to "
    "**1 = the furthest behind**. *Reported* is the model's own published result on that scale; "
    "*map's estimate* is where its position on the map puts it, give or take the uncertainty shown. "
    "Rows with no reported result are the map's estimate only."
)
STANDING_HEADERS = [
    "Benchmark (dataset, metric, setting)",
    "Reported (0 best, 1 furthest behind)",
    "Map's estimate",
    "Give or take",
    "Map against reported",
]
AGREES_WITHIN = 0.005


def map_versus_reported(estimate: float, reported: float | None) -> str:
    """In words, whether the map expects the model to do better or worse than reported."""
    if reported is None:
        return ""
    off = estimate - reported
    if abs(off) < AGREES_WITHIN:
        return "agrees"
    return f"expects {'worse' if off > 0 else 'better'} by {abs(off):.2f}"


def standing_rows(predictor: CapabilitiesPredictor, model_id: str) -> list[list[Any]]:
    """Per benchmark: reported score (if any), the map's estimate, its uncertainty and how they compare.

    Scores are 0 = best model on that benchmark, 1 = worst. Reported benchmarks come first.
    """
    rows: list[list[Any]] = []
    for column in predictor.columns():
        p = predictor.predict(model_id, column.key)
        reported = round(p.observed_gap, 2) if p.observed_gap is not None else ""
        rows.append(
            [
                p.column_label,
                reported,
                round(p.gap, 2),
                f"± {p.uncertainty:.2f}",
                map_versus_reported(p.gap, p.observed_gap),
            ]
        )
    return sorted(rows, key=lambda r: (r[1] == "", r[2]))


def unplaced_markdown(groups: list[UnplacedGroup]) -> str:
    """Why the records without a point are not placed, with the count and names of each group."""
    total = sum(len(g.names) for g in groups)
    lines = [f"**{total} models have too few results to be placed:**"]
    for group in groups:
        lines.append(f"- **{len(group.names)}**: {group.reason}.")
    for group in groups:
        lines.append(f"\n*{group.reason[:1].upper()}{group.reason[1:]}:* {', '.join(group.names)}.")
    return "\n".join(lines)


class CapabilitiesTab:
    """Builds the capabilities-map tab; the predictor is loaded when the tab is first opened."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._layouts: dict[str, MapLayout] = {}
        self._unplaced: dict[str, str] = {}
        gr.Markdown(HOW_TO_READ)
        self.message = gr.Markdown(elem_id="capmap-message")
        with gr.Accordion("Models not on the map", open=False, elem_id="capmap-unplaced-box"):
            self.unplaced = gr.Markdown(elem_id="capmap-unplaced")
        with gr.Row():
            self.model = gr.Dropdown(
                [], value=None, label="Find a model (type its name)", elem_id="capmap-model", scale=2
            )
            self.datasets = gr.Dropdown(
                [],
                value=[],
                multiselect=True,
                label="Highlight benchmarks on these datasets",
                elem_id="capmap-datasets",
                scale=3,
            )
            self.use_task = gr.Button("Datasets of my chat task", size="sm", scale=1, elem_id="capmap-task")
        self.task_note = gr.Markdown(elem_id="capmap-task-note")
        self.plot = gr.Plot(label="Capabilities map", elem_id="capmap-plot")
        gr.Markdown(STANDING_HELP)
        self.table = gr.Dataframe(
            headers=STANDING_HEADERS,
            interactive=False,
            max_height=360,
            label="Standing",
            elem_id="capmap-table",
        )

    def wire(self, tab: Any, chat_state: Any = None) -> None:
        """Draw the map when its tab is opened; redraw on a model or dataset pick.

        ``chat_state`` (the chat's per-browser Conversation) lets the map highlight the chat task's datasets.
        """
        inputs = [chat_state] if chat_state is not None else []
        private: dict[str, Any] = {"api_visibility": "private"}
        tab.select(
            self.open,
            inputs=inputs,
            outputs=[self.message, self.unplaced, self.model, self.datasets, self.task_note, self.plot],
            **private,
        )
        self.use_task.click(self.task, inputs=inputs, outputs=[self.datasets, self.task_note], **private)
        # The map first, the standing table right after: the highlight is what the user waits for.
        self.model.change(
            self.redraw,
            inputs=[self.model, self.datasets],
            outputs=[self.plot],
            show_progress="hidden",
            **private,
        ).then(self.standing, inputs=[self.model], outputs=[self.table], **private)
        self.datasets.change(
            self.redraw,
            inputs=[self.model, self.datasets],
            outputs=[self.plot],
            show_progress="hidden",
            **private,
        )

    def _predictor(self) -> CapabilitiesPredictor | None:
        predictor: CapabilitiesPredictor | None = get_resources(self.settings).capabilities(self.settings)
        return predictor

    def _layout(self, predictor: CapabilitiesPredictor) -> MapLayout:
        """The map of this fit, built once."""
        if predictor.key not in self._layouts:
            names = {r.model_id: r.model_name for r in get_resources(self.settings).records}
            self._layouts[predictor.key] = map_layout(predictor, names)
        return self._layouts[predictor.key]

    def _unplaced_text(self, predictor: CapabilitiesPredictor) -> str:
        if predictor.key not in self._unplaced:
            records = get_resources(self.settings).records
            groups = unplaced_models(records, predictor, self.settings.capabilities.min_results)
            self._unplaced[predictor.key] = unplaced_markdown(groups)
        return self._unplaced[predictor.key]

    def _problem(self) -> str:
        if not self.settings.capabilities.enabled:
            return "The capabilities encoding is switched off (REMSA_CAPABILITIES__ENABLED=false)."
        error = get_resources(self.settings).predictor_error
        return f"The capabilities encoding is unavailable: {error or 'too few benchmark results'}."

    def _task_datasets(self, predictor: CapabilitiesPredictor, conversation: Any) -> tuple[list[str], str]:
        """The datasets of the chat's current task, and a note saying what they are."""
        selection = getattr(conversation, "selection", None)
        if selection is None:
            return [], "No task in the chat yet: pick datasets to highlight, or ask in the Chat tab first."
        query = selection.query
        datasets = task_datasets(predictor, query)
        task = query.application or query.task_type or "your task"
        if not datasets:
            return [], f"No benchmark on the map is like the chat task ({task}); pick datasets to highlight."
        return datasets, f"Highlighted: the benchmarks the chat task ({task}) is judged on."

    def open(self, conversation: Any = None) -> tuple[Any, ...]:
        """The map, why some models are missing, the pickers, and the chat task's datasets highlighted."""
        predictor = self._predictor()
        if predictor is None:
            empty = gr.Dropdown(choices=[])
            return self._problem(), "", empty, empty, "", None
        layout = self._layout(predictor)
        choices = layout.model_choices()
        unplaced = len(get_resources(self.settings).records) - len(choices)
        note = (
            f"{len(choices)} models and {len(layout.benchmarks)} benchmark columns placed "
            f"({len(layout.models)} model dots: one per size or variant), from {predictor.n_results} "
            f"reported results. {unplaced} models have too few results to be placed: see why below."
        )
        datasets, task_note = self._task_datasets(predictor, conversation)
        picker = gr.Dropdown(choices=layout.datasets(), multiselect=True)
        if datasets:  # a chat task replaces the picked datasets; without one they stay as they were
            picker = gr.Dropdown(choices=layout.datasets(), value=datasets, multiselect=True)
        figure = capabilities_figure(layout, None, datasets)
        return note, self._unplaced_text(predictor), gr.Dropdown(choices=choices), picker, task_note, figure

    def task(self, conversation: Any = None) -> tuple[Any, str]:
        """Highlight the datasets of the chat's current task."""
        predictor = self._predictor()
        if predictor is None:
            return gr.Dropdown(), self._problem()
        datasets, note = self._task_datasets(predictor, conversation)
        picker = gr.Dropdown(choices=self._layout(predictor).datasets(), value=datasets, multiselect=True)
        return picker, note

    def redraw(self, model_id: str | None, datasets: list[str] | None) -> Any:
        """The map with one model and some datasets highlighted."""
        predictor = self._predictor()
        if predictor is None:
            return None
        chosen = model_id if model_id and predictor.has_model(model_id) else None
        return capabilities_figure(self._layout(predictor), chosen, datasets or [])

    def standing(self, model_id: str | None) -> Any:
        """One model's reported versus estimated standing, per benchmark."""
        predictor = self._predictor()
        if predictor is None or not model_id or not predictor.has_model(model_id):
            return gr.Dataframe(value=[], headers=STANDING_HEADERS)
        return gr.Dataframe(value=standing_rows(predictor, model_id), headers=STANDING_HEADERS)

    def choose(self, model_id: str | None, datasets: list[str] | None) -> tuple[Any, Any]:
        """Highlight one model and tabulate its reported versus estimated standing."""
        return self.redraw(model_id, datasets), self.standing(model_id)
