"""Chips for what a person's earlier tasks suggest: shown under their own heading, applied only
when clicked."""

from __future__ import annotations

from typing import Any

import gradio as gr

from agent.selection import Selection

MAX_SUGGESTIONS = 5


class SuggestionChips:
    """A hidden box of up to MAX_SUGGESTIONS buttons, filled from an answer's suggestions."""

    def __init__(self) -> None:
        with gr.Column(visible=False, elem_id="remsa-suggestions") as self.box:
            gr.Markdown(
                "**From your earlier tasks**: not applied unless you click one.", elem_classes="remsa-muted"
            )
            with gr.Row():
                self.buttons = [
                    gr.Button(visible=False, size="sm", elem_classes="remsa-suggestion")
                    for _ in range(MAX_SUGGESTIONS)
                ]

    @property
    def components(self) -> list[Any]:
        """Every component an answer updates."""
        return [self.box, *self.buttons]

    def shown(self, selection: Selection) -> dict[Any, Any]:
        """Updates offering the answer's suggestions not accepted yet."""
        offered = [s for s in selection.suggestions if not s.accepted][:MAX_SUGGESTIONS]
        updates: dict[Any, Any] = {self.box: gr.Column(visible=bool(offered))}
        for button, suggestion in zip(self.buttons, offered, strict=False):
            updates[button] = gr.Button(f"Use: {suggestion.label}", visible=True)
        return updates

    def hidden(self) -> dict[Any, Any]:
        """Updates hiding the box and every chip."""
        return {self.box: gr.Column(visible=False), **{b: gr.Button(visible=False) for b in self.buttons}}
