"""The systems of the paper's comparison behind one interface (agent.systems.SelectionSystem).

- ``remsa``: the orchestrator on the offline engine.
- ``remsa-llm``: the orchestrator with the configured LLM (interpret, re-rank, explain).
- ``db-retrieval``: FAISS top-k over RS-FMD on the raw query, nothing else.
- ``remsa-naive``: the same tools driven by LangChain's default tool-calling agent (needs an LLM).
- ``unstructured-rag``: an LLM given the query and raw model descriptions (needs an LLM).
Systems that need an LLM report themselves unavailable when none is configured; never faked.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from agent.api import Session
from agent.errors import LLMError, RemsaError
from agent.resources import get_resources
from agent.selection import Status
from agent.settings import LLMSettings, Settings
from agent.systems import SelectionSystem, SystemPick, UserSimulator

if TYPE_CHECKING:
    from agent.llm_baselines import CallCounter
    from agent.llm_steps import LLMSteps


class _System:
    """Common part of the systems: the settings they run with; available unless told otherwise."""

    name = ""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def unavailable_reason(self) -> str | None:
        """Why the system cannot run here, or None."""
        return None


class RemsaSystem(_System):
    """The full agent on the offline engine; answers clarification questions through the simulated user."""

    name = "remsa"

    def _session(self, k: int, clarify: bool) -> Session:
        offline = self.settings.model_copy(update={"user_id": None, "llm": LLMSettings()})
        return Session(offline, k=k, clarify=clarify)

    def select(self, query: str, k: int, user: UserSimulator | None = None) -> SystemPick:
        """Run a session, answering up to three rounds of questions."""
        start = time.perf_counter()
        try:
            session = self._session(k, clarify=user is not None)
            selection = session.ask(query)
            rounds = 0
            while selection.status == Status.needs_clarification and user is not None:
                answers = user(selection.questions)
                rounds += 1
                selection = session.answer(answers)
        except RemsaError as exc:  # a configuration that cannot work (e.g. no model file)
            return _failed(self.name, start, exc)
        fallbacks = [step.detail for step in selection.trace if step.step == "llm:fallback"]
        return SystemPick(
            system=self.name,
            model_ids=[m.model_id for m in selection.models],
            latency_s=time.perf_counter() - start,
            clarification_rounds=rounds,
            status=selection.status.value if selection.status != Status.no_match else "failed",
            detail="; ".join(fallbacks)[:500] or None,
        )


class RemsaLLMSystem(RemsaSystem):
    """The full agent with the configured LLM; its model is loaded once for all queries."""

    name = "remsa-llm"

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self._llm: LLMSteps | None = None

    def unavailable_reason(self) -> str | None:
        """Unavailable without a configured LLM."""
        return _no_llm(self.settings)

    def select(self, query: str, k: int, user: UserSimulator | None = None) -> SystemPick:
        """As ``remsa``, with the LLM; skipped when none is configured."""
        if reason := self.unavailable_reason():
            return _skipped(self.name, reason)
        from agent.llm import engine_name

        # The model is loaded once, so its counters run on: this pick's share is their growth.
        calls, tokens = (self._llm.calls, self._llm.prompt_tokens) if self._llm else (0, 0)
        pick = super().select(query, k, user)
        if self._llm is not None:
            calls, tokens = self._llm.calls - calls, self._llm.prompt_tokens - tokens
        return pick.model_copy(
            update={"engine": engine_name(self.settings), "llm_calls": calls, "prompt_tokens": tokens}
        )

    def _session(self, k: int, clarify: bool) -> Session:
        from agent.llm_steps import LLMSteps

        if self._llm is None:
            self._llm = LLMSteps.from_settings(self.settings)
        settings = self.settings.model_copy(update={"user_id": None})
        return Session(settings, k=k, clarify=clarify, llm=self._llm)


class DbRetrievalSystem(_System):
    """Embedding retrieval only: the k most similar records to the raw query text."""

    name = "db-retrieval"

    def select(self, query: str, k: int, user: UserSimulator | None = None) -> SystemPick:
        """FAISS top-k on the query as written."""
        start = time.perf_counter()
        resources = get_resources(self.settings)
        hits = resources.retrieval.search(query, k, -1.0)
        return SystemPick(
            system=self.name,
            model_ids=[h.record.model_id for h in hits],
            latency_s=time.perf_counter() - start,
        )


def _no_llm(settings: Settings) -> str | None:
    """Why a system that needs an LLM cannot run with ``settings``, or None."""
    if settings.llm.provider == "none":
        return "needs an LLM: set REMSA_LLM__PROVIDER (openai or llamacpp)"
    return None


def _failed(system: str, start: float, error: Exception, **counts: object) -> SystemPick:
    """A failed pick: the error said, the time and the LLM use until then kept."""
    latency = time.perf_counter() - start
    return SystemPick.model_validate(
        {
            "system": system,
            "model_ids": [],
            "latency_s": latency,
            "status": "failed",
            "detail": str(error),
            **counts,
        }
    )


def _skipped(system: str, reason: str) -> SystemPick:
    return SystemPick(system=system, model_ids=[], latency_s=0.0, status="skipped", detail=reason)


class _NeedsLLM(_System):
    def unavailable_reason(self) -> str | None:
        """Unavailable without a configured LLM."""
        return _no_llm(self.settings)

    def select(self, query: str, k: int, user: UserSimulator | None = None) -> SystemPick:
        """Run the LLM baseline; failures are reported, never replaced by another system's answer."""
        if reason := self.unavailable_reason():
            return _skipped(self.name, reason)
        from agent.llm import engine_name
        from agent.llm_baselines import CallCounter

        engine = engine_name(self.settings)
        start = time.perf_counter()
        counter = CallCounter()
        try:
            ids, calls, tokens = self._run(query, k, counter)
        except (LLMError, RemsaError) as exc:
            return _failed(
                self.name,
                start,
                exc,
                llm_calls=counter.calls,
                prompt_tokens=counter.prompt_tokens,
                engine=engine,
            )
        return SystemPick(
            system=self.name,
            model_ids=ids,
            latency_s=time.perf_counter() - start,
            llm_calls=calls,
            prompt_tokens=tokens,
            engine=engine,
        )

    def _run(self, query: str, k: int, counter: CallCounter) -> tuple[list[str], int, int]:
        raise NotImplementedError


class RemsaNaiveSystem(_NeedsLLM):
    """The agent's tools driven by LangChain's default tool-calling agent, no orchestration."""

    name = "remsa-naive"

    def unavailable_reason(self) -> str | None:
        """Unavailable without an LLM, or with one that cannot call tools (the in-process llama.cpp)."""
        if reason := super().unavailable_reason():
            return reason
        if self.settings.llm.provider == "llamacpp":
            return (
                "needs tool calling, which the in-process llamacpp provider does not offer: serve the "
                "model behind an OpenAI-compatible endpoint that supports tool calls and use "
                "--llm openai:MODEL@URL"
            )
        return None

    def _run(self, query: str, k: int, counter: CallCounter) -> tuple[list[str], int, int]:
        from agent.llm_baselines import run_naive_agent

        return run_naive_agent(self.settings, query, k, counter=counter)


class UnstructuredRagSystem(_NeedsLLM):
    """An LLM given the query and retrieved raw model descriptions (paper Appendix F)."""

    name = "unstructured-rag"

    def _run(self, query: str, k: int, counter: CallCounter) -> tuple[list[str], int, int]:
        from agent.llm_baselines import run_unstructured_rag

        return run_unstructured_rag(self.settings, query, k, counter=counter)


SYSTEMS: dict[str, Callable[[Settings], SelectionSystem]] = {
    "remsa": RemsaSystem,
    "remsa-llm": RemsaLLMSystem,
    "db-retrieval": DbRetrievalSystem,
    "remsa-naive": RemsaNaiveSystem,
    "unstructured-rag": UnstructuredRagSystem,
}


def list_systems() -> list[str]:
    """Names of every system."""
    return list(SYSTEMS)


def get_system(name: str, settings: Settings | None = None) -> SelectionSystem:
    """A system by name; ValueError naming the known ones otherwise."""
    factory = SYSTEMS.get(name)
    if factory is None:
        raise ValueError(f"unknown system {name!r}; choose from {', '.join(SYSTEMS)}")
    return factory(settings or Settings())
