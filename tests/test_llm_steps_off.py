"""The llm.steps setting: steps left out run on the offline engine, said in the trace, with no LLM call."""

from __future__ import annotations

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from agent.llm_steps import LLMSteps
from agent.query import StructuredQuery


def test_steps_left_out_make_no_call_and_say_so() -> None:
    model = FakeListChatModel(responses=["not json"])
    steps = LLMSteps(model, "fake", steps=["rerank"])
    assert steps.interpret("flood mapping with Sentinel-1") is None
    assert steps.explain(StructuredQuery(), [], []) == []
    events = steps.drain()
    assert steps.calls == 0
    assert [e.step for e in events] == ["llm:interpret", "llm:explain"]
    assert all("llm.steps" in e.detail for e in events)
    assert steps.take_fallbacks() == []


def test_settings_default_to_every_step(monkeypatch) -> None:
    from agent.settings import Settings

    assert Settings().llm.steps == ["interpret", "rerank", "explain"]
    monkeypatch.setenv("REMSA_LLM__STEPS", '["interpret", "rerank"]')
    assert Settings().llm.steps == ["interpret", "rerank"]
