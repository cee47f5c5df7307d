"""Per-field confidence (REMSA paper, section 3, equation 1).

``confidence = w_logp * NormalizedLogProb + w_cons * SelfConsistency``

NormalizedLogProb maps the mean token log-probability ``lp`` (<= 0) of a field's value to (0, 1]
with a temperature-controlled sigmoid. A plain ``sigmoid(lp / tau)`` tops out at 0.5 for
log-probabilities, so we use ``2 * sigmoid(lp / tau)``: a certain value (lp = 0) scores 1.0,
lp = -0.1 scores 0.90, lp = -0.5 scores 0.54, lp = -1 scores 0.24 (tau = 0.5).
For a list or object value, the field scores as its least certain leaf (each scalar inside it
scored by its own mean), so one doubtful number in a long benchmark list is not averaged away.
SelfConsistency is the fraction of usable runs whose value equals the chosen value.
Where no log-probabilities exist for a field, the confidence is the self-consistency alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LOGPROB_AND_CONSISTENCY = "logprob+consistency"
CONSISTENCY_ONLY = "consistency-only"


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token, its character span in the reply, and its log-probability."""

    start: int
    end: int
    logprob: float


def normalised_logprob(mean_logprob: float, temperature: float) -> float:
    """``2 * sigmoid(lp / tau)`` for ``lp <= 0``; positive values (impossible for a probability) clip to 0."""
    lp = min(0.0, mean_logprob)
    return 2.0 / (1.0 + math.exp(-lp / temperature))


def self_consistency(agreeing: int, total: int) -> float:
    """Fraction of runs that agree on a value (0 when there are no runs)."""
    return agreeing / total if total else 0.0


def field_confidence(
    norm_logprob: float | None, consistency: float, *, weight_logprob: float, weight_consistency: float
) -> tuple[float, str]:
    """Equation 1, or the consistency alone when ``norm_logprob`` is None; returns (score, method)."""
    if norm_logprob is None:
        return round(consistency, 4), CONSISTENCY_ONLY
    score = weight_logprob * norm_logprob + weight_consistency * consistency
    return round(min(1.0, max(0.0, score)), 4), LOGPROB_AND_CONSISTENCY


def token_spans(reply: str, content: Sequence[Mapping[str, Any]] | None) -> list[TokenLogprob] | None:
    """Character spans of OpenAI-style ``logprobs.content`` tokens in ``reply``.

    None when there are no log-probabilities or the tokens do not spell the reply (then they
    cannot be attributed to fields, and the caller falls back to consistency alone).
    """
    if not content:
        return None
    spans: list[TokenLogprob] = []
    position = 0
    for item in content:
        token = item.get("token")
        logprob = item.get("logprob")
        if not isinstance(token, str) or not isinstance(logprob, int | float):
            return None
        spans.append(TokenLogprob(position, position + len(token), float(logprob)))
        position += len(token)
    if "".join(str(item["token"]) for item in content) != reply:
        return None
    return spans


def span_mean_logprob(tokens: Sequence[TokenLogprob], start: int, end: int) -> float | None:
    """Mean log-probability of the tokens overlapping ``[start, end)``; None when none overlap."""
    values = [t.logprob for t in tokens if t.start < end and t.end > start]
    return sum(values) / len(values) if values else None


def value_logprob(tokens: Sequence[TokenLogprob], leaves: Sequence[tuple[int, int]]) -> float | None:
    """Log-probability of a value: the lowest mean over its leaves' tokens (None without tokens)."""
    means = [m for start, end in leaves if (m := span_mean_logprob(tokens, start, end)) is not None]
    return min(means) if means else None


def reply_logprobs(message: Any) -> Sequence[Mapping[str, Any]] | None:
    """``response_metadata['logprobs']['content']`` of a LangChain AIMessage, when present."""
    metadata = getattr(message, "response_metadata", None) or {}
    logprobs = metadata.get("logprobs") if isinstance(metadata, Mapping) else None
    content = logprobs.get("content") if isinstance(logprobs, Mapping) else None
    return content if isinstance(content, list) else None
