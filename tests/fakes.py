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

    def invoke(self, prompt: Any) -> AIMessage:
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

    def invoke(self, prompt: Any) -> AIMessage:
        self.prompts.append(str(prompt))
        return AIMessage(content=self.respond(str(prompt)))
