"""Start-up times a user feels, each in a fresh process on a fresh data directory.

Run: ``.venv/bin/python benchmarks_perf/startup.py [--repeat N] [--json]``.

- ``import remsa``: the public import alone;
- ``from remsa import select_models``: the import that answering needs;
- cold ``remsa ask``: a whole command-line process, to the printed answer;
- app HTTP 200: from starting ``remsa ui`` until the page answers;
- app first answer: from start until the first request to the app's API returns (needs the app
  extra).

Targets on a 2-core machine: import <= 0.5 s, cold ask <= 2 s, HTTP 200 <= 5 s, first answer <= 3 s
after the page is up.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "REMSA_DATA_DIR": tempfile.mkdtemp(prefix="remsa-startup-"),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
    }


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=_env(), cwd=tempfile.gettempdir(), check=True, capture_output=True)
    return time.perf_counter() - start


def _python(code: str) -> float:
    # The interpreter's own start is not remsa's: measure inside the process.
    out = subprocess.run(
        [sys.executable, "-c", f"import time; t=time.perf_counter(); {code}; print(time.perf_counter()-t)"],
        env=_env(),
        cwd=tempfile.gettempdir(),
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.split()[-1])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _app() -> tuple[float, float]:
    """Seconds from `remsa ui` to HTTP 200, and from then to the first answer of its API."""
    port = _free_port()
    start = time.perf_counter()
    server = subprocess.Popen(
        [str(BIN / "remsa"), "ui", "--port", str(port)],
        env=_env(),
        cwd=tempfile.gettempdir(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/"
        while True:
            try:
                with urllib.request.urlopen(url, timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                if time.perf_counter() - start > 120:
                    raise
                time.sleep(0.05)
        page = time.perf_counter() - start
        from gradio_client import Client

        client = Client(url, verbose=False)
        asked = time.perf_counter()
        client.predict("flood mapping with Sentinel-1, few labels, CPU laptop", 3, api_name="/select")
        return page, time.perf_counter() - asked
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs: dict[str, list[float]] = {
        "import remsa": [_python("import remsa") for _ in range(args.repeat)],
        "from remsa import select_models": [
            _python("from remsa import select_models") for _ in range(args.repeat)
        ],
        "cold remsa ask": [
            _timed([str(BIN / "remsa"), "ask", "--json", "--no-clarify", "flood mapping with Sentinel-1"])
            for _ in range(args.repeat)
        ],
    }
    try:
        app = [_app() for _ in range(args.repeat)]
        runs["app HTTP 200"] = [a[0] for a in app]
        runs["app first answer after the page is up"] = [a[1] for a in app]
    except (ImportError, OSError) as exc:
        print(f"app not measured: {exc}", file=sys.stderr)
    table = {name: round(statistics.median(values), 2) for name, values in runs.items()}
    if args.json:
        print(json.dumps(table, indent=1))
    else:
        for name, seconds in table.items():
            print(f"{name:<42} {seconds:6.2f} s (median of {args.repeat})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
