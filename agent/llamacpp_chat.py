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
    def from_path(
        cls,
        path: Path,
        *,
        max_tokens: int,
        temperature: float,
        context_tokens: int = 8192,
        threads: int | None = None,
    ) -> LlamaCppChat:
        """Load the GGUF file on CPU; ImportError when the extra is missing.

        The chat template is the one stored in the GGUF file (llama.cpp reads it). ``threads`` sets
        both the prompt's and the reply's threads (None: llama.cpp's defaults).
        """
        from llama_cpp import Llama

        client = Llama(
            model_path=str(path),
            n_ctx=context_tokens,
            verbose=False,
            n_threads=threads,
            n_threads_batch=threads,
        )
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
        options: dict[str, Any] = {}
        if kwargs.get("response_format"):
            options["response_format"] = kwargs["response_format"]  # JSON-schema constrained decoding
        reply = self.client.create_chat_completion(
            messages=payload,
            max_tokens=int(kwargs.get("max_tokens") or self.max_tokens),
            temperature=self.temperature,
            stop=stop,
            **options,
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
