"""Shared, lazily built resources: records, evidence index, encoder, retrieval index, predictor,
precedents."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.errors import RemsaError
from agent.mentions import ModelNames
from agent.settings import Settings
from rsfmd.datasets import dataset_family, dataset_identity, evaluated_on
from rsfmd.loader import attachment_files, content_hash, data_files, load_records
from rsfmd.schema import ModelRecord
from tools.embedding import Encoder, shared_encoder
from tools.evidence import EvidenceIndex
from tools.precedent import PrecedentPool, load_precedents
from tools.retrieval import RetrievalIndex


@dataclass
class Resources:
    """Everything a request needs that is expensive to build; built once per database version."""

    records: list[ModelRecord]
    database_version: str
    encoder: Encoder
    retrieval: RetrievalIndex
    evidence: EvidenceIndex
    by_id: dict[str, ModelRecord] = field(default_factory=dict)
    predictor: Any = None
    predictor_error: str | None = None
    _predictor_loaded: bool = False
    _names: ModelNames | None = None
    _precedents: PrecedentPool | None = None
    cache_dir: Path | None = None
    _evaluated: dict[tuple[str | None, tuple[str, ...]], frozenset[str]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def model_names(self) -> ModelNames:
        """The finder of RS-FMD model names in task text (built on first use)."""
        with self._lock:
            if self._names is None:
                self._names = ModelNames(self.records)
            return self._names

    def evaluated_for(self, application: str | None, datasets: Sequence[str] = ()) -> frozenset[str]:
        """Ids of the records with a reported result on ``application`` or on a named dataset."""
        key = (application, tuple(datasets))
        with self._lock:
            found = self._evaluated.get(key)
            if found is None:
                wanted = dataset_family(datasets)
                found = frozenset(
                    r.model_id
                    for r in self.records
                    if evaluated_on(r, application)
                    or (wanted and any(dataset_identity(b.dataset) in wanted for b in r.benchmarks))
                )
                self._evaluated[key] = found
            return found

    def taking_sensors(self, sensors: Sequence[str]) -> frozenset[str]:
        """Ids of the records documented for one of ``sensors`` (canonical sensor names)."""
        wanted = set(sensors)
        return frozenset(r.model_id for r in self.records if wanted & set(r.supported_sensors))

    def precedents(self) -> PrecedentPool:
        """The curated requests judged by experts (built on first use)."""
        with self._lock:
            if self._precedents is None:
                self._precedents = PrecedentPool(load_precedents(), self.encoder, self.cache_dir)
            return self._precedents

    def capabilities(self, settings: Settings) -> Any:
        """The capabilities-encoding predictor, fitted or loaded on first use (None if unavailable)."""
        if not settings.capabilities.enabled:
            return None
        with self._lock:
            if not self._predictor_loaded:
                self._predictor_loaded = True
                try:
                    from tools.capenc import CapabilitiesPredictor

                    self.predictor = CapabilitiesPredictor.load_or_fit(self.records, settings)
                except (ImportError, ValueError, OSError, RuntimeError, RemsaError) as exc:
                    self.predictor_error = f"{type(exc).__name__}: {exc}"
            return self.predictor


_CACHE: dict[tuple[str, str, str], Resources] = {}
_VERSIONS: dict[tuple[tuple[str, int, int], ...], str] = {}
_CACHE_LOCK = threading.Lock()


def database_version(path: Path | None) -> str:
    """Content hash of the database, recomputed only when a file's size or mtime changes."""
    files = [*data_files(path), *attachment_files(path)]
    stamp = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    version = _VERSIONS.get(stamp)
    if version is None:
        version = content_hash(path)
        _VERSIONS[stamp] = version
    return version


def get_resources(settings: Settings, encoder: Encoder | None = None) -> Resources:
    """Resources for the configured database, cached per database version and encoder."""
    path = settings.database.path
    enc = encoder or shared_encoder(
        settings.retrieval.embedding_batch_size,
        settings.retrieval.max_tokens,
        settings.retrieval.encoder_backend,
    )
    with _CACHE_LOCK:
        version = database_version(path)
        key = (str(path), version, f"{enc.name}:{id(enc)}")
        cached = _CACHE.get(key)
        if cached is not None:
            return cached
        records = load_records(path)
        resources = Resources(
            records=records,
            database_version=version,
            encoder=enc,
            retrieval=RetrievalIndex(records, enc, settings.cache_dir()),
            evidence=EvidenceIndex(records),
            by_id={r.model_id: r for r in records},
            cache_dir=settings.cache_dir(),
        )
        _CACHE[key] = resources
        return resources


def clear_resources() -> None:
    """Forget cached resources (tests, database reloads)."""
    with _CACHE_LOCK:
        _CACHE.clear()
