"""The 'Compare' action under an answer: pick among its models and open them in the Compare tab."""

from __future__ import annotations

from typing import Any

import gradio as gr

from agent.selection import Selection
from ui.compare import MAX_MODELS, MIN_MODELS, CompareTab

COMPARE_TAB_ID = "compare"


class CompareAction:
    """A hidden row: a checkbox per model of the answer (the first two ticked) and a Compare button."""

    def __init__(self) -> None:
        with gr.Row(visible=False, elem_id="remsa-compare-row", equal_height=True) as self.row:
            self.pick = gr.CheckboxGroup(
                [],
                label=f"Compare {MIN_MODELS} to {MAX_MODELS} models of this answer side by side",
                elem_id="remsa-compare-pick",
                scale=5,
            )
            self.button = gr.Button(
                "Compare", size="sm", variant="secondary", scale=1, min_width=110, elem_id="remsa-compare"
            )

    @property
    def components(self) -> list[Any]:
        """Every component an answer updates."""
        return [self.row, self.pick]

    def shown(self, selection: Selection) -> dict[Any, Any]:
        """Updates offering the answer's models, the first two ticked (hidden with fewer than two)."""
        models = selection.models
        if len(models) < MIN_MODELS:
            return self.hidden()
        choices = [(f"{m.rank}. {m.name}", m.model_id) for m in models]
        ticked = [m.model_id for m in models[:MIN_MODELS]]
        return {self.row: gr.Row(visible=True), self.pick: gr.CheckboxGroup(choices=choices, value=ticked)}

    def hidden(self) -> dict[Any, Any]:
        """Updates hiding the row."""
        return {self.row: gr.Row(visible=False), self.pick: gr.CheckboxGroup(choices=[], value=[])}

    def link(self, tabs: gr.Tabs, compare: CompareTab, status: Any) -> None:
        """Wire the button: it switches ``tabs`` to the Compare tab filled with the ticked models, or
        says in ``status`` what is missing."""
        self.tabs, self.target, self.status = tabs, compare, status
        self.button.click(
            self.open,
            inputs=[self.pick],
            outputs=[tabs, compare.pick, compare.view, status],
            api_visibility="private",
        )

    def open(self, model_ids: list[str] | None) -> dict[Any, Any]:
        """The Compare tab selected and filled with the ticked models (or a word on how many to tick)."""
        ticked = list(model_ids or [])
        if not MIN_MODELS <= len(ticked) <= MAX_MODELS:
            return {
                self.status: f"Tick {MIN_MODELS} to {MAX_MODELS} models to compare ({len(ticked)} ticked)."
            }
        picker, view = self.target.show(ticked)
        return {
            self.tabs: gr.Tabs(selected=COMPARE_TAB_ID),
            self.target.pick: picker,
            self.target.view: view,
            self.status: "",
        }
