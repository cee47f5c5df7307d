"""Errors a user or a configuration can cause; each says what to do."""

from __future__ import annotations


class RemsaError(Exception):
    """Base class of the project's errors."""


class InputError(RemsaError, ValueError):
    """The request itself is unusable (empty, too long)."""


class ConfigurationError(RemsaError):
    """Settings name something that cannot work (unknown provider, missing key or file)."""


class LLMError(RemsaError):
    """An LLM step failed (unreachable, timeout, refusal, invalid output); ``raw`` keeps its text."""

    def __init__(self, message: str, raw: str | None = None) -> None:
        super().__init__(message)
        self.raw = raw
