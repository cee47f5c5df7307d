"""Task memory proposes, never imposes: with nothing accepted, an answer equals the answer without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.api import Session, select_models
from agent.memory import InMemoryTaskMemory
from agent.selection import Selection, Status
from agent.settings import Settings
from benchmark_queries.generate import load_queries
from tools.embedding import shared_encoder

# Earlier tasks of one user with strong habits (Bangladesh, a CPU, Sentinel-1, few labels), so
# that memory has something to suggest for most benchmark queries.
EARLIER = (
    "Flood mapping in Bangladesh with Sentinel-1 SAR, few labels, CPU laptop",
    "Flood extent mapping for Bangladesh from Sentinel-1, only a few labels, CPU only",
    "Mapping monsoon floods in Bangladesh with Sentinel-1 radar, few labelled scenes, no GPU",
    "Crop type mapping in Bangladesh from Sentinel-1 time series, few labels, CPU only",
    "Land cover mapping of Bangladesh with Sentinel-1, a handful of labels, laptop without GPU",
    "Building segmentation in Dhaka, Bangladesh, Sentinel-1 radar, few labelled tiles, CPU",
    "Change detection of river banks in Bangladesh with Sentinel-1, few labels, on a CPU laptop",
)


def _settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", memory={"enabled": True, "backend": "in-memory"})  # type: ignore[arg-type]


def _prefilled(settings: Settings, user: str) -> InMemoryTaskMemory:
    memory = InMemoryTaskMemory(shared_encoder())
    for text in EARLIER:
        session = Session(settings, k=3, clarify=False, memory=memory, user=user)
        answer = session.ask(text)
        session.feedback(answer.models[0].model_id, "down", "did not work for us")
        session.feedback(answer.models[1].model_id, "up")
    return memory


def _answer(selection: Selection) -> tuple[object, ...]:
    """What a user or a script reads as the answer: status, query, models, scores, assumptions."""
    models = [(m.model_id, m.score, m.confidence, tuple(m.reasons)) for m in selection.models]
    return (selection.status, selection.query, models, selection.assumptions, selection.questions)


@pytest.mark.slow
def test_memory_changes_none_of_the_75_benchmark_answers_until_accepted(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    memory = _prefilled(settings, "ana")
    differ, offered = [], 0
    for query in load_queries():
        with_memory = Session(settings, k=3, clarify=False, memory=memory, user="ana").ask(query.text)
        without = Session(settings, k=3, clarify=False).ask(query.text)
        offered += bool(with_memory.suggestions or with_memory.similar_tasks)
        if _answer(with_memory) != _answer(without):
            differ.append(query.id)
        assert not any(s.accepted for s in with_memory.suggestions)
    assert differ == []
    assert offered >= 20, "memory should have had something to offer for many queries"


def test_accepting_a_suggestion_applies_it_and_says_so(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    memory = _prefilled(settings, "ana")
    session = Session(settings, k=3, clarify=False, memory=memory, user="ana")
    first = session.ask("Flood mapping with radar")
    offered = {s.id: s for s in first.suggestions}
    assert {"region", "sensor", "compute.device_class", "data_regime", "ratings"} <= set(offered)
    assert first.query.region == [] and first.query.compute.device_class is None
    assert "Bangladesh" in offered["region"].label
    assert first == session.last_selection

    accepted = session.accept("region")
    assert accepted.query.region == ["Bangladesh"]
    assert accepted.query.compute.device_class is None  # only what was accepted
    assert [s.id for s in accepted.suggestions if s.accepted] == ["region"]
    assert any("as you accepted" in a and "Bangladesh" in a for a in accepted.assumptions)

    with pytest.raises(Exception, match="offered ones are"):
        session.accept("nonsense")


def test_code_uses_no_memory_without_a_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = _settings(tmp_path)
    memory = _prefilled(settings, "ana")
    anonymous = Session(settings, k=3, clarify=False, memory=memory)
    assert not anonymous.remembers
    answer = anonymous.ask("flood mapping")
    assert answer.suggestions == [] and answer.similar_tasks == []
    assert memory.count("ana") == len(EARLIER)  # nothing stored either

    monkeypatch.setenv("REMSA_USER_ID", "ana")
    configured = Session(Settings())
    assert configured.remembers and configured.settings.user_id == "ana"  # a setting turns it on


def test_two_users_never_see_each_others_tasks(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    memory = _prefilled(settings, "ana")
    other = Session(settings, k=3, clarify=False, memory=memory, user="ben").ask(EARLIER[0])
    assert other.similar_tasks == [] and other.suggestions == []
    assert not any("earlier task" in a.lower() for a in other.assumptions)


def test_the_same_text_is_never_shown_as_an_earlier_task(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    memory = _prefilled(settings, "ana")
    again = Session(settings, k=3, clarify=False, memory=memory, user="ana").ask(EARLIER[0])
    shown = [t.query_text for t in again.similar_tasks]
    assert EARLIER[0] not in shown
    assert shown and all(t.similarity >= settings.memory.min_similarity for t in again.similar_tasks)
    assert not any("earlier task" in a.lower() or "past task" in a.lower() for a in again.assumptions)


@pytest.mark.parametrize("text", ["asdkjh qwpoeiru zxcmvn blorp", "what's a good pizza recipe?"])
def test_text_with_nothing_to_read_is_not_understood(text: str) -> None:
    selection = select_models(text, k=3, clarify=False)
    assert selection.status == Status.not_understood
    assert selection.models == []
    assert "Describe what to map" in selection.assumptions[0]


def test_ask_json_exits_3_when_not_understood(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from agent.cli import main

    assert main(["ask", "--json", "--no-clarify", "asdkjh qwpoeiru zxcmvn blorp"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "not_understood" and out["models"] == []
    assert main(["ask", "--json", "--no-clarify", "flood mapping with Sentinel-1"]) == 0
