"""A record being ranked, the criteria scored on it, and the capabilities-encoding estimate it may carry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from agent.query import StructuredQuery
from rsfmd.schema import ModelRecord
from tools.evidence import EvidenceItem

Predict = Callable[[ModelRecord, StructuredQuery], "Prediction | None"]


@dataclass(frozen=True)
class Prediction:
    """A capabilities-encoding estimate of a model's standing on datasets like the user's."""

    score: float
    uncertainty: float
    summary: str
    other_imagery: bool = False
    """The datasets it places the model on share none of the user's imagery (optical for SAR)."""


@dataclass
class Criterion:
    """One criterion's score, weight and evidence."""

    score: float
    weight: float = 0.0
    evidence: list[str] = field(default_factory=list)
    known: bool = True


@dataclass
class Candidate:
    """A record being ranked."""

    record: ModelRecord
    similarity: float = 0.0
    criteria: dict[str, Criterion] = field(default_factory=dict)
    score: float = 0.0
    confidence: float = 0.0
    relaxed: list[str] = field(default_factory=list)
    evidence_items: list[EvidenceItem] = field(default_factory=list)
    predicted: Prediction | None = None
    results_of_larger_variants: bool = False
    """Only a variant with no reported results fits the user's budget; its results are of larger ones."""
    memory_delta: float = 0.0
    memory_note: str | None = None
