"""LLM-driven steps of the agent: interpret, re-rank (paper App. D), explain (App. E).

Every reply is parsed into a pydantic model; an invalid reply gets one re-ask quoting the
validation error; a second failure (or a timeout, a refusal, an unreachable endpoint) raises
LLMError, and the orchestrator keeps the offline component's result, recorded in the trace.
Model names the LLM invents are dropped: only RS-FMD candidates can reach the user.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import Any, TypeVar, get_args

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from agent.errors import LLMError
from agent.query import Priority, StructuredQuery
from agent.selection import RankedModel, TraceStep
from agent.settings import Settings
from agent.systems import ClarificationQuestion
from prompts import render
from rsfmd.datasets import find_dataset
from rsfmd.schema import ARCHITECTURE_FAMILIES
from rsfmd.vocab import UnknownTermError, get_vocabulary, term_key
from tools.ranking import Candidate

T = TypeVar("T")


# The words a task must use before the LLM's yes/no constraint of that name is believed.
_FLAG_WORDS = {
    "commercial_use": (
        r"commerc|licen[cs]|business|product|compan|startup|client|sell|enterprise|apache|\bmit\b|\bbsd"
    ),
    "open_weights": r"weight|checkpoint|open[\s-]?source|download|public|releas|open model",
    "precomputed_embeddings": r"embedding",
    "frozen_encoder": r"frozen|freez|prob(?:e|ing)|k-?nn|nearest|feature|embedding|fine-?tun|similar",
    "conversational": r"chat|conversation|dialog|assistant|llm|talk",
    "any_bands": r"band|channel|wavelength|agnostic|custom|unusual|non[\s-]?standard",
}
# A backbone family is believed only when the task names one.
_ARCHITECTURE_SAID = (
    r"cnn|convnet|convolution|resnet|convnext|efficientnet|mobilenet|transformer|\bvit|swin|mamba|"
    r"state[\s-]space"
)


class LLMQuery(BaseModel):
    """The interpreter's reply, before vocabulary normalisation."""

    application: str | None = None
    modality: list[str] = Field(default_factory=list)
    sensor: list[str] = Field(default_factory=list)
    spatial_resolution: str | None = None
    temporal_resolution: str | None = None
    bands: list[str] = Field(default_factory=list)
    task_type: str | None = None
    data_regime: str | None = None
    deployment_device: str | None = None
    max_parameters_m: float | None = None
    priorities: list[str] = Field(default_factory=list)
    min_performance: dict[str, list[str | float]] | None = None
    region: list[str] = Field(default_factory=list)
    datasets: list[str] = Field(default_factory=list)
    domain_keywords: list[str] = Field(default_factory=list)
    excluded_modalities: list[str] = Field(default_factory=list)
    commercial_use: bool | None = None
    open_weights: bool | None = None
    precomputed_embeddings: bool | None = None
    frozen_encoder: bool | None = None
    conversational: bool | None = None
    any_bands: bool | None = None
    architectures: list[str] = Field(default_factory=list)
    min_release_year: int | None = None
    max_release_year: int | None = None


class RankItem(BaseModel):
    """One entry of the re-ranker's list."""

    model: str
    rank: int
    reason: list[str] = Field(default_factory=list)


class ExplanationItem(BaseModel):
    """One entry of the explainer's list."""

    model_name: str
    explanation: list[str] = Field(min_length=1)
    trade_offs: list[str] = Field(default_factory=list)


def parse_json(text: str, adapter: TypeAdapter[T]) -> T:
    """Validate a reply as JSON; a reply wrapped in one Markdown code fence is unwrapped first."""
    body = text.strip()
    if body.startswith("```"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = body.rsplit("```", 1)[0]
    return adapter.validate_json(body)


class LLMSteps:
    """Wraps a LangChain chat model; counts calls and tokens; logs every step for the trace."""

    def __init__(self, chat_model: Any, engine_name: str = "llm", *, constrained: bool = False) -> None:
        self.model = chat_model
        self.engine_name = engine_name
        # Constrained decoding: the reply is generated under the reply's JSON schema (llama.cpp
        # grammars), so even a small local model returns parseable JSON.
        self.constrained = constrained
        self.calls = 0
        self.prompt_tokens = 0
        self._events: list[TraceStep] = []
        self._fallbacks: list[str] = []

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMSteps:
        """Build the configured provider (ConfigurationError when it cannot be)."""
        from agent.llm import engine_name, make_chat_model

        return cls(
            make_chat_model(settings), engine_name(settings), constrained=settings.llm.provider == "llamacpp"
        )

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

    def _fallback(self, stage: str, detail: str) -> None:
        """The offline engine does ``stage`` instead: a trace step and a note for the answer."""
        self._fallbacks.append(stage)
        self._event("llm:fallback", detail)

    def _complete(self, step: str, prompt: str, schema: dict[str, Any] | None = None) -> str:
        start = time.perf_counter()
        options: dict[str, Any] = {}
        if schema is not None:
            options["response_format"] = {"type": "json_object", "schema": schema}
        try:
            reply = self.model.invoke(prompt, **options)
        except Exception as exc:  # provider errors come in many types; all become a typed LLMError
            self._event(
                f"llm:{step}",
                f"request failed: {type(exc).__name__}: {exc}",
                1000 * (time.perf_counter() - start),
            )
            raise LLMError(f"{step}: the LLM request failed ({type(exc).__name__}: {exc})") from exc
        self.calls += 1
        usage = getattr(reply, "usage_metadata", None) or {}
        self.prompt_tokens += int(usage.get("input_tokens") or len(prompt) // 4)
        text = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
        self._event(
            f"llm:{step}",
            f"{len(prompt)} prompt chars, {len(text)} reply chars",
            1000 * (time.perf_counter() - start),
        )
        return text

    def _structured(self, step: str, prompt: str, adapter: TypeAdapter[T]) -> T:
        schema = adapter.json_schema() if self.constrained else None  # only constrained decoding reads it
        text = self._complete(step, prompt, schema)
        try:
            return parse_json(text, adapter)
        except (ValidationError, ValueError) as first:
            retry = (
                f"{prompt}\n\nYour previous reply could not be used:\n{str(first)[:600]}\n"
                "Reply again with valid JSON only, in the requested format."
            )
            text = self._complete(f"{step}-retry", retry, schema)
            try:
                return parse_json(text, adapter)
            except (ValidationError, ValueError) as second:
                raise LLMError(
                    f"{step}: invalid reply after one re-ask ({str(second)[:200]})", raw=text
                ) from second

    # -- interpret ---------------------------------------------------------------------------------
    def interpret(self, text: str) -> StructuredQuery | None:
        """The LLM's StructuredQuery, or None (offline rules then stand alone)."""
        prompt = render(
            "interpret",
            query=text,
            modalities=", ".join(get_vocabulary("modalities").names),
            task_types=", ".join(get_vocabulary("task_types").names),
        )
        try:
            raw = self._structured("interpret", prompt, TypeAdapter(LLMQuery))
        except LLMError as exc:
            self._fallback("reading the task", f"interpreter failed ({exc}); offline rules used")
            return None
        grounded = self._grounded(raw, text, prompt.replace(text, ""))
        if not any(grounded.model_dump(exclude_defaults=True).values()):
            self._fallback(
                "reading the task", "the LLM's reading held nothing from the task; offline rules used"
            )
            return None
        return self._to_query(grounded)

    def _grounded(self, raw: LLMQuery, text: str, instructions: str) -> LLMQuery:
        """``raw`` without values the task does not support: echoes of the prompt's own
        placeholders ('e.g. 10 m, or null') and a size limit that is no number of the task."""
        placeholders = [p.lower() for p in re.findall(r'"([^"]{12,})"', instructions)]
        dropped: list[str] = []

        said = " ".join(text.lower().split())

        def echo(value: str) -> bool:
            # A value the task itself says ('flood mapping') is no echo, even if an example names it.
            value = value.strip().lower()
            return (
                len(value) > 12 and value not in said and any(value in p or p in value for p in placeholders)
            )

        update: dict[str, Any] = {}
        for name, value in raw.model_dump().items():
            if isinstance(value, str) and echo(value):
                update[name] = None
                dropped.append(f"{name} {value!r}: an echo of the prompt")
            elif isinstance(value, list) and any(isinstance(v, str) and echo(v) for v in value):
                update[name] = [v for v in value if not (isinstance(v, str) and echo(v))]
                echoed = [v for v in value if v not in update[name]]
                dropped.append(f"{name} {echoed!r}: an echo of the prompt")
        # A size limit must come from a number in the task ('under 100M', '1B'), not a sensor's.
        numbers = {float(n) for n in re.findall(r"(?<![a-z\-])\d+(?:\.\d+)?", text.lower())}
        limit = raw.max_parameters_m
        if limit is not None and not any(abs(limit - n * f) < 1e-6 for n in numbers for f in (1, 1000, 1e-6)):
            update["max_parameters_m"] = None
            dropped.append(f"max_parameters_m {limit:g}: no such number in the task")
        # A release year must be a year the task writes ('after 2024' gives 2025 or later).
        for name, shift in (("min_release_year", (0, 1)), ("max_release_year", (0, -1))):
            year = getattr(raw, name)
            if year is not None and not any(year - d in numbers for d in shift):
                update[name] = None
                dropped.append(f"{name} {year}: no such year in the task")
        # A yes/no constraint rules models out: it needs words of the task that speak of it.
        lowered = text.lower()
        for name, words in _FLAG_WORDS.items():
            if getattr(raw, name) and not re.search(words, lowered):
                update[name] = None
                dropped.append(f"{name}: nothing in the task asks for it")
        if raw.architectures and not re.search(_ARCHITECTURE_SAID, lowered):
            update["architectures"] = []
            dropped.append(f"architectures {raw.architectures!r}: the task names no backbone family")
        for item in dropped:
            self._event("llm:interpret", f"ignored {item}")
        return raw.model_copy(update=update) if update else raw

    def _known_application(self, written: str | None) -> str | None:
        """The vocabulary's application for what the model wrote ('monsoon flood monitoring' is
        read by the rules as flood mapping), or None, said in the trace, when nothing matches."""
        if not written or not written.strip():
            return None
        found = get_vocabulary("applications").get(written)
        if found is not None:
            return found
        from agent.interpreter import interpret

        mapped = interpret(written[:200]).query.application
        if mapped is not None:
            self._event(
                "llm:interpret", f"application {written[:60]!r} is not in the vocabulary: read as {mapped!r}"
            )
        else:
            self._event("llm:interpret", f"ignored unknown application {written[:60]!r}")
        return mapped

    def _to_query(self, raw: LLMQuery) -> StructuredQuery:
        def known(vocab: str, values: Sequence[str]) -> list[str]:
            out = []
            for value in values:
                found = get_vocabulary(vocab).get(value)
                if found:
                    out.append(found)
                else:
                    self._event("llm:interpret", f"ignored unknown {vocab[:-1]} {value!r}")
            return out

        def known_datasets(values: Sequence[str]) -> list[str]:
            out = []
            for value in values:
                if (info := find_dataset(value)) is not None and info.task_type:
                    out.append(info.name)
                elif info is not None:  # 'pretrained on SSL4EO-S12' is read by the rules
                    self._event("llm:interpret", f"ignored {value!r}: a pretraining corpus, not a benchmark")
                else:
                    self._event("llm:interpret", f"ignored unknown dataset {value!r}")
            return out

        data: dict[str, Any] = {
            "application": self._known_application(raw.application),
            "modality": known("modalities", raw.modality),
            "sensor": known("sensors", raw.sensor),
            "spatial_resolution": raw.spatial_resolution,
            "temporal_resolution": raw.temporal_resolution,
            "bands": raw.bands,
            "region": raw.region,
            "datasets": known_datasets(raw.datasets),
            "domain_keywords": raw.domain_keywords,
            "priorities": [p for p in raw.priorities if p in get_args(Priority)],
            "exclusions": {"modalities": known("modalities", raw.excluded_modalities)},
            "commercial_use": bool(raw.commercial_use),
            "open_weights": bool(raw.open_weights),
            "precomputed_embeddings": bool(raw.precomputed_embeddings),
            "frozen_encoder": bool(raw.frozen_encoder),
            "conversational": bool(raw.conversational),
            "any_bands": bool(raw.any_bands),
            "architectures": [
                family
                for family in ARCHITECTURE_FAMILIES
                if any(family.lower() == a.strip().lower() for a in raw.architectures)
            ],
            "min_release_year": raw.min_release_year,
            "max_release_year": raw.max_release_year,
        }
        if raw.task_type and (task := get_vocabulary("task_types").get(raw.task_type)):
            data["task_type"] = task
        if raw.data_regime in {"zero-shot", "few-shot", "full-labels", "unlabeled"}:
            data["data_regime"] = raw.data_regime
        compute: dict[str, Any] = {}
        if raw.deployment_device in {"edge", "cpu", "single-gpu", "multi-gpu"}:
            compute["device_class"] = raw.deployment_device
            data["deployment_device"] = raw.deployment_device
        if raw.max_parameters_m and raw.max_parameters_m > 0:
            compute["max_parameters_m"] = raw.max_parameters_m
        data["compute"] = compute
        try:
            return StructuredQuery.model_validate(data)
        except (ValidationError, UnknownTermError) as exc:
            self._fallback(
                "reading the task", f"interpreter reply did not fit the schema ({str(exc)[:160]}); rules used"
            )
            return StructuredQuery()

    # -- re-rank ------------------------------------------------------------------------------------
    def rerank(self, query: StructuredQuery, ranked: list[Candidate]) -> list[Candidate]:
        """Candidates in the LLM's order (unknown names dropped, unmentioned ones kept after)."""
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
        try:
            items = self._structured("rerank", prompt, TypeAdapter(list[RankItem]))
        except LLMError as exc:
            self._fallback("re-ranking", f"re-ranking failed ({exc}); offline ranking kept")
            return ranked
        by_key: dict[str, Candidate] = {}
        for c in ranked:
            by_key[term_key(c.record.model_name)] = c
            by_key[term_key(c.record.model_id)] = c
        ordered: list[Candidate] = []
        for item in sorted(items, key=lambda i: i.rank):
            candidate = by_key.get(term_key(item.model))
            if candidate is None:
                self._event("llm:rerank", f"ignored {item.model!r}: not a candidate from RS-FMD")
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
            items = self._structured("explain", prompt, TypeAdapter(list[ExplanationItem]))
        except LLMError as exc:
            self._fallback("explanations", f"explanation failed ({exc}); templated explanations kept")
            return models
        by_name = {term_key(i.model_name): i for i in items}
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
