"""Shared test set-up: every test gets its own data directory and no real LLM can be called."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

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
