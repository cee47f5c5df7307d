"""Fake LLMs for tests: scripted replies, a function-driven one, and failing ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage


class ScriptedChat:
    """Returns queued replies in order and records every prompt it saw."""

    def __init__(self, replies: list[str | Exception]) -> None:
        self.replies = list(replies)
        self.prompts: list[str] = []

    def invoke(self, prompt: Any, config: Any = None, **kwargs: Any) -> AIMessage:
        self.prompts.append(str(prompt))
        if not self.replies:
            raise AssertionError("ScriptedChat ran out of replies")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return AIMessage(
            content=reply,
            usage_metadata={"input_tokens": len(str(prompt)) // 4, "output_tokens": 10, "total_tokens": 0},
        )


class FunctionChat:
    """Replies with ``respond(prompt)`` and records every prompt."""

    def __init__(self, respond: Callable[[str], str]) -> None:
        self.respond = respond
        self.prompts: list[str] = []

    def invoke(self, prompt: Any, config: Any = None, **kwargs: Any) -> AIMessage:
        self.prompts.append(str(prompt))
        return AIMessage(content=self.respond(str(prompt)))


class LogprobChat:
    """Scripted replies carrying OpenAI-style ``response_metadata['logprobs']['content']``.

    Each reply is ``(text, overrides)``: every token gets ``default_logprob`` except tokens inside
    a substring named in ``overrides`` (substring -> logprob). ``overrides=None`` sends no
    log-probabilities at all, like an endpoint without them. Exceptions are raised when reached.
    """

    def __init__(
        self, replies: list[tuple[str, dict[str, float] | None] | Exception], default_logprob: float = -0.01
    ) -> None:
        self.replies = list(replies)
        self.default_logprob = default_logprob
        self.prompts: list[str] = []

    def _logprobs(self, text: str, overrides: dict[str, float]) -> list[dict[str, Any]]:
        import re

        low: list[tuple[int, int, float]] = []
        for needle, logprob in overrides.items():
            start = text.find(needle)
            if start >= 0:
                low.append((start, start + len(needle), logprob))
        content, position = [], 0
        for token in re.findall(r"\w+|\s+|[^\w\s]", text):
            end = position + len(token)
            value = next((lp for a, b, lp in low if a < end and b > position), self.default_logprob)
            content.append({"token": token, "logprob": value, "top_logprobs": []})
            position = end
        return content

    def invoke(self, prompt: Any, config: Any = None, **kwargs: Any) -> AIMessage:
        self.prompts.append(str(prompt))
        if not self.replies:
            raise AssertionError("LogprobChat ran out of replies")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        text, overrides = reply
        metadata: dict[str, Any] = {}
        if overrides is not None:
            metadata["logprobs"] = {"content": self._logprobs(text, overrides)}
        return AIMessage(content=text, response_metadata=metadata)
