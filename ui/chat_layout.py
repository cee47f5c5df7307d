"""The Chat tab's components: the conversation and its questions on the left, the answer's cards,
export and ratings on the right."""

from __future__ import annotations

from typing import Any

import gradio as gr

from agent.llm import engine_name
from agent.settings import Settings
from ui.cards import EMPTY_RESULTS
from ui.compare_action import CompareAction
from ui.conversation import Conversation, browser_secret
from ui.suggestions import SuggestionChips

EXAMPLE_QUERIES: tuple[str, ...] = (
    "Flood mapping with Sentinel-1 SAR, few labels, CPU laptop",
    "Crop type mapping from Sentinel-2 time series, single GPU",
    "Building segmentation from high-resolution RGB aerial images",
    "Burn scar mapping with Sentinel-2, no GPU",
)
MAX_QUESTIONS = 3
MAX_OPTIONS = 8
MAX_RATED = 10
BUSY = "⏳ Working on your message; the box is free again when the answer is in."
PLACEHOLDER = (
    "**Describe your remote-sensing task in plain words.**\n\n"
    "Say what you want to map or detect, which imagery you have (sensor, resolution, time series), "
    "how many labels, and where it must run. Or click an example below."
)


class ChatLayout:
    """The chat tab's components, built in a Gradio Blocks context."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        with gr.Row(equal_height=False):
            with gr.Column(scale=4, min_width=340):
                self._conversation_column(settings)
            with gr.Column(scale=6, min_width=380):
                self._results_column()
        self.state = gr.State(Conversation())
        # Each browser is its own user without a login: an anonymous id kept in that browser.
        self.visitor = gr.BrowserState(None, storage_key="remsa-visitor", secret=browser_secret(settings))

    def _conversation_column(self, settings: Settings) -> None:
        """The conversation, the message box, examples, clarification questions, settings."""
        self.chatbot = gr.Chatbot(
            label="Conversation",
            height=360,
            placeholder=PLACEHOLDER,
            elem_id="remsa-chat",
            feedback_options=None,
        )
        with gr.Row():
            self.query = gr.Textbox(
                show_label=False,
                placeholder=f"e.g. {EXAMPLE_QUERIES[0]}",
                scale=5,
                lines=1,
                max_lines=4,
                elem_id="remsa-query",
                autofocus=True,
            )
            self.send = gr.Button("Recommend", variant="primary", scale=1, min_width=110)
        gr.Markdown("Try an example:", elem_classes="remsa-muted")
        with gr.Row(elem_classes="remsa-examples"):
            self.examples = [gr.Button(q, size="sm", elem_classes="remsa-example") for q in EXAMPLE_QUERIES]
        self.status = gr.Markdown("", elem_id="remsa-status")
        self.chips = SuggestionChips()
        with gr.Column(visible=False, elem_id="remsa-questions") as self.questions_box:
            gr.Markdown("**Click a suggested answer** for each question (or type your own in the box above):")
            self.question_md: list[Any] = []
            self.option_buttons: list[list[Any]] = []
            for _ in range(MAX_QUESTIONS):
                self.question_md.append(gr.Markdown(visible=False))
                with gr.Row():
                    self.option_buttons.append(
                        [
                            gr.Button(visible=False, size="sm", elem_classes="remsa-option")
                            for _ in range(MAX_OPTIONS)
                        ]
                    )
            self.send_answers = gr.Button(
                "Send answers",
                size="sm",
                variant="primary",
                visible=False,
                elem_id="remsa-send-answers",
            )
        self.new_task = gr.Button("Start a new task", size="sm", variant="secondary")
        self._settings_box(settings)

    def _settings_box(self, settings: Settings) -> None:
        k_default = min(settings.top_k, MAX_RATED)
        with gr.Accordion("Settings", open=False, elem_id="remsa-settings"):
            self.k = gr.Slider(1, MAX_RATED, value=k_default, step=1, label="Models per answer (top-k)")
            self.memory = gr.Checkbox(
                value=settings.memory.enabled,
                label="Remember my tasks and feedback (task memory)",
            )
            gr.Markdown(
                f"Engine: **{engine_name(settings)}**"
                + (" (rules and evidence, no LLM, no network)" if settings.llm.provider == "none" else "")
                + f"  \nTask memory: {settings.memory.backend}; changes apply to the next task."
            )

    def _results_column(self) -> None:
        """The answer's cards, export buttons and ratings."""
        self.compare = CompareAction()
        self.results = gr.HTML(EMPTY_RESULTS, elem_id="remsa-results")
        with gr.Row(visible=False) as self.export_row:
            self.download_json = gr.DownloadButton("Download JSON", size="sm")
            self.download_md = gr.DownloadButton("Download Markdown", size="sm")
        with gr.Accordion("Rate these recommendations", open=False, visible=False) as self.rate_box:
            self.rate_rows: list[tuple[Any, Any, Any, Any]] = []
            for _ in range(MAX_RATED):
                with gr.Row(visible=False) as row:
                    label = gr.Markdown()
                    up = gr.Button("👍 useful", size="sm", min_width=90)
                    down = gr.Button("👎 not useful", size="sm", min_width=90)
                self.rate_rows.append((row, label, up, down))
            self.comment = gr.Textbox(label="Comment (optional)", lines=1)
            self.feedback_msg = gr.Markdown(elem_id="remsa-feedback")
