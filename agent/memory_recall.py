"""The user's task memory read at the start of a request: what similar earlier tasks offer is
offered, and only what the user accepted is applied to the query."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent import memory_offers as offers
from agent.memory import MemoryUnavailableError
from agent.resources import Resources
from agent.settings import Settings

if TYPE_CHECKING:
    from agent.turn import Turn


def recall(turn: Turn, memory: Any, resources: Resources, settings: Settings) -> str | None:
    """Offer what the user's earlier tasks suggest; apply only what the user accepted. Returns the
    trace detail, or None when the memory is unavailable (the answer's notes say so)."""
    try:
        # More than needed: the same text asked again is set aside, not counted.
        past = memory.similar(
            settings.user_id, turn.text, 3 * settings.memory.top_k, settings.memory.min_similarity
        )
    except MemoryUnavailableError as exc:
        turn.notes.append(f"Task memory unavailable ({exc}); answered without it")
        return None
    past = offers.earlier_tasks(past, turn.text)[: settings.memory.top_k]
    offers.update_offers(turn.memory, turn.query, past)
    turn.query, notes = offers.apply_accepted(turn.memory, turn.query)
    turn.notes.extend(notes)
    turn.memory_deltas = offers.accepted_deltas(turn.memory)
    turn.similar = offers.similar_tasks(past)
    names = {m: resources.by_id[m].model_name for m in turn.memory.ratings if m in resources.by_id}
    turn.suggestions = offers.suggestions(turn.memory, names)
    return f"{len(past)} similar earlier task(s), {len(turn.suggestions)} suggestion(s) offered"
