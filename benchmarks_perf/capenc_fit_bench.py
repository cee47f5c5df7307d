"""Time one capabilities-encoding fit on the real matrix: numpy L2 vs torch autograd, per distance.

Run: ``python benchmarks_perf/capenc_fit_bench.py``. Prints matrix size and median wall time.
"""

from __future__ import annotations

import statistics
import time

from rsfmd.loader import load_database
from tools.capenc.fit import DISTANCES, FitConfig, fit_embedding
from tools.capenc.matrix import prepare


def main(repeats: int = 5) -> None:
    """Median fit time per (backend, distance) on the shipped database."""
    matrix, gaps = prepare(load_database(strict=False).records, 5)
    print(
        f"matrix: {len(matrix.model_ids)} models x {len(matrix.columns)} columns, {matrix.n_results} results"
    )
    runs = [("numpy", "l2")] + [("torch", d) for d in DISTANCES]
    for backend, distance in runs:
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            fit_embedding(gaps, FitConfig(dimensions=5, distance=distance), backend=backend)  # type: ignore[arg-type]
            times.append(time.perf_counter() - start)
        print(f"{backend:>5} {distance:<8} median {statistics.median(times) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
