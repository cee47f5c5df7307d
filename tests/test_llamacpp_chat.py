"""The llama.cpp chat adapter with a stand-in client (the real library is an optional extra)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from agent.errors import ConfigurationError
from agent.llamacpp_chat import LlamaCppChat
from agent.llm import forbid_model_requests, make_chat_model
from agent.llm_steps import LLMSteps
from agent.settings import Settings


class StandInLlama:
    """Answers create_chat_completion like llama_cpp.Llama and records what it was sent."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.calls: list[dict[str, Any]] = []

    def create_chat_completion(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(kwargs)
        return {
            "choices": [{"message": {"role": "assistant", "content": self.reply}}],
            "usage": {"prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49},
        }


def test_adapter_maps_messages_and_usage() -> None:
    client = StandInLlama('{"application": "flood mapping", "modality": ["SAR"]}')
    chat = LlamaCppChat(client=client, max_tokens=64, temperature=0.0)
    steps = LLMSteps(chat, "llamacpp:test")
    query = steps.interpret("flood maps from Sentinel-1")
    assert query is not None and query.modality == ["SAR"]
    sent = client.calls[0]
    assert sent["messages"][0]["role"] == "user" and "flood maps" in sent["messages"][0]["content"]
    assert sent["max_tokens"] == 64
    assert steps.prompt_tokens == 42
    assert "response_format" not in sent  # unconstrained unless asked


def test_local_replies_are_decoded_under_the_steps_json_schema() -> None:
    client = StandInLlama('{"application": "flood mapping", "modality": ["SAR"]}')
    steps = LLMSteps(LlamaCppChat(client=client), "llamacpp:test", constrained=True)
    assert steps.interpret("flood maps from Sentinel-1") is not None
    response_format = client.calls[0]["response_format"]
    assert response_format["type"] == "json_object"
    assert set(response_format["schema"]["properties"]) >= {"application", "modality", "sensor"}


def test_missing_gguf_file_is_a_clear_error(tmp_path: Path) -> None:
    settings = Settings(llm={"provider": "llamacpp", "model_path": tmp_path / "none.gguf"})  # type: ignore[arg-type]
    forbid_model_requests(False)
    try:
        with pytest.raises(ConfigurationError, match="GGUF file"):
            make_chat_model(settings)
    finally:
        forbid_model_requests(True)


@pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is not None, reason="llama-cpp-python is installed here"
)
def test_missing_extra_names_the_install(tmp_path: Path) -> None:
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF")
    settings = Settings(llm={"provider": "llamacpp", "model_path": model})  # type: ignore[arg-type]
    forbid_model_requests(False)
    try:
        with pytest.raises(ConfigurationError, match=r"pip install 'remsa\[local-llm\]'"):
            make_chat_model(settings)
    finally:
        forbid_model_requests(True)


def test_the_threads_setting_reaches_both_of_llama_cpps_thread_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys
    import types

    opened: list[dict[str, Any]] = []

    class RecordingLlama:
        def __init__(self, **kwargs: Any) -> None:
            opened.append(kwargs)

    monkeypatch.setitem(sys.modules, "llama_cpp", types.SimpleNamespace(Llama=RecordingLlama))
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF")
    forbid_model_requests(False)
    try:
        for threads in (1, None):
            settings = Settings(llm={"provider": "llamacpp", "model_path": model, "threads": threads})  # type: ignore[arg-type]
            make_chat_model(settings)
    finally:
        forbid_model_requests(True)
    assert [(o["n_threads"], o["n_threads_batch"]) for o in opened] == [(1, 1), (None, None)]
