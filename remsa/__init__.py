"""remsa: choose the right remote-sensing foundation model for a task.

    from remsa import select_models, Session

    selection = select_models("flood mapping with Sentinel-1, few labels, CPU laptop", k=3)
    for model in selection.models:
        print(model.rank, model.name, model.score, model.reasons[0])

Nothing heavy is imported until a name is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.api import Session, select_models
    from agent.selection import MemorySuggestion, RankedModel, Selection, Status
    from agent.settings import Settings

__all__ = ["MemorySuggestion", "RankedModel", "Selection", "Session", "Settings", "Status", "select_models"]

_WHERE = {
    "select_models": "agent.api",
    "Session": "agent.api",
    "Selection": "agent.selection",
    "RankedModel": "agent.selection",
    "MemorySuggestion": "agent.selection",
    "Status": "agent.selection",
    "Settings": "agent.settings",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'remsa' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
