"""Retrieval tool: embed RS-FMD records with type-indicator prefixes and search them with FAISS.

High recall by design: it returns every record above a similarity threshold (up to k) and leaves
hard constraints to the filtering tool. Record embeddings are cached on disk, keyed by the
database's content hash and the encoder's name, and the index is built on first use.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agent.query import StructuredQuery
from rsfmd.loader import atomic_write_text
from rsfmd.schema import ModelRecord
from tools.embedding import Encoder


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


@dataclass(frozen=True)
class RetrievedRecord:
    """A record and its cosine similarity to the query."""

    record: ModelRecord
    similarity: float


class RetrievalIndex:
    """FAISS inner-product index over normalised record embeddings (cosine similarity)."""

    def __init__(
        self, records: Sequence[ModelRecord], encoder: Encoder, cache_dir: Path | None, db_hash: str
    ) -> None:
        self._records = list(records)
        self._encoder = encoder
        self._cache_dir = cache_dir
        self._db_hash = db_hash
        self._index: Any = None
        self._lock = threading.Lock()
        self.build_seconds: float | None = None
        self.loaded_from_cache = False

    @property
    def records(self) -> list[ModelRecord]:
        """Records in index order."""
        return self._records

    def _cache_paths(self) -> tuple[Path, Path] | None:
        if self._cache_dir is None:
            return None
        stem = f"{self._db_hash[:16]}-{self._encoder.name.replace('/', '_')}"
        folder = self._cache_dir / "index"
        return folder / f"{stem}.npy", folder / f"{stem}.json"

    def _embeddings(self) -> np.ndarray:
        paths = self._cache_paths()
        ids = [r.model_id for r in self._records]
        if paths and paths[0].exists() and paths[1].exists():
            try:
                cached_ids = json.loads(paths[1].read_text())
                vectors = np.load(paths[0])
                if cached_ids == ids and vectors.shape[0] == len(ids):
                    self.loaded_from_cache = True
                    return np.asarray(vectors, dtype=np.float32)
            except (OSError, ValueError):
                pass  # an unreadable cache is rebuilt below
        vectors = self._encoder.encode([record_text(r) for r in self._records])
        if paths:
            paths[0].parent.mkdir(parents=True, exist_ok=True)
            tmp = paths[0].with_suffix(".tmp.npy")
            np.save(tmp, vectors)
            tmp.replace(paths[0])
            atomic_write_text(paths[1], json.dumps(ids))
        return vectors

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

    def search(self, text: str, k: int, threshold: float) -> list[RetrievedRecord]:
        """Records with cosine similarity >= threshold, best first, at most k."""
        self.ensure_built()
        vector = self._encoder.encode([text])
        count = min(k, len(self._records))
        scores, rows = self._index.search(vector, count)
        return [
            RetrievedRecord(self._records[int(row)], float(score))
            for score, row in zip(scores[0], rows[0], strict=True)
            if row >= 0 and score >= threshold
        ]

    def similarities(self, text: str) -> dict[str, float]:
        """Cosine similarity of ``text`` to every record, by model id."""
        self.ensure_built()
        vector = self._encoder.encode([text])
        scores, rows = self._index.search(vector, len(self._records))
        return {self._records[int(r)].model_id: float(s) for s, r in zip(scores[0], rows[0], strict=True)}
