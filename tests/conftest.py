"""Shared test set-up: every test gets its own data directory and no real LLM can be called."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rsfmd.loader import load_records
from rsfmd.schema import ModelRecord

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    """No test may reach a real LLM: building a real provider raises from here on."""
    from agent.llm import forbid_model_requests

    forbid_model_requests()


@pytest.fixture(autouse=True)
def _colab_check_once() -> None:
    """Tests that build Blocks themselves get what the app gets: gradio's Colab check, asked once
    from the main thread, not raced from server threads (only once gradio is loaded)."""
    if "gradio.utils" in sys.modules:
        from ui.app import answer_colab_check_once

        answer_colab_check_once()


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Own data dir per test; no REMSA_* settings leak in from the caller's environment."""
    for key in list(os.environ):
        if key.startswith("REMSA_") and key not in {"REMSA_REQUIRE_BROWSER", "REMSA_SCREENSHOT_DIR"}:
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("REMSA_DATA_DIR", str(tmp_path / "remsa-data"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    yield


@pytest.fixture
def fixtures_dir() -> Path:
    """Folder of committed test fixtures."""
    return FIXTURES


# Gradio leaves event loops and sockets for the garbage collector; tests that build the app mark
# themselves with GRADIO_LOOP_LEAKS and collect them at the end of their module.
GRADIO_LOOP_LEAKS = [
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in. <function BaseEventLoop.__del__:pytest.PytestUnraisableExceptionWarning"
    ),
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in. <socket.socket:pytest.PytestUnraisableExceptionWarning"
    ),
    pytest.mark.usefixtures("collect_gradio_loops"),
]


@pytest.fixture(scope="module")
def collect_gradio_loops() -> Iterator[None]:
    """Collect Gradio's orphaned event loops here, so their warnings do not land on other modules."""
    yield
    gc.collect()


@pytest.fixture(scope="module")
def records() -> list[ModelRecord]:
    """The shipped RS-FMD."""
    return load_records(None)
