"""Public API: ``select_models`` for one-shot use and ``Session`` for multi-turn conversations."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping

from agent.catalogue_questions import catalogue_superlative, size_question, without_size_question
from agent.errors import ConfigurationError, InputError
from agent.interpreter import interpret
from agent.mentions import DROP, LARGER_WORDS, SMALLER_WORDS, asked_about_name, built_on
from agent.orchestrator import Orchestrator, Turn, validate_text
from agent.query import StructuredQuery
from agent.reading.compute import device_spans
from agent.reading.imagery import INFRARED_ADVICE
from agent.reading.labels import regime_spans
from agent.reading.terms import blank_spans, find_terms
from agent.resources import Resources, get_resources
from agent.selection import Selection, Status
from agent.settings import Settings
from agent.systems import ClarificationQuestion
from tools.changes import task_change
from tools.clarification import answer_text, typed_labels_answer
from tools.embedding import Encoder
from tools.explanation import why_ranked
from tools.model_facts import model_fact, results_on

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
        text = validate_text(text, self.settings.orchestrator.max_query_chars)
        if _SOCIAL.fullmatch(text.strip()):
            return self._social(text.strip())
        if _OFF_TOPIC.search(text) and not interpret(text).query.application:
            return self._social(text.strip(), off_topic=True)
        if self._turn is not None and self._pending and _WHY_ALONE.fullmatch(text.strip()):
            # 'why?' in reply to a question: why it is asked; the questions stay open.
            return self._why_asked()
        if self._turn is not None and self._pending:
            if compared := _compared_first_few(text):
                # 'compare the top two' in reply to a question: the answer now, with at least that
                # many models (the count names the models to compare, not how many to show), then
                # the comparison asked of it, as after any answer.
                self._turn.clarify = False
                self._turn.k = max(self._turn.k, compared)
                # 'compare the top two, with aerial RGB': the rest answers the questions, and only
                # the comparison is asked of the answer, so that a later change leaves it behind.
                asked, reply = text, ""
                if interpret(text).query.filled_fields():
                    clause = _COMPARE_FIRST_FEW.search(text)
                    asked = clause.group(0) if clause else text
                    reply = _COMPARE_FIRST_FEW.sub(" ", text) if clause else text
                    reply = " ".join(reply.strip(" ,;:").split())
                    self._answers["reply"] = f"{self._answers.get('reply', '')} {reply}".strip()
                if self._continue(reply, {q.field for q in self._pending}).models:
                    return self.ask(asked)
                return self.last_selection  # type: ignore[return-value]
            if _only_a_count(text) and requested_count(text, None, self.k):
                # 'top 10' in reply to a question: the answer now, with that many models.
                self._turn.clarify = False
            self._answers["reply"] = f"{self._answers.get('reply', '')} {text}".strip()
            if count := requested_count(text, None, self.k):
                self._shown = self._turn.k = count  # 'a laptop, and show me 5'
            # 'actually crop type mapping instead', in reply to a question: it replaces what it
            # names in the task so far, as it would after an answer.
            kept = _without_replaced(self._turn.text, text)
            replaced = kept != self._turn.text
            if not self._turn.query.filled_fields() and interpret(text).query.filled_fields():
                # 'what can you do?' or 'I need a model', then the task: the task alone.
                kept = ""
                self._turn.notes = []
            if replaced or not kept:
                self._turn.query = StructuredQuery()  # read again from the text, without what it replaced
            self._turn.text = kept
            selection = self._continue(self._phrased_reply(text), {q.field for q in self._pending})
            if replaced:
                selection.assumptions.insert(
                    0, f"'{text.strip()}' read as replacing what it names in the task so far"
                )
            return selection
        previous = self._turn
        answered = self.last_selection.models if self.last_selection is not None else []
        if previous is not None and answered and _WHY_ALONE.fullmatch(text.strip()):
            return self._why_first(previous, text.strip())
        text, ordinal_note = _name_ordinals(text, self.last_selection)
        if ordinal_note is None:
            text, ordinal_note = self._name_pronoun(text)
            if ordinal_note is None and previous is not None and answered and _ONLY_PRONOUN.fullmatch(text):
                # 'exclude it' after a message that named no model (or several): nothing to leave
                # out, so the same answer, and a word on how to say which.
                return self._same_task(
                    previous,
                    f"'{text.strip()}' names no model: the message before named none, or several. "
                    "Say which to leave out, e.g. 'drop the first one' or 'not DOFA'",
                )
        if (
            previous is not None
            and answered
            and (facts := self._model_facts(text, previous, ordinal_note)) is not None
        ):
            self._last_said = text
            return facts
        self._last_said = text
        count = requested_count(text, self.last_selection, self.k)
        if previous is not None and self.last_selection is not None and count and _only_a_count(text):
            # 'show me 5', 'more options': the same task, with more (or fewer) models shown.
            self._shown = count
            selection = self._same_task(previous)
            selection.assumptions.insert(0, f"The same task as before, with the top {count} shown")
            return selection
        labels_only = False
        if (
            previous is not None
            and self.last_selection is not None
            and text.strip().lower().rstrip(".!") not in {"no", "0"}
            and (labels := typed_labels_answer(text)) is not None
            and not interpret(text).query.filled_fields()
        ):
            # 'a few', '500 fields' after an answer: the labels the task has, as a change to it.
            text, labels_only = labels, True
        unknown = (
            self._unknown_model(text) if previous is not None and self.last_selection is not None else None
        )
        if previous is not None and unknown is not None:
            # 'why not SAM?': no record to rank; the same task, and the models built on it.
            selection = self._same_task(previous)
            note = self._unknown_model_note(unknown)
            selection.assumptions.insert(0, note)
            selection.answers.insert(0, note)
            return selection
        if (
            previous is not None
            and self.last_selection is not None
            and (labels_only or self._changes_task(text, previous))
        ):
            before = _without_replaced(previous.text, text).rstrip()
            reference = _size_reference(text, self.last_selection)
            if reference is not None:
                # 'a bigger one' after 'something smaller?': the new relative size replaces the old.
                before = " ".join(_LARGER.sub("", _SMALLER.sub("", before)).split())
            if labels_only:
                # 'a few' after 'none': the labels stated last replace those stated before.
                before = " ".join(blank_spans(before, regime_spans(before)).split())
            # 'why not DOFA?' is asked of the answer it follows; a later change leaves it behind.
            before = " ".join(_WHY_NOT_SENTENCE.sub(" ", before).split())
            # So are 'why is RAMEN ranked lower?' and 'compare MAESTRO and AnySat', when they add
            # nothing to the task but the models they ask about.
            before = _without_asked_of_answer(before)
            asks_size = size_question(text) is not None
            if asks_size or previous.size_follow_up:
                # 'and the largest?' after 'which one is the smallest?' replaces it; a later change
                # ('why not DOFA?') leaves a size question asked after an answer behind.
                before = without_size_question(before)
            joint = " " if before.endswith((".", "?", "!", ";")) else ". "
            # A change keeps the number of models asked for before, unless it asks another.
            self._shown = count or self._shown
            # A change to a task already answered is answered at once: its questions were asked.
            self._turn = Turn(text=f"{before}{joint}{text}", k=self._shown or self.k, clarify=False)
            self._turn.asked = set(previous.asked)
            # A change that asks no new relative size keeps the one asked before ('something
            # smaller?' then 'only open weights' or 'compare the top two'): its words stay in the text.
            self._turn.size_reference = reference or previous.size_reference
            self._turn.size_follow_up = asks_size
            if asks_size:
                # 'which of these is the smallest?': asked of the models just shown.
                self._turn.size_among = tuple(m.model_id for m in self.last_selection.models)
            answered_before = self.last_selection
            selection = self._run()
            selection.follow_up = True
            selection.change = task_change(
                answered_before.query,
                selection.query,
                {**answered_before.model_names, **selection.model_names},
            )
            shown = previous.text if len(previous.text) <= 80 else previous.text[:77].rstrip() + "..."
            selection.assumptions.insert(
                0, f"Read as a change to the previous task ('{shown}'); start a new task to leave it behind"
            )
            if ordinal_note:
                selection.assumptions.insert(1, ordinal_note)
            return selection
        about = _ABOUT_ONE_THING.fullmatch(text.strip()) if previous is not None and answered else None
        if previous is not None and about and not (unread := interpret(text)).query.filled_fields():
            # 'what about infrared?': nothing remsa can read, so the task and its answer stay.
            infrared = any(n.endswith(INFRARED_ADVICE) for n in unread.notes)
            return self._same_task(
                previous,
                f"'{about.group(1)}' is not read as a sensor, imagery kind, region, constraint or model that "
                f"RS-FMD knows, so the task stays as it was; {INFRARED_ADVICE if infrared else _NAME_IT}",
            )
        if (
            previous is not None
            and answered
            and _QUESTION.search(text)
            and _THESE.search(text)
            and not interpret(text).query.filled_fields()
            and not self.resources.model_names().find(text).named
        ):
            # 'which one is the most robust?': about the models shown, but nothing RS-FMD holds
            # answers it; the task and its answer stay rather than an empty task starting.
            return self._same_task(
                previous,
                f"'{text.strip()}' asks about the models shown, but RS-FMD holds nothing to answer it; "
                "ask about their size, licence, weights, pretraining data or reported results (e.g. "
                "'which of these has weights?'), or describe a new task",
            )
        self._shown = count
        self._turn = Turn(text=text, k=count or self.k, clarify=self.clarify)
        self._asked, self._answers = [], {}
        selection = self._run()
        if ordinal_note:
            selection.assumptions.insert(0, ordinal_note)
        return selection

    def _name_pronoun(self, text: str) -> tuple[str, str | None]:
        """'exclude it', 'not that one' or 'how does it compare to CROMA?' after a message that named
        one model ('why is GFM first?'): ``text`` with that model's name, and a note saying so."""
        match = _PRONOUN_RULED_OUT.search(text) or _PRONOUN_ASKED_ABOUT.search(text)
        if match is None or self.last_selection is None or not self._last_said:
            return text, None
        named = self.resources.model_names().find(self._last_said).named
        if len(named) != 1:
            return text, None
        name = self.resources.by_id[named[0]].model_name
        start, end = match.span(2)
        note = f"'{match.group(2)}' read as {name}, the model named in the message before"
        return f"{text[:start]}{name}{text[end:]}", note

    def _unknown_model(self, text: str) -> str | None:
        """The name in 'why not SAM?' when it is neither a model in RS-FMD nor anything else a task
        can take (a sensor, a region, ...)."""
        name = asked_about_name(text)
        if name is None:
            return None
        mentions = self.resources.model_names().find(text)
        if mentions.named or mentions.excluded or interpret(text).query.filled_fields():
            return None
        return name

    def _unknown_model_note(self, name: str) -> str:
        """Says that ``name`` is not in RS-FMD and which models of the ranking are built on it."""
        assert self._turn is not None
        note = f"'{name}' is not a model in RS-FMD, so it was not ranked; the same task as before"
        relatives = {r.model_id for r in built_on(self.resources.records, name)}
        if not relatives:
            return note
        ranked = [
            f"{c.record.model_name} (rank {i + 1})"
            for i, c in enumerate(self._turn.ranked)
            if c.record.model_id in relatives
        ]
        if ranked:
            shown = ", ".join(ranked[:5]) + (f" and {len(ranked) - 5} more" if len(ranked) > 5 else "")
            return f"{note}. Models in this ranking whose backbone or name mentions {name}: {shown}"
        return (
            f"{note}. {len(relatives)} models in RS-FMD have {name} in their backbone or name; "
            "none of them fits this task"
        )

    def _model_facts(self, text: str, previous: Turn, ordinal_note: str | None) -> Selection | None:
        """'is it open source?', 'how big is the second one?', 'what was DOFA trained on?' after an
        answer: the same answer, with what RS-FMD holds on the models asked about said first.
        None when ``text`` is no such question (or names a task of its own)."""
        topics = [topic for topic, pattern in _FACT_TOPICS if pattern.search(text)]
        shown = self.last_selection.models if self.last_selection is not None else []
        if not topics or not shown or not _QUESTION.search(text):
            return None
        # (read without the model names: 'SARATR-X-v2' names no task)
        query = interpret(self.resources.model_names().without_names(text)).query
        on_datasets = query.datasets if topics == ["results"] else []
        # 'was DOFA evaluated on flood mapping?': its results there, not a task to rank it for.
        on_application = query.application if topics == ["results"] and not on_datasets else None
        if (query.application or query.task_type) and not (on_datasets or on_application):
            return None  # 'is it good for flood mapping?': a task to rank it for
        by_id = self.resources.by_id
        names = self.resources.model_names()
        # 'the second one, how big?' opens with the name the ordinal stands for, where a capitalised
        # word would otherwise be read as the plain word.
        found = names.find(f"- {text}" if ordinal_note else text)
        named = [m for m in found.named if m in by_id]
        note = ordinal_note
        before = [m for m in names.find(self._last_said).named if m in by_id] if self._last_said else []
        if not named and len(before) > 1 and _WHICH.search(text):
            named = before  # 'Prithvi vs TerraMind ...' then 'which is bigger?'
        elif not named and _THESE.search(text):
            named = [m.model_id for m in shown if m.model_id in by_id]
        elif not named:
            # 'is it open source?', 'where can I download the weights?': the one model the message
            # before named, or else the first model shown.
            named = before if len(before) == 1 else [shown[0].model_id]
            pronoun = _IT_ALONE.search(text)
            said = f"'{pronoun.group(0)}' read as" if pronoun else "Read as a question about"
            which = "the model named in the message before" if len(before) == 1 else "the first model shown"
            note = f"{said} {by_id[named[0]].model_name}, {which}"
        if on_datasets or on_application:
            # 'which of these were evaluated on EuroSAT?': the results there, model by model.
            lines = [results_on(by_id[m], on_datasets, on_application) for m in named]
        else:
            lines = [model_fact(by_id[m], topic, previous.query) for topic in topics for m in named]
        if "usability" in topics:
            lines.insert(0, "RS-FMD has no measure of ease of use, so here is what each model has released")
        if (comparative := _COMPARATIVE.search(text)) and len(named) > 1:
            # 'which is bigger?': the sizes, and which one it is (by its largest variant; by its
            # smallest for 'smaller').
            larger = comparative.group(1).lower().startswith(("big", "larg", "heav"))
            sizes = {
                m: size
                for m in named
                if (size := by_id[m].largest_parameters if larger else by_id[m].smallest_parameters)
            }
            if sizes:
                best = (max if larger else min)(sizes.values())
                picks = [by_id[m].model_name for m, size in sizes.items() if size == best]
                word = "Largest" if larger else "Smallest"
                each = " each" if len(picks) > 1 else ""
                lines.insert(0, f"{word}: {' and '.join(picks)} ({best:g}M{each})")
        answer = "; ".join(lines) if len(lines) > 1 else lines[0]
        selection = self._same_task(previous, answer)
        # The answer to this question is the fact asked for; the task's own answers stay in the notes.
        selection.answers = [answer]
        if note:
            selection.assumptions.insert(1, note)
        return selection

    def _social(self, text: str, *, off_topic: bool = False) -> Selection:
        """'thanks!', 'hi there', 'bye': acknowledged; the task and its answer (or questions) stay.
        So too for a question outside remsa's scope ('what's the weather like today?')."""
        if off_topic:
            reply = (
                f"'{text}' is outside what remsa answers: it recommends remote-sensing foundation models "
                "for a task"
            )
        else:
            reply = _SOCIAL_REPLY["thanks" if _THANKS.search(text) else "hello"]
        if self.last_selection is None:
            reply += "; describe your task (what the model should do, and with what imagery) to get started"
            return Selection(
                status=Status.needs_clarification,
                query=StructuredQuery(),
                query_text=text,
                assumptions=[reply],
                answers=[reply],
                questions=list(self._pending),
            )
        selection = self.last_selection.model_copy(deep=True)
        # (what the message before said its words referred to is no note on this one)
        kept = [
            a for a in selection.assumptions if a not in selection.answers and not _REFERENCE_NOTE.search(a)
        ]
        selection.assumptions = [reply, *kept]
        selection.answers = [reply]
        selection.follow_up, selection.change = True, None
        return selection

    def _why_asked(self) -> Selection:
        """Why the pending questions are asked; they stay open."""
        assert self.last_selection is not None
        why = "; ".join(_WHY_ASKED.get(q.field, q.field.replace("_", " ")) for q in self._pending)
        note = (
            f"Each answer narrows the ranking: {why}. Answer any of them, or say 'top 3' for the ranking now"
        )
        selection = self.last_selection.model_copy(deep=True)
        selection.assumptions = [note, *selection.assumptions]
        selection.answers = [note]
        return selection

    def _why_first(self, previous: Turn, asked: str) -> Selection:
        """'why?', 'why that one?' after an answer: the same answer, with what put its first model
        first."""
        selection = self._same_task(previous)
        if selection.models:
            top, after = selection.models[0], selection.models[1] if len(selection.models) > 1 else None
            note = f"'{asked}' read as why {top.name} is first" + why_ranked(top, after)
            selection.assumptions.insert(0, note)
            selection.answers.insert(0, note)
        return selection

    def _same_task(self, previous: Turn, answer: str | None = None) -> Selection:
        """The task answered before, run again (with ``answer`` said first, if given)."""
        self._turn = Turn(text=previous.text, k=self._shown or self.k, clarify=False)
        self._turn.asked = set(previous.asked)
        self._turn.size_reference = previous.size_reference
        selection = self._run()
        selection.follow_up = True
        if answer is not None:
            selection.assumptions.insert(0, answer)
            selection.answers.insert(0, answer)
        return selection

    def _changes_task(self, text: str, previous: Turn) -> bool:
        """Whether ``text`` changes the last task: no application or task of its own, but something
        the task can take (a constraint, data, a region, a model named or ruled out)."""
        alone = interpret(self.resources.model_names().without_names(text, keep_datasets=True)).query
        if alone.application or alone.task_type:
            # 'what about crop type mapping instead?': the task changes, its data and constraints stay.
            return bool(_NEW_TASK_INSTEAD.search(text))
        mentions = self.resources.model_names().find(text)
        if len(mentions.named) > 1 and not alone.filled_fields() and not previous.query.filled_fields():
            # 'CROMA vs Galileo?' after 'tell me about DOFA': models named alone, after models named
            # alone, are a question of their own.
            return False
        # 'something smaller?', and 'which one is the smallest?' of the task just answered
        sized = bool(
            _SMALLER.search(text)
            or _LARGER.search(text)
            or size_question(text)
            or catalogue_superlative(text)
        )
        return bool(alone.filled_fields() or mentions.named or mentions.excluded or sized)

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

    def _phrased_reply(self, reply: str) -> str:
        """A terse reply to the pending questions ('500, laptop', 'none', 'aerial RGB, 20 cm') with
        each part the interpreter cannot read alone phrased as the answer to the next question
        still open, in the order asked, when so phrased it answers that question; parts it reads,
        counts ('top 3'), models and 'skip' stay as typed. The reply itself when nothing changes."""
        parts = [p.strip() for p in _REPLY_PARTS.split(reply) if p.strip()]
        if len(parts) > 4:
            return reply
        open_questions = list(self._pending)
        read = {part: interpret(part).query for part in parts}
        for query in read.values():
            filled = {_QUESTION_FIELD.get(f, f) for f in query.filled_fields()}
            open_questions = [q for q in open_questions if q.field not in filled]
        names = self.resources.model_names()
        out, changed = [], False
        for part in parts:
            mentions = names.find(part)
            phrased = None
            if not (
                read[part].filled_fields()
                or mentions.named
                or mentions.excluded
                or (requested_count(part, None, self.k) and _only_a_count(part))
                or _NO_ANSWER.fullmatch(part)
            ):
                if _LENGTH_ALONE.fullmatch(part):
                    phrased = f"My data is {part} imagery."  # '20 cm': the imagery's resolution
                elif open_questions:
                    phrased = _answer_to(open_questions[0], part)
                    if phrased is not None:
                        open_questions.pop(0)
            out.append(phrased or part)
            changed = changed or phrased is not None
        return "; ".join(out) if changed else reply

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


# 'the first one', 'the second model', '#2', 'option 3': a model of the answer just given, by rank.
_ORDINAL_WORDS = {"first": 1, "1st": 1, "top": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "last": -1}
_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_ORDINAL = re.compile(
    r"\b(?:the\s+)?(first|1st|second|2nd|third|3rd|last)\s+"
    r"(?:one|model|pick|option|recommendation|result|suggestion|choice)\b"
    # Not 'the top model for SAR', a question of its own.
    r"|\b(?:the\s+)?(top)\s+(?:one|pick|recommendation|result|suggestion|choice)\b"
    r"|#\s?([1-9])\b|\b(?:number|no\.|option|model|pick)\s+([1-9]|one|two|three|four|five)\b(?!\s*(?:m\b|%|[a-z]))"
    # 'how many parameters does the third have?', 'and the last?': the ordinal alone, before a verb
    r"|\bthe\s+(first|1st|second|2nd|third|3rd|last)\b(?=\s*(?:[?.!,;]|$)|\s+(?:have|has|is|was|take|takes|"
    r"support|supports|need|needs|use|uses|run|runs|cost|costs|handle|handles)\b)"
    # ... or asked of: 'is the second open source?', 'does the third take SAR?'
    r"|(?:(?<=\bis\s)|(?<=\bwas\s)|(?<=\bdoes\s)|(?<=\bdid\s)|(?<=\bcan\s)|(?<=\bhas\s))the\s+"
    r"(first|1st|second|2nd|third|3rd|last)\b(?!\s+(?:time|step|stage|phase|place|year|half|round|layer)s?\b)"
    # ... 'was the top model evaluated on EuroSAT?', 'is the top model open source?'
    r"|(?:(?<=\bis\s)|(?<=\bwas\s)|(?<=\bdoes\s)|(?<=\bdid\s)|(?<=\bcan\s)|(?<=\bhas\s))the\s+(top)\s+model\b",
    re.IGNORECASE,
)


# 'exclude it', 'not that one', 'drop this model': the model the message before named.
_RULED_OUT = rf"(?:\bexclude|{DROP}|\bnot|\bno|\bwithout)"
_IT = r"(?:it|that\s+one|this\s+one|that\s+model|this\s+model)"
_PRONOUN_RULED_OUT = re.compile(rf"({_RULED_OUT})\s+({_IT})\b", re.IGNORECASE)
# 'how does it compare to CROMA?', 'is it good for SAR?': asked about the model named before.
_PRONOUN_ASKED_ABOUT = re.compile(
    rf"(\b(?:how\s+(?:does|would|will)|is|does|can|could|would|will|compare)\s+)({_IT})\b", re.IGNORECASE
)
# Messages that are only social: acknowledged, and nothing of the task changes.
_THANKS = re.compile(
    r"\b(?:thanks?|thank\s+you|thx|cheers|ty|great|perfect|awesome|cool|nice)\b", re.IGNORECASE
)
_SOCIAL = re.compile(
    r"\W*(?:(?:ok(?:ay)?|great|perfect|awesome|cool|nice|super|brilliant|got\s+it)[,!.\s]*)*"
    r"(?:(?:many\s+)?thanks?(?:\s+(?:a\s+lot|so\s+much|again))?|thank\s+you(?:\s+(?:so\s+much|very\s+much|again))?|"
    r"thx|cheers|ty|hi|hello|hey|good\s+(?:morning|afternoon|evening)|bye|goodbye|see\s+you|"
    r"ok(?:ay)?|great|perfect|awesome|cool|nice|got\s+it)"
    r"(?:[,!.\s]+(?:(?:that'?s\s+)?(?:great|helpful|perfect)|bye|goodbye|there|all|again|remsa))*\W*",
    re.IGNORECASE,
)
_SOCIAL_REPLY = {"thanks": "You're welcome", "hello": "Hello"}
# Questions outside the scope of model selection, answered as such.
_OFF_TOPIC = re.compile(
    r"^\W*(?:what'?s|what\s+is|how'?s|how\s+is)\s+the\s+weather\b|\bweather\s+(?:today|tomorrow|forecast)\b|"
    r"^\W*what(?:'s|\s+is)\s+the\s+capital\s+of\b|\btell\s+me\s+a\s+joke\b|^\W*what\s+time\s+is\s+it\b",
    re.IGNORECASE,
)
# Why a clarification question is asked, for 'why?' in reply to it.
_WHY_ASKED = {
    "application": "what the model should do decides which results count",
    "modality": "the imagery you have decides which models can take it",
    "sensor": "the sensor decides which models were built for your bands",
    "data_regime": "how many labels you have decides between zero-shot, few-shot and fine-tuned results",
    "deployment_device": "where the model runs bounds its size",
    "region": "your region weighs models by their pretraining coverage and evaluations there",
}
_EVALUATED = r"\b(?:evaluated|tested|benchmarked|validated|assessed)"
# Words comparing models by size: 'which is bigger?', 'which of A, B and C is smallest?'
_COMPARATIVES = "bigger|larger|smaller|lighter|heavier"
_SUPERLATIVES = "biggest|largest|heaviest|smallest|lightest"
# Questions about a model shown or named, answered from its record: (topic, pattern).
_FACT_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        # 'tell me about SatCLIP', 'tell me more about the second one': what RS-FMD holds on it
        "profile",
        re.compile(
            r"\btell me (?:a bit |a little |some(?:thing)? |more )*about\b|^\W*describe\b|"
            r"\bmore (?:details|info(?:rmation)?) (?:on|about)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "size",
        re.compile(
            r"\bhow (?:big|large|heavy|small)\b|\bhow many param|\bparameter count\b|"
            r"\bnumber of parameters\b|"
            r"\b(?:what|which)(?:'s| is| are)? (?:the |its |their )?(?:model )?sizes?\b|\bhow many weights\b|"
            # 'which is bigger?', 'which of the two is smaller?'
            rf"\bwhich(?: one| of (?:them|these|those|the two))? is (?:{_COMPARATIVES})\b|"
            # 'which of the first three is smallest?', read as 'which of A, B and C is smallest?'
            rf"\bwhich of [^.?!;]*?\band\b[^.?!;]*? is (?:the )?(?:{_SUPERLATIVES})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "licence",
        re.compile(
            r"\bopen[\s-]?source\b|\blicen[cs]e[ds]?\b|\bcommercial(?:ly)?\b|\bfree to use\b",
            re.IGNORECASE,
        ),
    ),
    (
        "weights",
        re.compile(
            r"\b(?:weights|checkpoints?)\b|\bwhere (?:can|do) (?:i|we) (?:get|download|find)\b|\bdownload",
            re.IGNORECASE,
        ),
    ),
    (
        "pretraining",
        re.compile(
            r"\b(?:pre-?)?trained (?:on|with)\b|\b(?:pre-?)?training data\b|"
            # 'how was it pretrained?'
            r"\bhow (?:was|were|is|are) (?:it|they|this one|that one|[\w.-]+) pre-?trained\b|"
            # ... but 'what datasets was it evaluated on?' asks for its results
            rf"\bwhat (?:data|dataset|imagery)s? (?:was|were|is|did|does)\b(?![^.?!]*{_EVALUATED})",
            re.IGNORECASE,
        ),
    ),
    (
        # 'which one is easiest to use?': judged by what each model has released
        "usability",
        re.compile(
            r"\b(?:easiest|easy|simplest|simple|straightforward|hardest|hard|difficult)\s+(?:one\s+)?to\s+"
            r"(?:use|set\s*up|deploy|run|start\s+with|fine-?tune|get\s+started\s+with|adopt)\b|"
            r"\bready[\s-]to[\s-]use\b|\bout[\s-]of[\s-]the[\s-]box\b|\bplug[\s-]and[\s-]play\b",
            re.IGNORECASE,
        ),
    ),
    (
        # 'what datasets was the top model evaluated on?', 'which benchmarks does it report?'
        "results",
        re.compile(
            rf"{_EVALUATED}\s+(?:on|against|with)\b|\b(?:which|what)\s+(?:benchmarks?|results|scores)\b|"
            r"\b(?:results?|scores?)\s+(?:on|for)\b|"
            r"\bbenchmarks?\s+(?:does|did|do|has|have)\b|\b(?:reported|published)\s+(?:results|scores)\b|"
            r"\bhow\s+(?:well\s+)?(?:does|did|do)\s+(?:it|they|this one|that one|[\w.-]+)\s+"
            r"(?:perform|score)\b",
            re.IGNORECASE,
        ),
    ),
)
_QUESTION = re.compile(
    r"\?\s*$|^\W*(?:is|are|does|do|did|has|have|how|what|which|where|can|could|was|were|tell)\b",
    re.IGNORECASE,
)
_THESE = re.compile(r"\b(?:these|those|them|they|each|all of them|which ones?|which of)\b", re.IGNORECASE)
_WHICH = re.compile(r"\bwhich\b", re.IGNORECASE)
_COMPARATIVE = re.compile(rf"\bwhich\b[^?]*?\b({_COMPARATIVES}|{_SUPERLATIVES})\b", re.IGNORECASE)
_IT_ALONE = re.compile(r"\b(?:it|its|this one|that one|this model|that model)\b", re.IGNORECASE)
# ... and a message that is nothing else: 'exclude it', 'not that one, please.'
_ONLY_PRONOUN = re.compile(
    rf"\s*(?:please\s+)?{_RULED_OUT}\s+{_IT}(?:,?\s+please)?\s*[.!?]*\s*", re.IGNORECASE
)


# 'compare the top two', 'which of the first three ...': the models shown first, by number.
_COMPARE = re.compile(
    r"\b(?:compare|comparing|comparison|difference|differences|differ|versus|vs\.?|between|which of)\b",
    re.IGNORECASE,
)
_FIRST_FEW = re.compile(
    r"\b(?:the\s+)?(?:top|first)\s+(two|three|four|five|[2-5])\b(?:\s+(?:models|ones|options|picks|results))?",
    re.IGNORECASE,
)


# ... and a clause of its own: 'compare the top two', 'the differences between the first three'.
_COMPARE_FIRST_FEW = re.compile(
    rf"\b(?:compare|comparing|(?:the\s+)?differences?\s+between)\s+{_FIRST_FEW.pattern}", re.IGNORECASE
)


def _first_few_count(match: re.Match[str]) -> int:
    """How many models a ``_FIRST_FEW`` match counts ('the top two': 2)."""
    word = match.group(1).lower()
    return _NUMBER_WORDS.get(word) or int(word)


def _compared_first_few(text: str) -> int | None:
    """How many of the first models 'compare the top two' or 'which of the first three ...' asks
    about; None when the text asks no such thing."""
    if not _COMPARE.search(text) or not (match := _FIRST_FEW.search(text)):
        return None
    return _first_few_count(match)


def _answer_to(question: ClarificationQuestion, part: str) -> str | None:
    """``part`` phrased as the answer to ``question`` when, so phrased, it answers it; else None."""
    if question.field == "data_regime":
        return typed_labels_answer(part)
    phrased = answer_text(question, part)
    filled = {_QUESTION_FIELD.get(f, f) for f in interpret(phrased).query.filled_fields()}
    return phrased if question.field in filled else None


# A reply to several questions at once: '500, laptop', 'none and a GPU'.
_REPLY_PARTS = re.compile(r"\s*(?:[,;/]|\band\b|\s-\s)\s*", re.IGNORECASE)
# What each question field is filled by, in the interpreter's own field names.
_QUESTION_FIELD = {"task_type": "application", "sensor": "modality", "compute": "deployment_device"}
_NO_ANSWER = re.compile(
    r"(?:skip|pass|n/?a|not sure|unsure|dunno|i don'?t know|no idea|whatever(?: you think)?|any|anything|"
    r"doesn'?t matter|no preference)\W*",
    re.IGNORECASE,
)
_LENGTH_ALONE = re.compile(r"\d+(?:\.\d+)?\s*(?:cm|m|km)\b\W*", re.IGNORECASE)
# 'why not DOFA?', 'but why not the second one?': a sentence of its own in the task's text.
_WHY_NOT_SENTENCE = re.compile(
    r"(?:^|(?<=[.?!;]))\s*(?:(?:and|but|so)\s+)?why\s+not\s+[^.?!;]*(?:[?.!;]|$)", re.IGNORECASE
)
# A sentence after the text's first.
_LATER_SENTENCE = re.compile(r"(?<=[.?!;])[^.?!;]+(?:[.?!;]|$)")
# 'why is Clay first?', 'compare MAESTRO and AnySat', 'how does DOFA compare?': a sentence asking
# about the answer before.
_ASKED_OF_ANSWER = re.compile(
    r"\s*(?:(?:and|but|so|ok(?:ay)?)[,\s]+)?"
    r"(?:why|compare|comparing|how\s+(?:does|do|did)\b[^.?!;]*\bcompare|what(?:'s|\s+is|\s+are)\s+the\s+"
    r"differences?)\b[^.?!;]*(?:[?.!;]|$)",
    re.IGNORECASE,
)
_NAME_IT = "name the sensor or imagery (e.g. 'thermal', 'Landsat-8', 'hyperspectral'), or describe a new task"
# 'what about infrared?', 'and X?': a follow-up naming one thing, to be read as a change.
_ABOUT_ONE_THING = re.compile(
    r"(?:(?:and\s+)?(?:what|how)\s+about|and)\s+(?:the\s+|using\s+)?([^?.!,;]{1,40}?)\s*[?.!]*", re.IGNORECASE
)

# The notes saying which model a message's 'it' or 'the second one' stood for.
_REFERENCE_NOTE = re.compile(
    r"(?:, as shown in the answer before|, the first model shown|, the model named in the message before)$"
)
# 'why?', 'why that one?', 'explain': a question about the answer just given.
_WHY_ALONE = re.compile(
    r"(?:(?:but|and|so|ok(?:ay)?)[,\s]+)?(?:why(?:\s+(?:this|that|it|so))?(?:\s+(?:one|model))?"
    r"|why\s+is\s+(?:that|it)|explain(?:\s+(?:that|this|why|it))?|how\s+come)\s*[?!.]*",
    re.IGNORECASE,
)


def _without_asked_of_answer(text: str) -> str:
    """``text`` without the questions about an answer asked after its first sentence ('why is
    RAMEN ranked lower?', 'and the oldest one?'), unless they also change the task ('why not with
    SAR?' keeps SAR)."""

    def drop(match: re.Match[str]) -> str:
        sentence = match.group(0)
        asked = _ASKED_OF_ANSWER.fullmatch(sentence) or catalogue_superlative(sentence)
        return " " if asked and not interpret(sentence).query.filled_fields() else sentence

    return " ".join(_LATER_SENTENCE.sub(drop, text).split())


def _name_ordinals(text: str, selection: Selection | None) -> tuple[str, str | None]:
    """``text`` with 'the first one', '#2', 'the top two' and the like replaced by the names of the
    models shown at those ranks in the answer just given, and a note saying so (None when there is
    nothing to name)."""
    if selection is None or not selection.models:
        return text, None
    shown = selection.models
    names: list[tuple[str, str]] = []

    def first_few(match: re.Match[str]) -> str:
        count = _first_few_count(match)
        models = [m for m in shown if m.rank <= count]
        if len(models) < 2:
            return match.group(0)
        said = ", ".join(m.name for m in models[:-1]) + f" and {models[-1].name}"
        names.append((match.group(0), said))
        return said

    if _COMPARE.search(text):  # 'show me the top 5' asks for more models, not for those shown
        text = _FIRST_FEW.sub(first_few, text)

    def name(match: re.Match[str]) -> str:
        word = next(g for g in match.groups() if g).lower()
        rank = _ORDINAL_WORDS.get(word) or _NUMBER_WORDS.get(word) or int(word)
        # By rank: a model named by the user may be shown after the top ones at a lower rank.
        model = shown[-1] if rank < 0 else next((m for m in shown if m.rank == rank), None)
        if model is None:
            return match.group(0)
        names.append((match.group(0), model.name))
        return model.name

    if not names:  # (none named yet by 'the top two')
        text = _ORDINAL.sub(name, text)
    if not names:
        return text, None
    said = "; ".join(f"'{written}' read as {model}" for written, model in names)
    return text, f"{said}, as shown in the answer before"


# 'the top 5', 'show me 10 models', 'give me five options': how many models to show.
MAX_SHOWN = 20
# ('the top one' is the first model shown, not a count of one)
_COUNT = rf"(\d{{1,2}}|{'|'.join(w for w in _NUMBER_WORDS if w != 'one')})"
_COUNT_ASKED = re.compile(
    rf"\btop[\s-]?{_COUNT}\b(?!\s*(?:%|percent|m\b|km|cm|gb|bands?|classes|years?))"
    rf"|\b(?:show|give|list|recommend|suggest|return)\s+(?:me\s+|us\s+)?(?:the\s+)?(?:top\s+|best\s+)?{_COUNT}"
    r"(?:\s+(?:more|other|best))?\s+(?:models|options|candidates|picks|recommendations|suggestions|choices|"
    r"alternatives|ones|results)\b"
    rf"|\b(?:show|give|list)\s+(?:me\s+|us\s+)?{_COUNT}\s*\W*$"
    rf"|\bthe\s+{_COUNT}\s+best\s+(?:models|options|candidates)\b",
    re.IGNORECASE,
)
# 'show more', 'more options', 'any others?': the next models after those shown.
_MORE = re.compile(
    r"^\W*(?:(?:please|can you|could you)\s+)?(?:(?:show|give|list)(?:\s+me|\s+us)?\s+)?"
    r"(?:some\s+|a\s+few\s+)?more(?:\s+(?:models|options|results|ones|candidates|alternatives|suggestions))?"
    r"(?:\s+please)?\W*$"
    r"|^\W*(?:any|what about|are there(?: any)?)?\s*(?:others|other (?:models|options)|alternatives)\W*$"
    r"|^\W*(?:the\s+)?next\s+(?:ones|page|few|three|3)\W*$",
    re.IGNORECASE,
)


def requested_count(text: str, selection: Selection | None, k: int) -> int | None:
    """How many models the text asks to see ('top 5', 'show me ten options'; 'show more' after an
    answer: ``k`` more than it showed), at most MAX_SHOWN; None when it asks no number."""
    if match := _COUNT_ASKED.search(text):
        word = next(g for g in match.groups() if g).lower()
        count = _NUMBER_WORDS.get(word) or int(word)
        return min(count, MAX_SHOWN) if count >= 1 else None
    if selection is not None and selection.models and _MORE.search(text):
        return min(selection.top_count() + k, MAX_SHOWN)
    return None


def _only_a_count(text: str) -> bool:
    """Whether the text asks only for a number of models, with nothing else for the task."""
    rest = _COUNT_ASKED.sub(" ", text)
    if _MORE.search(text) or not re.search(r"[a-z]{3,}", rest, re.IGNORECASE):
        return True
    return not interpret(rest).query.filled_fields() and not re.search(
        r"\b(?:for|with|in|on|using|about)\b", rest, re.IGNORECASE
    )


# 'something smaller?', 'a bigger one': a size relative to the answer just given.
_ONE = r"(?:something|anything|one|ones|models?|options?|variants?|backbones?|versions?)"
_DEGREE = r"(?:a\s+(?:bit|little)\s+|much\s+|even\s+|slightly\s+)?"


def _relative_size(word: str) -> re.Pattern[str]:
    """A pattern for asking for a model of a relative size: 'something smaller', 'a bigger one'."""
    return re.compile(
        rf"\b{_ONE}\s+{_DEGREE}{word}\b(?!\s+than)|\b{_DEGREE}{word}\s+{_ONE}\b|^\W*{_DEGREE}{word}\W*(?:please\W*)?$",
        re.IGNORECASE,
    )


_SMALLER = _relative_size(SMALLER_WORDS)
_LARGER = _relative_size(LARGER_WORDS)


def _size_reference(text: str, selection: Selection | None) -> tuple[str, bool] | None:
    """(the first model shown, larger) when ``text`` asks for a smaller or larger model than the
    answer just given ('what about something smaller?'); None otherwise."""
    if selection is None or not selection.models:
        return None
    larger = bool(_LARGER.search(text))
    if not larger and not _SMALLER.search(text):
        return None
    return selection.models[0].model_id, larger


_SWITCH = r"\bswitch(?:ing)? to\b|\bchange (?:it |that )?to\b"
_INSTEAD = re.compile(
    rf"\binstead\b|\brather\b|{_SWITCH}|^\W*actually\b|\bi\s+meant\b|\bi\s+mean\b", re.IGNORECASE
)
# 'crop mapping instead', 'switch to change detection'; not 'instead of' or 'rather than', whose
# object is the thing left behind.
_NEW_TASK_INSTEAD = re.compile(rf"\binstead\b(?!\s+of\b)|{_SWITCH}", re.IGNORECASE)
# What a change that says 'instead' replaces: the previous task's terms of the same kind.
_REPLACED = {
    "sensors": ("sensors", "modalities"),
    "modalities": ("sensors", "modalities"),
    "regions": ("regions",),
    "applications": ("applications", "task_types"),
    "task_types": ("applications", "task_types"),
}
# 'what about Kenya?', 'how about Landsat?': asked in place of the task's own.
_WHAT_ABOUT = re.compile(r"^\W*(?:and\s+|so\s+|ok(?:ay)?,?\s+)?(?:what|how)\s+about\b", re.IGNORECASE)
_AND_FIRST = re.compile(r"\W*(?:and|plus)\b", re.IGNORECASE)
_ALSO = re.compile(r"\b(?:too|also|as\s+well|in\s+addition|additionally|plus|both)\b", re.IGNORECASE)
_OPTICAL = re.compile(r"\boptical\b", re.IGNORECASE)
_LEADING_DEVICE = re.compile(
    r"(?:\b(?:with|on|using|and|or)\s+)?(?:\b(?:a|an|one|my|our|the|single|only)\s+)?$", re.IGNORECASE
)
_LEADING_WORD = re.compile(r"\b(?:with|in|from|using|on|over|for|of|and|or)\s+$", re.IGNORECASE)


def _without_replaced(previous: str, change: str) -> str:
    """``previous`` without the sensors, modalities, regions or task a change names 'instead'
    ('what about Landsat instead?' drops 'Sentinel-2'); 'what about Kenya?' asks about the region
    (or imagery) in place of the old one too, unless it adds ('what about SAR as well?'), as does a
    region named alone ('in Brazil'). Unchanged without such a change."""
    instead = bool(_INSTEAD.search(change))
    # 'in Brazil' after an answer for Greenland: a region alone moves the task there ('and
    # Tanzania?' or 'Brazil too' adds one).
    region_alone = (
        not _ALSO.search(change)
        and not _AND_FIRST.match(change)
        and interpret(change).query.filled_fields() == ["region"]
    )
    if not instead and not region_alone and not (_WHAT_ABOUT.search(change) and not _ALSO.search(change)):
        return previous
    spans = []
    # 'Landsat instead' swaps the imagery, not the time series: that goes only when the change
    # speaks of time.
    keeps_time = not any(term == "Multi-temporal" for term, _, _ in find_terms(change, "modalities"))
    for kind, replaced in _REPLACED.items():
        if not instead and kind in {"applications", "task_types"}:
            continue  # 'what about crop mapping?' is a new task, not a change
        # 'optical imagery instead' names modalities the vocabulary reads by rule, not by term.
        if not (find_terms(change, kind) or (kind == "modalities" and _OPTICAL.search(change))):
            continue
        for name in replaced:
            for term, start, end in find_terms(previous, name):
                if term == "Multi-temporal" and keeps_time:
                    continue
                # 'with Sentinel-1', 'in Kenya': the word that led to the term goes with it.
                lead = _LEADING_WORD.search(previous[:start])
                spans.append((lead.start() if lead else start, end))
    if device_spans(change):
        # 'what about an A100?' after 'on a laptop': the hardware named replaces the task's own.
        for start, end in device_spans(previous):
            lead = _LEADING_DEVICE.search(previous[:start])
            spans.append((lead.start() if lead else start, end))
    return re.sub(r"\s+([.,;?!])", r"\1", " ".join(blank_spans(previous, spans).split()))


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
