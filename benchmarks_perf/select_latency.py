"""Latency of offline ``select_models``: cold start and warm p50/p95 per query.

Run: ``.venv/bin/python benchmarks_perf/select_latency.py [--queries N] [--json]``.
Cold start = first request in a fresh process with an empty cache directory (encoder load and
index build included); then again with the cache filled, and with one record's description edited
(only that record is re-encoded); warm = later requests in the same process. Queries are the
committed benchmark queries, answered without clarification.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cold_start(data_dir: str, database: Path | None = None) -> dict[str, float]:
    code = (
        "import time; t0=time.perf_counter();"
        "from agent import select_models; from agent.settings import Settings;"
        "t1=time.perf_counter();"
        "select_models('flood mapping with Sentinel-1', clarify=False,"
        " settings=Settings(memory={'enabled': False}));"
        "t2=time.perf_counter(); print(t1-t0, t2-t1)"
    )
    env = {**os.environ, "REMSA_DATA_DIR": data_dir, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    if database is not None:
        env["REMSA_DATABASE__PATH"] = str(database)
    command = [sys.executable, "-c", code]
    out = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    import_s, first_s = (float(x) for x in out.stdout.split()[-2:])
    total = round(import_s + first_s, 3)
    return {"import_s": round(import_s, 3), "first_request_s": round(first_s, 3), "total_s": total}


def _database_with_one_edit(folder: Path) -> Path:
    """A copy of the shipped RS-FMD whose first record has a changed description."""
    database = folder / "data"
    shutil.copytree(ROOT / "rsfmd" / "data", database)
    models = database / "models.jsonl"
    lines = models.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["short_description"] += " Edited for the latency benchmark."
    lines[0] = json.dumps(first, ensure_ascii=False)
    models.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return database


def main() -> int:
    """Measure and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=75, help="How many benchmark queries to time.")
    parser.add_argument("--json", action="store_true", help="Print JSON.")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as copy:
        cold = _cold_start(empty)
        cached = _cold_start(empty)  # second process: embeddings and fit now cached on disk
        edited = _cold_start(empty, _database_with_one_edit(Path(copy)))

    from agent import select_models
    from agent.settings import Settings

    settings = Settings(memory={"enabled": False})  # type: ignore[arg-type]
    lines = (ROOT / "benchmark_queries" / "queries.jsonl").read_text().splitlines()
    texts = [json.loads(line)["text"] for line in lines if line.strip()][: args.queries]
    select_models(texts[0], clarify=False, settings=settings)  # warm-up
    timings = []
    for text in texts:
        start = time.perf_counter()
        select_models(text, clarify=False, settings=settings)
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    result = {
        "queries": len(timings),
        "warm_p50_ms": round(statistics.median(timings), 1),
        "warm_p95_ms": round(timings[int(0.95 * (len(timings) - 1))], 1),
        "warm_max_ms": round(timings[-1], 1),
        "cold_start_empty_cache": cold,
        "cold_start_cached_index": cached,
        "cold_start_one_record_edited": edited,
    }
    print(json.dumps(result, indent=2) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
