"""LLM-driven steps of the agent: interpret, re-rank (paper App. D), explain (App. E).

Every reply is parsed into a pydantic model; an invalid reply gets one re-ask quoting the
validation error; a second failure (or a timeout, a refusal, an unreachable endpoint) raises
LLMError, and the orchestrator keeps the offline component's result, recorded in the trace.
Model names the LLM invents are dropped: only RS-FMD candidates can reach the user.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from agent.errors import LLMError
from agent.llm_guard import copied, guarded
from agent.llm_reading import LLMQuery, ReadingChecks
from agent.llm_replies import ExplanationItem, RankItem, bounded, parse_json, rerank_schema
from agent.query import StructuredQuery
from agent.selection import RankedModel, TraceStep
from agent.settings import Settings
from agent.systems import ClarificationQuestion
from prompts import render
from rsfmd.vocab import get_vocabulary, term_key
from tools.candidate import Candidate

__all__ = ["ExplanationItem", "LLMQuery", "LLMSteps", "RankItem", "parse_json"]

T = TypeVar("T")

# Reply tokens each step may use: room for a complete reply, not for a model that runs on.
REPLY_TOKENS = {
    "interpret": 384,
    "rerank": 32,
    "rerank_per_model": 80,
    "explain": 32,
    "explain_per_model": 180,
}


# Readings kept per LLMSteps (one per session in the app): a clarification round re-reads the
# same text, and a small model takes tens of seconds per reading on a CPU.
_READINGS_KEPT = 32


class LLMSteps:
    """Wraps a LangChain chat model; counts calls and tokens; logs every step for the trace."""

    def __init__(
        self,
        chat_model: Any,
        engine_name: str = "llm",
        *,
        constrained: bool = False,
        budget_s: float | None = None,
        reply_limit: Callable[[int], dict[str, Any]] | None = None,
        steps: Collection[str] = ("interpret", "rerank", "explain"),
    ) -> None:
        self.model = chat_model
        self.steps = frozenset(steps)
        self.engine_name = engine_name
        # Constrained decoding: the reply is generated under the reply's JSON schema (llama.cpp
        # grammars), so even a small local model returns parseable JSON.
        self.constrained = constrained
        # Time for all steps of one request: past it, later steps fall back to the offline engine.
        self.budget_s = budget_s
        self._deadline: float | None = None
        # Invoke options that cap a reply's tokens in the provider's own parameter (agent.llm).
        self.reply_limit = reply_limit
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._events: list[TraceStep] = []
        self._fallbacks: list[str] = []
        self._reask = ""
        self._readings: dict[str, StructuredQuery | None] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMSteps:
        """Build the configured provider (ConfigurationError when it cannot be)."""
        from agent.llm import engine_name, json_schema_decoding, make_chat_model, reply_limit

        return cls(
            make_chat_model(settings),
            engine_name(settings),
            constrained=json_schema_decoding(settings),
            budget_s=settings.llm.step_budget_s,
            reply_limit=lambda tokens: reply_limit(settings, tokens),
            steps=settings.llm.steps,
        )

    def begin_request(self) -> None:
        """Start the time budget of one request."""
        self._deadline = None if self.budget_s is None else time.monotonic() + self.budget_s

    def drain(self) -> list[TraceStep]:
        """Trace steps recorded since the last call."""
        events, self._events = self._events, []
        return events

    def take_fallbacks(self) -> list[str]:
        """The steps ('reading the task', 're-ranking', 'explanations') that fell back since the last call."""
        fallbacks, self._fallbacks = self._fallbacks, []
        return fallbacks

    def _event(self, step: str, detail: str, ms: float = 0.0) -> None:
        self._events.append(TraceStep(step=step, detail=detail, ms=round(ms, 2)))

    def _off(self, step: str) -> bool:
        """True when ``step`` is not one of the configured LLM steps (said once in the trace)."""
        if step in self.steps:
            return False
        self._event(f"llm:{step}", "offline engine: not among the configured LLM steps (llm.steps)")
        return True

    def _fallback(self, stage: str, detail: str) -> None:
        """The offline engine does ``stage`` instead: a trace step and a note for the answer."""
        self._fallbacks.append(stage)
        self._event("llm:fallback", detail)

    def _complete(
        self, step: str, prompt: str, schema: dict[str, Any] | None = None, tokens: int | None = None
    ) -> str:
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise LLMError(f"{step}: the request's LLM time ({self.budget_s:g} s) is used up")
        start = time.perf_counter()
        options: dict[str, Any] = {}
        if tokens is not None and self.reply_limit is not None:
            options |= self.reply_limit(tokens)
        if schema is not None:
            options["response_format"] = {"type": "json_object", "schema": schema}
        self.calls += 1  # a failed request was still made
        try:
            reply = self.model.invoke(prompt, **options)
        except Exception as exc:  # provider errors come in many types; all become a typed LLMError
            self._event(
                f"llm:{step}",
                f"request failed: {type(exc).__name__}: {exc}",
                1000 * (time.perf_counter() - start),
            )
            raise LLMError(f"{step}: the LLM request failed ({type(exc).__name__}: {exc})") from exc
        usage = getattr(reply, "usage_metadata", None) or {}
        text = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
        prompt_tokens = int(usage.get("input_tokens") or len(prompt) // 4)
        reply_tokens = int(usage.get("output_tokens") or len(text) // 4)
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += reply_tokens
        self._event(
            f"llm:{step}",
            f"{prompt_tokens} prompt tokens, {reply_tokens} reply tokens",
            1000 * (time.perf_counter() - start),
        )
        return text

    def _structured(
        self,
        step: str,
        prompt: str,
        adapter: TypeAdapter[T],
        tokens: int | None = None,
        schema: dict[str, Any] | None = None,
    ) -> T:
        """The reply validated by ``adapter``; under constrained decoding it is generated under
        ``schema`` (default: the adapter's schema, bounded)."""
        if not self.constrained:
            schema = None  # only constrained decoding reads it
        elif schema is None:
            schema = bounded(adapter.json_schema())
        self._reask = ""
        text = self._complete(step, prompt, schema, tokens)
        try:
            return parse_json(text, adapter)
        except (ValidationError, ValueError) as first:
            # The re-ask quotes the error; a reply that copies the quote is an echo (llm_reading).
            self._reask = str(first)[:600]
            retry = (
                f"{prompt}\n\nYour previous reply could not be used:\n{self._reask}\n"
                "Reply again with valid JSON only, in the requested format."
            )
            text = self._complete(f"{step}-retry", retry, schema, tokens)
            try:
                return parse_json(text, adapter)
            except (ValidationError, ValueError) as second:
                raise LLMError(
                    f"{step}: invalid reply after one re-ask ({str(second)[:200]})", raw=text
                ) from second

    # -- interpret ---------------------------------------------------------------------------------
    def interpret(self, text: str) -> StructuredQuery | None:
        """The LLM's StructuredQuery, or None (offline rules then stand alone). A text already read
        (the same task again after a clarification answer) is not sent again: its reading is reused."""
        if self._off("interpret"):
            return None
        if text in self._readings:
            query = self._readings[text]
            if query is None:
                self._fallback("reading the task", "the LLM's reading of this text failed before; rules used")
            else:
                self._event("llm:interpret", "this text's reading from an earlier turn reused")
            return query
        query = self._interpret(text)
        if len(self._readings) >= _READINGS_KEPT:
            self._readings.pop(next(iter(self._readings)))
        self._readings[text] = query
        return query

    def _interpret(self, text: str) -> StructuredQuery | None:
        prompt = render(
            "interpret",
            query=text,
            modalities=", ".join(get_vocabulary("modalities").names),
            task_types=", ".join(get_vocabulary("task_types").names),
        )
        try:
            raw = self._structured("interpret", prompt, TypeAdapter(LLMQuery), REPLY_TOKENS["interpret"])
        except LLMError as exc:
            self._fallback("reading the task", f"interpreter failed ({exc}); offline rules used")
            return None
        checks = ReadingChecks(lambda detail: self._event("llm:interpret", detail))
        grounded = checks.grounded(raw, text, prompt.replace(text, ""), self._reask)
        if not any(grounded.model_dump(exclude_defaults=True).values()):
            self._fallback(
                "reading the task", "the LLM's reading held nothing from the task; offline rules used"
            )
            return None
        query = checks.to_query(grounded)
        if query is None:
            self._fallback("reading the task", "the LLM's reading did not fit the query schema; rules used")
        return query

    # -- re-rank ------------------------------------------------------------------------------------
    def rerank(
        self, query: StructuredQuery, ranked: list[Candidate], offline: StructuredQuery | None = None
    ) -> list[Candidate]:
        """Candidates in the LLM's order (unknown names dropped, unmentioned ones kept after), within
        the tiers of ``agent.llm_guard`` (``offline``: the task as the rules read it)."""
        ordered = ranked if self._off("rerank") else self._rerank(query, ranked)
        kept = guarded(ordered, offline)
        if kept != ordered:
            self._event(
                "llm:rerank",
                "kept within the evidence's tiers: models meeting every constraint, and what the "
                "offline reading requires, first, then those with public weights",
            )
        return kept

    def _rerank(self, query: StructuredQuery, ranked: list[Candidate]) -> list[Candidate]:
        lines = []
        for i, c in enumerate(ranked, start=1):
            r = c.record
            evidence = (
                "; ".join(item.describe() for item in c.evidence_items[:3])
                or "no reported results on this task"
            )
            lines.append(
                f"{i}. {r.model_name} | modalities: {', '.join(r.modalities)} | sensors: "
                f"{', '.join(r.supported_sensors[:5]) or 'unknown'} | smallest size: "
                f"{r.smallest_parameters or 'unknown'}M | tasks: {', '.join(r.all_task_types[:5])} | "
                f"evidence: {evidence}"
            )
        prompt = render(
            "rerank", query=query.model_dump_json(exclude_defaults=True), candidates="\n".join(lines)
        )
        adapter = TypeAdapter(list[RankItem])
        try:
            tokens = REPLY_TOKENS["rerank"] + REPLY_TOKENS["rerank_per_model"] * len(ranked)
            items = self._structured("rerank", prompt, adapter, tokens, rerank_schema(adapter, ranked))
        except LLMError as exc:
            self._fallback("re-ranking", f"re-ranking failed ({exc}); offline ranking kept")
            return ranked
        by_key: dict[str, Candidate] = {}
        for c in ranked:
            by_key[term_key(c.record.model_name)] = c
            by_key[term_key(c.record.model_id)] = c
        ordered: list[Candidate] = []
        example = " ".join(render("rerank", query="", candidates="").lower().split())
        for item in sorted(items, key=lambda i: i.rank):
            candidate = by_key.get(term_key(item.model))
            if candidate is None:
                self._event("llm:rerank", f"ignored {item.model!r}: not a candidate from RS-FMD")
                continue
            if copied(item.reason, example):
                self._event("llm:rerank", f"ignored {item.model!r}: its reasons copy the prompt's example")
                continue
            if candidate not in ordered:
                ordered.append(candidate)
        if not ordered:
            self._fallback("re-ranking", "re-ranking named no known candidate; offline ranking kept")
            return ranked
        return ordered + [c for c in ranked if c not in ordered]

    # -- explain ------------------------------------------------------------------------------------
    def explain(
        self, query: StructuredQuery, models: list[RankedModel], top: list[Candidate]
    ) -> list[RankedModel]:
        """Reasons and trade-offs written by the LLM from the same evidence (links stay from RS-FMD)."""
        if self._off("explain"):
            return models
        described = [
            {
                "model_name": m.name,
                "modalities": m.modalities,
                "sensors": m.sensors[:6],
                "parameters_m": m.parameters_m,
                "evidence": [f"{e.metric} {e.value:g} on {e.dataset} ({e.setting})" for e in m.evidence[:4]],
                "offline_reasons": m.reasons,
            }
            for m in models
        ]
        prompt = render(
            "explain",
            query=query.model_dump_json(exclude_defaults=True),
            ranked_models=json.dumps(described, indent=1),
        )
        try:
            tokens = REPLY_TOKENS["explain"] + REPLY_TOKENS["explain_per_model"] * len(models)
            items = self._structured("explain", prompt, TypeAdapter(list[ExplanationItem]), tokens)
        except LLMError as exc:
            self._fallback("explanations", f"explanation failed ({exc}); templated explanations kept")
            return models
        by_name = {term_key(i.model_name): i for i in items}
        shown = {term_key(m.name) for m in models}
        for unknown in (i.model_name for i in items if term_key(i.model_name) not in shown):
            self._event("llm:explain", f"ignored {unknown[:60]!r}: not a model of this answer")
        out = []
        for m in models:
            item = by_name.get(term_key(m.name))
            out.append(
                m.model_copy(update={"reasons": item.explanation, "trade_offs": item.trade_offs})
                if item
                else m
            )
        if models and not any(term_key(m.name) in by_name for m in models):
            self._fallback(
                "explanations", "explanation named none of the models; templated explanations kept"
            )
        return out

    def phrase_questions(
        self, query: StructuredQuery, questions: list[ClarificationQuestion]
    ) -> list[ClarificationQuestion]:
        """Clarification questions stay templated (no extra LLM call per round)."""
        return questions
