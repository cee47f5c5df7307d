"""Warm latency of ``Session.ask`` for short requests and for realistic long ones.

Run: ``.venv/bin/python benchmarks_perf/reading_latency.py [--repeat N] [--json] [--profile]``.
Short requests are the 75 benchmark queries (``benchmark_queries/queries.jsonl``); long requests
are the realistic requests of 60 words or more (``benchmark_queries/realistic/requests.jsonl``,
text only). Each is asked as a new task of a new session (offline, memory off, no clarification),
after one warm-up pass over all of them; p50/p95 are over every timed ask. ``--profile`` runs the
long requests once more under cProfile and prints where the time goes. On a machine shared with
other work, a multi-threaded BLAS makes the query's encoding several times slower (its threads
wait for cores); ``OPENBLAS_NUM_THREADS=1`` measures the single-thread cost.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LONG_WORDS = 60


def _texts(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["text"] for line in lines if line.strip()]


def requests() -> dict[str, list[str]]:
    """The short and the long requests, by name."""
    realistic = _texts(ROOT / "benchmark_queries" / "realistic" / "requests.jsonl")
    return {
        "short": _texts(ROOT / "benchmark_queries" / "queries.jsonl"),
        "long": [t for t in realistic if len(t.split()) >= LONG_WORDS],
    }


def _ask(text: str) -> float:
    from agent.api import Session
    from agent.settings import Settings

    session = Session(Settings(memory={"enabled": False}), clarify=False)
    start = time.perf_counter()
    session.ask(text)
    return (time.perf_counter() - start) * 1000


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(texts: list[str], repeat: int) -> dict[str, float]:
    """p50/p95/mean in milliseconds over ``repeat`` asks of each text."""
    timings = [_ask(text) for _ in range(repeat) for text in texts]
    return {
        "requests": len(texts),
        "words_median": statistics.median(len(t.split()) for t in texts),
        "p50_ms": round(statistics.median(timings), 1),
        "p95_ms": round(_percentile(timings, 0.95), 1),
        "mean_ms": round(statistics.fmean(timings), 1),
    }


def profile(texts: list[str], top: int = 25) -> str:
    """cProfile of one ask of each text, sorted by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for text in texts:
        _ask(text)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main() -> int:
    """Measure and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="Timed asks of each request.")
    parser.add_argument("--json", action="store_true", help="Print JSON.")
    parser.add_argument("--profile", action="store_true", help="Profile the long requests.")
    args = parser.parse_args()
    sets = requests()
    for texts in sets.values():  # warm-up: encoder, indexes, compiled patterns, caches
        for text in texts:
            _ask(text)
    results = {name: measure(texts, args.repeat) for name, texts in sets.items()}
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"{'requests':<8} {'n':>4} {'words':>6} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
        for name, r in results.items():
            print(
                f"{name:<8} {r['requests']:>4} {r['words_median']:>6} {r['p50_ms']:>8} {r['p95_ms']:>8} "
                f"{r['mean_ms']:>8}"
            )
    if args.profile:
        print(profile(sets["long"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
