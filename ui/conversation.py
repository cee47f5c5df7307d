"""One browser session's conversation: its own Session, live progress, exports, feedback.

Kept free of Gradio so the chat logic can be tested directly.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path

from agent.api import Session
from agent.errors import RemsaError
from agent.orchestrator import validate_text
from agent.selection import Selection, Status
from agent.settings import Settings
from agent.systems import ClarificationQuestion

POLL_S = 0.25

# What the agent is doing once a step has finished (the orchestrator appends a step when it ends).
_NEXT_STEP: dict[str, str] = {
    "": "Interpreting your task…",
    "interpret": "Checking what is missing…",
    "check": "Retrieving candidates from RS-FMD…",
    "retrieve": "Filtering on your hard constraints…",
    "filter": "Ranking with the reported evidence…",
    "rank": "Writing the explanation…",
    "clarify": "Preparing questions…",
    "explain": "Finishing…",
}


@dataclass
class Conversation:
    """Per-browser-session state: the agent Session and the files exported from its last answer."""

    session: Session | None = None
    export_dir: Path | None = None
    votes: dict[str, str] = field(default_factory=dict)
    # Suggested answers clicked so far (field -> option), sent together as one clarification round.
    picks: dict[str, str] = field(default_factory=dict)

    @property
    def selection(self) -> Selection | None:
        """The last answer of this conversation."""
        return self.session.last_selection if self.session else None

    @property
    def pending(self) -> list[ClarificationQuestion]:
        """Questions the agent is waiting for."""
        sel = self.selection
        return list(sel.questions) if sel and sel.status == Status.needs_clarification else []


def session_settings(base: Settings, k: int, memory_on: bool, user: str | None) -> Settings:
    """The settings one request runs with: the panel's top-k and memory switch, and the person's own
    user id (the login name, or this browser's anonymous id); no id, no memory."""
    return base.model_copy(
        update={
            "top_k": int(k),
            "memory": base.memory.model_copy(update={"enabled": bool(memory_on) and base.memory.enabled}),
            "user_id": user or None,
        }
    )


def new_visitor_id() -> str:
    """An anonymous id for a browser without a login, kept in that browser only."""
    return "visitor-" + secrets.token_hex(16)


def browser_secret(settings: Settings) -> str:
    """The key that encrypts visitor ids in browsers, kept in the data folder so that a returning
    browser is recognised after a restart of the app."""
    path = settings.data_dir / "ui-browser-secret"
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        secret = secrets.token_urlsafe(24)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process wrote it first
            return path.read_text(encoding="utf-8").strip()
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(secret)
        return secret


def accept_suggestion(conv: Conversation, slot: int) -> Turn:
    """The turn that applies the suggestion of earlier tasks shown at ``slot`` and answers again."""
    sel = conv.selection
    offered = [s for s in sel.suggestions if not s.accepted] if sel else []
    if conv.session is None or not 0 <= slot < len(offered):
        raise RemsaError("That suggestion is no longer on offer: ask about a task first.")
    session, chosen = conv.session, offered[slot]
    return (lambda: session.accept(chosen.id)), f"Use from my earlier tasks: {chosen.label}"


def progress_label(session: Session) -> str:
    """What the agent is doing now, from the steps the running request has completed."""
    done = session.progress
    return _NEXT_STEP.get(done[-1] if done else "", "Working…")


def run_with_progress(session: Session, call: Callable[[], Selection]) -> Iterator[str | Selection]:
    """Run ``call`` in a worker thread; yield a progress label whenever it changes, then the Selection.

    Errors the user can cause (RemsaError) are re-raised for the caller to show.
    """
    last = ""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="remsa-turn") as pool:
        future = pool.submit(call)
        while True:
            try:
                result = future.result(timeout=POLL_S)
            except FutureTimeout:
                label = progress_label(session)
                if label != last:
                    last = label
                    yield label
                continue
            yield result
            return


# A turn to run: the call that asks the agent, and the user's message as the chat shows it.
Turn = tuple[Callable[[], Selection], str]


def start_or_continue(conv: Conversation, text: str, settings: Settings) -> Turn:
    """The turn that answers typed text: answers pending questions, changes the task just answered
    ('only open weights'), or starts a new task.

    Answers already clicked for other questions go with the typed text in the same round.
    Text the agent would refuse (empty, too long) raises here, before anything is changed.
    """
    validate_text(text, settings.orchestrator.max_query_chars)
    if conv.session is None or not conv.pending:
        # A session already answering reads the text as a change to that task, or as a new one.
        if conv.session is None:
            conv.session = Session(settings, k=settings.top_k)
        else:  # the settings panel may have changed since the last answer
            conv.session.settings, conv.session.k = settings, settings.top_k
        conv.votes, conv.picks = {}, {}
    session = conv.session
    if conv.picks:
        picks, conv.picks = dict(conv.picks), {}
        return (lambda: session.answer(picks, reply=text)), "; ".join([*picks.values(), text])
    return (lambda: session.ask(text)), text


def pick_answer(conv: Conversation, field_name: str, option: str) -> Turn | None:
    """Record a clicked answer; once every pending question has one, the turn that sends them all.

    Returns None while other questions are still unanswered, so one click does not use up a
    clarification round that the other questions need.
    """
    pending = {q.field for q in conv.pending}
    if conv.session is None or field_name not in pending:
        raise RemsaError("No question is pending: describe your task first.")
    conv.picks[field_name] = option
    return send_picks(conv) if pending <= set(conv.picks) else None


def send_picks(conv: Conversation) -> Turn:
    """The turn that answers the pending questions with the answers clicked so far, in one round."""
    if conv.session is None or not conv.pending:
        raise RemsaError("No question is pending: describe your task first.")
    if not conv.picks:
        raise RemsaError("Click a suggested answer first, or type your answer in the box.")
    session = conv.session
    picks, conv.picks = dict(conv.picks), {}
    return (lambda: session.answer(picks)), "; ".join(picks.values())


def export_files(conv: Conversation, selection: Selection) -> tuple[Path, Path]:
    """Write the answer as JSON and Markdown files for download; returns their paths."""
    if conv.export_dir is None:
        conv.export_dir = Path(tempfile.mkdtemp(prefix="remsa-export-"))
    stem = re.sub(r"[^a-z0-9]+", "-", selection.query_text.lower()).strip("-")[:40] or "answer"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    json_path = conv.export_dir / f"remsa-{stem}-{stamp}.json"
    md_path = conv.export_dir / f"remsa-{stem}-{stamp}.md"
    json_path.write_text(json.dumps(selection.model_dump(mode="json"), indent=2), encoding="utf-8")
    md_path.write_text(selection.to_markdown(), encoding="utf-8")
    return json_path, md_path


def give_feedback(conv: Conversation, rank: int, vote: str, comment: str | None) -> str:
    """Store an up/down vote on the model at ``rank``; returns the message to show."""
    sel = conv.selection
    if conv.session is None or sel is None or not sel.models:
        return "Ask for a recommendation first; then rate the models."
    if not 1 <= rank <= len(sel.models):
        return f"There is no model at rank {rank} in the last answer."
    model = sel.models[rank - 1]
    if not conv.session.settings.memory.enabled:
        return (
            f"Not stored: task memory is off, so your vote on {model.name} cannot be remembered. "
            "Switch on 'Remember my tasks and feedback' under Settings and ask again to rate models."
        )
    if sel.interaction_id is None:
        return f"Not stored: this answer was not saved to task memory ({_memory_problem(conv)})."
    try:
        conv.session.feedback(model.model_id, vote, comment.strip() if comment and comment.strip() else None)
    except RemsaError as exc:
        return f"Not stored: {exc}"
    conv.votes[model.model_id] = vote
    word = "useful" if vote == "up" else "not useful"
    return f"Thanks: {model.name} marked {word}. remsa will weigh this for similar tasks of yours."


def _memory_problem(conv: Conversation) -> str:
    error = conv.session.memory_error if conv.session else None
    return error or "task memory was unavailable"


def status_line(selection: Selection) -> str:
    """A one-line summary of how the answer was reached, from its trace."""
    names = " → ".join(s.step for s in selection.trace if s.step)
    return f"Done in {selection.elapsed_ms / 1000:.1f} s ({names}); engine: {selection.engine}."
