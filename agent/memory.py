"""Task memory: each user's finished interactions, kept private, used to personalise later requests.

What the orchestrator does with it (REMSA paper section 4.1, "Task Memory"):

- at the start of a request, ``similar(user, text)`` finds the user's most similar past tasks;
- the pure rules in ``agent.memory_rules`` turn them into assumptions and score adjustments;
- at the end, ``add(interaction)`` stores the outcome and ``record_feedback`` the user's votes.

Privacy: one namespace per user (``collection_name``); no method reads across users. Storage lives in
``agent.memory_store`` (chromadb, embedded or server); this module holds the data model, the pure
store protocol and an in-memory store for tests.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol
from uuid import uuid4

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

if TYPE_CHECKING:
    from agent.settings import Settings
    from tools.embedding import Encoder

Vote = Literal["up", "down"]


class TaskMemoryError(Exception):
    """Base class of task-memory errors."""


class MemoryUnavailableError(TaskMemoryError):
    """The memory store cannot be opened or read; the agent should answer without memory."""

    def __init__(self, location: str, problem: str, fix: str) -> None:
        self.location = location
        self.problem = problem
        self.fix = fix
        super().__init__(f"task memory at {location} is unavailable: {problem}. {fix}")


class InteractionNotFoundError(TaskMemoryError):
    """No stored interaction of this user has the given id."""

    def __init__(self, user_id: str, interaction_id: str) -> None:
        self.user_id = user_id
        self.interaction_id = interaction_id
        super().__init__(f"user {user_id!r} has no stored interaction {interaction_id!r}")


class Feedback(BaseModel):
    """The user's verdict on one recommended model."""

    model_config = ConfigDict(extra="forbid")

    vote: Vote = Field(description="up = good recommendation, down = bad one.")
    comment: str | None = Field(default=None, description="Optional free-text reason.")


def _now() -> datetime:
    return datetime.now(UTC)


def _new_id() -> str:
    return uuid4().hex


class Interaction(BaseModel):
    """One finished request of one user, as stored in task memory."""

    model_config = ConfigDict(extra="forbid")

    user_id: str = Field(min_length=1, description="Whose memory this belongs to.")
    query_text: str = Field(min_length=1, description="The user's task description as typed.")
    structured_query: dict[str, object] = Field(
        default_factory=dict, description="StructuredQuery.model_dump() after clarification."
    )
    questions: list[dict[str, object]] = Field(default_factory=list, description="Clarifications asked.")
    answers: dict[str, str] = Field(default_factory=dict, description="Answers, keyed by question id.")
    recommended: list[str] = Field(default_factory=list, description="Recommended model ids, best first.")
    feedback: dict[str, Feedback] = Field(default_factory=dict, description="Votes, keyed by model id.")
    created_at: datetime = Field(default_factory=_now, description="When the answer was given (UTC).")
    database_version: str = Field(default="unknown", description="RS-FMD version the answer used.")
    interaction_id: str = Field(default_factory=_new_id, min_length=1, description="Unique id.")

    @field_validator("created_at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        # Naive times are taken as UTC so that stored times sort and compare across replicas.
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class PastTask(BaseModel):
    """A stored interaction and its cosine similarity to the current request."""

    model_config = ConfigDict(extra="forbid")

    interaction: Interaction
    similarity: float = Field(description="Cosine similarity of the task texts, in [-1, 1].")


class MemoryAssumption(BaseModel):
    """A constraint filled in from the user's history, stated so the user can override it."""

    model_config = ConfigDict(extra="forbid")

    field: str = Field(description="Query field, dotted for nested ones: one of ASSUMPTION_FIELDS.")
    value: str | list[str] = Field(description="Value to assume.")
    reason: str = Field(description="Why, in words shown to the user.")
    support: int = Field(ge=1, description="Similar past tasks with this value.")
    total: int = Field(ge=1, description="Similar past tasks considered.")


class TaskMemory(Protocol):
    """Per-user store of finished interactions. Every method may raise MemoryUnavailableError."""

    @property
    def location(self) -> str:
        """Where the memories live (folder, server address or process memory)."""
        ...

    def add(self, interaction: Interaction) -> str:
        """Store (or replace) an interaction; returns its id."""
        ...

    def record_feedback(
        self, user_id: str, interaction_id: str, model_id: str, vote: Vote, comment: str | None = None
    ) -> None:
        """Record the user's vote on one model of a stored interaction."""
        ...

    def similar(self, user_id: str, text: str, k: int = 3, min_similarity: float = 0.0) -> list[PastTask]:
        """This user's k most similar past tasks at or above min_similarity, most similar first."""
        ...

    def export(self, user_id: str) -> list[Interaction]:
        """Every stored interaction of this user, oldest first."""
        ...

    def clear(self, user_id: str) -> int:
        """Delete this user's memories; returns how many were deleted."""
        ...

    def count(self, user_id: str) -> int:
        """How many interactions of this user are stored."""
        ...


def collection_name(user_id: str) -> str:
    """The user's private namespace: 'u-' + 32 hex digits of sha256(user id) (valid in chromadb)."""
    if not user_id:
        raise ValueError("user id must not be empty")
    return "u-" + user_sha256(user_id)[:32]


def user_sha256(user_id: str) -> str:
    """Full sha256 hex digest of a user id (stored to detect prefix collisions)."""
    return hashlib.sha256(user_id.encode("utf-8")).hexdigest()


def memory_dir(settings: Settings) -> Path:
    """Folder of the embedded chromadb store."""
    return settings.data_dir / "memory"


def check_feedback_target(interaction: Interaction, model_id: str) -> None:
    """Reject a vote on a model this interaction did not recommend."""
    if model_id not in interaction.recommended:
        shown = ", ".join(interaction.recommended) or "none"
        raise ValueError(
            f"model {model_id!r} was not recommended in interaction {interaction.interaction_id!r} "
            f"(recommended: {shown})"
        )


def with_feedback(interaction: Interaction, model_id: str, vote: Vote, comment: str | None) -> Interaction:
    """A copy of the interaction with the vote on model_id set (a later vote replaces an earlier one)."""
    check_feedback_target(interaction, model_id)
    feedback = {**interaction.feedback, model_id: Feedback(vote=vote, comment=comment)}
    return interaction.model_copy(update={"feedback": feedback})


# ---------------------------------------------------------------------------------------------------
# In-memory store (tests, and the 'in-memory' backend)


def query_embeddings(
    encoder: Encoder, interactions: Sequence[Interaction], embeddings: np.ndarray | None
) -> np.ndarray:
    """Embeddings of the interactions' query texts: the given ones (checked) or freshly encoded."""
    vectors = encoder.encode([i.query_text for i in interactions]) if embeddings is None else embeddings
    vectors = np.asarray(vectors, dtype=np.float32)
    if len(vectors) != len(interactions):
        raise ValueError(f"{len(interactions)} interactions but {len(vectors)} embeddings")
    return vectors


def _normalised(vectors: np.ndarray) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


class InMemoryTaskMemory:
    """Task memory in process memory: same behaviour as the chromadb store, exact cosine search."""

    def __init__(self, encoder: Encoder) -> None:
        self._encoder = encoder
        self._rows: dict[str, dict[str, tuple[Interaction, np.ndarray]]] = {}
        self._lock = threading.Lock()

    @property
    def location(self) -> str:
        """Where the memories live."""
        return "process memory"

    def add(self, interaction: Interaction) -> str:
        """Store (or replace) an interaction; returns its id."""
        return self.add_many([interaction])[0]

    def add_many(
        self, interactions: Sequence[Interaction], embeddings: np.ndarray | None = None
    ) -> list[str]:
        """Store several interactions, optionally with precomputed embeddings of their query texts."""
        if not interactions:
            return []
        vectors = _normalised(query_embeddings(self._encoder, interactions, embeddings))
        with self._lock:
            for interaction, vector in zip(interactions, vectors, strict=True):
                rows = self._rows.setdefault(interaction.user_id, {})
                rows[interaction.interaction_id] = (interaction.model_copy(deep=True), vector)
        return [i.interaction_id for i in interactions]

    def record_feedback(
        self, user_id: str, interaction_id: str, model_id: str, vote: Vote, comment: str | None = None
    ) -> None:
        """Record the user's vote on one model of a stored interaction."""
        with self._lock:
            rows = self._rows.get(user_id, {})
            if interaction_id not in rows:
                raise InteractionNotFoundError(user_id, interaction_id)
            interaction, vector = rows[interaction_id]
            rows[interaction_id] = (with_feedback(interaction, model_id, vote, comment), vector)

    def similar(self, user_id: str, text: str, k: int = 3, min_similarity: float = 0.0) -> list[PastTask]:
        """This user's k most similar past tasks at or above min_similarity, most similar first."""
        with self._lock:
            rows = list(self._rows.get(user_id, {}).values())
        if not rows or k < 1 or not text.strip():
            return []
        query = _normalised(self._encoder.encode([text]))[0]
        scored = [(float(np.dot(vector, query)), interaction) for interaction, vector in rows]
        scored.sort(key=lambda pair: (-pair[0], -pair[1].created_at.timestamp()))
        return [
            PastTask(interaction=interaction.model_copy(deep=True), similarity=score)
            for score, interaction in scored[:k]
            if score >= min_similarity
        ]

    def export(self, user_id: str) -> list[Interaction]:
        """Every stored interaction of this user, oldest first."""
        with self._lock:
            rows = [
                interaction.model_copy(deep=True) for interaction, _ in self._rows.get(user_id, {}).values()
            ]
        return sorted(rows, key=lambda i: i.created_at)

    def clear(self, user_id: str) -> int:
        """Delete this user's memories; returns how many were deleted."""
        with self._lock:
            return len(self._rows.pop(user_id, {}))

    def count(self, user_id: str) -> int:
        """How many interactions of this user are stored."""
        with self._lock:
            return len(self._rows.get(user_id, {}))

    def close(self) -> None:
        """Forget everything (process memory has nothing else to release)."""
        with self._lock:
            self._rows.clear()


# ---------------------------------------------------------------------------------------------------
# Opening the configured store

_OPEN_STORES: dict[tuple[str, str, str], TaskMemory] = {}
_OPEN_LOCK = threading.Lock()


def open_store(settings: Settings, encoder: Encoder | None = None) -> TaskMemory:
    """The configured store, whether or not memory is enabled (the CLI exports and clears with it).

    Stores are opened once per process and location (and encoder), then reused: a request-scoped
    caller gets the same client instead of a new connection each time; the in-memory backend keeps
    its memories for the life of the process. Raises MemoryUnavailableError when the store is
    corrupted, unreadable or unreachable (a failed open is not cached, so a later call retries).
    """
    if encoder is None:
        from tools.embedding import shared_encoder

        encoder = shared_encoder(
            settings.retrieval.embedding_batch_size,
            settings.retrieval.max_tokens,
            settings.retrieval.encoder_backend,
        )
    backend = settings.memory.backend
    if backend == "chroma-server":
        where = f"{settings.memory.host}:{settings.memory.port}"
    elif backend == "chroma":
        where = str(memory_dir(settings).resolve())
    else:
        where = "process"
    key = (backend, where, encoder.name)
    with _OPEN_LOCK:
        store = _OPEN_STORES.get(key)
        if store is None:
            store = _build_store(settings, encoder)
            _OPEN_STORES[key] = store
        return store


def _build_store(settings: Settings, encoder: Encoder) -> TaskMemory:
    backend = settings.memory.backend
    if backend == "in-memory":
        return InMemoryTaskMemory(encoder)

    import importlib.util

    if importlib.util.find_spec("chromadb") is None:
        raise MemoryUnavailableError(
            str(memory_dir(settings)),
            "chromadb is not installed",
            "Install it with pip install 'remsa[memory]', or set REMSA_MEMORY__BACKEND=in-memory "
            "(kept only while the process runs).",
        )
    from agent.memory_store import ChromaTaskMemory

    if backend == "chroma-server":
        return ChromaTaskMemory.server(settings.memory.host, settings.memory.port, encoder)
    return ChromaTaskMemory.persistent(memory_dir(settings), encoder)


def close_stores() -> None:
    """Close every store opened by ``open_store`` (at app shutdown, and between tests)."""
    with _OPEN_LOCK:
        stores = list(_OPEN_STORES.values())
        _OPEN_STORES.clear()
    for store in stores:
        close = getattr(store, "close", None)
        if close is not None:
            close()


def open_memory(settings: Settings, encoder: Encoder | None = None) -> TaskMemory | None:
    """The user's task memory; None when switched off (REMSA_MEMORY__ENABLED=false).

    Raises MemoryUnavailableError when the store is broken; the caller then answers without memory.
    """
    if not settings.memory.enabled:
        return None
    return open_store(settings, encoder)
