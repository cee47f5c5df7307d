"""A minimal LangChain chat model over llama-cpp-python (a local GGUF file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

_ROLES = {"human": "user", "ai": "assistant", "system": "system"}


class LlamaCppChat(BaseChatModel):
    """Chat completions from a local GGUF model."""

    client: Any = None
    max_tokens: int = 512
    temperature: float = 0.0

    @classmethod
    def from_path(cls, path: Path, *, max_tokens: int, temperature: float) -> LlamaCppChat:
        """Load the GGUF file (CPU, 2048-token context); ImportError when the extra is missing."""
        from llama_cpp import Llama

        client = Llama(model_path=str(path), n_ctx=2048, verbose=False, chat_format="gemma")
        return cls(client=client, max_tokens=max_tokens, temperature=temperature)

    @property
    def _llm_type(self) -> str:
        return "llamacpp"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        payload = [{"role": _ROLES.get(m.type, "user"), "content": str(m.content)} for m in messages]
        reply = self.client.create_chat_completion(
            messages=payload, max_tokens=self.max_tokens, temperature=self.temperature, stop=stop
        )
        text = reply["choices"][0]["message"]["content"] or ""
        usage = reply.get("usage", {})
        message = AIMessage(
            content=text,
            usage_metadata={
                "input_tokens": usage.get("prompt_tokens", 0),
                "output_tokens": usage.get("completion_tokens", 0),
                "total_tokens": usage.get("total_tokens", 0),
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
