"""The state of one request: what the orchestrator knows while answering it, carried across a
session's rounds (clarification answers, changes, questions about the answer)."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.memory_offers import MemoryOffers
from agent.query import StructuredQuery
from agent.selection import MemorySuggestion, SimilarTask, Status, TraceStep
from agent.systems import ClarificationQuestion
from tools.candidate import Candidate
from tools.closest import FilterOutcome


@dataclass
class Turn:
    """What the orchestrator knows during one request; also carried across a session's rounds."""

    text: str
    k: int
    clarify: bool
    query: StructuredQuery = field(default_factory=StructuredQuery)
    offline_query: StructuredQuery | None = None  # as the rules alone read it (guards an LLM's re-rank)
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
    similarity: dict[str, float] = field(default_factory=dict)  # each record's closeness to the task
    statement: str = ""  # the task as first stated, kept through changes and questions about its answer

    def answer(self, note: str) -> None:
        """A note that answers the question asked ('the smallest ...'): said first in the chat."""
        self.notes.append(note)
        self.answers.append(note)

    def say(self, note: str) -> None:
        """A note said once, however often what gives it recurs."""
        if note not in self.notes:
            self.notes.append(note)
