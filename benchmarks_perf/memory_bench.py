"""Task-memory latency and size at scale: write and query times at N stored interactions, bytes on disk.

Run: ``python benchmarks_perf/memory_bench.py [--n 10000] [--out report.json]``.

Bulk loading uses precomputed MiniLM embeddings (one batched encode, timed on its own); single writes
and queries go through the real encoder, as the agent does them. All interactions belong to one user,
the worst case for a per-user collection. Runs offline in a temporary data directory.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

APPLICATIONS = [
    "flood mapping",
    "crop type classification",
    "burned area segmentation",
    "building footprint extraction",
    "land cover mapping",
    "ship detection",
    "glacier change detection",
    "deforestation monitoring",
    "methane plume detection",
    "urban expansion analysis",
]
SENSORS = ["Sentinel-1", "Sentinel-2", "Landsat-8", "PlanetScope", "MODIS", "aerial RGB"]
REGIONS = ["Europe", "Africa", "South Asia", "the Amazon", "the Arctic", "North America"]
DEVICES = [("a laptop CPU", "cpu"), ("one GPU", "single-gpu"), ("a Jetson board", "edge")]
MODELS = ["satmae", "prithvi-eo-2", "croma", "dofa", "ssl4eo-s12-moco", "scalemae", "spectralgpt"]


def _texts(n: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        app = APPLICATIONS[rng.integers(len(APPLICATIONS))]
        sensor = SENSORS[rng.integers(len(SENSORS))]
        region = REGIONS[rng.integers(len(REGIONS))]
        device_text, device = DEVICES[rng.integers(len(DEVICES))]
        labels = int(rng.integers(20, 5000))
        text = f"{app} with {sensor} imagery in {region}, about {labels} labels, running on {device_text}"
        structured = {
            "application": app,
            "modality": ["multispectral"],
            "sensor": [sensor],
            "region": [region],
            "compute": {"device_class": device},
        }
        out.append((text, structured))
    return out


def _interaction(user: str, text: str, structured: dict[str, Any], when: datetime, rng: Any) -> Any:
    from agent.memory import Interaction

    recommended = list(rng.choice(MODELS, size=3, replace=False))
    return Interaction(
        user_id=user,
        query_text=text,
        structured_query=structured,
        questions=[{"id": "q1", "field": "compute", "text": "What hardware will you run it on?"}],
        answers={"q1": "the usual"},
        recommended=recommended,
        feedback={recommended[0]: {"vote": "up", "comment": None}},
        created_at=when,
        database_version="bench",
    )


def _timed(call: Callable[[], object], repeat: int) -> dict[str, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
        "mean_ms": round(statistics.fmean(times), 2),
        "runs": repeat,
    }


def _folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def run(n: int, single_writes: int, queries: int, data_dir: Path, seed: int = 0) -> dict[str, Any]:
    """Load n interactions of one user into the embedded chromadb store and measure it."""
    os.environ["REMSA_DATA_DIR"] = str(data_dir)
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from agent.memory import close_stores, memory_dir, open_store
    from agent.memory_store import ChromaTaskMemory
    from agent.settings import Settings
    from tools.embedding import shared_encoder

    settings = Settings()
    encoder = shared_encoder()
    encoder.encode(["warm up"])
    store = open_store(settings, encoder)
    assert isinstance(store, ChromaTaskMemory)
    rng = np.random.default_rng(seed)
    user = "bench-user"
    start_time = datetime(2024, 1, 1, tzinfo=UTC)
    corpus = _texts(n, seed)
    interactions = [
        _interaction(user, text, structured, start_time + timedelta(minutes=i), rng)
        for i, (text, structured) in enumerate(corpus)
    ]

    started = time.perf_counter()
    vectors = encoder.encode([i.query_text for i in interactions])
    encode_s = time.perf_counter() - started
    started = time.perf_counter()
    store.add_many(interactions, vectors)
    bulk_s = time.perf_counter() - started

    extra = iter(_texts(single_writes, seed + 1))

    def one_write() -> None:
        text, structured = next(extra)
        store.add(_interaction(user, text, structured, datetime.now(UTC), rng))

    single = _timed(one_write, single_writes)

    probes = [text for text, _ in _texts(queries, seed + 2)]
    probe_iter = iter(probes * 2)
    query = _timed(lambda: store.similar(user, next(probe_iter), k=3, min_similarity=0.55), queries)
    embed_only = _timed(lambda: encoder.encode([next(probe_iter)]), queries)

    rated = iter(interactions[: min(20, n)])

    def one_vote() -> None:
        item = next(rated)
        store.record_feedback(user, item.interaction_id, item.recommended[1], "down")

    feedback = _timed(one_vote, min(20, n))
    counted = store.count(user)
    started = time.perf_counter()
    exported = store.export(user)
    export_s = time.perf_counter() - started

    close_stores()
    folder = memory_dir(settings)
    size = _folder_bytes(folder)
    return {
        "stored_interactions": counted,
        "exported_interactions": len(exported),
        "bulk_encode_s": round(encode_s, 2),
        "bulk_insert_precomputed_s": round(bulk_s, 2),
        "bulk_insert_per_item_ms": round(bulk_s / n * 1000, 3),
        "single_write_with_embedding": single,
        "similar_query_with_embedding": query,
        "query_embedding_only": embed_only,
        "record_feedback": feedback,
        "export_all_s": round(export_s, 2),
        "disk_bytes": size,
        "disk_mb": round(size / 1e6, 1),
        "disk_bytes_per_interaction": round(size / max(counted, 1)),
    }


def main() -> None:
    """Command-line entry: print (and optionally write) the measurements as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000, help="Stored interactions.")
    parser.add_argument("--single-writes", type=int, default=50, help="Timed single writes.")
    parser.add_argument("--queries", type=int, default=100, help="Timed similarity queries.")
    parser.add_argument("--out", type=Path, help="Also write the JSON report here.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="remsa-memory-bench-") as folder:
        report = run(args.n, args.single_writes, args.queries, Path(folder))
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
