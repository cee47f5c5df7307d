"""The `openai` provider against an OpenAI-compatible server on loopback (scripted, no real LLM).

This exercises the real client path: base URL, key lookup, request/response format, timeouts,
and the visible fallback to the offline engine when the endpoint is unreachable.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

from agent.api import Session
from agent.errors import ConfigurationError
from agent.llm import forbid_model_requests, make_chat_model
from agent.selection import Status
from agent.settings import Settings
from rsfmd.loader import load_records

IDS = {r.model_id for r in load_records()}
INTERPRETED = {
    "application": "flood mapping",
    "modality": ["SAR"],
    "sensor": ["Sentinel-1"],
    "task_type": "segmentation",
}


def _reply(prompt: str) -> str:
    if "Convert the user's task description" in prompt:
        return json.dumps(INTERPRETED)
    if "produce a ranked list" in prompt:
        block = prompt.split("Candidate Models:\n")[-1]
        names = [line.split(". ", 1)[1].split(" | ")[0] for line in block.splitlines() if " | " in line]
        return json.dumps([{"model": n, "rank": i + 1, "reason": ["ok"]} for i, n in enumerate(names)])
    models = json.loads(prompt.split("metadata and evidence are:\n", 1)[1].split("\nYour task:")[0])
    return json.dumps(
        [{"model_name": m["model_name"], "explanation": ["served by the endpoint"]} for m in models]
    )


class _Handler(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Handler.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        prompt = body["messages"][-1]["content"]
        payload = {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": _reply(prompt)},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": len(prompt) // 4,
                "completion_tokens": 20,
                "total_tokens": len(prompt) // 4 + 20,
            },
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Handler.requests = []
    forbid_model_requests(False)  # explicit opt-in: this server is on loopback and scripted
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        forbid_model_requests(True)
        server.shutdown()
        server.server_close()


def _settings(base_url: str, **llm: object) -> Settings:
    return Settings(  # type: ignore[arg-type]
        memory={"enabled": False},
        llm={"provider": "openai", "model": "local-test", "base_url": base_url, "timeout_s": 5, **llm},
    )


def test_openai_compatible_endpoint_drives_the_llm_steps(
    endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    selection = Session(_settings(endpoint), k=3, clarify=False).ask("flood maps from radar")
    assert selection.engine.startswith("openai:local-test@http://127.0.0.1")
    assert len(_Handler.requests) == 3
    assert all(
        r["path"] == "/v1/chat/completions" and r["auth"] == "Bearer sk-test" for r in _Handler.requests
    )
    assert selection.query.sensor == ["Sentinel-1"]  # from the endpoint's reading of the task
    assert all(m.model_id in IDS and "SAR" in m.modalities for m in selection.models)
    assert selection.models[0].reasons == ["served by the endpoint"]


def test_unreachable_endpoint_falls_back_visibly() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens there
    forbid_model_requests(False)
    try:
        selection = Session(_settings(f"http://127.0.0.1:{port}/v1"), k=3, clarify=False).ask(
            "Flood mapping with Sentinel-1 SAR"
        )
    finally:
        forbid_model_requests(True)
    assert selection.status in {Status.ok, Status.closest_match}
    fallbacks = [s.detail for s in selection.trace if s.step == "llm:fallback"]
    assert len(fallbacks) == 3 and all("request failed" in f for f in fallbacks)
    assert "failed at reading the task, re-ranking, explanations" in selection.assumptions[0]
    assert len(selection.models) == 3 and all("SAR" in m.modalities for m in selection.models)


def test_missing_key_names_the_variable() -> None:
    settings = Settings(llm={"provider": "openai", "model": "gpt-4o-mini", "api_key_env": "MY_LLM_KEY"})  # type: ignore[arg-type]
    forbid_model_requests(False)
    try:
        with pytest.raises(ConfigurationError, match="MY_LLM_KEY"):
            make_chat_model(settings)
    finally:
        forbid_model_requests(True)
