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
# A precedent whose compute differs from the user's in kind (a laptop, an edge device or a budget
# of at most SMALL_BUDGET_M parameters, against a GPU with none) counts at this share of its
# closeness: what an expert picks for one seldom suits the other (a family's large variants).
OTHER_COMPUTE = 0.5
SMALL_BUDGET_M = 100.0
SMALL_DEVICES = frozenset({"cpu", "edge"})
GPU_DEVICES = frozenset({"single-gpu", "multi-gpu", "cloud", "cluster"})


def small_compute(device: str | None, max_parameters_m: float | None) -> bool | None:
    """Whether a request's compute is small (a CPU, an edge device or a budget of at most
    ``SMALL_BUDGET_M``), large (a GPU or cloud, no such budget), or unknown (None)."""
    if device in SMALL_DEVICES or (max_parameters_m is not None and max_parameters_m <= SMALL_BUDGET_M):
        return True
    return False if device in GPU_DEVICES else None


@dataclass(frozen=True)
class Precedent:
    """One curated request of the develop part, with the models judged good for it."""

    request_id: str
    text: str
    good: tuple[str, ...]
    why: tuple[tuple[str, str], ...]  # per good pick, in order: the fact that makes it good, its source
    small: bool | None = None  # ``small_compute`` of the request's hardware and parameter budget


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
            small = small_compute(row.get("hardware"), (row.get("constraints") or {}).get("max_params_M"))
            out.append(Precedent(row["id"], row["text"], tuple(g["model_id"] for g in picks), why, small))
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
        small: bool | None = None,
    ) -> dict[str, PrecedentFit]:
        """Per model id, its standing among the ``neighbours`` precedents most similar to ``text``
        (leaving out those whose id starts with one of ``exclude``); empty when none is closer than
        ``min_similarity``. ``small``: the user's ``small_compute``; a precedent known to differ
        from it counts at ``OTHER_COMPUTE`` of its closeness."""
        vectors = self.vectors()
        if not len(self.precedents) or not text.strip():
            return {}
        query = np.asarray(self._encoder.encode([text])[0], np.float32)
        query = query / (np.linalg.norm(query) or 1.0)
        sims = vectors @ query
        left_out = tuple(exclude)
        closeness = (sims - min_similarity) / (1.0 - min_similarity)
        for i, precedent in enumerate(self.precedents):
            if precedent.request_id.startswith(left_out) or not precedent.good:
                closeness[i] = 0.0
            elif None not in (small, precedent.small) and small != precedent.small:
                closeness[i] *= OTHER_COMPUTE
        weights: dict[str, float] = {}
        said: dict[str, list[str]] = {}
        closest: dict[str, tuple[str, str, str]] = {}
        total = 0.0
        for i in np.argsort(-closeness, kind="stable")[:neighbours]:
            if closeness[i] <= 0.0:
                break
            precedent = self.precedents[i]
            total += float(closeness[i])
            for model_id, (why, source) in zip(precedent.good, precedent.why, strict=True):
                weights[model_id] = weights.get(model_id, 0.0) + float(closeness[i]) / len(precedent.good)
                said.setdefault(model_id, []).append(precedent.request_id)
                closest.setdefault(model_id, (precedent.text, why, source))
        scale = max(total, FULL_SUPPORT)
        return {
            m: PrecedentFit(min(1.0, w / scale / FULL_SCORE), tuple(said[m]), *closest[m])
            for m, w in weights.items()
        }
