"""Benchmark queries: the 75 template queries, and the realistic set (``realistic/``) with its
seeded split."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Literal


def realistic_dir() -> Path:
    """Folder of the realistic set inside the installed package."""
    return Path(str(resources.files("benchmark_queries") / "realistic"))


def realistic_split(part: Literal["develop", "held_out"]) -> set[str]:
    """The ids of one part of the realistic set's seeded split (``split.json``)."""
    data = json.loads((realistic_dir() / "split.json").read_text(encoding="utf-8"))
    return set(data[part])
