"""LLM calls saved: steps left out by llm.steps, and texts read before; each said in the trace."""

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


def test_a_text_read_before_is_not_sent_again() -> None:
    reply = '{"application": "flood mapping", "modality": ["SAR"]}'
    model = FakeListChatModel(responses=[reply, reply])
    steps = LLMSteps(model, "fake")
    first = steps.interpret("flood mapping with Sentinel-1 SAR")
    again = steps.interpret("flood mapping with Sentinel-1 SAR")
    assert first is not None and again == first
    assert steps.calls == 1
    assert steps.drain()[-1].detail == "this text's reading from an earlier turn reused"


def test_a_reading_that_failed_fails_again_visibly_without_a_call() -> None:
    model = FakeListChatModel(responses=["not json"] * 4)
    steps = LLMSteps(model, "fake")
    assert steps.interpret("flood mapping with Sentinel-1 SAR") is None
    calls = steps.calls
    steps.take_fallbacks()
    assert steps.interpret("flood mapping with Sentinel-1 SAR") is None
    assert steps.calls == calls and steps.take_fallbacks() == ["reading the task"]


def test_a_turn_that_asks_first_is_not_re_ranked_and_its_answer_is() -> None:
    import json

    from agent.api import Session
    from agent.selection import Status
    from agent.settings import Settings
    from tests.fakes import FunctionChat
    from tests.test_llm_steps import _happy

    reading = json.dumps({"application": "crop type mapping", "sensor": ["Sentinel-2"]})
    chat = FunctionChat(lambda prompt: reading if "Convert the user's task" in prompt else _happy(prompt))
    session = Session(Settings(memory={"enabled": False}), k=3, clarify=True, llm=LLMSteps(chat, "fake"))
    asked = session.ask("crop type mapping from Sentinel-2 time series in Kenya")
    assert asked.status == Status.needs_clarification and not asked.models
    assert not any("produce a ranked list" in p for p in chat.prompts)  # nothing ranked is shown yet
    answered = session.answer({q.field: q.options[0] for q in asked.questions if q.options})
    assert answered.status != Status.needs_clarification and answered.models
    assert sum("produce a ranked list" in p for p in chat.prompts) == 1


def test_the_re_rank_never_puts_models_without_public_weights_first() -> None:
    import json

    from rsfmd.loader import load_records
    from tools.candidate import Candidate

    by_id = {r.model_id: r for r in load_records()}
    public = [m for m, r in by_id.items() if r.weights_released is True][:3]
    hidden = next(m for m, r in by_id.items() if r.weights_released is False)
    ranked = [Candidate(record=by_id[m]) for m in [*public, hidden]]
    reply = json.dumps([{"model": by_id[hidden].model_name, "rank": 1, "reason": ["best"]}])
    steps = LLMSteps(FakeListChatModel(responses=[reply]), "fake")
    order = [c.record.model_id for c in steps.rerank(StructuredQuery(), ranked)]
    assert order == [*public, hidden]
    assert any("tiers" in e.detail for e in steps.drain())


def test_what_the_rules_read_comes_first_whatever_the_llm_read_or_ranked() -> None:
    import json

    from rsfmd.loader import load_records
    from tools.candidate import Candidate

    by_id = {r.model_id: r for r in load_records()}
    # The LLM's reading added Location, which let a location encoder in beside the SAR models.
    located = by_id["csp"]
    assert "SAR" not in located.modalities
    imagery = [
        m for m in ("ssl4eo-s12", "croma") if by_id[m].weights_released and "SAR" in by_id[m].modalities
    ]
    assert len(imagery) == 2
    ranked = [Candidate(record=by_id[m]) for m in imagery] + [Candidate(record=located)]
    reply = json.dumps([{"model": located.model_name, "rank": 1, "reason": ["uses location"]}])
    steps = LLMSteps(FakeListChatModel(responses=[reply]), "fake")
    rules = StructuredQuery(modality=["SAR"])
    order = [c.record.model_id for c in steps.rerank(StructuredQuery(), ranked, rules)]
    assert order[-1] == "csp" and order[:-1] == imagery
    # Without the rules' reading, only the other tiers apply (csp's weights are public).
    steps = LLMSteps(FakeListChatModel(responses=[reply]), "fake")
    assert steps.rerank(StructuredQuery(), ranked)[0].record.model_id == "csp"


def test_an_llm_reading_fills_empty_lists_but_does_not_widen_the_rules_inputs() -> None:
    from agent.llm_guard import within_rules

    rules = StructuredQuery(modality=["SAR"], sensor=["Sentinel-1"])
    llm = StructuredQuery(modality=["SAR", "Location", "Multi-temporal"], sensor=["Sentinel-1", "Sentinel-2"])
    kept, dropped = within_rules(llm, rules)
    assert kept is not None and kept.modality == ["SAR", "Multi-temporal"] and kept.sensor == ["Sentinel-1"]
    assert dropped == ["Location", "Sentinel-2"]
    kept, dropped = within_rules(llm, StructuredQuery(application="flood mapping"))
    assert kept == llm and dropped == []  # nothing read by the rules: the LLM's lists stand
    assert within_rules(None, rules) == (None, [])


def test_an_llm_reading_that_adds_an_input_lets_no_model_in_and_says_so() -> None:
    import json

    from agent.api import Session
    from agent.settings import Settings
    from tests.fakes import FunctionChat

    reading = json.dumps({"application": "flood mapping", "modality": ["SAR", "Location"]})
    chat = FunctionChat(lambda prompt: reading if "Convert the user's task" in prompt else "[]")
    session = Session(Settings(memory={"enabled": False}), k=3, clarify=False, llm=LLMSteps(chat, "fake"))
    selection = session.ask("Flood mapping with Sentinel-1 SAR, a few labels, one GPU")
    assert selection.query.modality == ["SAR"]
    from rsfmd.loader import load_records

    by_id = {r.model_id: r for r in load_records()}
    assert any("also named Location" in n for n in selection.assumptions)
    assert selection.models and all("SAR" in by_id[m.model_id].modalities for m in selection.models)


def test_a_constrained_re_rank_can_only_name_each_candidate_once_with_one_short_reason() -> None:
    import json
    from typing import Any

    from langchain_core.messages import AIMessage

    from rsfmd.loader import load_records
    from tools.candidate import Candidate

    records = [r for r in load_records() if r.weights_released][:4]
    seen: list[dict[str, Any]] = []

    class Recording:
        def invoke(self, prompt: Any, **options: Any) -> AIMessage:
            seen.append(options)
            return AIMessage(content=json.dumps([{"model": records[2].model_name, "rank": 1}]))

    steps = LLMSteps(Recording(), "rec", constrained=True)
    order = steps.rerank(StructuredQuery(), [Candidate(record=r) for r in records])
    schema = seen[0]["response_format"]["schema"]
    item = schema["$defs"]["RankItem"]["properties"]
    assert item["model"]["enum"] == [r.model_name for r in records]
    assert item["reason"]["maxItems"] == 1 and schema["maxItems"] == 4
    assert [c.record.model_id for c in order][:2] == [records[2].model_id, records[0].model_id]
