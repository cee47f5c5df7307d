"""Smoke test of an installed wheel (no extras): ask, list RS-FMD, call select_models.

Run from outside the source tree so that the installed package, not the checkout, is imported:
``python smoke.py /path/to/venv/bin/remsa``.
"""

from __future__ import annotations

import json
import subprocess
import sys


def main(remsa: str) -> int:
    asked = subprocess.run(
        [remsa, "ask", "--json", "--no-clarify", "flood mapping with Sentinel-1 SAR, few labels, CPU laptop"],
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(asked.stdout)
    assert answer["status"] in {"ok", "closest_match"} and len(answer["models"]) == 3, answer["status"]
    stats = subprocess.run([remsa, "db", "stats"], capture_output=True, text=True, check=True).stdout
    assert stats.startswith("records: "), stats[:80]
    from remsa import select_models

    selection = select_models("crop type mapping from Sentinel-2 time series", k=3, clarify=False)
    assert selection.models and all(m.reasons for m in selection.models)
    print(f"ok: {sys.version.split()[0]}; top pick {answer['models'][0]['name']}; {stats.splitlines()[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
