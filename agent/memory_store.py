"""Task memory in chromadb: an embedded persistent client in the data directory, or a Chroma server.

One collection per user (``collection_name``), cosine space. Embeddings come from the project's own
encoder (computed here and passed in), never from chromadb's default ONNX model, and telemetry is off.
Each record keeps the query text as its document and the whole ``Interaction`` as JSON in metadata.

An embedded store belongs to one process at a time; for several app replicas, run ``chroma run`` and
set ``REMSA_MEMORY__BACKEND=chroma-server`` with host and port.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import ValidationError

from agent.memory import (
    Interaction,
    InteractionNotFoundError,
    MemoryUnavailableError,
    PastTask,
    Vote,
    collection_name,
    query_embeddings,
    user_sha256,
    with_feedback,
)

if TYPE_CHECKING:
    from tools.embedding import Encoder

_EMBEDDING_FUNCTION_NAME = "remsa-encoder"
_SWITCH_OFF = "or switch memory off with REMSA_MEMORY__ENABLED=false"


# Encoders in use in this process, by name, for chromadb's rebuild-from-config (see below).
_ENCODERS: dict[str, Encoder] = {}


class _MissingEncoder:
    """Stands in for an encoder this process does not have; embedding with it is an error."""

    def __init__(self, name: str) -> None:
        self.name = name

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Refuse: vectors must come from the encoder the collection was built with."""
        raise RuntimeError(
            f"encoder {self.name!r} is not loaded in this process; pass it to the memory store"
        )


def _chroma_settings() -> Any:
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=False)


def _store_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean the store itself is broken or gone (not a bug in the caller)."""
    import httpx
    from chromadb.errors import ChromaError

    return (ChromaError, OSError, httpx.HTTPError, ValidationError, json.JSONDecodeError)


def _open_errors() -> tuple[type[BaseException], ...]:
    """Store errors plus chromadb's ValueError for a server it cannot reach or a path it rejects."""
    return (*_store_errors(), ValueError)


@functools.cache
def _embedding_function_class() -> type[Any]:
    """chromadb's embedding-function interface around our encoder (built once, on first use)."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class EncoderEmbeddingFunction(EmbeddingFunction[Documents]):
        """Hands chromadb the project's encoder so it never falls back to its default model."""

        def __init__(self, encoder: Encoder) -> None:
            self._encoder = encoder

        def __call__(self, input: Documents) -> Embeddings:
            return list(self._encoder.encode(list(input)))

        @staticmethod
        def name() -> str:
            return _EMBEDDING_FUNCTION_NAME

        def get_config(self) -> dict[str, Any]:
            return {"encoder": self._encoder.name}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> EncoderEmbeddingFunction:
            # chromadb rebuilds the function from the stored config on some calls even when one is
            # passed; hand back the live encoder of that name, or one that refuses to embed.
            name = str(config.get("encoder"))
            return EncoderEmbeddingFunction(_ENCODERS.get(name) or _MissingEncoder(name))

        def default_space(self) -> Any:
            return "cosine"

        def supported_spaces(self) -> Any:
            return ["cosine"]

        def is_legacy(self) -> bool:
            return False

    return EncoderEmbeddingFunction


class ChromaTaskMemory:
    """Task memory in chromadb; build it with ``persistent`` or ``server``."""

    def __init__(self, client: Any, encoder: Encoder, location: str, fix: str) -> None:
        self._client = client
        self._encoder = encoder
        self._location = location
        self._fix = fix
        self._embedding_function = _embedding_function_class()(encoder)
        _ENCODERS.setdefault(encoder.name, encoder)

    @classmethod
    def persistent(cls, path: Path, encoder: Encoder) -> ChromaTaskMemory:
        """The embedded store in folder ``path`` (created if missing)."""
        fix = (
            f"Move the folder {path} aside (or delete it to start with empty memory) and retry, {_SWITCH_OFF}"
        )
        try:
            import chromadb

            path.mkdir(parents=True, exist_ok=True)
            client = chromadb.PersistentClient(path=str(path), settings=_chroma_settings())
            # Opening is lazy in parts; listing reads the catalogue so a broken file fails here.
            client.list_collections()
        except _open_errors() as exc:
            raise MemoryUnavailableError(str(path), f"{type(exc).__name__}: {exc}", fix) from exc
        return cls(client, encoder, str(path), fix)

    @classmethod
    def server(cls, host: str, port: int, encoder: Encoder) -> ChromaTaskMemory:
        """A Chroma server at host:port (shared by several app replicas)."""
        location = f"chroma server http://{host}:{port}"
        fix = (
            f"Start it (`chroma run --path DIR --host {host} --port {port}`) or fix REMSA_MEMORY__HOST / "
            f"REMSA_MEMORY__PORT, {_SWITCH_OFF}"
        )
        try:
            import chromadb

            client = chromadb.HttpClient(host=host, port=port, settings=_chroma_settings())
            client.heartbeat()
        except _open_errors() as exc:
            raise MemoryUnavailableError(location, f"{type(exc).__name__}: {exc}", fix) from exc
        return cls(client, encoder, location, fix)

    @property
    def location(self) -> str:
        """Folder or server address of the store."""
        return self._location

    def close(self) -> None:
        """Release the client (sqlite handles, HTTP connections); the store is unusable afterwards."""
        # chromadb's HTTP client does not close its connection pool on close(); do it so no sockets
        # are left for the garbage collector to warn about.
        session = getattr(getattr(self._client, "_server", None), "_session", None)
        if session is not None:
            session.close()
        self._client.close()

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        try:
            yield
        except _store_errors() as exc:
            problem = f"{action} failed with {type(exc).__name__}: {exc}"
            raise MemoryUnavailableError(self._location, problem, self._fix) from exc

    def _collection(self, user_id: str, *, create: bool, embeds: bool = True) -> Any | None:
        from chromadb.errors import NotFoundError

        name = collection_name(user_id)
        if create:
            collection = self._client.get_or_create_collection(
                name,
                embedding_function=self._embedding_function,
                configuration={"hnsw": {"space": "cosine"}},
                metadata={"user_sha256": user_sha256(user_id), "encoder": self._encoder.name},
            )
        else:
            try:
                collection = self._client.get_collection(name, embedding_function=self._embedding_function)
            except NotFoundError:
                return None
        metadata = collection.metadata or {}
        if metadata.get("user_sha256") != user_sha256(user_id):
            raise MemoryUnavailableError(
                self._location, f"collection {name} belongs to another user id (hash prefix clash)", self._fix
            )
        # Vectors from another encoder are meaningless to compare; reading payloads is still fine.
        if embeds and metadata.get("encoder") != self._encoder.name:
            raise MemoryUnavailableError(
                self._location,
                f"collection {name} was embedded with {metadata.get('encoder')!r}, "
                f"not {self._encoder.name!r}",
                "Export it, clear it and re-add the interactions with the current encoder, " + _SWITCH_OFF,
            )
        return collection

    def _decode(self, user_id: str, metadata: dict[str, Any]) -> Interaction:
        interaction = Interaction.model_validate_json(metadata["interaction"])
        if interaction.user_id != user_id:
            # Never hand out another user's memory, even from a damaged or tampered store.
            raise MemoryUnavailableError(
                self._location, f"a record in {collection_name(user_id)} belongs to another user", self._fix
            )
        return interaction

    def add(self, interaction: Interaction) -> str:
        """Store (or replace) an interaction; returns its id."""
        return self.add_many([interaction])[0]

    def add_many(
        self, interactions: Sequence[Interaction], embeddings: np.ndarray | None = None
    ) -> list[str]:
        """Store several interactions, optionally with precomputed embeddings of their query texts."""
        if not interactions:
            return []
        vectors = query_embeddings(self._encoder, interactions, embeddings)
        by_user: dict[str, list[int]] = {}
        for index, interaction in enumerate(interactions):
            by_user.setdefault(interaction.user_id, []).append(index)
        with self._guard("writing memories"):
            batch = int(self._client.get_max_batch_size())
            for user_id, indices in by_user.items():
                collection = self._collection(user_id, create=True)
                assert collection is not None  # created when missing
                for start in range(0, len(indices), batch):
                    chunk = indices[start : start + batch]
                    collection.upsert(
                        ids=[interactions[i].interaction_id for i in chunk],
                        embeddings=vectors[chunk],
                        documents=[interactions[i].query_text for i in chunk],
                        metadatas=[_record_metadata(interactions[i]) for i in chunk],
                    )
        return [i.interaction_id for i in interactions]

    def record_feedback(
        self, user_id: str, interaction_id: str, model_id: str, vote: Vote, comment: str | None = None
    ) -> None:
        """Record the user's vote on one model of a stored interaction."""
        with self._guard("recording feedback"):
            collection = self._collection(user_id, create=False, embeds=False)
            found = collection.get(ids=[interaction_id], include=["metadatas"]) if collection else None
            if collection is None or found is None or not found["ids"]:
                raise InteractionNotFoundError(user_id, interaction_id)
            updated = with_feedback(self._decode(user_id, found["metadatas"][0]), model_id, vote, comment)
            collection.update(ids=[interaction_id], metadatas=[_record_metadata(updated)])

    def similar(self, user_id: str, text: str, k: int = 3, min_similarity: float = 0.0) -> list[PastTask]:
        """This user's k most similar past tasks at or above min_similarity, most similar first."""
        if k < 1 or not text.strip():
            return []
        with self._guard("searching memories"):
            collection = self._collection(user_id, create=False)
            stored = collection.count() if collection is not None else 0
            if collection is None or stored == 0:
                return []
            query = np.asarray(self._encoder.encode([text]), dtype=np.float32)
            result = collection.query(
                query_embeddings=query, n_results=min(k, stored), include=["metadatas", "distances"]
            )
            tasks = [
                # Cosine space: distance = 1 - cosine similarity.
                PastTask(interaction=self._decode(user_id, metadata), similarity=1.0 - float(distance))
                for metadata, distance in zip(result["metadatas"][0], result["distances"][0], strict=True)
            ]
        tasks.sort(key=lambda t: (-t.similarity, -t.interaction.created_at.timestamp()))
        return [t for t in tasks if t.similarity >= min_similarity]

    def export(self, user_id: str) -> list[Interaction]:
        """Every stored interaction of this user, oldest first."""
        with self._guard("exporting memories"):
            collection = self._collection(user_id, create=False, embeds=False)
            if collection is None:
                return []
            found = collection.get(include=["metadatas"])
            interactions = [self._decode(user_id, metadata) for metadata in found["metadatas"]]
        return sorted(interactions, key=lambda i: i.created_at)

    def clear(self, user_id: str) -> int:
        """Delete this user's memories; returns how many were deleted."""
        with self._guard("clearing memories"):
            collection = self._collection(user_id, create=False, embeds=False)
            if collection is None:
                return 0
            deleted = int(collection.count())
            self._client.delete_collection(collection_name(user_id))
        return deleted

    def count(self, user_id: str) -> int:
        """How many interactions of this user are stored."""
        with self._guard("counting memories"):
            collection = self._collection(user_id, create=False, embeds=False)
            return int(collection.count()) if collection is not None else 0


def _record_metadata(interaction: Interaction) -> dict[str, str | float]:
    return {
        "user_id": interaction.user_id,
        "created_at": interaction.created_at.isoformat(),
        "created_ts": interaction.created_at.timestamp(),
        "database_version": interaction.database_version,
        "interaction": interaction.model_dump_json(),
    }
