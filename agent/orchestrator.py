"""The selection workflow (REMSA Algorithm 1) as an explicit state machine.

States are methods that return the name of the next state; the loop records each step with its
timing in the trace. Thresholds and the round limit come from settings. Hard constraints are
always applied by rules; an LLM (when configured) only interprets, re-ranks and explains, and any
failure there falls back to the offline component, visibly in the trace.
"""

from __future__ import annotations

import datetime as dt
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from agent.errors import InputError
from agent.interpreter import interpret
from agent.memory_offers import MemoryOffers
from agent.query import StructuredQuery
from agent.reading import not_held, on_subject
from agent.reading import read as read_roles
from agent.resources import Resources
from agent.selection import MemorySuggestion, RankedModel, Selection, SimilarTask, Status, TraceStep
from agent.settings import Settings
from agent.systems import ClarificationQuestion
from agent.wording import with_article
from rsfmd.datasets import dataset_identities, dataset_identity, described_for, find_dataset
from rsfmd.licenses import within_licenses
from rsfmd.schema import Alignment, Benchmark, Category, ModelRecord
from rsfmd.vocab import metric_info, typical_modalities
from tools.clarification import questions_for
from tools.evidence import other_imagery
from tools.explanation import explain, model_profile, protocol_parts, why_behind, why_ranked
from tools.filtering import (
    COMPATIBLE_MODALITIES,
    NOT_IMAGERY,
    FilterOutcome,
    filter_candidates,
    requested_imagery,
    requested_modalities,
    sensor_family,
    violations,
)
from tools.fit import LOW_CONFIDENCE
from tools.ranking import (
    Candidate,
    Prediction,
    image_pairs_only,
    no_result_on_application,
    overall_confidence,
    score_candidates,
    size_confidence,
    unconfirmed_requirements,
)
from tools.retrieval import query_text
from tools.uncertainty import NO_KNOWN_FIT_CONFIDENCE, no_known_fit

# 'Which models take EnMAP?', 'list models released in 2026', 'a model that takes any band set'.
_CATALOGUE_QUESTION = re.compile(
    r"\b(?:which|what|list|show(?:\s+me)?|are\s+there|is\s+there|all|how\s+many)\b[^.?!]{0,60}\b(?:models?|rsfms?)\b|"
    r"\b(?:models?|rsfms?)\s+(?:that|which|trained|released|published|supporting|taking)\b",
    re.IGNORECASE,
)

# Asking for advice ('which model should I use with Sentinel-2?') is a task to clarify, not a
# question about the catalogue.
_ADVICE = re.compile(
    r"\b(?:should|recommend\w*|suggest\w*|advi[cs]e|best|good|right|suitable|help\s+me|need|want)\b",
    re.IGNORECASE,
)

# 'how does this work?', 'what does the confidence mean?': a question about remsa itself.
_ABOUT_REMSA = re.compile(
    r"\bhow (?:does|do) (?:this|it|you|remsa)(?: \w+)? work\b|\bhow (?:are|do you|does remsa) "
    r"(?:the )?(?:models? )?(?:scored?|rank(?:ed)?|chosen|choose|select(?:ed)?)\b|"
    r"\bwhat (?:does|do|is) (?:the |a |this )?(?:confidence|scores?)(?: \w+)? mean\b|"
    r"\bwhat can (?:you|remsa|this|it) do\b",
    re.IGNORECASE,
)
_HOW_IT_WORKS = (
    "How remsa works: describe what you want to map or detect, with which imagery or sensor, how many "
    "labels you have and where the model will run. remsa reads these as constraints, keeps the models "
    "in RS-FMD that meet them, and ranks them on reported results for your task and data, size, "
    "pretraining coverage and recency, with every reason shown. Each score is out of 100; the "
    "confidence (0 to 1) grows with how much of the score rests on documented evidence and with the "
    "lead over the next model"
)

# 'the smallest model that takes Sentinel-1 and Sentinel-2': answered by size, after the ranking.
_SIZE_NOUNS = r"(?:models?|ones?|networks?|backbones?|variants?|encoders?|options?|rsfms?|vlms?|mllms?)"
# 'the largest remote sensing foundation model', 'the largest vision-language model': only such
# words between the size and the model.
_SIZE_FILLER = (
    r"(?:[\s-]+(?:possible|available|open|pretrained|remote|sensing|foundation|earth|observation|eo|rs|"
    r"geospatial|vision|language|multimodal|multi-modal|sar|optical|multispectral|hyperspectral|thermal|"
    r"lidar))*"
)
# After an answer, 'which one is smallest?', 'which of these is the lightest', 'and the largest?'.
_WHICH_IS = r"\bwhich(?:\s+(?:one|model|of\s+(?:these|them|those|the\s+\w+)))?\s+(?:is|are|has)\s+(?:the\s+)?"
# ... or a sentence of its own: 'and the largest?', 'smallest?'
_ONLY_SUPERLATIVE = (
    r"(?:^|(?<=[.?!;]))\s*(?:and\s+|so\s+)?(?:(?:what(?:'s|\s+is|\s+about)|how\s+about)\s+)?(?:the\s+)?"
)
# ... ending the sentence, perhaps with its noun: 'the smallest one?'
_SUPERLATIVE_END = r"(?:\s+(?:one|model|option)s?)?\s*(?:[.?!;]|$)"


_SMALLEST = r"(?:smallest|tiniest|lightest)"
_LARGEST = r"(?:largest|biggest|heaviest)"
_FEWEST, _MOST = r"\b(?:fewest|least)", r"\bmost"  # '... parameters'


def _size_question_pattern(words: str, count: str) -> re.Pattern[str]:
    return re.compile(
        rf"\b{words}{_SIZE_FILLER}\s+{_SIZE_NOUNS}\b|{count}\s+parameters\b"
        rf"|{_WHICH_IS}{words}\b|{_ONLY_SUPERLATIVE}{words}{_SUPERLATIVE_END}",
        re.IGNORECASE,
    )


_SMALLEST_QUESTION = _size_question_pattern(_SMALLEST, _FEWEST)
_LARGEST_QUESTION = _size_question_pattern(_LARGEST, _MOST)
# What ``without_size_question`` takes out: a question of its own ('which one is smallest?') whole,
# and in 'the smallest model that takes Sentinel-1' only the word, so the rest of the task stays.
_SIZE_SENTENCE = re.compile(
    rf"{_WHICH_IS}(?:{_SMALLEST}|{_LARGEST})\b[^.?!;]*[.?!;]?|{_ONLY_SUPERLATIVE}(?:{_SMALLEST}|{_LARGEST})"
    rf"{_SUPERLATIVE_END}",
    re.IGNORECASE,
)
_SIZE_WORD = re.compile(
    rf"\b(?:{_SMALLEST}|{_LARGEST})\b(?={_SIZE_FILLER}\s+{_SIZE_NOUNS}\b)|(?:{_FEWEST}|{_MOST})\b(?=\s+parameters\b)",
    re.IGNORECASE,
)

# 'which model handles the most modalities?', 'the widest range of sensors': a question about the
# catalogue, answered by counting what each model takes.
_BREADTH_QUESTION = re.compile(
    r"\b(?:most|(?:widest|broadest|largest|greatest|highest)\s+(?:range|number|variety|set)\s+of)\s+"
    r"(?:(?:different|distinct|input|data|kinds?\s+of|types?\s+of)\s+)*"
    r"(?:(modalit(?:y|ies)|data\s+(?:types|sources))|(sensors?|satellites?))\b",
    re.IGNORECASE,
)
# 'what is the oldest foundation model?', 'the earliest RSFM': by release date.
_EARLIEST_QUESTION = re.compile(
    rf"\b(?:oldest|earliest)(?:[\s-]+released)?{_SIZE_FILLER}\s+{_SIZE_NOUNS}\b|"
    rf"{_WHICH_IS}(?:oldest|earliest)\b|{_ONLY_SUPERLATIVE}(?:oldest|earliest){_SUPERLATIVE_END}",
    re.IGNORECASE,
)
# 'which models were evaluated on BigEarthNet?', 'what models report results on PASTIS?'
_EVALUATED_QUESTION = re.compile(
    r"\b(?:evaluated|tested|benchmarked|validated|assessed|results?|reports?|reported|scores?)\b",
    re.IGNORECASE,
)
# 'which model has the highest mIoU on Sen1Floods11?', 'the state of the art on SSDD': the best
# results reported on a benchmark named.
_LEADERBOARD_QUESTION = re.compile(
    r"\b(?:highest|best|top|strongest|leading|state[\s-]of[\s-]the[\s-]art|sota|leaderboard)\b", re.IGNORECASE
)
# ... asked as a question about results, not for advice ('which model is best on EuroSAT?').
_RESULT_WORDS = re.compile(
    r"\b(?:scores?|results?|accuracy|performance|leaderboard|sota|state[\s-]of[\s-]the[\s-]art)\b",
    re.IGNORECASE,
)
# Not a kind of input data but how it comes: not counted among a model's modalities.
_NOT_COUNTED = {"Multi-temporal"}

_WHY = re.compile(r"\bwhy\b", re.IGNORECASE)
_WHY_SENTENCE = re.compile(r"\bwhy\b[^.?!;]*", re.IGNORECASE)

_NO_APPLICATION = "No application of RS-FMD recognised in the task: ranked on general-purpose capability"
NOT_UNDERSTOOD = (
    "Nothing in this text reads as a remote-sensing task, so no model is ranked. Describe what to map, "
    "detect or measure, which imagery you have (sensor or modality), how many labels, and where it "
    "must run, e.g. 'flood mapping with Sentinel-1, few labels, CPU laptop'"
)

StateName = Literal["interpret", "check", "retrieve", "filter", "rank", "clarify", "explain", "done"]

# Applications RS-FMD covers only at its edge: said in the answer so nobody mistakes the best
# match for a dedicated system.
SCOPE_NOTES: dict[str, str] = {
    "weather forecasting": (
        "Dedicated weather forecasting models (e.g. Aurora, GraphCast) are outside RS-FMD's scope: "
        "these are Earth-observation models that take climate variables, not forecasting systems"
    ),
}


def _has_search_terms(q: StructuredQuery) -> bool:
    """Whether the task names anything to search on: an application, task, data, dataset or region."""
    return bool(q.application or q.task_type or q.modality or q.sensor or q.datasets or q.region)


@dataclass
class Turn:
    """What the orchestrator knows during one request; also carried across a session's rounds."""

    text: str
    k: int
    clarify: bool
    query: StructuredQuery = field(default_factory=StructuredQuery)
    rounds: int = 0
    asked: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)  # the notes that answer the question asked
    candidates: list[Candidate] = field(default_factory=list)
    outcome: FilterOutcome | None = None
    ranked: list[Candidate] = field(default_factory=list)
    questions: list[ClarificationQuestion] = field(default_factory=list)
    clarify_reason: str = ""
    status: Status = Status.ok
    confidence: float = 0.0
    trace: list[TraceStep] = field(default_factory=list)
    similar: list[SimilarTask] = field(default_factory=list)
    memory: MemoryOffers = field(default_factory=MemoryOffers)  # what earlier tasks offer, what was accepted
    suggestions: list[MemorySuggestion] = field(default_factory=list)
    memory_deltas: dict[str, float] = field(default_factory=dict)
    engine: str = "offline"
    llm_fallbacks: list[str] = field(default_factory=list)  # LLM steps the offline engine did this run
    named_models: list[str] = field(default_factory=list)  # model ids the task asks about by name
    named_only: bool = False  # no task stated: the answer is about the models named
    # 'something smaller?' after an answer: (the previous first pick, whether larger was asked)
    size_reference: tuple[str, bool] | None = None
    size_follow_up: bool = False  # 'which one is smallest?' asked of the answer before
    # A question about the catalogue: the passing models that answer it in full (take LiDAR itself,
    # not a DEM; take every imagery asked for; are documented for every sensor named)
    answer_in_full: set[str] = field(default_factory=set)
    references: list[str] = field(default_factory=list)  # models named as what others should resemble
    unasked: list[str] = field(default_factory=list)  # fields not asked about, models being named
    size_among: tuple[str, ...] = ()  # ... and the model ids that answer showed, which it asks about

    def answer(self, note: str) -> None:
        """A note that answers the question asked ('the smallest ...'): said first in the chat."""
        self.notes.append(note)
        self.answers.append(note)


_ANSWERED_AT_ONCE = "Answered at once, as you asked about models by name"
# What a question left unasked would have found out, for the note that says so.
_REFINING = {
    "application": "what the model should do",
    "modality": "what imagery you have",
    "sensor": "which sensor your data comes from",
    "data_regime": "how much labelled data you have",
    "deployment_device": "where the model will run",
    "region": "which region your data is from",
}


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
        return self._selection(turn)

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
        # Rules fill what the LLM missed; the LLM's values win where both speak.
        merged = rules.query if parsed is None else rules.query.merged_with(parsed)
        turn.query = turn.query.merged_with(merged)
        turn.notes.extend(rules.notes)
        if rules.language and parsed is None:
            turn.notes.append(
                f"The task seems to be written in {rules.language}; without an LLM remsa reads English "
                "only: describe the task in English, or configure an LLM (see the README)"
            )
        if _ABOUT_REMSA.search(turn.text) and _HOW_IT_WORKS not in turn.notes:
            turn.notes.append(_HOW_IT_WORKS)
        self._read_model_names(turn)
        self._apply_memory(turn)
        filled = ", ".join(turn.query.filled_fields()) or "nothing"
        self._note(turn, f"parsed fields: {filled}")
        return "check"

    def _read_model_names(self, turn: Turn) -> None:
        """Models the task names: the ones ruled out become exclusions, the others are shown."""
        mentions = self.resources.model_names().find(turn.text)
        self._size_reference(turn, mentions.smaller_than, larger=False)
        self._size_reference(turn, mentions.larger_than, larger=True)
        if turn.size_reference and not (mentions.smaller_than or mentions.larger_than):
            # 'what about something smaller?': smaller than what was shown first.
            model_id, larger = turn.size_reference
            self._size_reference(turn, [model_id], larger=larger, shown_first=True)
        # A model named only as a size reference ('smaller than DOFA') is not one the user asks about.
        references = {*mentions.smaller_than, *mentions.larger_than, *mentions.similar_to}
        turn.named_models = [m for m in mentions.named if m not in references]
        turn.references = [m for m in mentions.named if m in references]
        similar = [m for m in mentions.alternative_to if m not in turn.query.exclusions.models]
        if similar:
            # 'alternatives to DOFA': others than it.
            excluded = list(dict.fromkeys([*turn.query.exclusions.models, *similar]))
            exclusions = turn.query.exclusions.model_copy(update={"models": excluded})
            turn.query = turn.query.model_copy(update={"exclusions": exclusions})
            names = ", ".join(self.resources.by_id[m].model_name for m in similar)
            note = f"Alternatives to {names} asked for: {names} left out"
            if note not in turn.notes:
                turn.notes.append(note)
        if mentions.excluded:
            excluded = list(dict.fromkeys([*turn.query.exclusions.models, *mentions.excluded]))
            exclusions = turn.query.exclusions.model_copy(update={"models": excluded})
            turn.query = turn.query.model_copy(update={"exclusions": exclusions})
            names = ", ".join(self.resources.by_id[m].model_name for m in mentions.excluded)
            note = f"Left out as asked: {names}"
            if note not in turn.notes:
                turn.notes.append(note)

    def _size_reference(
        self, turn: Turn, model_ids: list[str], *, larger: bool, shown_first: bool = False
    ) -> None:
        """'like Prithvi but smaller': fewer parameters than the named model's smallest variant;
        'like CROMA but bigger': more than its largest. A size the user stated wins.
        ``shown_first``: the model is the previous answer's first pick, not one the task names."""
        compute = turn.query.compute
        if (compute.min_parameters_m if larger else compute.max_parameters_m) is not None:
            return
        records = [self.resources.by_id[m] for m in model_ids]
        sizes = {
            r.model_id: s for r in records if (s := r.largest_parameters if larger else r.smallest_parameters)
        }
        if not sizes:
            return
        model_id = (max if larger else min)(sizes, key=sizes.__getitem__)
        if larger:
            update: dict[str, object] = {"min_parameters_m": sizes[model_id], "above_floor": True}
        else:
            update = {"max_parameters_m": sizes[model_id], "below_limit": True}
        turn.query = turn.query.model_copy(update={"compute": compute.model_copy(update=update)})
        word, bound, variant = ("Larger", "more", "largest") if larger else ("Smaller", "fewer", "smallest")
        name = self.resources.by_id[model_id].model_name
        if shown_first:
            name += ", the first model shown before,"
        size = f"{sizes[model_id]:g}M parameters, the size of its {variant} variant"
        note = f"{word} than {name} read as {bound} than {size}"
        if note not in turn.notes:
            turn.notes.append(note)

    def _check(self, turn: Turn) -> StateName:
        nothing_read = not (turn.query.filled_fields() or turn.named_models or turn.references)
        if nothing_read and not (turn.clarify or turn.size_reference or on_subject(turn.text)):
            # Nonsense or another subject, and no asking back: say what to describe rather than
            # rank at confidence 0 (with clarification on, the questions ask for it).
            turn.status = Status.not_understood
            turn.notes.append(NOT_UNDERSTOOD)
            self._note(turn, "nothing read: not understood")
            return "done"
        scope = SCOPE_NOTES.get(turn.query.application or "")
        if scope and scope not in turn.notes:
            turn.notes.append(scope)
        missing = turn.query.missing_mandatory()
        turn.named_only = bool(turn.named_models) and not _has_search_terms(turn.query)
        if turn.named_only:
            # 'tell me about TerraMind', 'CROMA vs DOFA?': the answer is about the models named.
            names = ", ".join(self.resources.by_id[m].model_name for m in turn.named_models)
            turn.notes.append(
                f"No task stated: shown are the models you named ({names}), ranked on general-purpose "
                "capability; describe your task to rank them for it"
            )
            for model_id in turn.named_models[:4]:
                # 'tell me about TerraMind': what RS-FMD holds on it, said first.
                turn.answer(model_profile(self.resources.by_id[model_id]))
            self._note(turn, "models named without a task: no questions asked")
            return "retrieve"
        # 'which models take EnMAP?', 'the smallest model for Sentinel-1': answered as asked.
        catalogue = bool(missing) and _asks_the_catalogue(turn)
        if missing and not catalogue and self._queue_questions(turn, "missing"):
            self._note(turn, f"missing mandatory: {', '.join(missing)}")
            return "clarify"
        for name in missing:
            if name == "application":
                if not catalogue:  # a question about the catalogue asks for none
                    turn.notes.append(_NO_APPLICATION)
                continue
            typical = typical_modalities(turn.query.application)
            reference_inputs = [
                m
                for r in turn.references
                for m in self.resources.by_id[r].modalities
                if m not in NOT_IMAGERY and m != "Multi-temporal"
            ]
            if reference_inputs and not typical:
                # 'like Prithvi-EO-2.0 but smaller': models for the imagery that model takes.
                inputs = list(dict.fromkeys(reference_inputs))
                turn.query = turn.query.model_copy(update={"assumed_modality": inputs})
                names = ", ".join(self.resources.by_id[r].model_name for r in turn.references)
                turn.notes.append(
                    f"No input modality stated: preferred the inputs of {names} ({', '.join(inputs)}) "
                    "without excluding others"
                )
            elif typical:
                turn.query = turn.query.model_copy(update={"assumed_modality": typical})
                turn.notes.append(
                    f"No input modality stated: preferred the usual inputs for {turn.query.application} "
                    f"({', '.join(typical)}) without excluding others"
                )
            else:
                turn.notes.append("No input modality stated: models for any imagery were considered")
        if not turn.query.modality and turn.query.datasets:
            infos = [i for d in turn.query.datasets if (i := find_dataset(d)) is not None]
            imagery = list(dict.fromkeys(m for i in infos for m in i.modalities))
            if imagery:
                turn.query = turn.query.model_copy(update={"assumed_modality": imagery})
                benchmarks = (
                    f"the datasets of {', '.join(turn.query.suites)}"
                    if turn.query.suites
                    else ", ".join(i.name for i in infos)
                )
                turn.notes.append(
                    f"No input modality stated: preferred the imagery of {benchmarks} "
                    f"({', '.join(imagery)}) without excluding others"
                )
        detail = "mandatory fields present" if not missing else f"proceeding without {', '.join(missing)}"
        self._note(turn, f"{detail} (a question about the catalogue)" if catalogue else detail)
        return "retrieve"

    def _retrieve(self, turn: Turn) -> StateName:
        cfg = self.settings.retrieval
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
        # A model with a result on the user's application or named benchmark is judged whatever
        # its text similarity: retrieval is a recall aid, and a larger database must not hide it.
        evidence = self.resources.evaluated_for(turn.query.application, turn.query.datasets)
        application = turn.query.application
        if application and not self.resources.evaluated_for(application):
            # 'chlorophyll-a from Sentinel-3': understood, but no model has a result to show for it.
            task = turn.query.task_type or "its task type"
            note = (
                f"No model in RS-FMD reports a result on {application}: ranked on how well each "
                f"handles {task} with this data"
            )
            if note not in turn.notes:
                turn.notes.append(note)
        hits = self.resources.retrieval.search(
            query_text(turn.query, turn.text), cfg.top_k, cfg.similarity_threshold, also=evidence
        )
        turn.candidates = [Candidate(record=h.record, similarity=h.similarity) for h in hits]
        retrieved = {c.record.model_id for c in turn.candidates}
        turn.candidates += [  # a model the user named is judged whatever its text similarity
            Candidate(record=self.resources.by_id[m], similarity=0.0)
            for m in turn.named_models
            if m not in retrieved
        ]
        # 'above' counts the hits retrieval ranked; the rest came in on their results.
        above = min(cfg.top_k, sum(h.similarity >= cfg.similarity_threshold for h in hits))
        detail = f"{above} candidates above similarity {cfg.similarity_threshold}"
        if len(hits) > above:
            detail += f", and {len(hits) - above} more with results on the task"
        self._note(turn, detail)
        return "filter"

    def _filter(self, turn: Turn) -> StateName:
        records = [c.record for c in turn.candidates]
        outcome = filter_candidates(records, turn.query, minimum=turn.k)
        if outcome.strict_count < turn.k and not turn.named_only:
            # Retrieval is a recall aid, not a gate: look at the whole database before relaxing.
            outcome = filter_candidates(self.resources.records, turn.query, minimum=turn.k)
        turn.outcome = outcome
        similarity = {c.record.model_id: c.similarity for c in turn.candidates}
        turn.candidates = [
            Candidate(
                record=r,
                similarity=similarity.get(r.model_id, 0.0),
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
            note = (
                f"No model left states {with_article(' or '.join(licences))} licence: those shown state none "
                "for their weights, or are closest matches"
            )
            if note not in turn.notes:
                turn.notes.append(note)
        query = turn.query
        size = size_question(turn.text) if strict else None
        superlative = catalogue_superlative(turn.text) if strict and not size else None
        reporting = bool(strict and not size and not superlative and _asks_who_reports(turn))
        leaderboard = bool(strict and not size and not superlative and _asks_leaderboard(turn))
        catalogue = bool(
            strict
            and not (query.application or query.task_type or turn.named_only)
            and _catalogue_terms(query)
            and _CATALOGUE_QUESTION.search(turn.text)
        )
        turn.answer_in_full = set()
        if size or catalogue or superlative or reporting or leaderboard:
            passing = [
                r
                for r in self.resources.records
                if not violations(r, query) and not unconfirmed_requirements(r, query)
            ]
            if size and not query.precomputed_embeddings:
                # 'the smallest model for SAR': a question about models to run, not products.
                turn.answer_in_full = {
                    r.model_id for r in passing if r.category != Category.embedding_product
                }
            if leaderboard:
                # 'which model has the highest mIoU on Sen1Floods11?': the best results reported.
                note, leaders = _leaderboard_note(passing, query)
                turn.answer(note)
                if leaders and _about_results(turn):
                    turn.answer_in_full = {r.model_id for r in leaders}
                    _consider(turn, leaders)
            elif reporting:
                # 'which models were evaluated on BigEarthNet?': how many report results there,
                # shown first.
                named = dataset_identities(query.datasets)
                on = {
                    r.model_id: named & {dataset_identity(b.dataset) for b in r.benchmarks} for r in passing
                }
                reporting_models = [r for r in passing if on[r.model_id]]
                on_all = [r for r in reporting_models if on[r.model_id] == named]
                every = ""
                if len(named) > 1:
                    # 'results on BigEarthNet and EuroSAT': those reporting on all are shown first.
                    every = (
                        f" ({len(on_all)} of them on {'both' if len(named) == 2 else f'all {len(named)}'})"
                    )
                turn.answer(
                    f"{len(reporting_models)} models in RS-FMD that pass the hard constraints of this task "
                    f"report results on {' or '.join(query.datasets)}{every}; shown are the best placed for "
                    "the task among them (browse them in the app's Explore tab or with `remsa db list`)"
                )
                turn.answer_in_full = {r.model_id for r in on_all or reporting_models}
                _consider(turn, reporting_models)
            elif superlative:
                # 'which model handles the most modalities?': the models listed are those shown.
                note, listed = _superlative_note(passing, superlative, query.task_type)
                turn.answer(note)
                turn.answer_in_full = {r.model_id for r in listed}
                _consider(turn, listed)
            elif size and turn.size_among:
                # 'which of these is the smallest?': the models shown, then all that pass.
                by_id = self.resources.by_id
                shown = [by_id[i] for i in turn.size_among if i in by_id]
                turn.answer(
                    _shown_size_note(shown, largest=size == "largest", limit=query.compute.parameter_limit())
                )
                turn.answer(_size_note(passing, query, largest=size == "largest"))
            elif size:
                # 'the smallest model that takes Sentinel-1': answered by size, whatever the ranking.
                turn.answer(_size_note(passing, query, largest=size == "largest"))
            else:
                # 'which models take EnMAP?': a question about the catalogue; say how many answer it.
                groups = _imagery_groups(requested_modalities(query))
                # A model passes on any one of the imagery asked for: 'optical and SAR' also asks
                # how many take them all.
                both = sum(_takes_all(r, groups) for r in passing)
                # Those that answer all of a question the counts below split are shown first.
                if len(groups) > 1 or requested_modalities(query) & {"LiDAR", "DEM"} or len(query.sensor) > 1:
                    turn.answer_in_full = {r.model_id for r in passing if _answers_in_full(r, query, groups)}
                together = (
                    f" ({both} of them {'takes' if both == 1 else 'take'} "
                    f"{' and '.join(name for name, _ in groups)} together)"
                    if len(groups) > 1
                    else ""
                )
                for wanted in sorted(requested_modalities(query) & {"LiDAR", "DEM"}):
                    # 'which models take LiDAR?': a DEM raster stands in for LiDAR, but say so.
                    itself = sum(wanted in r.modalities for r in passing)
                    if itself < len(passing):
                        other = " or ".join(sorted(COMPATIBLE_MODALITIES[wanted] - {wanted}))
                        together += f" ({itself} of them take {wanted} itself, the others {other} only)"
                if len(query.sensor) > 1:
                    # 'Landsat 8 and Sentinel-2 together': a model passes on any one sensor asked for.
                    documented = sum(_documented_for_all(r, query.sensor) for r in passing)
                    any_bands = sum(r.spectral_alignment == Alignment.full for r in passing)
                    # ... which says more than the imagery they take together.
                    together = (
                        f" ({documented} of them documented for {' and '.join(query.sensor)} together"
                        + (f", {any_bands} taking any band set" if any_bands else "")
                        + ")"
                    )
                full = len(turn.answer_in_full)
                first = f", the {full} that answer it in full first" if 0 < full < len(passing) else ""
                turn.answer(
                    f"{len(passing)} models in RS-FMD pass the hard constraints of this task{together}; "
                    f"shown are the best placed on general-purpose capability{first} (browse them in the "
                    "app's Explore tab or with `remsa db list`)"
                )
        if not turn.candidates:
            turn.status = Status.no_match
            return "explain"
        if strict > self.settings.orchestrator.max_candidates and not _asks_the_catalogue(turn):
            self._queue_questions(turn, "too_many")  # asked after ranking, with the ranking shown
        return "rank"

    def _rank(self, turn: Turn) -> StateName:
        predict = self._predictor()
        if predict is None and self.settings.capabilities.enabled and self.resources.predictor_error:
            note = f"Capabilities-encoding predictions unavailable ({self.resources.predictor_error})"
            if note not in turn.notes:
                turn.notes.append(note)
        unevidenced = no_result_on_application(turn.candidates, turn.query)
        ranked = score_candidates(turn.candidates, turn.query, self.resources.evidence, predict, unevidenced)
        if self.llm is not None and ranked:
            ranked = (
                self.llm.rerank(turn.query, ranked[: max(10, turn.k * 3)]) + ranked[max(10, turn.k * 3) :]
            )
        if turn.answer_in_full:
            # 'which models take LiDAR?': those taking LiDAR itself before those taking a DEM.
            ranked = sorted(ranked, key=lambda c: c.record.model_id not in turn.answer_in_full)
        turn.ranked = ranked
        application = turn.query.application
        if application and unevidenced:
            # 'archaeological sites': a model built for them but with no result recorded is pointed
            # to, wherever general-purpose capability ranks it.
            built = [
                f"{c.record.model_name} (rank {i})"
                for i, c in enumerate(ranked, 1)
                if described_for(c.record, application)
            ]
            if built:
                turn.notes.append(
                    f"Described as built for {application}, with no result recorded: {', '.join(built)}"
                )
        turn.notes.extend(_imagery_not_shown(ranked, turn.k, turn.query))
        turn.confidence = overall_confidence(ranked, turn.k, turn.query)
        if gap := no_known_fit(ranked[: turn.k], turn.query):
            # Said first, and the answer is no more confident than a guess among the closest.
            turn.answer(gap)
            turn.confidence = min(turn.confidence, NO_KNOWN_FIT_CONFIDENCE)
        self._note(turn, f"ranked {len(ranked)}; overall confidence {turn.confidence:.2f}")
        if turn.questions and turn.clarify_reason == "too_many":
            return "clarify"
        low = turn.confidence < self.settings.orchestrator.confidence_threshold
        asks = not (turn.named_only or _asks_the_catalogue(turn))
        if low and asks and self._queue_questions(turn, "low_confidence"):
            return "clarify"
        return "explain"

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
    def _may_clarify(self, turn: Turn) -> bool:
        return turn.clarify and turn.rounds < self.settings.orchestrator.max_clarification_rounds

    def _queue_questions(self, turn: Turn, reason: str) -> bool:
        """Queue questions for ``reason`` when a round remains and a field is left to ask about."""
        if not self._may_clarify(turn):
            return False
        questions = questions_for(turn.query, reason, turn.asked)
        if questions and turn.named_models:
            # 'compare DOFA and CROMA for SAR flood mapping': asked about models by name, the user
            # gets them ranked for the task now, and what would sharpen the answer.
            turn.unasked.extend(q.field for q in questions if q.field not in turn.unasked)
            wished = ", ".join(_REFINING.get(f, f.replace("_", " ")) for f in turn.unasked)
            turn.notes = [n for n in turn.notes if not n.startswith(_ANSWERED_AT_ONCE)]
            turn.notes.append(f"{_ANSWERED_AT_ONCE}; to sharpen it, say {wished}")
            return False
        if questions:
            turn.clarify_reason, turn.questions = reason, questions
        return bool(questions)

    def _predictor(self) -> Callable[[ModelRecord, StructuredQuery], Prediction | None] | None:
        predictor = self.resources.capabilities(self.settings)
        if predictor is None:
            return None

        def predict(record: ModelRecord, query: StructuredQuery) -> Prediction | None:
            if not predictor.has_model(record.model_id):
                return None
            standing = predictor.standing(
                record.model_id,
                query.task_type,
                query.application,
                query.sensor,
                query.modality,
                datasets=query.datasets,
            )
            if standing is None:
                return None
            score = max(0.0, min(1.0, 1.0 - float(standing.expected_gap)))
            other = other_imagery(standing.datasets, requested_imagery(query))
            summary = standing.summary() + (", all on other imagery" if other else "")
            return Prediction(
                score=score, uncertainty=float(standing.uncertainty), summary=summary, other_imagery=other
            )

        return predict

    def _apply_memory(self, turn: Turn) -> None:
        """Offer what the user's earlier tasks suggest; apply only what the user accepted."""
        if self.memory is None or self.settings.user_id is None:
            return
        from agent import memory_offers as offers
        from agent.memory import MemoryUnavailableError

        try:
            # More than needed: the same text asked again is set aside, not counted.
            past = self.memory.similar(
                self.settings.user_id,
                turn.text,
                3 * self.settings.memory.top_k,
                self.settings.memory.min_similarity,
            )
        except MemoryUnavailableError as exc:
            turn.notes.append(f"Task memory unavailable ({exc}); answered without it")
            self.memory = None
            return
        past = offers.earlier_tasks(past, turn.text)[: self.settings.memory.top_k]
        offers.update_offers(turn.memory, turn.query, past)
        turn.query, notes = offers.apply_accepted(turn.memory, turn.query)
        turn.notes.extend(notes)
        turn.memory_deltas = offers.accepted_deltas(turn.memory)
        turn.similar = offers.similar_tasks(past)
        names = {
            m: self.resources.by_id[m].model_name for m in turn.memory.ratings if m in self.resources.by_id
        }
        turn.suggestions = offers.suggestions(turn.memory, names)
        self._note(
            turn, f"{len(past)} similar earlier task(s), {len(turn.suggestions)} suggestion(s) offered"
        )

    def _ranked_without_sensor(self, turn: Turn, model_id: str) -> Candidate | None:
        """A named model that breaks the sensor constraint and nothing else, scored for the task
        with the sensor lifted; None when it breaks anything else."""
        record = self.resources.by_id[model_id]
        if set(violations(record, turn.query)) != {"sensor"}:
            return None
        lifted = Candidate(record=record, relaxed=["sensor"])
        pool = [*turn.candidates, lifted]
        unevidenced = no_result_on_application(pool, turn.query)
        scored = score_candidates(pool, turn.query, self.resources.evidence, self._predictor(), unevidenced)
        return next(c for c in scored if c.record.model_id == model_id)

    def _named_beyond_top(self, turn: Turn, top: list[Candidate], notes: list[str]) -> list[RankedModel]:
        """Models the task names that missed the top k: shown after it with their rank, or the
        reason they were set aside."""
        shown = {c.record.model_id for c in top}
        extra: list[RankedModel] = []
        positions = {c.record.model_id: i for i, c in enumerate(turn.ranked)}
        for model_id in sorted(turn.named_models, key=lambda m: positions.get(m, len(positions))):
            if model_id in shown:
                continue
            name = self.resources.by_id[model_id].model_name
            position = positions.get(model_id)
            if position is not None:
                ranked = explain([turn.ranked[position]], turn.query)[0]
                extra.append(ranked.model_copy(update={"rank": position + 1}))
                notes.append(
                    f"You named {name}: ranked {position + 1} of {len(turn.ranked)} for this task, "
                    f"shown after the top {len(top)}"
                )
            elif turn.outcome is not None and model_id in turn.outcome.rejected:
                why = "; ".join(turn.outcome.rejected[model_id])
                lifted = self._ranked_without_sensor(turn, model_id)
                if lifted is None:
                    notes.append(f"You named {name}: set aside because {why}")
                    continue
                # 'RGB aerial images ... SatMAE or Scale-MAE': a model asked about by name that
                # breaks only the sensor is shown, with where it would rank were that lifted.
                would = sum(c.score > lifted.score for c in turn.ranked) + 1
                extra.append(explain([lifted], turn.query)[0].model_copy(update={"rank": would}))
                notes.append(
                    f"You named {name}: set aside because {why}; were the sensor not required, it "
                    f"would rank {would} of {len(turn.ranked) + 1} for this task, shown after the top "
                    f"{len(top)}"
                )
        ranked_named = [m for m in turn.named_models if m in positions]
        fit = "on general-purpose capability" if turn.named_only else "for this task"
        subject = None
        if len(ranked_named) == 1 and ranked_named[0] in shown and not turn.named_only:
            (subject,) = ranked_named  # 'is DOFA good for hyperspectral?'
        elif len(ranked_named) > 1 and (asked := _WHY_SENTENCE.findall(turn.text)):
            # 'DOFA vs CROMA ... why is DOFA first?': the one model the last 'why' names.
            in_why = [m for m in self.resources.model_names().find(asked[-1]).named if m in positions]
            subject = in_why[0] if len(in_why) == 1 else None
        if subject is not None:
            model_id = subject
            position = positions[model_id]
            note = (
                f"You named {self.resources.by_id[model_id].model_name}: ranked "
                f"{position + 1} of {len(turn.ranked)} for this task"
            )
            if _WHY.search(turn.text):
                # 'why is Clay first?': what puts it there, and by how much; 'why is the second
                # one ranked lower?': also what puts the model before it first.
                if position > 0:
                    note += why_behind(turn.ranked[position], turn.ranked[position - 1])
                pair = explain(turn.ranked[position : position + 2], turn.query)
                note += why_ranked(pair[0], pair[1] if len(pair) > 1 else None)
            if len(ranked_named) > 1:
                notes.insert(0, note)  # the answer to the 'why' asked, before where the others rank
            else:
                notes.append(note)
        if len(ranked_named) >= 2:  # 'DOFA vs CROMA': say which of them fits the task better
            order = sorted(ranked_named, key=positions.__getitem__)
            head_to_head = ", then ".join(
                f"{self.resources.by_id[m].model_name} (rank {positions[m] + 1})" for m in order
            )
            note = f"Of the models you named, the best fit {fit}: {head_to_head}"
            if len(order) == 2:
                # 'compare the top two': where the second falls short of the first.
                upper, lower = (turn.ranked[positions[m]] for m in order)
                note += f"; {lower.record.model_name} is" + why_behind(lower, upper).removeprefix(",")
            notes.append(note)
        return extra

    def _selection(self, turn: Turn) -> Selection:
        top = turn.ranked[: turn.k] if turn.status != Status.needs_clarification else []
        models = explain(top, turn.query)
        if self.llm is not None and models:
            models = self.llm.explain(turn.query, models, top)
            turn.trace.extend(self.llm.drain())
            turn.llm_fallbacks.extend(self.llm.take_fallbacks())
        assumptions = list(dict.fromkeys(turn.notes))
        if turn.status != Status.needs_clarification:
            named_notes: list[str] = []
            models += self._named_beyond_top(turn, top, named_notes)
            assumptions.extend(named_notes)
            turn.answers.extend(named_notes)
        engine = turn.engine
        if turn.llm_fallbacks:
            # Visible, not only in the trace: the answer says which steps the LLM did not do.
            stages = list(dict.fromkeys(turn.llm_fallbacks))
            assumptions.insert(
                0,
                f"The LLM ({turn.engine}) failed at {', '.join(stages)}; the offline engine did "
                f"{'that step' if len(stages) == 1 else 'those steps'} instead (details in the trace)",
            )
            engine = f"{turn.engine}, offline fallback for {', '.join(stages)}"
        if turn.outcome and turn.outcome.relaxed and top:
            relaxed = sorted({c for cand in top for c in cand.relaxed})
            if relaxed:
                which = ", ".join(r.replace("_", " ") for r in relaxed)
                met = turn.outcome.strict_count
                assumptions.append(
                    f"Only {met} {'model' if met == 1 else 'models'} met every constraint; the others "
                    f"shown are closest matches with {which} relaxed"
                    if met > 0
                    else f"No model met every constraint; closest matches shown with {which} relaxed"
                )
        for c in top:
            if c.memory_note is None and turn.memory_deltas.get(c.record.model_id):
                c.memory_note = "You rated this model before"
        return Selection(
            status=turn.status,
            query=turn.query,
            query_text=turn.text,
            models=models,
            questions=turn.questions if turn.status == Status.needs_clarification else [],
            assumptions=assumptions,
            answers=[a for a in dict.fromkeys(turn.answers) if a in assumptions],
            overall_confidence=turn.confidence,
            clarification_rounds=turn.rounds,
            engine=engine,
            similar_tasks=turn.similar,
            suggestions=turn.suggestions,
            trace=turn.trace,
            database_version=self.resources.database_version,
            interaction_id=uuid.uuid4().hex,
            model_names={
                m: self.resources.by_id[m].model_name
                for m in turn.query.exclusions.models
                if m in self.resources.by_id
            },
        )


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


def _size_note(
    records: list[ModelRecord], query: StructuredQuery, *, largest: bool = False, shown: int = 5
) -> str:
    """The smallest of ``records`` (those passing the task's hard constraints) that handle its task
    type, by their smallest variant, or the largest by their largest: the plain answer to 'which is
    the smallest (largest) model that ...'."""
    task = query.task_type
    # 'Sentinel-1 and Sentinel-2 together': a model for all the imagery asked for, not for part of it.
    groups = _imagery_groups(requested_modalities(query))
    passing = [
        r
        for r in records
        if r.category != Category.embedding_product
        and (task is None or task in r.all_task_types)
        and _takes_all(r, groups)
        and not image_pairs_only(r, query)  # (a change captioner captions no single image)
    ]
    # Under a size budget ('best under 10M params? ... and the largest?'), the largest variant within it.
    limit = query.compute.parameter_limit() if largest else None
    sized = _by_size(passing, largest, limit)
    scope = "pass the task's hard constraints"
    if len(groups) > 1:
        scope += f", take {' and '.join(name for name, _ in groups)}"
    if task:
        scope += f" and handle {task}"
    if not passing:
        # 'which of these is the smallest?' when nothing passes: said plainly, not 'none of the 0'.
        alone = "passes the task's hard constraints"
        if len(groups) > 1:
            alone += f", takes {' and '.join(name for name, _ in groups)}"
        if task:
            alone += f" and handles {task}"
        return f"No model to run in RS-FMD {alone}"
    if not sized:
        return f"None of the {len(passing)} models to run that {scope} documents its size"
    unknown = len(passing) - len(sized)
    tail = f"; {unknown} more do not document their size" if unknown else ""
    return (
        f"{'Largest' if largest else 'Smallest'} of the {len(passing)} models to run that {scope}, "
        f"by their {'largest' if largest else 'smallest'} variant"
        f"{f' within {limit:g}M' if limit is not None else ''}: {_sizes(sized[:shown], largest, limit)}{tail}"
    )


def _shown_size_note(records: list[ModelRecord], *, largest: bool = False, limit: float | None = None) -> str:
    """The models an answer showed, smallest (largest) first by their smallest (largest) variant
    (within ``limit``, a size budget): the answer to 'which of these is the smallest?'."""
    end = "largest" if largest else "smallest"
    limit = limit if largest else None
    sized = _by_size(records, largest, limit)
    if not sized:
        return f"None of the {len(records)} models shown documents its size"
    unsized = [r.model_name for r in records if _variant_size(r, largest, limit) is None]
    tail = ""
    if unsized:
        verb = "does not document its" if len(unsized) == 1 else "do not document their"
        tail = f"; {', '.join(unsized)} {verb} size"
    listed = _sizes(sized, largest, limit)
    within = f" within {limit:g}M" if limit is not None else ""
    return f"Of the {len(records)} models shown, {end} first by their {end} variant{within}: {listed}{tail}"


def _variant_size(record: ModelRecord, largest: bool, limit: float | None = None) -> float | None:
    """The record's smallest (largest) variant's size; the largest within ``limit`` when one is given."""
    if largest and limit is not None:
        sizes = [v.num_parameters for v in record.variants if v.num_parameters is not None]
        if record.num_parameters is not None:
            sizes.append(record.num_parameters)
        fits = [size for size in sizes if size <= limit]
        return max(fits) if fits else record.smallest_parameters
    return record.largest_parameters if largest else record.smallest_parameters


def _by_size(records: list[ModelRecord], largest: bool, limit: float | None = None) -> list[ModelRecord]:
    """``records`` that document their size, smallest (or largest) first, by that end's variant."""
    return sorted(
        (r for r in records if _variant_size(r, largest, limit) is not None),
        key=lambda r: ((-1 if largest else 1) * (_variant_size(r, largest, limit) or 0.0), r.model_name),
    )


def _sizes(records: list[ModelRecord], largest: bool, limit: float | None = None) -> str:
    """'SatMAE (86M), CROMA (about 300M)': 'about' where the size is derived."""
    about = {r.model_id: "about " if size_confidence(r) < LOW_CONFIDENCE else "" for r in records}
    return ", ".join(
        f"{r.model_name} ({about[r.model_id]}{_variant_size(r, largest, limit):g}M)" for r in records
    )


def _imagery_groups(imagery: set[str]) -> list[tuple[str, frozenset[str]]]:
    """The imagery a model must take all of, as (name, modalities) groups, each met by any one of its
    modalities. RGB is met by multispectral imagery too, and 'optical' (multispectral and RGB asked
    for alike) is one group, not two."""
    optical = imagery & {"Multispectral", "RGB"}
    groups: list[tuple[str, frozenset[str]]] = []
    if optical == {"Multispectral", "RGB"}:
        groups.append(("optical (multispectral or RGB)", frozenset(optical)))
    elif optical == {"RGB"}:
        groups.append(("RGB", frozenset({"RGB", "Multispectral"})))
    elif optical:
        groups.append(("Multispectral", frozenset(optical)))
    return groups + [(m, frozenset({m})) for m in sorted(imagery - optical)]


def _imagery_not_shown(ranked: list[Candidate], k: int, query: StructuredQuery) -> list[str]:
    """'power line detection from drone LiDAR': the imagery asked for that no model shown takes (a
    model passes on any one of the imagery asked for), with where the first model taking it ranks."""
    imagery = requested_imagery(query)
    if len(imagery) < 2:
        return []
    notes = []
    for name, members in _imagery_groups(imagery):
        if any(set(c.record.modalities) & members for c in ranked[:k]):
            continue
        takers = [i for i, c in enumerate(ranked) if set(c.record.modalities) & members]
        if takers:
            first = ranked[takers[0]].record.model_name
            notes.append(
                f"None of the models shown takes {name}: {len(takers)} in this ranking do, the first "
                f"{first} at rank {takers[0] + 1}"
            )
        else:
            notes.append(f"None of the models that fit the rest of this task takes {name}")
    return notes


def _answers_in_full(
    record: ModelRecord, query: StructuredQuery, groups: list[tuple[str, frozenset[str]]]
) -> bool:
    """Whether a model that passes a question about the catalogue answers all of it: takes every
    imagery asked for, LiDAR or DEM itself (not the other), and is documented for every sensor named
    (or takes any band set)."""
    if not _takes_all(record, groups):
        return False
    if any(m not in record.modalities for m in requested_modalities(query) & {"LiDAR", "DEM"}):
        return False
    return (
        len(query.sensor) < 2
        or record.spectral_alignment == Alignment.full
        or _documented_for_all(record, query.sensor)
    )


def _documented_for_all(record: ModelRecord, sensors: list[str]) -> bool:
    """Whether the record is documented for every one of ``sensors`` (or a sensor of its family)."""
    return all(set(record.supported_sensors) & sensor_family(s) for s in sensors)


def _takes_all(record: ModelRecord, groups: list[tuple[str, frozenset[str]]]) -> bool:
    """Whether the record takes some modality of every group."""
    return all(set(record.modalities) & members for _, members in groups)


def without_size_question(text: str) -> str:
    """``text`` without its size questions: a later one ('and the largest?') replaces them."""
    return " ".join(_SIZE_WORD.sub(" ", _SIZE_SENTENCE.sub(" ", text)).split())


def size_question(text: str) -> Literal["smallest", "largest"] | None:
    """Which end of the size range the task asks for ('the smallest model that ...'), if any."""
    if _SMALLEST_QUESTION.search(text):
        return "smallest"
    if _LARGEST_QUESTION.search(text):
        return "largest"
    return None


def _consider(turn: Turn, records: list[ModelRecord]) -> None:
    """Adds ``records`` to the candidates ranked, those not already among them: the models an answer
    lists are ranked to be shown, whatever retrieval found."""
    present = {c.record.model_id for c in turn.candidates}
    turn.candidates += [Candidate(record=r) for r in records if r.model_id not in present]


def catalogue_superlative(text: str) -> Literal["modalities", "sensors", "earliest"] | None:
    """What a question about the catalogue's extremes counts ('the most modalities', 'the most
    sensors', 'the oldest model'), if it is one."""
    if match := _BREADTH_QUESTION.search(text):
        return "modalities" if match.group(1) else "sensors"
    if _EARLIEST_QUESTION.search(text):
        return "earliest"
    return None


def _superlative_note(
    records: list[ModelRecord],
    kind: Literal["modalities", "sensors", "earliest"],
    task: str | None = None,
    shown: int = 5,
) -> tuple[str, list[ModelRecord]]:
    """The answer to 'which model handles the most modalities (sensors)?' or 'the oldest model?'
    among ``records`` (those passing the task's hard constraints) that handle ``task``, and the
    models it names."""
    records = [r for r in records if task is None or task in r.all_task_types]
    scope = f"of the {len(records)} models that pass the task's hard constraints"
    if task:
        scope += f" and handle {task}"
    if kind == "earliest":
        dated = [r for r in records if r.year is not None]
        dated.sort(key=lambda r: (r.release_date or dt.date(r.year or 1, 12, 31), r.model_name.lower()))
        listed = dated[:shown]
        undated = len(records) - len(dated)
        tail = f"; {undated} more do not document their release" if undated else ""
        names = ", ".join(f"{r.model_name} ({r.release_date or r.year})" for r in listed)
        return f"Earliest released {scope}: {names}{tail}", listed
    if kind == "modalities":
        counted = {r.model_id: [m for m in r.modalities if m not in _NOT_COUNTED] for r in records}
        what = "input modalities (multi-temporal not counted as one)"
    else:
        counted = {r.model_id: list(r.supported_sensors) for r in records}
        what = "documented sensors"
    ranked = sorted(records, key=lambda r: (-len(counted[r.model_id]), r.model_name.lower()))
    listed = [r for r in ranked[:shown] if counted[r.model_id]]
    if not listed:
        return f"None {scope} documents its {what}", []
    names = ", ".join(
        f"{r.model_name} ({len(counted[r.model_id])}: {', '.join(counted[r.model_id])})" for r in listed
    )
    return f"Most {what} {scope}: {names}", listed


def _asks_leaderboard(turn: Turn) -> bool:
    """Whether the task asks for the best results reported on the one benchmark it names (the
    results of a suite's several datasets are not comparable with each other)."""
    return len(dataset_identities(turn.query.datasets)) == 1 and bool(_LEADERBOARD_QUESTION.search(turn.text))


def _about_results(turn: Turn) -> bool:
    """Whether the task asks about results ('the highest mIoU', 'the best scores'), not for advice."""
    return bool(_RESULT_WORDS.search(turn.text) or turn.query.priority_metrics)


def _leaderboard_note(
    records: list[ModelRecord], query: StructuredQuery, shown: int = 5
) -> tuple[str, list[ModelRecord]]:
    """The best result each of ``records`` (those passing the task's hard constraints) reports on
    the benchmarks the task names, best first, in the metric the task names or else the one most
    reported there; and the models listed."""
    named = dataset_identities(query.datasets)
    rows = [(r, b) for r in records for b in r.benchmarks if dataset_identity(b.dataset) in named]
    # Results of the task's type: BigEarthNet's retrieval mAP is no classification mAP.
    rows = [(r, b) for r, b in rows if b.task_type == query.task_type] or rows
    where = " or ".join(query.datasets)
    if not rows:
        return f"No model that passes the task's hard constraints reports a result on {where}", []
    counts = Counter(m for _, b in rows for m in b.metrics)
    asked = [m for m in query.priority_metrics if m in counts]
    metric = asked[0] if asked else counts.most_common(1)[0][0]
    higher = metric_info(metric).higher_is_better
    best: dict[str, tuple[float, ModelRecord, Benchmark]] = {}
    for record, bench in rows:
        value = bench.values().get(metric)
        if value is None:
            continue
        held = best.get(record.model_id)
        if held is None or (value > held[0] if higher else value < held[0]):
            best[record.model_id] = (value, record, bench)
    ranked = sorted(best.values(), key=lambda item: (-item[0] if higher else item[0], item[1].model_name))
    listed = ranked[:shown]

    def said(value: float, record: ModelRecord, bench: Benchmark) -> str:
        how = [bench.dataset] if dataset_identity(bench.dataset) != bench.dataset else []
        how += protocol_parts(bench)
        return f"{record.model_name} {value:g}" + (f" ({', '.join(how)})" if how else "")

    items = ", ".join(said(*item) for item in listed)
    end = "Highest" if higher else "Lowest"
    models = f"{len(best)} models that pass" if len(best) > 1 else "1 model that passes"
    report = "reports" if len(best) == 1 else "report"
    return (
        f"{end} reported {metric} on {where} of the {models} the task's hard constraints and "
        f"{report} it: {items}; as each source reports it, under the protocols shown",
        [record for _, record, _ in listed],
    )


def _asks_who_reports(turn: Turn) -> bool:
    """Whether the task asks which models report results on the benchmarks it names ('which models
    were evaluated on BigEarthNet?')."""
    text = turn.text
    return bool(
        turn.query.datasets
        and _CATALOGUE_QUESTION.search(text)
        and _EVALUATED_QUESTION.search(text)
        and not _ADVICE.search(text)
    )


def _asks_the_catalogue(turn: Turn) -> bool:
    """Whether the task is a question about RS-FMD itself ('which models take EnMAP?', 'the
    smallest model that takes Sentinel-1', 'which models were evaluated on BigEarthNet?'), with
    something to answer it on: no questions back."""
    query = turn.query
    if _asks_who_reports(turn) or (_asks_leaderboard(turn) and _about_results(turn)):
        return True
    terms = _catalogue_terms(query)
    if size_question(turn.text) or catalogue_superlative(turn.text):
        # 'the largest remote sensing foundation model?': with no task either, a size question
        # about the whole catalogue.
        return terms or not (query.application or query.task_type)
    if not terms:
        return False
    return bool(_CATALOGUE_QUESTION.search(turn.text)) and not _ADVICE.search(turn.text)


def _catalogue_terms(query: StructuredQuery) -> bool:
    """Whether the task names something RS-FMD can be searched on without a task: imagery, a sensor,
    release years, a need for any band set, or a licence ('list all models with an Apache-2.0
    licence')."""
    return bool(
        query.modality
        or query.licenses
        or query.open_weights
        or query.sensor
        or query.min_release_year
        or query.max_release_year
        or query.any_bands
        or query.pretrained_on
        or query.pretext
        or query.backbones
    )
