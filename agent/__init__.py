"""The REMSA agent: ``from agent import select_models, Session``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.api import Session, select_models
    from agent.selection import Selection

__all__ = ["Selection", "Session", "select_models"]


def __getattr__(name: str) -> Any:
    # Imported on first use so that `import agent` stays cheap.
    if name in {"select_models", "Session"}:
        from agent import api

        return getattr(api, name)
    if name == "Selection":
        from agent.selection import Selection

        return Selection
    raise AttributeError(name)
