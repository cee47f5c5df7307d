"""Corrections to rows of the shared benchmark tables that their sources contradict.

An imported table can carry a mislabelled row (a change-detection F1 filed as a segmentation
mIoU, say). ``rsfmd/corrections.csv`` lists each such row by table, model name, upstream column
and value, with the evidence: ``relabel`` gives the row the task, dataset, metric and application
the evidence shows; ``drop`` leaves it out (e.g. when the evidence is already in the record). The
importers apply it so that regenerating the attachment files never brings the error back.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CORRECTIONS_FILE = Path(__file__).with_name("corrections.csv")
ACTIONS = ("relabel", "drop")
TABLES = ("capabilities-encoding",)
"""Tables whose importer applies corrections; a row for any other table would never take effect."""


@dataclass(frozen=True)
class Correction:
    """One upstream row and what to do with it."""

    table: str
    model: str
    column: str
    value: float
    action: str
    task_type: str
    dataset: str
    metric: str
    application: str
    evidence_url: str
    note: str

    def apply(self, fields: dict[str, object]) -> dict[str, object] | None:
        """The corrected benchmark fields, or None when the row is dropped."""
        if self.action == "drop":
            return None
        note = f"{fields.get('source_note') or ''}; corrected: {self.note} ({self.evidence_url})"
        return {
            **fields,
            "task_type": self.task_type,
            "dataset": self.dataset,
            "metrics": [self.metric],
            "application": self.application or None,
            "source_note": note.lstrip("; "),
        }


@lru_cache(maxsize=4)
def load_corrections(path: Path = CORRECTIONS_FILE) -> dict[tuple[str, str, str, float], Correction]:
    """Corrections keyed by (table, model, upstream column, value rounded to 4 places)."""
    out: dict[tuple[str, str, str, float], Correction] = {}
    for line_no, row in enumerate(csv.DictReader(path.read_text(encoding="utf-8").splitlines()), start=2):
        if row["action"] not in ACTIONS:
            raise ValueError(
                f"{path}:{line_no}: action must be one of {', '.join(ACTIONS)}, not {row['action']!r}"
            )
        if row["table"] not in TABLES:
            tables = ", ".join(TABLES)
            raise ValueError(f"{path}:{line_no}: corrections apply to {tables}, not {row['table']!r}")
        if row["action"] == "relabel" and not (row["task_type"] and row["dataset"] and row["metric"]):
            raise ValueError(f"{path}:{line_no}: a relabel needs task_type, dataset and metric")
        if not row["evidence_url"].startswith("https://"):
            raise ValueError(f"{path}:{line_no}: every correction needs an https evidence_url")
        corr = Correction(**{**row, "value": float(row["value"])})  # type: ignore[arg-type]
        out[(corr.table, corr.model, corr.column, round(corr.value, 4))] = corr
    return out


def find_correction(table: str, model: str, column: str, value: float) -> Correction | None:
    """The correction for one upstream row, if any (from ``CORRECTIONS_FILE``)."""
    return load_corrections(CORRECTIONS_FILE).get((table, model, column, round(value, 4)))
