"""The Chat tab: ask, answer clarification questions by clicking, see cards, rate, export."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

import gradio as gr

from agent.errors import RemsaError
from agent.selection import Selection
from agent.settings import Settings
from ui.cards import EMPTY_RESULTS, chat_summary, selection_html
from ui.chat_layout import BUSY, EXAMPLE_QUERIES, MAX_OPTIONS, MAX_QUESTIONS, ChatLayout
from ui.compare import CompareTab
from ui.conversation import (
    Conversation,
    accept_suggestion,
    export_files,
    give_feedback,
    new_visitor_id,
    pick_answer,
    run_with_progress,
    send_picks,
    session_settings,
    start_or_continue,
    status_line,
)

Updates = dict[Any, Any]


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def _bot(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


class ChatTab(ChatLayout):
    """The chat tab's event handlers, on the components of ``ChatLayout``."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self._wire()

    # -- wiring -----------------------------------------------------------------------------------
    @property
    def outputs(self) -> list[Any]:
        """Every component a turn may update."""
        rows = [c for row in self.rate_rows for c in row[:2]]
        buttons = [b for slot in self.option_buttons for b in slot]
        return [
            self.chatbot,
            self.query,
            self.send,
            self.visitor,
            *self.chips.components,
            *self.compare.components,
            self.state,
            self.status,
            self.results,
            self.questions_box,
            *self.question_md,
            *buttons,
            self.send_answers,
            self.export_row,
            self.download_json,
            self.download_md,
            self.rate_box,
            *rows,
            self.feedback_msg,
        ]

    def _wire(self) -> None:
        common: dict[str, Any] = {"outputs": self.outputs, "show_progress": "hidden"}
        inputs = [self.query, self.chatbot, self.state, self.k, self.memory, self.visitor]
        self.query.submit(self.respond, inputs=inputs, api_visibility="private", **common)
        self.send.click(self.respond, inputs=inputs, api_visibility="private", **common)
        for button in self.examples:
            button.click(
                self.respond_new,
                inputs=[button, self.chatbot, self.state, self.k, self.memory, self.visitor],
                api_visibility="private",
                **common,
            )
        for slot, button in enumerate(self.chips.buttons):
            button.click(
                partial(self.suggestion_clicked, slot),
                inputs=[self.chatbot, self.state],
                api_visibility="private",
                **common,
            )
        for slot, buttons in enumerate(self.option_buttons):
            for button in buttons:
                button.click(
                    partial(self.answer_clicked, slot),
                    inputs=[button, self.chatbot, self.state, self.k, self.memory],
                    api_visibility="private",
                    **common,
                )
        self.send_answers.click(
            self.send_clicked,
            inputs=[self.chatbot, self.state],
            api_visibility="private",
            **common,
        )
        for rank, (_, _, up, down) in enumerate(self.rate_rows, start=1):
            for button, vote in ((up, "up"), (down, "down")):
                button.click(
                    partial(self.rate, rank, vote),
                    inputs=[self.state, self.comment],
                    outputs=[self.feedback_msg],
                    api_visibility="private",
                )
        self.new_task.click(self.reset, outputs=self.outputs, api_visibility="private")

    def link_compare(self, tabs: gr.Tabs, compare: CompareTab) -> None:
        """The answer's Compare button opens ``compare`` (a tab of ``tabs``) with the models ticked."""
        self.compare.link(tabs, compare, self.status)

    # -- handlers ---------------------------------------------------------------------------------
    def respond(
        self,
        text: str,
        history: list[dict[str, Any]] | None,
        conv: Conversation,
        k: float,
        memory_on: bool,
        visitor: str | None = None,
        request: gr.Request | None = None,
    ) -> Iterator[Updates]:
        """Typed text: answers pending questions or starts a task; streams progress, then the answer."""
        visitor = visitor or new_visitor_id()
        settings = self._settings(k, memory_on, visitor, request)
        if not (text or "").strip():
            yield {self.status: "Type your task first, e.g. *" + EXAMPLE_QUERIES[0] + "*."}
            return
        try:
            call, shown = start_or_continue(conv, text, settings)
        except RemsaError as exc:
            yield {self.status: f"**Problem:** {exc}"}  # the box was never locked; the text stays
            return
        yield from self._turn(conv, list(history or []), shown, call, visitor)

    def respond_new(
        self,
        text: str,
        history: list[dict[str, Any]] | None,
        conv: Conversation,
        k: float,
        memory_on: bool,
        visitor: str | None = None,
        request: gr.Request | None = None,
    ) -> Iterator[Updates]:
        """An example query: always a new task, even while questions are pending."""
        conv.session = None
        yield from self.respond(text, history, conv, k, memory_on, visitor, request)

    def answer_clicked(
        self,
        slot: int,
        option: str,
        history: list[dict[str, Any]] | None,
        conv: Conversation,
        k: float,
        memory_on: bool,
    ) -> Iterator[Updates]:
        """A suggested answer was clicked: note it; once every question has one, send them together."""
        pending = conv.pending
        if slot >= len(pending):
            yield {self.status: "That question is no longer pending."}
            return
        question = pending[slot]
        try:
            sent = pick_answer(conv, question.field, option)
        except RemsaError as exc:
            yield {self.status: f"**Problem:** {exc}"}
            return
        if sent is None:
            left = len(pending) - len(conv.picks)
            others = "the other question" if left == 1 else f"the other {left} questions"
            updates: Updates = {
                self.state: conv,
                self.status: (
                    f"Noted: **{option}**. Answer {others} too, or press **Send answers** "
                    "to go on with what you picked."
                ),
            }
            for j, choice in enumerate(question.options[:MAX_OPTIONS]):
                updates[self.option_buttons[slot][j]] = (
                    gr.Button(variant="primary") if choice == option else gr.Button(variant="secondary")
                )
            yield updates
            return
        call, shown = sent
        yield from self._turn(conv, list(history or []), shown, call)

    def suggestion_clicked(
        self, slot: int, history: list[dict[str, Any]] | None, conv: Conversation
    ) -> Iterator[Updates]:
        """A suggestion of the earlier tasks was clicked: apply it and answer the same task again."""
        try:
            call, shown = accept_suggestion(conv, slot)
        except RemsaError as exc:
            yield {self.status: f"**Problem:** {exc}"}
            return
        yield from self._turn(conv, list(history or []), shown, call)

    def send_clicked(self, history: list[dict[str, Any]] | None, conv: Conversation) -> Iterator[Updates]:
        """'Send answers': answer the pending questions with what was clicked so far, in one round."""
        try:
            call, shown = send_picks(conv)
        except RemsaError as exc:
            yield {self.status: f"**Problem:** {exc}"}
            return
        yield from self._turn(conv, list(history or []), shown, call)

    def rate(self, rank: int, vote: str, conv: Conversation, comment: str | None) -> str:
        """Store a vote on the model at ``rank`` of the last answer."""
        return give_feedback(conv, rank, vote, comment)

    def reset(self) -> Updates:
        """Forget the conversation (a fresh Session on the next message)."""
        updates = self._clear_panels(Conversation())
        updates.update({self.chatbot: [], self.results: EMPTY_RESULTS, self.status: "", self.query: ""})
        return updates

    # -- helpers ----------------------------------------------------------------------------------
    def _settings(self, k: float, memory_on: bool, visitor: str, request: gr.Request | None) -> Settings:
        # The login name when there is a login, else this browser's own anonymous id.
        user = getattr(request, "username", None) if request is not None else None
        return session_settings(self.settings, int(k), memory_on, user or visitor)

    def _ready(self) -> Updates:
        """The input box and button usable again, with the example back as placeholder."""
        return {
            self.query: gr.Textbox(interactive=True, placeholder=f"e.g. {EXAMPLE_QUERIES[0]}"),
            self.send: gr.Button(interactive=True),
        }

    def _turn(
        self,
        conv: Conversation,
        history: list[dict[str, Any]],
        text: str,
        call: Any,
        visitor: str | None = None,
    ) -> Iterator[Updates]:
        history = [*history, _user(text), _bot("⏳ Interpreting your task…")]
        updates = self._clear_panels(conv)
        # While the answer is computed the box is locked, visibly, so no message is lost.
        updates.update(
            {
                self.chatbot: history,
                self.query: gr.Textbox(value="", interactive=False, placeholder=BUSY),
                self.send: gr.Button(interactive=False),
                # Progress shows in the chat bubble; the status line waits for the outcome.
                self.status: "",
            }
        )
        if visitor:
            updates[self.visitor] = visitor
        yield updates
        assert conv.session is not None
        try:
            for item in run_with_progress(conv.session, call):
                if isinstance(item, Selection):
                    yield self._answered(conv, history, item)
                    return
                history[-1] = _bot(f"⏳ {item}")
                yield {self.chatbot: history}
        except RemsaError as exc:
            history[-1] = _bot(f"**Problem:** {exc}")
            yield {
                self.chatbot: history,
                self.status: "",
                self.state: conv,
                **self._ready(),
            }

    def _answered(self, conv: Conversation, history: list[dict[str, Any]], selection: Selection) -> Updates:
        history[-1] = _bot(chat_summary(selection))
        updates = self._clear_panels(conv)
        updates.update(
            {
                self.chatbot: history,
                self.results: selection_html(selection),
                self.status: status_line(selection),
                **self._ready(),
            }
        )
        updates.update(self.chips.shown(selection))
        updates.update(self.compare.shown(selection))
        questions = conv.pending
        updates[self.questions_box] = gr.Column(visible=bool(questions))
        for slot, question in enumerate(questions[:MAX_QUESTIONS]):
            updates[self.question_md[slot]] = gr.Markdown(f"**{question.text}**", visible=True)
            for j, option in enumerate(question.options[:MAX_OPTIONS]):
                updates[self.option_buttons[slot][j]] = gr.Button(option, visible=True, variant="secondary")
        updates[self.send_answers] = gr.Button(visible=len(questions) > 1)
        if selection.models:
            json_path, md_path = export_files(conv, selection)
            updates[self.export_row] = gr.Row(visible=True)
            updates[self.download_json] = gr.DownloadButton(value=str(json_path))
            updates[self.download_md] = gr.DownloadButton(value=str(md_path))
            updates[self.rate_box] = gr.Accordion(visible=True)
            for model, (row, label, _, _) in zip(selection.models, self.rate_rows, strict=False):
                updates[row] = gr.Row(visible=True)
                updates[label] = f"{model.rank}. **{model.name}**"
        return updates

    def _clear_panels(self, conv: Conversation) -> Updates:
        updates: Updates = {self.state: conv, self.questions_box: gr.Column(visible=False)}
        for md in self.question_md:
            updates[md] = gr.Markdown(visible=False)
        for slot in self.option_buttons:
            for button in slot:
                updates[button] = gr.Button(visible=False)
        updates[self.send_answers] = gr.Button(visible=False)
        updates.update(self.chips.hidden())
        updates.update(self.compare.hidden())
        updates[self.export_row] = gr.Row(visible=False)
        updates[self.rate_box] = gr.Accordion(visible=False)
        for row, label, _, _ in self.rate_rows:
            updates[row] = gr.Row(visible=False)
            updates[label] = ""
        updates[self.feedback_msg] = ""
        return updates
