"""Checks of an LLM's reading of a task: what the reply says is believed only where the task says it.

``LLMQuery`` is the interpreter's reply schema (prompts/interpret.txt). ``ReadingChecks`` drops
echoes of the prompt (its placeholders, and the error quoted in a re-ask), size limits and years
that are no number of the task, yes/no constraints the task never speaks of, and values outside
the vocabularies; each value dropped or mapped is said through ``note`` for the trace.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, get_args

from pydantic import BaseModel, Field, ValidationError

from agent.query import Priority, StructuredQuery
from agent.reading.tables import cues
from rsfmd.datasets import find_dataset
from rsfmd.traits import ARCHITECTURE_FAMILIES
from rsfmd.vocab import UnknownTermError, get_vocabulary

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
    "all_inputs": r"\bboth\b|fus(?:e|ing|ion)|joint|together",
    "series_model": r"(?:temporal|series) (?:encoder|model|backbone)",
    "specialist": r"specific|specialis|speciali[sz]|dedicated|[\s-]only\b|[\s-]pre-?trained",
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
    all_inputs: bool | None = None
    series_model: bool | None = None
    specialist: bool | None = None
    model_kinds: list[str] = Field(default_factory=list)
    architectures: list[str] = Field(default_factory=list)
    min_release_year: int | None = None
    max_release_year: int | None = None


class ReadingChecks:
    """Believe an LLM's reading only where the task supports it; ``note`` hears each change."""

    def __init__(self, note: Callable[[str], None]) -> None:
        self.note = note

    def grounded(self, raw: LLMQuery, text: str, instructions: str, reask: str = "") -> LLMQuery:
        """``raw`` without values the task does not support: echoes of the prompt's own
        placeholders ('e.g. 10 m, or null') or of the error a re-ask quoted, and a size limit
        that is no number of the task."""
        placeholders = [p.lower() for p in re.findall(r'"([^"]{12,})"', instructions)]
        if reask.strip():
            placeholders.append(reask.lower())
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
        if raw.model_kinds and not re.search(dict(cues("model_noun"))["noun"], lowered):
            update["model_kinds"] = []
            dropped.append(f"model_kinds {raw.model_kinds!r}: the task names no model")
        if raw.architectures and not re.search(_ARCHITECTURE_SAID, lowered):
            update["architectures"] = []
            dropped.append(f"architectures {raw.architectures!r}: the task names no backbone family")
        for item in dropped:
            self.note(f"ignored {item}")
        return raw.model_copy(update=update) if update else raw

    def known_application(self, written: str | None) -> str | None:
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
            self.note(f"application {written[:60]!r} is not in the vocabulary: read as {mapped!r}")
        else:
            self.note(f"ignored unknown application {written[:60]!r}")
        return mapped

    def _known(self, vocab: str, values: Sequence[str]) -> list[str]:
        """The values the vocabulary holds, canonical; the others dropped and said."""
        out = []
        for value in values:
            found = get_vocabulary(vocab).get(value)
            if found:
                out.append(found)
            else:
                self.note(f"ignored unknown {vocab[:-1]} {value!r}")
        return out

    def _known_datasets(self, values: Sequence[str]) -> list[str]:
        """The benchmark datasets among ``values``; corpora and unknown names dropped and said."""
        out = []
        for value in values:
            if (info := find_dataset(value)) is not None and info.task_type:
                out.append(info.name)
            elif info is not None:  # 'pretrained on SSL4EO-S12' is read by the rules
                self.note(f"ignored {value!r}: a pretraining corpus, not a benchmark")
            else:
                self.note(f"ignored unknown dataset {value!r}")
        return out

    def to_query(self, raw: LLMQuery) -> StructuredQuery | None:
        """The StructuredQuery of a checked reply; None (said) when it does not fit the schema."""
        known, known_datasets = self._known, self._known_datasets
        modality = known("modalities", raw.modality)
        data: dict[str, Any] = {
            "application": self.known_application(raw.application),
            "modality": modality,
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
            "all_inputs": bool(raw.all_inputs),
            "series_model": bool(raw.series_model),
            "specialist": bool(raw.specialist),
            # The model named by a kind of imagery must take it, a kind the user's data is of.
            "model_kinds": [k for k in known("modalities", raw.model_kinds) if k in modality],
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
            compute["max_parameters_m"], compute["limit_said"] = raw.max_parameters_m, True
        data["compute"] = compute
        try:
            return StructuredQuery.model_validate(data)
        except (ValidationError, UnknownTermError) as exc:
            self.note(f"the reply did not fit the schema ({str(exc)[:160]})")
            return None
