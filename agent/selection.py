"""What the agent answers: a JSON-serialisable Selection (paper Appendix E fields and more)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field

from agent.query import StructuredQuery
from agent.query_phrases import summary
from agent.systems import ClarificationQuestion
from rsfmd.usage import UsageSnippet


class Status(StrEnum):
    """How a request ended."""

    ok = "ok"
    closest_match = "closest_match"
    needs_clarification = "needs_clarification"
    no_match = "no_match"
    not_understood = "not_understood"


class Links(BaseModel):
    """Where to read about and get the model."""

    paper: str | None = None
    code: str | None = None
    weights: str | None = None


class EvidenceNumber(BaseModel):
    """A reported (or predicted) result cited in an explanation."""

    dataset: str
    metric: str
    value: float
    setting: str
    relevance: str = Field(description="application, task or related.")
    source_url: str


AdaptationMode = Literal["zero-shot", "frozen", "light-tune", "fine-tune"]


class AdaptationResult(BaseModel):
    """One RS-FMD result cited for how to adapt a model: how it was trained and what it scored."""

    dataset: str
    metric: str
    value: float
    setting: str = Field(description="The evaluation protocol as the source states it.")
    family: str = Field(description="zero-shot, few-shot, parameter-efficient, frozen or fine-tune.")
    label_percent: float | None = Field(default=None, description="Label fraction used; None: not stated.")
    variant: str | None = None
    source_url: str


class SettingComparison(BaseModel):
    """Results of one model on one dataset under different settings or label fractions."""

    dataset: str
    metric: str
    statement: str = Field(description="The comparison in one sentence, with the numbers.")
    results: list[AdaptationResult] = Field(min_length=2)


class Adaptation(BaseModel):
    """How to adapt a recommended model to the user's labels and hardware, and what that rests on."""

    mode: AdaptationMode
    label: str = Field(description="The advice in a few words ('frozen encoder + light head').")
    why: list[str] = Field(min_length=1, description="One or two plain sentences.")
    basis: Literal["RS-FMD results", "rule of thumb"] = Field(
        description="RS-FMD results: at least one reported result under the advised setting backs it."
    )
    evidence: list[AdaptationResult] = Field(default_factory=list)
    comparisons: list[SettingComparison] = Field(default_factory=list)

    def line(self) -> str:
        """The advice on one line: 'frozen encoder + light head (rule of thumb): why...'."""
        return f"{self.label} ({self.basis}): {' '.join(self.why)}"

    def markdown(self) -> str:
        """The one-line advice with a link to the source of the result it names first."""
        cited = f" ([source]({self.evidence[0].source_url}))" if self.evidence else ""
        return self.line() + cited


class RankedModel(BaseModel):
    """One recommended model with its reasons."""

    rank: int = Field(ge=1)
    model_id: str
    name: str
    score: float = Field(ge=0, le=100)
    confidence: float = Field(ge=0, le=1)
    reasons: list[str]
    trade_offs: list[str] = Field(default_factory=list)
    evidence: list[EvidenceNumber] = Field(default_factory=list)
    predicted: str | None = Field(default=None, description="Capabilities-encoding estimate, when used.")
    criteria: dict[str, float] = Field(default_factory=dict, description="Criterion scores in [0, 1].")
    links: Links = Field(default_factory=Links)
    relaxed_constraints: list[str] = Field(default_factory=list)
    parameters_m: float | None = None
    modalities: list[str] = Field(default_factory=list)
    sensors: list[str] = Field(default_factory=list)
    usage: list[UsageSnippet] = Field(
        default_factory=list,
        description="Ways to load it (library, identifier, snippet, source), most specific first.",
    )
    adaptation: Adaptation | None = Field(
        default=None, description="How to adapt it (frozen, few-label, fine-tune) and the evidence."
    )


class TraceStep(BaseModel):
    """One step of the orchestrator, with its timing."""

    step: str
    detail: str
    ms: float = Field(ge=0)


class SimilarTask(BaseModel):
    """A past task of the same user that resembles this one."""

    query_text: str
    similarity: float
    recommended: list[str]
    feedback: dict[str, str] = Field(default_factory=dict)


class MemorySuggestion(BaseModel):
    """A constraint the user's earlier tasks suggest; it shapes an answer only once accepted."""

    id: str = Field(description="What to pass to Session.accept (or remsa ask --accept).")
    label: str = Field(description="Short text for a chip, e.g. 'Region: Bangladesh'.")
    reason: str = Field(description="Why it is suggested, from the earlier tasks.")
    accepted: bool = Field(default=False, description="Applied to this answer at the user's request.")


class Selection(BaseModel):
    """The agent's answer to one request."""

    status: Status
    query: StructuredQuery
    query_text: str
    models: list[RankedModel] = Field(default_factory=list)
    questions: list[ClarificationQuestion] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)
    answers: list[str] = Field(
        default_factory=list,
        description="The assumptions that answer the question asked (the smallest models, where a model "
        "named ranks, how many models take EnMAP): what the chat says first.",
    )
    change: str | None = Field(
        default=None,
        description="What a follow-up changed in the task just answered ('Now also open weights'): "
        "said first in the chat; None for a new task or a question that changes nothing.",
    )
    follow_up: bool = Field(
        default=False,
        description="Answers a message about the task just answered (a change, a question about its "
        "models, more models) rather than a new task.",
    )
    overall_confidence: float = Field(default=0.0, ge=0, le=1)
    clarification_rounds: int = Field(default=0, ge=0)
    engine: str = Field(default="offline", description="offline, or the LLM provider and model.")
    similar_tasks: list[SimilarTask] = Field(
        default_factory=list, description="The user's earlier tasks that resemble this one (never this text)."
    )
    suggestions: list[MemorySuggestion] = Field(
        default_factory=list,
        description="What the earlier tasks suggest adding; none of it is applied unless accepted.",
    )
    trace: list[TraceStep] = Field(default_factory=list)
    database_version: str = ""
    interaction_id: str | None = None
    elapsed_ms: float = Field(default=0.0, ge=0, description="Wall time of this request.")
    model_names: dict[str, str] = Field(
        default_factory=dict, description="Display names of the model ids the query holds (exclusions)."
    )

    def understood(self) -> list[str]:
        """What was understood, as short phrases, with models by name."""
        return summary(self.query, self.model_names)

    def top_count(self) -> int:
        """How many models lead with ranks 1, 2, 3...: the top k, before any model the task named."""
        return next((i for i, m in enumerate(self.models) if m.rank != i + 1), len(self.models))

    def to_markdown(self, show_code: bool = True) -> str:
        """A readable rendering of the answer; ``show_code`` adds the code that loads each model."""
        from tools.selection_markdown import selection_markdown

        return selection_markdown(self, show_code=show_code)
