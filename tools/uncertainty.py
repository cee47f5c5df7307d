"""Honest uncertainty: say when RS-FMD holds no model known to do the task, and lower confidence.

A ranking always has a first model; that does not make it a known fit. When none of the models
shown can do the task as asked (without labels when the user has none; with a result on the
application, or built for it), the answer says so, names what the closest models lack, and its
confidence is capped.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.query import StructuredQuery
from rsfmd.datasets import described_for, evaluated_on
from tools.candidate import Candidate

# Confidence of an answer whose models are only the closest to a task nobody is known to do.
NO_KNOWN_FIT_CONFIDENCE = 0.4
USABLE_WITHOUT_LABELS = 0.9  # regime criterion at or above this: usable with no training at all
RELATED_WITHOUT_LABELS = 0.8  # at or above this: a related task done without training (boxes for masks)


def no_known_fit(top: Sequence[Candidate], query: StructuredQuery) -> str | None:
    """Why no model shown is known to do the task as asked, or None when one is."""
    if not top:
        return None
    data = " and ".join(m for m in query.modality if m != "Multi-temporal") or "this data"
    task = query.application or query.task_type or "this task"
    if query.data_regime == "zero-shot":
        regimes = [regime.score for c in top if (regime := c.criteria.get("data_regime"))]
        if not any(score >= USABLE_WITHOUT_LABELS for score in regimes):
            near = any(score >= RELATED_WITHOUT_LABELS for score in regimes)
            lack = "do a related task from text prompts, or need" if near else "need"
            return (
                f"No model in RS-FMD is known to do {task} on {data} without labels: the closest, "
                f"shown here, {lack} at least a trained head on a few labelled examples"
            )
    if query.application and not any(
        evaluated_on(c.record, query.application) or described_for(c.record, query.application) for c in top
    ):
        return (
            f"No model shown is known to do {query.application} (none reports a result on it or was "
            "built for it): these are the closest by task type and data"
        )
    return None
