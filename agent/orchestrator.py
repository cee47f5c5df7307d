"""The selection workflow (REMSA Algorithm 1) as an explicit state machine.

States are methods that return the name of the next state; the loop records each step with its
timing in the trace. Thresholds and the round limit come from settings. Hard constraints are
always applied by rules; an LLM (when configured) only interprets, re-ranks and explains, and any
failure there falls back to the offline component, visibly in the trace. The state of a request is
agent/turn.py; the states' work lives in modules by job: agent/named_models.py (names read into
the query), agent/catalogue_questions.py and agent/catalogue_answers.py (questions about RS-FMD
itself), agent/prediction.py (evidence the ranker predicts), agent/answer_notes.py (what the
answer says of how it was reached) and agent/answer.py (the Selection of the explain state).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from agent import answer_notes
from agent.answer import selection_of
from agent.catalogue_answers import answer_catalogue_question
from agent.catalogue_questions import asks_the_catalogue
from agent.errors import InputError
from agent.imagery_groups import imagery_not_shown
from agent.interpreter import interpret
from agent.llm_guard import within_rules
from agent.memory_recall import recall
from agent.named_models import read_model_names
from agent.prediction import capabilities_predictor
from agent.query import StructuredQuery
from agent.reading import not_held, on_subject
from agent.reading import read as read_roles
from agent.resources import Resources
from agent.selection import Selection, Status, TraceStep
from agent.settings import Settings
from agent.systems import ClarificationQuestion
from agent.turn import Turn
from rsfmd.licenses import within_licenses
from tools.candidate import Candidate
from tools.clarification import questions_for
from tools.closest import filter_candidates
from tools.filtering import cannot_download
from tools.model_facts import model_profile
from tools.precedent import PrecedentFit, small_compute
from tools.ranking import no_result_on_application, overall_confidence, score_candidates
from tools.retrieval import query_text
from tools.uncertainty import NO_KNOWN_FIT_CONFIDENCE, no_known_fit

StateName = Literal["interpret", "check", "retrieve", "filter", "rank", "clarify", "explain", "done"]


def _has_search_terms(q: StructuredQuery) -> bool:
    """Whether the task names anything to search on: an application, task, data, dataset or region."""
    return bool(q.application or q.task_type or q.modality or q.sensor or q.datasets or q.region)


# Fewer models than this meeting every constraint among those retrieved: the whole database is filtered.
FULL_SEARCH_BELOW = 10


class Orchestrator:
    """Runs one request through interpret -> retrieve -> filter -> rank -> clarify/explain."""

    def __init__(self, settings: Settings, resources: Resources, llm: Any = None, memory: Any = None) -> None:
        self.settings = settings
        self.resources = resources
        self.llm = llm
        self.memory = memory

    # -- the loop ---------------------------------------------------------------------------------
    def run(self, turn: Turn) -> Selection:
        """Run states until 'done'; return the Selection."""
        states: dict[str, Callable[[Turn], StateName]] = {
            "interpret": self._interpret,
            "check": self._check,
            "retrieve": self._retrieve,
            "filter": self._filter,
            "rank": self._rank,
            "clarify": self._clarify,
            "explain": self._explain,
        }
        state: StateName = "interpret"
        turn.llm_fallbacks = []
        if self.llm is not None:
            self.llm.begin_request()
        # Each run reads the whole text again (the task plus every answer): its notes start afresh,
        # so a reading is said once, as of this round, not once per round.
        turn.notes, turn.answers = [], []
        steps = 0
        while state != "done":
            steps += 1
            if steps > 20:
                raise RuntimeError("orchestrator did not terminate")  # a bug, not a user error
            start = time.perf_counter()
            before = len(turn.trace)
            nxt = states[state](turn)
            detail = turn.trace.pop().detail if len(turn.trace) > before else ""
            if self.llm is not None:
                turn.trace.extend(self.llm.drain())
                turn.llm_fallbacks.extend(self.llm.take_fallbacks())
            turn.trace.append(
                TraceStep(step=state, detail=detail, ms=round((time.perf_counter() - start) * 1000, 2))
            )
            state = nxt
        return selection_of(turn, self.resources, self.settings, self.llm)

    @staticmethod
    def _note(turn: Turn, detail: str) -> None:
        turn.trace.append(TraceStep(step="", detail=detail, ms=0.0))

    # -- states -----------------------------------------------------------------------------------
    def _interpret(self, turn: Turn) -> StateName:
        parsed: StructuredQuery | None = None
        if self.llm is not None:
            parsed = self.llm.interpret(turn.text)
            turn.engine = self.llm.engine_name
        # (read without the models it names: 'why is SARATR-X-v2 first?' asks for no SAR target
        # recognition, nor 'why not SAR-JEPA?' for SAR; a name that is also a dataset's stays)
        read = self.resources.model_names().without_names(turn.text, keep_datasets=True)
        # What the text says of other models, tried models, labels' sources, hypotheticals and
        # quoted examples is no requirement: the query is built from the rest.
        reading = read_roles(read)
        rules = interpret(reading.required_text, self.resources.encoder.encode)
        turn.notes.extend(
            n for n in [*reading.notes(), *not_held(reading.required_text)] if n not in turn.notes
        )
        # Rules fill what the LLM missed; the LLM's values win where both speak, but do not widen.
        parsed, widened = within_rules(parsed, rules.query)
        merged = rules.query if parsed is None else rules.query.merged_with(parsed)
        turn.query, turn.offline_query = turn.query.merged_with(merged), turn.query.merged_with(rules.query)
        turn.notes.extend([*rules.notes, *answer_notes.not_widened(widened)])
        if rules.language and parsed is None:
            turn.notes.append(answer_notes.not_english(rules.language))
        if how := answer_notes.how_it_works(turn.text):
            turn.say(how)
        read_model_names(turn, self.resources, reading)  # the same text, names blanked: same offsets
        if self.memory is not None and self.settings.user_id is not None:
            if (recalled := recall(turn, self.memory, self.resources, self.settings)) is None:
                self.memory = None  # unavailable: answered without it, as the notes say
            else:
                self._note(turn, recalled)
        filled = ", ".join(turn.query.filled_fields()) or "nothing"
        self._note(turn, f"parsed fields: {filled}")
        return "check"

    def _check(self, turn: Turn) -> StateName:
        nothing_read = not (turn.query.filled_fields() or turn.named_models or turn.references)
        if nothing_read and not (turn.clarify or turn.size_reference or on_subject(turn.text)):
            # Nonsense or another subject, and no asking back: say what to describe rather than
            # rank at confidence 0 (with clarification on, the questions ask for it).
            turn.status = Status.not_understood
            turn.notes.append(answer_notes.NOT_UNDERSTOOD)
            self._note(turn, "nothing read: not understood")
            return "done"
        if scope := answer_notes.SCOPE_NOTES.get(turn.query.application or ""):
            turn.say(scope)
        missing = turn.query.missing_mandatory()
        turn.named_only = bool(turn.named_models) and not _has_search_terms(turn.query)
        if turn.named_only:
            # 'tell me about TerraMind', 'CROMA vs DOFA?': the answer is about the models named.
            names = ", ".join(self.resources.by_id[m].model_name for m in turn.named_models)
            turn.notes.append(answer_notes.named_only(names))
            for model_id in turn.named_models[:4]:
                # 'tell me about TerraMind': what RS-FMD holds on it, said first.
                turn.answer(model_profile(self.resources.by_id[model_id]))
            self._note(turn, "models named without a task: no questions asked")
            return "retrieve"
        # 'which models take EnMAP?', 'the smallest model for Sentinel-1': answered as asked.
        catalogue = bool(missing) and asks_the_catalogue(turn.text, turn.query)
        if missing and not catalogue and self._queue_questions(turn, "missing"):
            self._note(turn, f"missing mandatory: {', '.join(missing)}")
            return "clarify"
        answer_notes.assume_inputs(turn, self.resources, missing, catalogue)
        detail = "mandatory fields present" if not missing else f"proceeding without {', '.join(missing)}"
        self._note(turn, f"{detail} (a question about the catalogue)" if catalogue else detail)
        return "retrieve"

    def _retrieve(self, turn: Turn) -> StateName:
        cfg = self.settings.retrieval
        turn.similarity = {}
        if not _has_search_terms(turn.query):
            if turn.named_only:
                turn.candidates = [Candidate(record=self.resources.by_id[m]) for m in turn.named_models]
                self._note(
                    turn, f"no task, data or region to search on: the {len(turn.candidates)} models named"
                )
                return "filter"
            # Nothing to search on ('which model is the most recent?'): every record is a candidate.
            turn.candidates = [Candidate(record=r, similarity=0.0) for r in self.resources.records]
            self._note(turn, f"no task, data or region to search on: all {len(turn.candidates)} records")
            return "filter"
        # A model with a result on the user's application or named benchmark, or documented for
        # their sensor, is judged whatever its text similarity: retrieval is a recall aid.
        evidence = self.resources.evaluated_for(turn.query.application, turn.query.datasets)
        documented = self.resources.taking_sensors(turn.query.sensor)
        application = turn.query.application
        if application and not self.resources.evaluated_for(application):
            turn.say(answer_notes.no_result_on(application, turn.query.task_type))
        # The task as stated and as it now stands, not questions about its answer; every record's
        # closeness to it ranks the models found past retrieval too.
        text = query_text(turn.query, turn.statement or turn.text)
        hits = self.resources.retrieval.search(
            text, cfg.top_k, cfg.similarity_threshold, evidence | documented
        )
        turn.similarity = self.resources.retrieval.similarities(text)
        turn.candidates = [Candidate(record=h.record, similarity=h.similarity) for h in hits]
        retrieved = {c.record.model_id for c in turn.candidates}
        turn.candidates += [  # a model the user named is judged whatever its text similarity
            Candidate(record=self.resources.by_id[m], similarity=turn.similarity.get(m, 0.0))
            for m in turn.named_models
            if m not in retrieved
        ]
        # 'above' counts the hits retrieval ranked; the rest came in on their results or sensor.
        above = min(cfg.top_k, sum(h.similarity >= cfg.similarity_threshold for h in hits))
        more = [h.record.model_id for h in hits[above:]]
        self._note(turn, answer_notes.retrieved(above, cfg.similarity_threshold, more, evidence))
        return "filter"

    def _filter(self, turn: Turn) -> StateName:
        records = [c.record for c in turn.candidates]
        outcome = filter_candidates(records, turn.query, minimum=turn.k)
        few = outcome.strict_count < FULL_SEARCH_BELOW
        if (few or outcome.short or outcome.relaxed or outcome.rare_short) and not turn.named_only:
            # Retrieval is a recall aid, not a gate: look at the whole database before relaxing, for
            # the models that take an input few models take, and whenever retrieval found few that
            # meet every constraint (so that three models asked for are the first of ten).
            outcome = filter_candidates(self.resources.records, turn.query, minimum=turn.k)
        turn.outcome = outcome
        turn.candidates = [
            Candidate(
                record=r,
                similarity=turn.similarity.get(r.model_id, 0.0),
                relaxed=outcome.relaxed.get(r.model_id, []),
                memory_delta=turn.memory_deltas.get(r.model_id, 0.0),
            )
            for r in outcome.survivors
        ]
        strict = outcome.strict_count
        detail = f"{strict} satisfy every hard constraint; {len(outcome.rejected)} rejected"
        if outcome.relaxed:
            detail += f"; closest matches added by relaxing {', '.join(outcome.relaxed_constraints)}"
            turn.status = Status.closest_match
        self._note(turn, detail)
        licences = turn.query.licenses
        if licences and not any(within_licenses(c.record.license, licences) for c in turn.candidates):
            turn.say(answer_notes.no_licence_stated(licences))
        answer_catalogue_question(turn, self.resources.records, self.resources.by_id, strict)
        if not turn.candidates:
            turn.status = Status.no_match
            return "explain"
        many = strict > self.settings.orchestrator.max_candidates
        if many and not asks_the_catalogue(turn.text, turn.query):
            self._queue_questions(turn, "too_many")  # asked after ranking, with the ranking shown
        return "rank"

    def _rank(self, turn: Turn) -> StateName:
        predict = capabilities_predictor(self.resources, self.settings)
        if predict is None and self.settings.capabilities.enabled and self.resources.predictor_error:
            turn.say(f"Capabilities-encoding predictions unavailable ({self.resources.predictor_error})")
        unevidenced = no_result_on_application(turn.candidates, turn.query)
        precedents, share = self._precedents(turn)
        ranked = score_candidates(
            turn.candidates, turn.query, self.resources.evidence, predict, unevidenced, precedents, share
        )
        asks = not (turn.named_only or asks_the_catalogue(turn.text, turn.query))
        # Whether to ask is decided on the evidence ranking, not on an LLM's reordering of it.
        confidence, gap = self._confidence(turn, ranked)
        low = confidence < self.settings.orchestrator.confidence_threshold
        if self.llm is not None and ranked and not self._will_ask(turn, low and asks):
            # Only a ranking that is shown is re-ranked: a turn that asks first shows none.
            cut = max(10, turn.k * 3)
            ranked = self.llm.rerank(turn.query, ranked[:cut], turn.offline_query) + ranked[cut:]
            confidence, gap = self._confidence(turn, ranked)
        if turn.answer_in_full:
            # 'which models take LiDAR?': those taking LiDAR itself before those taking a DEM; one
            # the user cannot download still after every one they can.
            ranked = sorted(
                ranked,
                key=lambda c: (
                    cannot_download(c.record, turn.query, c.relaxed),
                    c.record.model_id not in turn.answer_in_full,
                ),
            )
            confidence, gap = self._confidence(turn, ranked)
        turn.ranked = ranked
        application = turn.query.application
        if application and unevidenced and (built := answer_notes.built_for(ranked, application)):
            turn.notes.append(built)
        turn.notes.extend(imagery_not_shown(ranked, turn.k, turn.query))
        turn.confidence = confidence
        if gap:
            turn.answer(gap)  # said first
        self._note(turn, f"ranked {len(ranked)}; overall confidence {turn.confidence:.2f}")
        if turn.questions and turn.clarify_reason == "too_many":
            return "clarify"
        if low and asks and self._queue_questions(turn, "low_confidence"):
            return "clarify"
        return "explain"

    def _precedents(self, turn: Turn) -> tuple[dict[str, PrecedentFit], float]:
        """How experts judged the models for the curated requests most like the task, and the
        share of the score that takes (none when no curated request is close)."""
        cfg = self.settings.precedents
        if not cfg.enabled or not cfg.weight:
            return {}, 0.0
        pool = self.resources.precedents()
        compute = turn.query.compute
        small = small_compute(compute.device_class, compute.max_parameters_m)
        found = pool.support(
            turn.statement or turn.text, cfg.neighbours, cfg.min_similarity, cfg.exclude, small
        )
        if found:
            self._note(
                turn,
                f"precedent: {len({r for f in found.values() for r in f.requests})} similar curated requests",
            )
        return found, cfg.weight if found else 0.0

    def _clarify(self, turn: Turn) -> StateName:
        if not turn.questions:
            turn.questions = questions_for(turn.query, turn.clarify_reason, turn.asked)
        if self.llm is not None and turn.questions:
            turn.questions = self.llm.phrase_questions(turn.query, turn.questions)
        turn.status = Status.needs_clarification
        self._note(turn, f"{turn.clarify_reason}: asking about {', '.join(q.field for q in turn.questions)}")
        return "done" if turn.questions else "explain"

    def _explain(self, turn: Turn) -> StateName:
        if turn.status == Status.needs_clarification:
            turn.status = Status.ok
        top = turn.ranked[: turn.k]
        if turn.status == Status.closest_match and not any(c.relaxed for c in top):
            turn.status = Status.ok
        self._note(turn, f"explained top {len(top)}")
        return "done"

    # -- helpers ----------------------------------------------------------------------------------
    @staticmethod
    def _confidence(turn: Turn, ranked: list[Candidate]) -> tuple[float, str | None]:
        """The overall confidence of ``ranked``'s top k, and why no model is known to fit when none
        is (the answer is then no more confident than a guess among the closest)."""
        confidence = overall_confidence(ranked, turn.k, turn.query)
        gap = no_known_fit(ranked[: turn.k], turn.query)
        return (min(confidence, NO_KNOWN_FIT_CONFIDENCE) if gap else confidence), gap

    def _will_ask(self, turn: Turn, low: bool) -> bool:
        """Whether the turn will end in questions (then no ranking is shown, so no LLM re-rank)."""
        if turn.questions and turn.clarify_reason == "too_many":
            return True
        return low and not turn.named_models and bool(self._questions(turn, "low_confidence"))

    def _may_clarify(self, turn: Turn) -> bool:
        return turn.clarify and turn.rounds < self.settings.orchestrator.max_clarification_rounds

    def _questions(self, turn: Turn, reason: str) -> list[ClarificationQuestion]:
        """Questions for ``reason`` when a round of them remains."""
        return questions_for(turn.query, reason, turn.asked) if self._may_clarify(turn) else []

    def _queue_questions(self, turn: Turn, reason: str) -> bool:
        """Queue questions for ``reason`` when a round remains and a field is left to ask about."""
        questions = self._questions(turn, reason)
        if questions and turn.named_models:
            # 'compare DOFA and CROMA for SAR flood mapping': asked about models by name, the user
            # gets them ranked for the task now, and what would sharpen the answer.
            turn.unasked.extend(q.field for q in questions if q.field not in turn.unasked)
            turn.notes = [n for n in turn.notes if not n.startswith(answer_notes.ANSWERED_AT_ONCE)]
            turn.notes.append(answer_notes.answered_at_once(turn.unasked))
            return False
        if questions:
            turn.clarify_reason, turn.questions = reason, questions
        return bool(questions)


def validate_text(text: str, limit: int) -> str:
    """The query, stripped; InputError when empty, without a word, or too long."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("The query is empty: describe your task, e.g. 'flood mapping with Sentinel-1'.")
    stripped = text.strip()
    if not any(ch.isalnum() for ch in stripped):
        raise InputError(
            f"The query {stripped[:40]!r} has no words: describe your task, "
            "e.g. 'flood mapping with Sentinel-1'."
        )
    if len(stripped) > limit:
        raise InputError(
            f"The query has {len(stripped)} characters; the limit is {limit}. "
            "Shorten it to the task, data and "
            "constraints (or raise REMSA_ORCHESTRATOR__MAX_QUERY_CHARS)."
        )
    return stripped
