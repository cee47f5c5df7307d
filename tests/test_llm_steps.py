"""LLM steps with fake models: valid output, malformed JSON, invented names, refusals, timeouts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import TypeAdapter

from agent.api import Session
from agent.errors import ConfigurationError
from agent.llm import make_chat_model
from agent.llm_baselines import parse_ranked_names, run_unstructured_rag
from agent.llm_steps import ExplanationItem, LLMQuery, LLMSteps, RankItem
from agent.selection import Status
from agent.settings import Settings
from prompts import PROMPT_VARIABLES, PromptError, load_prompt, render, template_variables
from rsfmd.loader import load_records
from tests.fakes import FunctionChat, ScriptedChat

IDS = {r.model_id for r in load_records()}
QUERY = "Flood mapping with Sentinel-1 SAR, a few labels, one GPU"

GOOD_INTERPRET = json.dumps(
    {
        "application": "flood mapping",
        "modality": ["SAR"],
        "sensor": ["Sentinel-1"],
        "task_type": "segmentation",
        "data_regime": "few-shot",
        "deployment_device": "single-gpu",
    }
)


def _settings() -> Settings:
    return Settings(memory={"enabled": False})  # type: ignore[arg-type]


def _session(chat: object) -> Session:
    return Session(_settings(), k=3, clarify=False, llm=LLMSteps(chat, "fake"))


def _rerank_reply(prompt: str) -> str:
    names = [
        line.split(". ", 1)[1].split(" | ")[0]
        for line in prompt.split("Candidate Models:\n")[-1].splitlines()
        if line[:1].isdigit() and " | " in line
    ]
    ranked = [{"model": "GPT-5 Vision", "rank": 1, "reason": ["invented"]}]
    ranked += [{"model": n, "rank": i + 2, "reason": [f"because {n}"]} for i, n in enumerate(reversed(names))]
    return json.dumps(ranked)


def _explain_reply(prompt: str) -> str:
    models = json.loads(prompt.split("metadata and evidence are:\n", 1)[1].split("\nYour task:")[0])
    return json.dumps(
        [
            {
                "model_name": m["model_name"],
                "explanation": [f"LLM says {m['model_name']} fits"],
                "trade_offs": ["none"],
            }
            for m in models
        ]
    )


def _happy(prompt: str) -> str:
    if "Convert the user's task description" in prompt:
        return GOOD_INTERPRET
    if "produce a ranked list with explanations" in prompt:
        return _rerank_reply(prompt)
    return _explain_reply(prompt)


def test_llm_path_uses_three_calls_and_drops_invented_names() -> None:
    chat = FunctionChat(_happy)
    selection = _session(chat).ask(QUERY)
    assert len(chat.prompts) == 3  # interpret, re-rank, explain
    assert selection.engine == "fake"
    assert not any("failed at" in a for a in selection.assumptions)
    assert selection.query.data_regime == "few-shot"
    assert all(m.model_id in IDS for m in selection.models)
    assert all("SAR" in m.modalities for m in selection.models)  # hard constraints stay with the rules
    assert all(m.reasons[0].startswith("LLM says") for m in selection.models)
    assert any("GPT-5 Vision" in s.detail and "not a candidate" in s.detail for s in selection.trace)


def test_malformed_json_is_reasked_once_then_falls_back_visibly() -> None:
    chat = ScriptedChat(["{not json", "still not json", "[oops", "nope", "{]", "no"])
    selection = _session(chat).ask(QUERY)
    assert len(chat.prompts) == 6  # each step: one call + one re-ask
    assert "could not be used" in chat.prompts[1]
    fallbacks = [s.detail for s in selection.trace if s.step == "llm:fallback"]
    assert len(fallbacks) == 3
    # Said in the answer too, not only in the trace.
    assert selection.assumptions[0] == (
        "The LLM (fake) failed at reading the task, re-ranking, explanations; "
        "the offline engine did those steps instead (details in the trace)"
    )
    assert selection.engine == "fake, offline fallback for reading the task, re-ranking, explanations"
    assert selection.status in {Status.ok, Status.closest_match}
    assert selection.query.application == "flood mapping"  # offline rules answered
    assert all(m.model_id in IDS for m in selection.models)


def test_refusal_falls_back_to_offline() -> None:
    refusal = "I'm sorry, but I can't help with that."
    chat = ScriptedChat([refusal] * 6)
    selection = _session(chat).ask(QUERY)
    assert any(s.step == "llm:fallback" for s in selection.trace)
    assert selection.models and all(m.model_id in IDS for m in selection.models)


def test_timeout_falls_back_without_reask() -> None:
    chat = ScriptedChat([TimeoutError("read timed out")] * 3)
    selection = _session(chat).ask(QUERY)
    details = " ".join(s.detail for s in selection.trace)
    assert "TimeoutError" in details
    assert len(chat.prompts) == 3
    assert len(selection.models) == 3


def test_rerank_naming_only_unknown_models_keeps_offline_order() -> None:
    offline = Session(_settings(), k=3, clarify=False).ask(QUERY)

    def reply(prompt: str) -> str:
        if "Convert the user's task description" in prompt:
            return GOOD_INTERPRET
        if "produce a ranked list" in prompt:
            return json.dumps([{"model": "Imaginary-FM", "rank": 1, "reason": ["x"]}])
        return _explain_reply(prompt)

    selection = _session(FunctionChat(reply)).ask(QUERY)
    assert [m.model_id for m in selection.models] == [m.model_id for m in offline.models]
    assert selection.engine == "fake, offline fallback for re-ranking"
    assert "failed at re-ranking; the offline engine did that step" in selection.assumptions[0]


def test_interpreter_drops_terms_outside_the_vocabulary() -> None:
    reply = json.dumps(
        {"application": "flood mapping", "modality": ["SAR", "telepathy"], "sensor": ["Hubble-9"]}
    )
    steps = LLMSteps(ScriptedChat([reply]), "fake")
    query = steps.interpret(QUERY)
    assert query is not None
    assert query.modality == ["SAR"] and query.sensor == []
    assert any("telepathy" in e.detail for e in steps.drain())


def test_code_fenced_json_is_accepted() -> None:
    steps = LLMSteps(ScriptedChat(["```json\n" + GOOD_INTERPRET + "\n```"]), "fake")
    query = steps.interpret(QUERY)
    assert query is not None and query.sensor == ["Sentinel-1"]


def test_unstructured_rag_parses_names_and_drops_unknown() -> None:
    text = "1. model: Imaginary-FM\nexplanation:\n- x\n2. model: CROMA\nexplanation:\n- y\n3. model: DOFA\n"
    assert parse_ranked_names(text) == ["Imaginary-FM", "CROMA", "DOFA"]
    ids, calls, tokens = run_unstructured_rag(
        _settings(), "flood mapping with Sentinel-1 SAR", 3, ScriptedChat([text])
    )
    assert set(ids) <= IDS and "croma" in ids and calls == 1 and tokens > 0


def test_real_providers_are_forbidden_in_tests() -> None:
    settings = Settings(llm={"provider": "openai", "model": "gpt-4o-mini"})  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="switched off"):
        make_chat_model(settings)


@pytest.mark.parametrize("name", sorted(PROMPT_VARIABLES))
def test_prompt_templates_use_exactly_their_variables(name: str) -> None:
    assert template_variables(load_prompt(name)) == PROMPT_VARIABLES[name]


def test_render_requires_every_variable() -> None:
    with pytest.raises(PromptError, match="needs values"):
        render("rerank", query="{}")


def test_filled_rerank_prompt_snapshot() -> None:
    text = render("rerank", query='{"application": "flood mapping"}', candidates="1. CROMA | modalities: SAR")
    assert text.count("Structured Query:") == 2
    assert (
        'Structured Query:\n{"application": "flood mapping"}\nCandidate Models:\n1. CROMA | modalities: SAR'
        in text
    )
    assert "[Example]" in text and "S2MAE" in text


def test_naive_agent_baseline_runs_tools_and_keeps_only_database_names() -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from agent.llm_baselines import run_naive_agent

    offered: list[object] = []
    seen: list[list[object]] = []

    class ToolCallingFake(GenericFakeChatModel):
        def bind_tools(self, tools: object, **kwargs: object) -> ToolCallingFake:
            offered.append(kwargs.get("tool_choice"))
            return self

        def _generate(self, messages: list[Any], *args: Any, **kwargs: Any) -> Any:
            seen.append(list(messages))
            return super()._generate(messages, *args, **kwargs)

    replies = iter(
        [
            AIMessage(
                content="",
                tool_calls=[
                    {"name": "search_models", "args": {"description": "flood mapping SAR"}, "id": "c1"}
                ],
            ),
            AIMessage(content='["CROMA", "Imaginary-FM", "DOFA"]'),
        ]
    )
    ids, calls, _ = run_naive_agent(
        _settings(), "flood mapping with Sentinel-1", 3, ToolCallingFake(messages=replies)
    )
    assert ids == ["croma", "dofa"]  # the invented name never reaches the user
    assert calls == 2
    # Tools are offered explicitly (llama.cpp's server offers none otherwise), and the earlier
    # tool-call turn is sent with text, not the null content that server rejects.
    assert offered == ["auto", "auto"]
    calling = [m for m in seen[1] if getattr(m, "tool_calls", None)]
    assert [m.content for m in calling] == ["Calling search_models."]


def test_explanations_naming_no_model_fall_back_visibly() -> None:
    def reply(prompt: str) -> str:
        if "Convert the user's task description" in prompt:
            return GOOD_INTERPRET
        if "produce a ranked list" in prompt:
            return _rerank_reply(prompt)
        return "[]"

    selection = _session(FunctionChat(reply)).ask(QUERY)
    assert selection.engine == "fake, offline fallback for explanations"
    assert not any(m.reasons[0].startswith("LLM says") for m in selection.models)


def _arrays_without_items(schema: object) -> list[object]:
    if isinstance(schema, dict):
        found = [schema] if schema.get("type") == "array" and "items" not in schema else []
        return found + [x for v in schema.values() for x in _arrays_without_items(v)]
    if isinstance(schema, list):
        return [x for v in schema for x in _arrays_without_items(v)]
    return []


@pytest.mark.parametrize("reply_type", [LLMQuery, list[RankItem], list[ExplanationItem]])
def test_reply_schemas_can_constrain_local_decoding(reply_type: object) -> None:
    # llama.cpp turns the schema into a grammar; an array without item types breaks the conversion.
    schema = TypeAdapter(reply_type).json_schema()
    assert _arrays_without_items(schema) == []
    grammar = pytest.importorskip("llama_cpp.llama_grammar")
    assert "root" in grammar.json_schema_to_gbnf(json.dumps(schema))


def test_echoed_prompt_examples_and_invented_limits_are_ignored() -> None:
    echo = json.dumps(
        {
            "application": "what the user wants to do, e.g. flood mapping, crop type mapping",
            "modality": ["SAR"],
            "sensor": ["sensor names, e.g. Sentinel-1, Sentinel-2, Landsat-8, EnMAP", "Sentinel-1"],
            "spatial_resolution": "e.g. 10 m, or null",
            "max_parameters_m": 1000,
        }
    )
    steps = LLMSteps(ScriptedChat([echo]), "fake")
    query = steps.interpret("Flood mapping with Sentinel-1 SAR on a CPU laptop")
    assert query is not None
    assert query.application is None and query.spatial_resolution is None
    assert query.sensor == ["Sentinel-1"] and query.modality == ["SAR"]
    assert query.compute.max_parameters_m is None  # no such number in the task (Sentinel-1 is none)
    ignored = [e.detail for e in steps.drain() if e.detail.startswith("ignored")]
    assert len(ignored) == 4
    stated = LLMSteps(ScriptedChat([json.dumps({"max_parameters_m": 100})]), "fake")
    limited = stated.interpret("Flood mapping, models under 100M parameters")
    assert limited is not None and limited.compute.max_parameters_m == 100
    assert limited.compute.limit_said  # the user's number: no closest match bends it
    billion = LLMSteps(ScriptedChat([json.dumps({"max_parameters_m": 1000})]), "fake")
    large = billion.interpret("Flood mapping with Sentinel-1, anything below 1B parameters")
    assert large is not None and large.compute.max_parameters_m == 1000


def test_a_reading_that_only_echoes_the_prompt_falls_back() -> None:
    echo = json.dumps({"application": "what the user wants to do, e.g. flood mapping, crop type mapping"})
    steps = LLMSteps(ScriptedChat([echo]), "fake")
    assert steps.interpret("Flood mapping with Sentinel-1") is None
    assert steps.take_fallbacks() == ["reading the task"]


def test_yes_no_constraints_the_task_never_asks_for_are_ignored() -> None:
    invented = json.dumps(
        {
            "application": "burn scar mapping",
            "commercial_use": True,
            "open_weights": True,
            "precomputed_embeddings": True,
            "frozen_encoder": True,
            "conversational": True,
            "any_bands": True,
            "architectures": ["CNN"],
        }
    )
    steps = LLMSteps(ScriptedChat([invented]), "fake")
    query = steps.interpret("Burn scar mapping with Sentinel-2")
    assert query is not None and query.application == "burn scar mapping"
    flags = (
        "commercial_use",
        "open_weights",
        "precomputed_embeddings",
        "frozen_encoder",
        "conversational",
        "any_bands",
        "architectures",
    )
    assert not any(getattr(query, f) for f in flags)
    ignored = [e.detail for e in steps.drain() if e.detail.startswith("ignored")]
    assert len(ignored) == 7
    assert sum("nothing in the task asks for it" in i for i in ignored) == 6
    assert any("the task names no backbone family" in i for i in ignored)
    # Said in the task, they are read; a family outside the three is dropped.
    said_bands = LLMSteps(
        ScriptedChat([json.dumps({**json.loads(invented), "architectures": ["CNN", "LSTM"]})]), "fake"
    )
    read = said_bands.interpret("Burn scar mapping with a custom 7-band sensor, CNN backbones only")
    assert read is not None and read.any_bands and read.architectures == ["CNN"]
    asked = LLMSteps(ScriptedChat([invented]), "fake")
    stated = asked.interpret(
        "Burn scar mapping for our startup's product, open weights and embeddings we can download"
    )
    assert (
        stated is not None and stated.commercial_use and stated.open_weights and stated.precomputed_embeddings
    )
    # A value the task says is kept, even when a prompt example names it too.
    said = LLMSteps(ScriptedChat([json.dumps({"application": "flood mapping"})]), "fake")
    flood = said.interpret("Flood mapping with Sentinel-1")
    assert flood is not None and flood.application == "flood mapping"


def test_release_years_must_be_years_the_task_writes() -> None:
    reply = json.dumps({"application": "flood mapping", "min_release_year": 2025, "max_release_year": 2019})
    steps = LLMSteps(ScriptedChat([reply]), "fake")
    query = steps.interpret("flood mapping with models released after 2024")
    assert query is not None and (query.min_release_year, query.max_release_year) == (2025, None)
    ignored = [e.detail for e in steps.drain() if e.detail.startswith("ignored")]
    assert ignored == ["ignored max_release_year 2019: no such year in the task"]


def test_a_model_kind_is_believed_only_for_a_model_named_and_data_the_user_has() -> None:
    reply = {
        "application": "land cover mapping",
        "modality": ["Hyperspectral"],
        "model_kinds": ["Hyperspectral"],
    }
    asked = LLMSteps(ScriptedChat([json.dumps(reply)]), "fake")
    query = asked.interpret(
        "Land cover from our hyperspectral cubes: which pretrained hyperspectral encoder?"
    )
    assert query is not None and query.model_kinds == ["Hyperspectral"]
    unsaid = LLMSteps(ScriptedChat([json.dumps(reply)]), "fake")
    plain = unsaid.interpret("Land cover mapping from our hyperspectral cubes")
    assert plain is not None and plain.model_kinds == []
    assert any("the task names no model" in e.detail for e in unsaid.drain())
    other = LLMSteps(ScriptedChat([json.dumps({**reply, "model_kinds": ["SAR"]})]), "fake")
    mismatched = other.interpret("Land cover from our hyperspectral cubes: which pretrained SAR encoder?")
    assert mismatched is not None and mismatched.model_kinds == []
