"""Task memory inside the agent: feedback moves later rankings; a broken store never blocks an answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.api import Session
from agent.memory import InMemoryTaskMemory
from agent.selection import Status
from agent.settings import Settings
from tools.embedding import shared_encoder

QUERY = "Flood mapping with Sentinel-1 SAR imagery on a single GPU"
SIMILAR = "Flood extent mapping from Sentinel-1 radar on one GPU"


def _settings(tmp_path: Path, **memory: object) -> Settings:
    return Settings(data_dir=tmp_path / "data", memory={"enabled": True, **memory})  # type: ignore[arg-type]


def test_votes_are_offered_and_move_a_similar_later_task_only_once_accepted(tmp_path: Path) -> None:
    memory = InMemoryTaskMemory(shared_encoder())
    settings = _settings(tmp_path)
    first = Session(settings, k=5, clarify=False, memory=memory, user="ana")
    before = first.ask(QUERY)
    top = before.models[0]
    first.feedback(top.model_id, "down", "did not work on our data")
    first.feedback(before.models[1].model_id, "up")

    session = Session(settings, k=5, clarify=False, memory=memory, user="ana")
    offered = session.ask(SIMILAR)
    baseline = Session(settings, k=5, clarify=False).ask(SIMILAR)
    base_scores = {m.model_id: m.score for m in baseline.models}
    # Offered, not applied: the answer is the answer without memory.
    assert {m.model_id: m.score for m in offered.models} == base_scores
    assert [s.id for s in offered.suggestions] == ["ratings"] and not offered.suggestions[0].accepted
    assert offered.similar_tasks and offered.similar_tasks[0].feedback[top.model_id] == "down"
    assert not any("earlier task" in a.lower() for a in offered.assumptions)

    later = session.accept("ratings")
    scores = {m.model_id: m.score for m in later.models}
    assert later.suggestions[0].accepted
    assert scores.get(top.model_id, 0.0) < base_scores[top.model_id]
    up = before.models[1].model_id
    assert scores[up] > base_scores[up]
    assert any("as you accepted" in a for a in later.assumptions)


def test_memory_off_stores_nothing(tmp_path: Path) -> None:
    memory = InMemoryTaskMemory(shared_encoder())
    settings = Settings(data_dir=tmp_path / "data", memory={"enabled": False})  # type: ignore[arg-type]
    Session(settings, k=3, clarify=False, user="ana").ask(QUERY)
    assert not (tmp_path / "data" / "memory").exists()
    assert memory.count("ana") == 0


def test_broken_store_still_answers_and_says_so(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    settings.data_dir.mkdir(parents=True)
    (settings.data_dir / "memory").write_text("this is not a database")
    selection = Session(settings, k=3, clarify=False, user="ana").ask(QUERY)
    assert selection.status in {Status.ok, Status.closest_match}
    assert len(selection.models) == 3
    assert any("memory unavailable" in a.lower() for a in selection.assumptions)


@pytest.mark.slow
def test_answers_persist_in_the_embedded_store(tmp_path: Path) -> None:
    from agent.memory import close_stores, open_memory

    settings = _settings(tmp_path)
    Session(settings, k=3, clarify=False, user="ana").ask(QUERY)
    Session(settings, k=3, clarify=False).ask(QUERY)  # no user: nothing stored
    close_stores()
    store = open_memory(settings)
    assert store is not None and store.count("ana") == 1
    close_stores()
