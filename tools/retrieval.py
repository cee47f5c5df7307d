"""Retrieval tool: embed RS-FMD records with type-indicator prefixes and search them with FAISS.

High recall by design: it returns every record above a similarity threshold (up to k) and leaves
hard constraints to the filtering tool. Record embeddings are cached on disk per record, keyed by
the content hash of the record's embedded text and by the encoder's name, so a changed or added
record costs one encoding, not a rebuild; the index is built on first use.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agent.query import StructuredQuery
from rsfmd.loader import derived_dir
from rsfmd.schema import ModelRecord
from tools.embedding import Encoder

# Caches of earlier versions: one file pair per database hash ("<16 hex>-<encoder>.npy|.json").
_WHOLE_DATABASE_CACHE = re.compile(r"[0-9a-f]{16}-.+\.(?:npy|json)")


def record_text(record: ModelRecord) -> str:
    """The text embedded for a record: typed fields first (the encoder truncates long inputs)."""
    applications = sorted({b.application for b in record.benchmarks if b.application})
    datasets = sorted({b.dataset for b in record.benchmarks})
    parts = [
        f"[MODEL] {record.model_name}",
        f"[MODALITY] {', '.join(record.modalities)}" if record.modalities else "",
        f"[SENSOR] {', '.join(record.supported_sensors)}" if record.supported_sensors else "",
        f"[TASK] {', '.join(record.all_task_types)}" if record.all_task_types else "",
        f"[APPLICATION] {', '.join(applications[:8])}" if applications else "",
        f"[CATEGORY] {record.category.value}",
        f"[DESCRIPTION] {record.short_description}",
        f"[DATASET] {', '.join(datasets[:10])}" if datasets else "",
        f"[RESOLUTION] {record.spatial_resolution}" if record.spatial_resolution else "",
        f"[PRETRAINING] {record.pretext_training_type}" if record.pretext_training_type else "",
    ]
    return " ".join(p for p in parts if p)


def query_text(query: StructuredQuery, raw: str = "") -> str:
    """The text embedded for a query, with the same prefixes as the records."""
    parts = [
        f"[MODALITY] {', '.join(query.modality)}" if query.modality else "",
        f"[SENSOR] {', '.join(query.sensor)}" if query.sensor else "",
        f"[TASK] {query.task_type}" if query.task_type else "",
        f"[APPLICATION] {query.application}" if query.application else "",
        f"[RESOLUTION] {query.spatial_resolution}" if query.spatial_resolution else "",
        f"[REGION] {', '.join(query.region)}" if query.region else "",
        f"[DESCRIPTION] {raw.strip()[:500]}" if raw.strip() else "",
    ]
    return " ".join(p for p in parts if p) or raw


def text_key(text: str) -> str:
    """The key a record's vector is stored under: a hash of the text it was encoded from."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def read_vectors(path: Path | None) -> dict[str, np.ndarray]:
    """Vectors stored by text hash; empty when absent or unreadable (then they are encoded again)."""
    if path is None or not path.exists():
        return {}
    try:
        with np.load(path, allow_pickle=False) as data:
            keys, vectors = [str(k) for k in data["keys"]], np.asarray(data["vectors"], np.float32)
    except (OSError, ValueError, KeyError):
        return {}
    if vectors.ndim != 2 or len(keys) != vectors.shape[0]:
        return {}
    return dict(zip(keys, vectors, strict=True))


def write_vectors(path: Path, keys: list[str], vectors: np.ndarray) -> None:
    """Keep exactly these vectors; one file, replaced atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp.npz")
    np.savez(tmp, keys=np.array(keys), vectors=vectors)
    tmp.replace(path)


def cached_vectors(
    texts: Sequence[str], encoder: Encoder, shipped: Path, cache: Path | None
) -> tuple[np.ndarray, int]:
    """Embeddings of ``texts`` in order, from the vectors shipped in the package or cached on disk by
    text hash, the rest encoded (the cache then holds exactly these); and how many were encoded."""
    keys = [text_key(t) for t in texts]
    known = {**read_vectors(shipped), **read_vectors(cache)}
    missing = [i for i, key in enumerate(keys) if key not in known]
    if missing or not keys:
        fresh = encoder.encode([texts[i] for i in missing])
        if not keys:
            return np.asarray(fresh, dtype=np.float32), 0  # nothing to embed: an empty (0, dim) matrix
        for i, vector in zip(missing, fresh, strict=True):
            known[keys[i]] = np.asarray(vector, np.float32)
    vectors = np.stack([known[key] for key in keys]).astype(np.float32)
    if cache is not None and (missing or len(known) != len(set(keys))):
        write_vectors(cache, keys, vectors)
    return vectors, len(missing)


@dataclass(frozen=True)
class RetrievedRecord:
    """A record and its cosine similarity to the query."""

    record: ModelRecord
    similarity: float


class RetrievalIndex:
    """FAISS inner-product index over normalised record embeddings (cosine similarity)."""

    def __init__(self, records: Sequence[ModelRecord], encoder: Encoder, cache_dir: Path | None) -> None:
        self._records = list(records)
        self._encoder = encoder
        self._cache_dir = cache_dir
        self._index: Any = None
        self._lock = threading.Lock()
        self.build_seconds: float | None = None
        self.encoded = 0  # records encoded (not found in the cache) by the last build
        self._last: tuple[str, np.ndarray] | None = None  # the last text embedded, and its vector

    @property
    def records(self) -> list[ModelRecord]:
        """Records in index order."""
        return self._records

    @property
    def loaded_from_cache(self) -> bool:
        """The index is built and every record's vector came from the on-disk cache."""
        return self.build_seconds is not None and bool(self._records) and self.encoded == 0

    def _cache_path(self) -> Path | None:
        if self._cache_dir is None:
            return None
        return self._cache_dir / "index" / f"records-{self._encoder.name.replace('/', '_')}.npz"

    def shipped_path(self) -> Path:
        """Vectors of the shipped RS-FMD records, built by `remsa index --package` and kept in the
        package: keyed by each record's text hash, so an edited record is simply encoded again."""
        return derived_dir() / f"records-{self._encoder.name.replace('/', '_')}.npz"

    def write_shipped(self) -> Path:
        """Replace the shipped vectors with exactly the current records'; returns the file."""
        path = self.shipped_path()
        for stale in path.parent.glob("records-*.npz"):
            stale.unlink()
        write_vectors(path, [text_key(record_text(r)) for r in self._records], self.vectors())
        return path

    def _embeddings(self) -> np.ndarray:
        path = self._cache_path()
        texts = [record_text(r) for r in self._records]
        vectors, self.encoded = cached_vectors(texts, self._encoder, self.shipped_path(), path)
        if path is not None:
            self._remove_stale(path.parent)
        return vectors

    @staticmethod
    def _remove_stale(folder: Path) -> None:
        """Delete the whole-database caches earlier versions left (unused since the per-record cache)."""
        if folder.is_dir():
            for old in folder.iterdir():
                if _WHOLE_DATABASE_CACHE.fullmatch(old.name):
                    old.unlink(missing_ok=True)

    def ensure_built(self) -> None:
        """Build the FAISS index once (thread-safe)."""
        import time

        with self._lock:
            if self._index is not None:
                return
            import faiss

            start = time.perf_counter()
            vectors = self._embeddings()
            index = faiss.IndexFlatIP(vectors.shape[1])
            index.add(vectors)
            self._index = index
            self.build_seconds = time.perf_counter() - start

    def vectors(self) -> np.ndarray:
        """The record embeddings in index order (builds the index first)."""
        self.ensure_built()
        return np.asarray(self._index.reconstruct_n(0, self._index.ntotal), dtype=np.float32)

    def search(
        self, text: str, k: int, threshold: float, also: Collection[str] = ()
    ) -> list[RetrievedRecord]:
        """Records with cosine similarity >= threshold, best first, at most k; then the records
        whose ids are in ``also`` that missed them, whatever their similarity, best first."""
        self.ensure_built()
        vector = self._vector(text)
        count = len(self._records) if also else min(k, len(self._records))
        scores, rows = self._index.search(vector, count)
        ranked = [
            RetrievedRecord(self._records[int(row)], float(score))
            for score, row in zip(scores[0], rows[0], strict=True)
            if row >= 0
        ]
        top = [hit for hit in ranked if hit.similarity >= threshold][:k]
        shown = {hit.record.model_id for hit in top}
        return top + [
            hit for hit in ranked if hit.record.model_id in also and hit.record.model_id not in shown
        ]

    def _vector(self, text: str) -> np.ndarray:
        """The text's embedding; the last one is kept, since a search and the similarities to every
        record are asked for the same text."""
        last = self._last  # read once: sessions in other threads may replace it meanwhile
        if last is None or last[0] != text:
            last = (text, self._encoder.encode([text]))
            self._last = last
        return last[1]

    def similarities(self, text: str) -> dict[str, float]:
        """Cosine similarity of ``text`` to every record, by model id."""
        self.ensure_built()
        vector = self._vector(text)
        scores, rows = self._index.search(vector, len(self._records))
        return {self._records[int(r)].model_id: float(s) for s, r in zip(scores[0], rows[0], strict=True)}
