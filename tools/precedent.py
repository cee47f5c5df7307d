"""Precedent: how experts judged requests like the user's.

The realistic set holds requests written as practitioners write them, each with the models an
expert judged good for it and the source that makes each good. Its develop part is a pool of
precedents: for a new request, the models judged good for the most similar precedents (by sentence
embedding of the request as written) earn this criterion, each precedent by how close it is.
Closeness counts from ``min_similarity`` up; when the close precedents are few or barely close,
their judgement counts in proportion. The held-out part is never in the pool, so it still measures
the ranker as a whole.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmark_queries import realistic_dir, realistic_split
from rsfmd.loader import derived_dir
from tools.embedding import Encoder
from tools.retrieval import cached_vectors, text_key, write_vectors

# The summed closeness of the similar precedents at which their judgement counts in full; below it
# (a few distant precedents) it counts in proportion.
FULL_SUPPORT = 2.0
# A model judged good by this share of the support (good for every close precedent, beside three
# other good picks) scores 1 on the criterion.
FULL_SCORE = 0.25


@dataclass(frozen=True)
class Precedent:
    """One curated request of the develop part, with the models judged good for it."""

    request_id: str
    text: str
    good: tuple[str, ...]
    why: tuple[tuple[str, str], ...]  # per good pick, in order: the fact that makes it good, its source


@dataclass(frozen=True)
class PrecedentFit:
    """A model's standing among the precedents: the criterion's score, and the similar requests
    that judged it good, most similar first."""

    score: float
    requests: tuple[str, ...]
    closest_text: str
    why: str = ""  # what made it good for the closest of them, and where that is read
    source_url: str = ""


def load_precedents() -> list[Precedent]:
    """The develop part of the realistic set (``benchmark_queries/realistic``)."""
    develop = realistic_split("develop")
    out = []
    for line in (realistic_dir() / "requests.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if row["id"] in develop:
            picks = [g for g in row["good"] if g.get("model_id")]
            why = tuple((g.get("why", ""), g.get("source_url", "")) for g in picks)
            out.append(Precedent(row["id"], row["text"], tuple(g["model_id"] for g in picks), why))
    return out


class PrecedentPool:
    """The precedents and their embeddings (shipped in the package, else encoded once and cached)."""

    def __init__(self, precedents: Sequence[Precedent], encoder: Encoder, cache_dir: Path | None) -> None:
        self.precedents = list(precedents)
        self._encoder = encoder
        self._cache_dir = cache_dir
        self._vectors: np.ndarray | None = None
        self._lock = threading.Lock()

    def _file(self) -> str:
        return f"precedents-{self._encoder.name.replace('/', '_')}.npz"

    def shipped_path(self) -> Path:
        """Vectors of the shipped precedents, built by `remsa index --package`."""
        return derived_dir() / self._file()

    def write_shipped(self) -> Path:
        """Replace the shipped vectors with exactly the current precedents'; returns the file."""
        path = self.shipped_path()
        write_vectors(path, [text_key(p.text) for p in self.precedents], self.vectors())
        return path

    def vectors(self) -> np.ndarray:
        """Unit-length embeddings of the precedents, in pool order."""
        with self._lock:
            if self._vectors is None:
                self._vectors = self._embed()
            return self._vectors

    def _embed(self) -> np.ndarray:
        cache = self._cache_dir / "index" / self._file() if self._cache_dir is not None else None
        texts = [p.text for p in self.precedents]
        vectors, _ = cached_vectors(texts, self._encoder, self.shipped_path(), cache)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms > 0, norms, 1.0)

    def support(
        self,
        text: str,
        neighbours: int,
        min_similarity: float,
        exclude: Collection[str] = (),
    ) -> dict[str, PrecedentFit]:
        """Per model id, its standing among the ``neighbours`` precedents most similar to ``text``
        (leaving out those whose id starts with one of ``exclude``); empty when none is closer than
        ``min_similarity``."""
        vectors = self.vectors()
        if not len(self.precedents) or not text.strip():
            return {}
        query = np.asarray(self._encoder.encode([text])[0], np.float32)
        query = query / (np.linalg.norm(query) or 1.0)
        sims = vectors @ query
        left_out = tuple(exclude)
        kept = [i for i in np.argsort(-sims) if not self.precedents[i].request_id.startswith(left_out)]
        weights: dict[str, float] = {}
        said: dict[str, list[str]] = {}
        closest: dict[str, tuple[str, str, str]] = {}
        total = 0.0
        for i in kept[:neighbours]:
            closeness = (float(sims[i]) - min_similarity) / (1.0 - min_similarity)
            precedent = self.precedents[i]
            if closeness <= 0.0 or not precedent.good:
                continue
            total += closeness
            for model_id, (why, source) in zip(precedent.good, precedent.why, strict=True):
                weights[model_id] = weights.get(model_id, 0.0) + closeness / len(precedent.good)
                said.setdefault(model_id, []).append(precedent.request_id)
                closest.setdefault(model_id, (precedent.text, why, source))
        scale = max(total, FULL_SUPPORT)
        return {
            m: PrecedentFit(min(1.0, w / scale / FULL_SCORE), tuple(said[m]), *closest[m])
            for m, w in weights.items()
        }
