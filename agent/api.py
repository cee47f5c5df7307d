"""Public API: ``select_models`` for one-shot use and ``Session`` for multi-turn conversations."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping

from agent.dialogue.handlers import HANDLERS
from agent.dialogue.intent import Situation, decide
from agent.dialogue.message import REMEMBERED
from agent.dialogue.reader import Reader
from agent.errors import ConfigurationError, InputError
from agent.orchestrator import Orchestrator, validate_text
from agent.resources import Resources, get_resources
from agent.selection import Selection, Status
from agent.settings import Settings
from agent.systems import ClarificationQuestion
from agent.turn import Turn
from tools.clarification import answer_text
from tools.embedding import Encoder

log = logging.getLogger(__name__)


class Session:
    """A conversation: questions asked, answers merged, at most three clarification rounds."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        k: int | None = None,
        clarify: bool = True,
        encoder: Encoder | None = None,
        llm: object | None = None,
        memory: object | None = None,
        user: str | None = None,
    ) -> None:
        """``user``: whose task memory to read and write. Without it (and without REMSA_USER_ID) no
        memory is used and every answer depends on the text alone. ``memory``: a store to use
        instead of the configured one (it still needs a user)."""
        self.settings = settings or Settings()
        if user is not None:
            if not isinstance(user, str) or not user.strip():
                raise InputError(f"user={user!r}: give a non-empty user id, or leave it out to use no memory")
            self.settings = self.settings.model_copy(update={"user_id": user.strip()})
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise InputError(f"k={k!r}: give how many models to return, a whole number of at least 1")
        self.k = k or self.settings.top_k
        self.clarify = clarify
        self._encoder = encoder
        self._llm = llm
        self._memory = memory
        self.memory_error: str | None = None
        self._turn: Turn | None = None
        self._shown: int | None = None  # how many models the text asked to see, for this task
        self._pending: list[ClarificationQuestion] = []
        self._asked: list[ClarificationQuestion] = []
        self._answers: dict[str, str] = {}
        self._last_said = ""  # the last message that started or changed a task (models named)
        self.history: list[Selection] = []
        self.last_selection: Selection | None = None

    @property
    def progress(self) -> list[str]:
        """Steps the running (or last) request has completed, in order: e.g. ['interpret', 'check']."""
        turn = self._turn
        return [step.step for step in list(turn.trace) if step.step] if turn is not None else []

    @property
    def resources(self) -> Resources:
        """Database, indexes and encoder (built on first use)."""
        return get_resources(self.settings, self._encoder)

    def _orchestrator(self) -> Orchestrator:
        if self._llm is None:  # built once per session: a local model loads once
            self._llm = _configured_llm(self.settings)
        llm = self._llm
        memory = self._memory if self.remembers else None
        if memory is None and self.remembers:
            memory = self._open_memory()
        return Orchestrator(self.settings, self.resources, llm=llm, memory=memory)

    @property
    def remembers(self) -> bool:
        """Whether this session reads and writes task memory: memory on and a user given."""
        return self.settings.memory.enabled and self.settings.user_id is not None

    def accept(self, *suggestion_ids: str) -> Selection:
        """Accept suggestions from the user's earlier tasks (ids of ``Selection.suggestions``) and
        answer the same task again with them applied."""
        turn, selection = self._turn, self.last_selection
        if turn is None or selection is None or not selection.suggestions:
            raise InputError("No suggestion from earlier tasks is on offer: ask about a task first.")
        try:
            turn.memory.accept(list(suggestion_ids))
        except ValueError as exc:
            raise InputError(f"{exc}: accept one of those.") from None
        turn.questions, turn.status, turn.trace = [], Status.ok, []
        accepted = self._run()
        accepted.follow_up = True
        return accepted

    def _open_memory(self) -> object | None:
        try:
            from agent.memory import MemoryUnavailableError, open_memory
        except ImportError:
            return None
        try:
            return open_memory(self.settings)
        except MemoryUnavailableError as exc:
            self.memory_error = str(exc)
            log.warning("task memory unavailable, answering without it: %s", exc)
            return None

    def ask(self, text: str) -> Selection:
        """Start a task, answer pending questions in free text, or change the task just answered.

        After an answer, text that names no application or task of its own but a constraint, data,
        region or model ('only open weights', 'what about Bangladesh?', 'not TerraMind') changes
        that task, and the answer says so; anything else starts a new task.
        """
        return self._respond(text, Reader())

    def _situation(self) -> Situation:
        """What a message is decided against: the task so far, pending questions, the answer shown."""
        return Situation(
            turn=self._turn,
            pending=bool(self._pending),
            shown=self.last_selection,
            said_before=self._last_said,
            k=self.k,
            resources=self.resources,
        )

    def _respond(self, text: str, read: Reader) -> Selection:
        """Decide what ``text`` does (reading it once, with ``read``) and let its handler answer."""
        text = validate_text(text, self.settings.orchestrator.max_query_chars)
        message = decide(text, self._situation(), read)
        if message.intent in REMEMBERED:
            self._last_said = message.resolved
        return HANDLERS[message.intent](self, message)

    def _same_task(self, previous: Turn, answer: str | None = None) -> Selection:
        """The task answered before, run again (with ``answer`` said first, if given)."""
        self._turn = Turn(text=previous.text, k=self._shown or self.k, clarify=False)
        self._turn.asked = set(previous.asked)
        self._turn.statement = previous.statement or previous.text
        self._turn.size_reference = previous.size_reference
        selection = self._run()
        selection.follow_up = True
        if answer is not None:
            selection.assumptions.insert(0, answer)
            selection.answers.insert(0, answer)
        return selection

    def answer(self, answers: Mapping[str, str], reply: str | None = None) -> Selection:
        """Answer pending questions by field (e.g. {'modality': 'SAR'}), all in one round.

        ``reply`` adds free text to the same round (as ask() would), so picked answers and a typed
        one need not cost two rounds.
        """
        if self._turn is None:
            raise ConfigurationError("No task yet: call ask() with a task description first.")
        limit = self.settings.orchestrator.max_query_chars
        reply = validate_text(reply, limit) if reply and reply.strip() else ""
        by_field = {q.field: q for q in self._pending}
        parts = []
        for field_name, value in answers.items():
            if not str(value).strip():
                continue
            question = by_field.get(field_name) or ClarificationQuestion(field=field_name, text="")
            parts.append(answer_text(question, str(value)))
            self._answers[field_name] = str(value)
        # Only answered fields count as asked: a question left open may come back next round.
        answered = {f for f, v in answers.items() if str(v).strip()}
        if reply:
            self._answers["reply"] = f"{self._answers.get('reply', '')} {reply}".strip()
            parts.append(reply)
            answered |= set(by_field)
        return self._continue(" ".join(parts), answered)

    def _continue(self, reply: str, answered: set[str]) -> Selection:
        assert self._turn is not None
        turn = self._turn
        turn.asked |= answered
        turn.rounds += 1
        if reply.strip():
            turn.text = f"{turn.text} {reply}".strip()
        turn.questions = []
        turn.status = Status.ok
        turn.trace = []
        return self._run()

    def _run(self) -> Selection:
        assert self._turn is not None
        orchestrator = self._orchestrator()
        start = time.perf_counter()
        selection = orchestrator.run(self._turn)
        selection.elapsed_ms = round((time.perf_counter() - start) * 1000, 1)
        if self.memory_error:
            selection.assumptions.append(
                f"Task memory unavailable ({self.memory_error}); answered without it"
            )
        self._pending = list(selection.questions)
        self._asked.extend(selection.questions)
        self.history.append(selection)
        self.last_selection = selection
        stored = selection.status not in (Status.needs_clarification, Status.not_understood)
        if stored and orchestrator.memory is not None:
            _remember(orchestrator.memory, self.settings, selection, self._asked, self._answers)
        return selection

    def feedback(self, model_id: str, vote: str, comment: str | None = None) -> None:
        """Store an up or down vote for a recommended model in task memory."""
        selection = self.last_selection
        if not self.remembers or self.settings.user_id is None:
            raise ConfigurationError(
                "Feedback is stored in task memory, which this session does not use: give a user id "
                "(Session(user=...), remsa ask --user or REMSA_USER_ID) to remember votes."
            )
        memory = self._memory if self._memory is not None else self._open_memory()
        if selection is None or memory is None or selection.interaction_id is None:
            raise ConfigurationError("Feedback needs an answered task and task memory switched on.")
        memory.record_feedback(self.settings.user_id, selection.interaction_id, model_id, vote, comment)  # type: ignore[attr-defined]


def _configured_llm(settings: Settings) -> object | None:
    if settings.llm.provider == "none":
        return None
    from agent.llm_steps import LLMSteps

    return LLMSteps.from_settings(settings)


def _remember(
    memory: object,
    settings: Settings,
    selection: Selection,
    asked: list[ClarificationQuestion],
    answers: dict[str, str],
) -> None:
    from agent.memory import Interaction, MemoryUnavailableError

    interaction = Interaction(
        interaction_id=selection.interaction_id or "",
        user_id=settings.user_id or "",
        query_text=selection.query_text,
        structured_query=selection.query.model_dump(mode="json"),
        questions=[q.model_dump() for q in asked],
        answers=dict(answers),
        recommended=[m.model_id for m in selection.models[: selection.top_count()]],  # not named extras
        feedback={},
        database_version=selection.database_version,
    )
    try:
        memory.add(interaction)  # type: ignore[attr-defined]
    except MemoryUnavailableError as exc:
        selection.assumptions.append(f"Task memory unavailable ({exc}); this answer was not remembered")


def select_models(
    query: str,
    k: int = 3,
    *,
    clarify: bool = True,
    answers: Mapping[str, str] | None = None,
    settings: Settings | None = None,
    encoder: Encoder | None = None,
    user: str | None = None,
) -> Selection:
    """Recommend up to ``k`` foundation models for a free-text task.

    With ``clarify=False`` it always answers with its best ``k`` and the assumptions it made.
    ``answers`` (field -> answer) pre-answers clarification questions in one round.
    ``user`` reads and writes that user's task memory; without it the answer depends on the text
    alone (earlier tasks are offered as ``suggestions`` only, never applied unasked).
    """
    session = Session(settings, k=k, clarify=clarify, encoder=encoder, user=user)
    selection = session.ask(query)
    if answers and selection.status == Status.needs_clarification:
        selection = session.answer(answers)
    return selection
