"""Pure rules of task memory: assumptions from similar past tasks, score changes from votes.

- ``suggest_assumptions`` proposes constraints the user left out but usually has (device, region,
  sensor, data regime) as stated assumptions the user can override; ``apply_to_query`` fills them in;
- ``feedback_adjustments`` raises or lowers models the user rated in similar tasks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from pydantic import ValidationError

from agent.memory import MemoryAssumption, PastTask
from agent.query import StructuredQuery

# One vote at similarity 1.0 moves a model by FEEDBACK_STEP; votes add up to at most FEEDBACK_CAP, so
# feedback can reorder close calls but never outweighs the evidence-based score.
FEEDBACK_STEP = 0.10
FEEDBACK_CAP = 0.15

ASSUMPTION_FIELDS: tuple[str, ...] = (
    "compute.device_class",
    "deployment_device",
    "region",
    "sensor",
    "data_regime",
)
_LIST_FIELDS = ("region", "sensor")
DEVICE_PHRASES = {
    "edge": "an edge device",
    "cpu": "a CPU-only machine",
    "single-gpu": "a single GPU",
    "multi-gpu": "several GPUs",
}


def feedback_adjustments(past: Sequence[PastTask]) -> dict[str, float]:
    """Score delta per model id from the user's votes in similar tasks, in [-FEEDBACK_CAP, FEEDBACK_CAP].

    Each vote contributes FEEDBACK_STEP times the task's similarity (clamped to [0, 1]), positive for
    up and negative for down; votes on the same model add up. Models whose votes cancel are omitted.
    """
    raw: dict[str, float] = {}
    for task in past:
        weight = min(max(task.similarity, 0.0), 1.0)
        for model_id, feedback in task.interaction.feedback.items():
            sign = 1.0 if feedback.vote == "up" else -1.0
            raw[model_id] = raw.get(model_id, 0.0) + sign * FEEDBACK_STEP * weight
    return {
        model_id: max(-FEEDBACK_CAP, min(FEEDBACK_CAP, delta))
        for model_id, delta in raw.items()
        if abs(delta) > 1e-12
    }


def _parse_past_queries(past: Sequence[PastTask]) -> list[StructuredQuery]:
    queries = []
    for task in past:
        try:
            queries.append(StructuredQuery.model_validate(task.interaction.structured_query))
        except ValidationError:
            # Stored under an older query schema: it cannot vouch for a habit, so it does not count.
            continue
    return queries


def _recurring(values: list[str | None], need: int) -> tuple[str, int] | None:
    """The clear majority value if it occurs at least ``need`` times (ties give none)."""
    counts = Counter(v for v in values if v)
    ranked = counts.most_common(2)
    if not ranked or ranked[0][1] < need:
        return None
    if len(ranked) == 2 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0]


def _of_last(support: int, total: int) -> str:
    return f"in {support} of your last {total} similar tasks"


def _device_assumption(history: list[StructuredQuery], need: int) -> list[MemoryAssumption]:
    """The device class the past tasks mostly named, else the device they mostly deployed on."""
    total = len(history)
    device = _recurring([q.compute.device_class for q in history], need)
    if device is not None:
        value, support = device
        reason = f"you used {DEVICE_PHRASES.get(value, value)} {_of_last(support, total)}"
        return [
            MemoryAssumption(
                field="compute.device_class", value=value, reason=reason, support=support, total=total
            )
        ]
    texts = [q.deployment_device.strip() if q.deployment_device else None for q in history]
    by_key = {t.casefold(): t for t in reversed(texts) if t}
    deployed = _recurring([t.casefold() if t else None for t in texts], need)
    if deployed is None:
        return []
    key, support = deployed
    reason = f"you deployed on {by_key[key]!r} {_of_last(support, total)}"
    return [
        MemoryAssumption(
            field="deployment_device", value=by_key[key], reason=reason, support=support, total=total
        )
    ]


def suggest_assumptions(query: StructuredQuery, past: Sequence[PastTask]) -> list[MemoryAssumption]:
    """Constraints the query leaves empty but the user's similar past tasks mostly had.

    A value is proposed only when it recurs in at least half of the similar tasks and in at least two.
    """
    history = _parse_past_queries(past)
    total = len(history)
    need = max(2, math.ceil(total / 2))
    if total < need:
        return []
    out: list[MemoryAssumption] = []

    if query.compute.device_class is None and not query.deployment_device:
        out.extend(_device_assumption(history, need))

    for name in _LIST_FIELDS:
        if getattr(query, name):
            continue
        counts = Counter(v for q in history for v in set(getattr(q, name)))
        common = [(v, c) for v, c in counts.most_common() if c >= need]
        if not common:
            continue
        described = " and ".join(f"{v} ({c} of {total})" for v, c in common)
        out.append(
            MemoryAssumption(
                field=name,
                value=[v for v, _ in common],
                reason=f"you named {described} among your last {total} similar tasks",
                support=common[0][1],
                total=total,
            )
        )

    if query.data_regime is None:
        regime = _recurring([q.data_regime for q in history], need)
        if regime is not None:
            value, support = regime
            out.append(
                MemoryAssumption(
                    field="data_regime",
                    value=value,
                    reason=f"your data regime was {value} {_of_last(support, total)}",
                    support=support,
                    total=total,
                )
            )
    return out


def apply_to_query(query: StructuredQuery, assumptions: Sequence[MemoryAssumption]) -> StructuredQuery:
    """The query with each assumption filled in where the query still leaves the field empty.

    What the user stated always wins: an assumption never overwrites a filled field.
    """
    data = query.model_dump()
    for assumption in assumptions:
        value = assumption.value
        if assumption.field == "compute.device_class":
            if data["compute"]["device_class"] is None and not data["deployment_device"]:
                data["compute"]["device_class"] = value
        elif assumption.field in _LIST_FIELDS:
            if not data[assumption.field]:
                data[assumption.field] = [value] if isinstance(value, str) else list(value)
        elif assumption.field in ("deployment_device", "data_regime"):
            if not data[assumption.field]:
                data[assumption.field] = value
        else:
            expected = ", ".join(ASSUMPTION_FIELDS)
            raise ValueError(f"unknown assumption field {assumption.field!r}; expected one of {expected}")
    return StructuredQuery.model_validate(data)
