"""What a follow-up changed in a task: one sentence from the structured queries before and after."""

from __future__ import annotations

from collections.abc import Mapping

from agent.query import StructuredQuery
from agent.query_phrases import summary


def _listed(parts: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def task_change(
    before: StructuredQuery, after: StructuredQuery, names: Mapping[str, str] | None = None
) -> str | None:
    """The change between two readings of a task, as the chat says it first: 'Now fewer than 86M
    parameters instead of one GPU (about 1500M parameters)', 'Now also open weights', 'No longer
    region: Kenya'. None when what was understood is the same. ``names``: display names of model ids."""
    old, new = summary(before, names), summary(after, names)
    added = [part for part in new if part not in old]
    dropped = [part for part in old if part not in new]
    if added and dropped:
        return f"Now {_listed(added)} instead of {_listed(dropped)}"
    if added:
        return f"Now also {_listed(added)}"
    if dropped:
        return f"No longer {_listed(dropped)}"
    return None
