"""The interface every selection system offers to the benchmark (REMSA and its baselines)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field


class ClarificationQuestion(BaseModel):
    """A question the system asks the user about one field of the structured query."""

    field: str = Field(description="StructuredQuery field the answer fills, e.g. 'modality'.")
    text: str
    options: list[str] = Field(default_factory=list, description="Suggested answers.")


UserSimulator = Callable[[list[ClarificationQuestion]], dict[str, str]]
"""Answers clarification questions: field name to answer text (missing key = no answer)."""


class SystemPick(BaseModel):
    """What one system answered for one query."""

    system: str
    model_ids: list[str] = Field(description="RS-FMD ids, best first.")
    latency_s: float = Field(ge=0)
    clarification_rounds: int = Field(default=0, ge=0)
    status: str = Field(default="ok", description="ok, closest_match, needs_clarification, failed, skipped.")
    detail: str | None = Field(default=None, description="Why it failed or was skipped.")
    llm_calls: int = Field(default=0, ge=0)
    prompt_tokens: int = Field(default=0, ge=0)
    engine: str | None = Field(default=None, description="The LLM the system ran with, if any.")


@runtime_checkable
class SelectionSystem(Protocol):
    """A system that picks foundation models for a free-text task."""

    name: str

    def unavailable_reason(self) -> str | None:
        """Why the system cannot run in this configuration (e.g. no LLM), or None."""
        ...

    def select(self, query: str, k: int, user: UserSimulator | None = None) -> SystemPick:
        """Pick up to ``k`` models for ``query``, asking ``user`` when it needs clarification."""
        ...
