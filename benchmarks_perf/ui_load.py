"""Load test of the app's `select` endpoint: concurrent sessions, no crossed answers, p50/p95 latency.

Usage:
    python benchmarks_perf/ui_load.py                 # starts the app in-process on a free port
    python benchmarks_perf/ui_load.py --url http://127.0.0.1:7860/ --sessions 20

Each session is its own gradio_client Client sending a different query; the script checks that every
answer's ``query_text`` is its own request's text (no answer crosses sessions) and prints latency
percentiles. Exit code 1 when any answer crossed, failed or came back empty.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

TASKS: tuple[str, ...] = (
    "flood mapping",
    "crop type mapping",
    "building segmentation",
    "burn scar mapping",
    "land cover classification",
    "change detection of urban expansion",
    "ship detection",
    "cloud segmentation",
    "road extraction",
    "wildfire monitoring",
    "methane plume detection",
    "tree species classification",
    "sea ice mapping",
    "landslide mapping",
    "solar panel detection",
    "glacier monitoring",
    "crop yield estimation",
    "oil spill detection",
    "wetland mapping",
    "scene classification",
)
DATA: tuple[str, ...] = (
    "with Sentinel-1 SAR",
    "from Sentinel-2 time series",
    "with high-resolution RGB aerial images",
    "with Landsat-8",
)


def queries(n: int) -> list[str]:
    """n different queries (task x data x a session number, so every text is unique)."""
    return [f"{TASKS[i % len(TASKS)]} {DATA[i % len(DATA)]}, session {i}" for i in range(n)]


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, round(pct / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def _one(url: str, query: str, k: int) -> tuple[str, float, dict[str, Any] | None, str | None]:
    from gradio_client import Client

    client = Client(url, verbose=False)
    start = time.perf_counter()
    try:
        result = client.predict(query, k, api_name="/select")
    except Exception as exc:  # a load test reports every failure instead of stopping
        return query, time.perf_counter() - start, None, f"{type(exc).__name__}: {exc}"
    return query, time.perf_counter() - start, result, None


def serve() -> tuple[str, Any]:
    """The app on a free loopback port, in this process, memory off; (its URL, the Blocks)."""
    from agent.settings import Settings
    from ui.app import build_app, launch_app

    os.environ.setdefault("REMSA_MEMORY__ENABLED", "false")
    settings = Settings()
    demo = build_app(settings)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    launch_app(demo, settings, host="127.0.0.1", port=port, share=False, prevent_thread_lock=True)
    return f"http://127.0.0.1:{port}/", demo


def main(argv: list[str] | None = None) -> int:
    """Run the load test; print p50/p95 and any crossed or failed answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="A running app; by default one is started in-process.")
    parser.add_argument("--sessions", type=int, default=20, help="Concurrent sessions (default 20).")
    parser.add_argument("--k", type=int, default=3, help="Models per answer.")
    args = parser.parse_args(argv)
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    demo = None
    url = args.url
    if url is None:
        url, demo = serve()
    try:
        # Warm-up: the first request builds the embedding index; it is not what users wait for later.
        warm = _one(url, "warm-up: flood mapping with Sentinel-1", args.k)
        print(f"warm-up {warm[1]:.2f} s" + (f" FAILED {warm[3]}" if warm[3] else ""))
        texts = queries(args.sessions)
        wall = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.sessions) as pool:
            results = list(pool.map(lambda q: _one(url, q, args.k), texts))
        wall = time.perf_counter() - wall
    finally:
        if demo is not None:
            demo.close()
    latencies = [r[1] for r in results if r[3] is None]
    failed = [(q, err) for q, _, _, err in results if err]
    crossed = [
        (q, res.get("query_text"))
        for q, _, res, err in results
        if res is not None and res.get("query_text") != q
    ]
    empty = [q for q, _, res, _ in results if res is not None and not res.get("models")]
    print(f"sessions {len(results)}, wall {wall:.2f} s")
    if latencies:
        print(
            f"latency p50 {statistics.median(latencies):.2f} s, p95 {percentile(latencies, 95):.2f} s, "
            f"max {max(latencies):.2f} s"
        )
    print(f"crossed answers: {len(crossed)}, failures: {len(failed)}, empty answers: {len(empty)}")
    for q, got in crossed:
        print(f"  CROSSED: asked {q!r}, got {got!r}")
    for q, err in failed:
        print(f"  FAILED: {q!r}: {err}")
    return 1 if crossed or failed or empty else 0


if __name__ == "__main__":
    sys.exit(main())
