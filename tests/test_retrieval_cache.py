"""The retrieval index's per-record embedding cache: only new or changed records are encoded."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tests.records import make_record
from tools.retrieval import RetrievalIndex, record_text


class CountingEncoder:
    """Deterministic unit vectors from the text's hash; counts every text it encodes."""

    name = "counting/test"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.extend(texts)
        rows = []
        for text in texts:
            seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
            v = np.random.default_rng(seed).normal(size=8)
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), 8)


def _records(*descriptions: str) -> list:
    return [make_record(f"m{i}", short_description=d) for i, d in enumerate(descriptions)]


def test_only_new_or_changed_records_are_encoded(tmp_path: Path) -> None:
    records = _records("SAR flood model.", "Optical land cover model.", "Hyperspectral model.")
    first_encoder = CountingEncoder()
    first = RetrievalIndex(records, first_encoder, tmp_path)
    first.ensure_built()
    assert first.encoded == 3 and not first.loaded_from_cache
    assert (tmp_path / "index" / "records-counting_test.npz").exists()

    again_encoder = CountingEncoder()
    again = RetrievalIndex(records, again_encoder, tmp_path)
    assert np.array_equal(again.vectors(), first.vectors())
    assert again_encoder.seen == [] and again.loaded_from_cache

    # One record edited, one added, order changed: two encodings, vectors still in record order.
    edited = [
        make_record("m9", short_description="Thermal model."),
        records[2],
        make_record("m1", short_description="Optical land cover and crop model."),
        records[0],
    ]
    encoder = CountingEncoder()
    index = RetrievalIndex(edited, encoder, tmp_path)
    vectors = index.vectors()
    assert sorted(encoder.seen) == sorted(record_text(edited[i]) for i in (0, 2))
    assert index.encoded == 2
    assert np.allclose(vectors, CountingEncoder().encode([record_text(r) for r in edited]))
    assert index.search(record_text(edited[2]), k=1, threshold=0.0)[0].record.model_id == "m1"


def test_unreadable_cache_is_rebuilt_and_no_cache_dir_works(tmp_path: Path) -> None:
    records = _records("SAR flood model.", "Optical land cover model.")
    path = tmp_path / "index" / "records-counting_test.npz"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not an npz file")
    encoder = CountingEncoder()
    index = RetrievalIndex(records, encoder, tmp_path)
    assert index.vectors().shape == (2, 8) and index.encoded == 2
    with np.load(path, allow_pickle=False) as data:
        assert data["vectors"].shape == (2, 8)
    uncached = RetrievalIndex(records, CountingEncoder(), None)
    assert uncached.vectors().shape == (2, 8) and uncached.encoded == 2


def test_whole_database_caches_of_earlier_versions_are_removed(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    folder.mkdir()
    stale = [folder / "0123456789abcdef-counting_test.npy", folder / "0123456789abcdef-counting_test.json"]
    for path in stale:
        path.write_bytes(b"old")
    unrelated = folder / "notes.json"
    unrelated.write_text("{}")
    RetrievalIndex(_records("SAR flood model."), CountingEncoder(), tmp_path).ensure_built()
    assert not any(path.exists() for path in stale)
    assert unrelated.exists() and (folder / "records-counting_test.npz").exists()
