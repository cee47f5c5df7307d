"""Schema-guided extraction: N LLM runs, each validated field by field, aggregated with confidences.

Each run fills prompts/extract.txt with the sources and gets one JSON object back. A reply that is
not a JSON object gets one re-ask quoting the error; a second failure makes that run unusable.
Keys outside the extractable fields (e.g. ``confidence`` or ``verified`` requested by text hidden
in a README) are dropped, and values that fail the schema or a vocabulary are dropped with a
notice; the schema, the scores and the flags are computed here, never taken from the LLM.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.errors import ConfigurationError, LLMError
from agent.settings import Settings
from prompts import render
from rsfmd.extraction.confidence import (
    CONSISTENCY_ONLY,
    field_confidence,
    normalised_logprob,
    reply_logprobs,
    self_consistency,
    token_spans,
    value_logprob,
)
from rsfmd.extraction.draft import REQUIRED_FIELDS, Candidate, Draft, DraftError, FieldScore, ReviewItem
from rsfmd.extraction.draft import validate_field as _validate_field
from rsfmd.extraction.settings import ExtractionSettings
from rsfmd.extraction.snippets import find_snippets, leaf_spans, locate_fields
from rsfmd.extraction.sources import SourceText, truncation_notice
from rsfmd.schema import Category, ModelRecord
from rsfmd.vocab import get_vocabulary

NEEDS_LLM_MESSAGE = (
    "Extraction needs an LLM, and none is configured. Either use an OpenAI-compatible endpoint: "
    "REMSA_LLM__PROVIDER=openai REMSA_LLM__MODEL=<model, e.g. gpt-4o-mini> and the key in "
    "OPENAI_API_KEY (or REMSA_LLM__BASE_URL=<url> for vLLM, Ollama or a llama.cpp server); or a "
    "local GGUF: REMSA_LLM__PROVIDER=llamacpp REMSA_LLM__MODEL_PATH=/path/to/model.gguf "
    "(pip install -e '.[llamacpp]'). Log-probabilities come only from OpenAI-compatible endpoints."
)

# Filled by the extraction; the rest (id, sources, scores, review flags, popularity counts) are not.
NOT_EXTRACTED = frozenset(
    {"model_id", "sources", "confidence", "verified", "notes", "citations", "github_stars"}
)
EXTRACTABLE_FIELDS: tuple[str, ...] = tuple(f for f in ModelRecord.model_fields if f not in NOT_EXTRACTED)


class LLMRequiredError(ConfigurationError):
    """No usable LLM for extraction; the message says how to configure one."""


@dataclass
class RunResult:
    """One usable run: validated values, mean log-probability per field, and what was dropped."""

    values: dict[str, Any] = field(default_factory=dict)
    logprobs: dict[str, float] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    has_logprobs: bool = False


def build_extraction_chat(settings: Settings, extraction: ExtractionSettings) -> Any:
    """The configured chat model, asking OpenAI-compatible endpoints for log-probabilities."""
    if settings.llm.provider == "none":
        raise LLMRequiredError(NEEDS_LLM_MESSAGE)
    from agent.llm import make_chat_model

    try:
        model = make_chat_model(settings)
    except ConfigurationError as exc:
        raise LLMRequiredError(f"{exc}\n{NEEDS_LLM_MESSAGE}") from exc
    if settings.llm.provider == "openai":
        extra: dict[str, Any] = {"logprobs": True}
        if extraction.sampling_temperature is not None:
            extra["temperature"] = extraction.sampling_temperature
        return model.bind(**extra)
    return model


def extraction_prompt(sources: Sequence[SourceText]) -> str:
    """prompts/extract.txt filled with the vocabularies and the delimited source texts."""
    blocks = []
    for index, source in enumerate(sources, start=1):
        # The delimiters must stay ours: a source cannot close its own block.
        body = source.text.replace("<<<", "< < <").replace(">>>", "> > >")
        blocks.append(f"--- source {index}: {source.label} ---\n{body}")
    return render(
        "extract",
        modalities=", ".join(get_vocabulary("modalities").names),
        task_types=", ".join(get_vocabulary("task_types").names),
        sensors=", ".join(get_vocabulary("sensors").names),
        categories=", ".join(c.value for c in Category),
        sources="\n\n".join(blocks),
    )


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def parse_run(reply: str, message: Any, run: int) -> RunResult:
    """Validate one reply field by field; ValueError when it is not a JSON object at all."""
    data, spans = locate_fields(reply)
    tokens = token_spans(reply, reply_logprobs(message))
    result = RunResult(has_logprobs=tokens is not None)
    ignored = sorted(k for k in data if k not in EXTRACTABLE_FIELDS)
    if ignored:
        result.notices.append(f"run {run}: ignored keys outside the schema: {', '.join(ignored)}")
    for name in EXTRACTABLE_FIELDS:
        value = data.get(name)
        if _is_empty(value):
            continue
        try:
            result.values[name] = _validate_field(name, value)
        except DraftError as exc:
            result.notices.append(f"run {run}: dropped invalid {name} {json.dumps(value)[:80]}: {exc}")
            continue
        if tokens is not None:
            lp = value_logprob(tokens, leaf_spans(reply, spans[name][0])[0])
            if lp is not None:
                result.logprobs[name] = lp
    return result


def run_once(chat: Any, prompt: str, run: int) -> RunResult | str:
    """One run with at most one re-ask; the RunResult, or a notice saying why the run failed."""
    current = prompt
    for attempt in (1, 2):
        try:
            message = chat.invoke(current)
        except Exception as exc:  # provider errors come in many types; all become a typed LLMError
            failure = f"{type(exc).__name__}: {exc}"
            raise LLMError(f"extraction run {run}: the LLM request failed ({failure})") from exc
        reply = message.content if isinstance(message.content, str) else json.dumps(message.content)
        try:
            return parse_run(reply, message, run)
        except ValueError as exc:
            if attempt == 2:
                return f"run {run}: unusable after one re-ask ({str(exc)[:160]}); raw reply: {reply[:200]!r}"
            current = render("extract_retry", prompt=prompt, error=str(exc)[:600])
    raise AssertionError("unreachable")


def agreement_key(value: Any) -> str:
    """Values that mean the same compare equal: case, spacing and list order are ignored."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return " ".join(value.casefold().split())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return json.dumps(sorted(" ".join(v.casefold().split()) for v in value))
    return json.dumps(value, sort_keys=True)


def score_field(
    name: str, runs: Sequence[RunResult], sources: Sequence[SourceText], extraction: ExtractionSettings
) -> tuple[Any, FieldScore, ReviewItem | None]:
    """Majority value of one field, its confidence, and a review item when it is flagged."""
    groups: dict[str, list[int]] = {}
    for index, run in enumerate(runs):
        groups.setdefault(agreement_key(run.values.get(name)), []).append(index)
    # Most runs wins; on a tie a stated value beats an absent one, then the earliest run.
    _, members = max(groups.items(), key=lambda kv: (len(kv[1]), kv[0] != "null", -kv[1][0]))
    value = runs[members[0]].values.get(name)
    consistency = self_consistency(len(members), len(runs))
    lps = [runs[i].logprobs[name] for i in members if name in runs[i].logprobs]
    norms = [normalised_logprob(lp, extraction.temperature) for lp in lps]
    norm = round(sum(norms) / len(norms), 4) if norms else None
    confidence, method = field_confidence(
        norm,
        consistency,
        weight_logprob=extraction.weight_logprob,
        weight_consistency=extraction.weight_consistency,
    )
    flagged = confidence < extraction.threshold or (value is None and name in REQUIRED_FIELDS)
    score = FieldScore(
        confidence=confidence,
        consistency=round(consistency, 4),
        normalised_logprob=norm,
        method=method,
        flagged=flagged,
    )
    if not flagged:
        return value, score, None
    candidates = [
        Candidate(
            value=runs[idx[0]].values.get(name),
            runs=len(idx),
            snippets=find_snippets(sources, runs[idx[0]].values.get(name)),
        )
        for _, idx in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[1][0]))
    ]
    if value is None:
        reason = f"left out by {len(members)} of {len(runs)} runs; the others gave a value"
    else:
        reason = f"{len(members)} of {len(runs)} runs agree" + (
            f", normalised log-probability {norm:.2f}" if norm is not None else ", no log-probabilities"
        )
    if confidence < extraction.threshold:
        reason += f"; confidence {confidence:.2f} < {extraction.threshold:.2f}"
    else:
        reason = "required field missing"
    item = ReviewItem(field=name, confidence=confidence, value=value, candidates=candidates, reason=reason)
    return value, score, item


def aggregate(
    runs: Sequence[RunResult],
    sources: Sequence[SourceText],
    source_urls: Sequence[str],
    extraction: ExtractionSettings,
    *,
    runs_requested: int,
    notices: Sequence[str] = (),
) -> Draft:
    """The draft from usable runs: majority values, confidences, flags and the review list."""
    draft = Draft(
        sources=list(source_urls),
        source_labels=[s.label for s in sources],
        runs_requested=runs_requested,
        runs_usable=len(runs),
        notices=[*notices, *(n for run in runs for n in run.notices)],
        settings={
            "weight_logprob": extraction.weight_logprob,
            "weight_consistency": extraction.weight_consistency,
            "temperature": extraction.temperature,
            "threshold": extraction.threshold,
        },
    )
    for name in EXTRACTABLE_FIELDS:
        if all(name not in run.values for run in runs) and name not in REQUIRED_FIELDS:
            continue
        value, score, item = score_field(name, runs, sources, extraction)
        if value is not None:
            draft.record[name] = value
        if value is not None or item is not None:
            draft.fields[name] = score
        if item is not None:
            draft.review.append(item)
    with_logprobs = sum(run.has_logprobs for run in runs)
    if with_logprobs == 0:
        draft.confidence_method = (
            f"{CONSISTENCY_ONLY}: the endpoint returned no log-probabilities, so each confidence is the "
            "fraction of runs agreeing (paper equation 1 without its log-probability term)"
        )
    else:
        draft.confidence_method = (
            f"{extraction.weight_logprob:g} x normalised log-probability "
            f"(2*sigmoid(lp/{extraction.temperature:g})) + {extraction.weight_consistency:g} x "
            f"self-consistency; log-probabilities from {with_logprobs} of {len(runs)} runs"
        )
    return draft


def extract_draft(
    chat: Any,
    sources: Sequence[SourceText],
    source_urls: Sequence[str],
    extraction: ExtractionSettings | None = None,
    *,
    runs: int | None = None,
) -> Draft:
    """Run the extraction ``runs`` times (settings default) over the sources and aggregate a draft."""
    extraction = extraction or ExtractionSettings()
    count = runs if runs is not None else extraction.runs
    if count < 1:
        raise ValueError("runs must be at least 1")
    if not any(s.text.strip() for s in sources):
        raise DraftError("the sources contain no text to extract from")
    prompt = extraction_prompt(sources)
    notices = [n for s in sources if (n := truncation_notice(s))]
    usable: list[RunResult] = []
    for run in range(1, count + 1):
        outcome = run_once(chat, prompt, run)
        if isinstance(outcome, str):
            notices.append(outcome)
        else:
            usable.append(outcome)
    if not usable:
        raise LLMError(
            f"none of the {count} extraction runs returned a JSON object: " + " | ".join(notices[-count:])
        )
    return aggregate(usable, sources, source_urls, extraction, runs_requested=count, notices=notices)
