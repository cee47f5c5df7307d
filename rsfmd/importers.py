"""Import the shared benchmark tables into RS-FMD as benchmark attachments.

Three upstream tables become ``Benchmark`` objects attached to existing records through
``rsfmd/data/benchmarks/shared_tables.jsonl``: the capabilities-encoding results matrix, the
GEO-Bench-2 leaderboard (main full fine-tuning submission and frozen-encoder ablation) and the
Cryo-Bench results table. Model names go through ``model_name_crosswalk.csv`` and then to records
by id, name or alias; baselines and models without a record are counted, never written.
"""

from __future__ import annotations

import argparse
import csv
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from rsfmd.attachments import attachment_line, register_import_command, write_attachments
from rsfmd.loader import default_data_dir
from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.shared_tables import capenc_benchmarks, cryobench_benchmarks, geobench2_benchmarks

OUTPUT_NAME = "shared_tables.jsonl"


@dataclass
class ImportReport:
    """What an import produced and what it left out, with reasons."""

    lines: list[str] = field(default_factory=list)
    written: Counter[str] = field(default_factory=Counter)
    baselines: Counter[str] = field(default_factory=Counter)
    no_record: Counter[str] = field(default_factory=Counter)
    not_in_crosswalk: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    output: Path | None = None

    def count_unresolved(self, resolution: Resolution, source: str) -> None:
        """Count a row whose model is a baseline, has no record, or is missing from the crosswalk."""
        target = {"baseline": self.baselines, "no_record": self.no_record}.get(
            resolution.status, self.not_in_crosswalk
        )
        target[f"{resolution.candidate} ({source})"] += 1

    def summary(self) -> str:
        """Several lines for the terminal."""
        out = [
            f"{len(self.lines)} benchmark(s): "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.written.items()))
        ]
        for label, counter in (
            ("skipped baseline rows", self.baselines),
            ("rows whose model has no RS-FMD record yet", self.no_record),
            ("rows with a model missing from the crosswalk", self.not_in_crosswalk),
            ("rows rejected", self.rejected),
        ):
            if counter:
                names = ", ".join(f"{k} ({v})" for k, v in sorted(counter.items()))
                out.append(f"{sum(counter.values())} {label}: {names}")
        if self.output is not None:
            out.append(f"wrote {self.output}")
        return "\n".join(out)


def model_id_for(name: str) -> str:
    """The RS-FMD id rule: lower case, runs outside [a-z0-9.+] become '-'."""
    return re.sub(r"[^a-z0-9.+]+", "-", name.lower()).strip("-")


def _name_key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum() or ch == "+")


CROSSWALK_OVERRIDES = Path(__file__).with_name("crosswalk_overrides.csv")
"""Rows that replace rows of the shared model-name crosswalk (same columns, plus a reason)."""


@dataclass(frozen=True)
class Resolution:
    """Where a source model name leads: a record (with variant) or a reason it does not."""

    status: str  # "ok", "baseline", "no_record", "not_in_crosswalk"
    model_id: str | None = None
    variant: str | None = None
    candidate: str | None = None


class ModelResolver:
    """Source model name -> crosswalk candidate -> RS-FMD record."""

    def __init__(
        self, crosswalk_csv: Path, records: Sequence[ModelRecord], overrides_csv: Path | None = None
    ) -> None:
        self._crosswalk: dict[tuple[str, str], tuple[str, str]] = {}
        # The shared crosswalk first, then RS-FMD's own corrections to it.
        for path in (crosswalk_csv, CROSSWALK_OVERRIDES if overrides_csv is None else overrides_csv):
            with path.open(encoding="utf-8", newline="") as handle:
                for row in csv.DictReader(handle):
                    group = _source_group(row["source"])
                    if group is None:
                        continue
                    name = row["source_model_name"].strip()
                    if group == "geobench2":
                        name = name.split(" (", 1)[0]
                    self._crosswalk[(group, name)] = (row["candidate_name"].strip(), row["relation"].strip())
        self._ids = {r.model_id for r in records}
        self._names: dict[str, str] = {}
        for record in records:
            for name in (record.model_name, *record.aliases):
                self._names.setdefault(_name_key(name), record.model_id)

    def _record_for(self, *names: str) -> str | None:
        for name in names:
            if model_id_for(name) in self._ids:
                return model_id_for(name)
            found = self._names.get(_name_key(name))
            if found is not None:
                return found
        return None

    def resolve(self, group: str, source_name: str, display_name: str | None = None) -> Resolution:
        """Resolve a model named in source ``group`` (capenc, geobench2, cryobench)."""
        entry = self._crosswalk.get((group, source_name.strip()))
        if entry is None:
            found = self._record_for(source_name)
            return Resolution("ok", found) if found else Resolution("not_in_crosswalk", candidate=source_name)
        candidate, relation = entry
        if not candidate:
            return Resolution("baseline", candidate=source_name)
        model_id = self._record_for(candidate, source_name)
        if model_id is None:
            return Resolution("no_record", candidate=candidate)
        variant = (display_name or source_name.strip()) if relation == "variant" else None
        return Resolution("ok", model_id, variant, candidate)


def _source_group(source: str) -> str | None:
    for prefix, group in (
        ("capabilities_encoding", "capenc"),
        ("geobench2", "geobench2"),
        ("cryobench", "cryobench"),
        ("torchgeo", "torchgeo"),
    ):
        if source.startswith(prefix):
            return group
    return None


def build_import(shared_dir: Path, records: Sequence[ModelRecord]) -> ImportReport:
    """Convert the shared tables into attachment lines without writing anything."""
    resolver = ModelResolver(shared_dir / "model_name_crosswalk.csv", records)
    report = ImportReport()
    seen: set[str] = set()
    entries: list[tuple[tuple[str, ...], str]] = []

    def add(source: str, resolution: Resolution, reason: str, fields: dict[str, object]) -> None:
        if reason:
            report.rejected[f"{source}: {reason}"] += 1
            return
        if resolution.status != "ok" or resolution.model_id is None:
            report.count_unresolved(resolution, source)
            return
        try:
            benchmark = Benchmark.model_validate({**fields, "variant": resolution.variant})
        except ValidationError as exc:
            report.rejected[f"{source}: {exc.errors()[0]['msg']}"] += 1
            return
        line = attachment_line(resolution.model_id, benchmark)
        if line in seen:
            return
        seen.add(line)
        report.written[source] += 1
        key = (
            resolution.model_id,
            source,
            benchmark.dataset,
            benchmark.setting or "",
            benchmark.variant or "",
        )
        entries.append((key, line))

    for model, reason, fields in capenc_benchmarks(shared_dir / "capabilities_encoding_long.csv"):
        add("capabilities-encoding", resolver.resolve("capenc", model), reason, fields)
    geobench = shared_dir / "geobench2_leaderboard_summary.csv"
    for key, display, reason, fields in geobench2_benchmarks(geobench):
        add("GEO-Bench-2", resolver.resolve("geobench2", key, display), reason, fields)
    cryobench = shared_dir / "raw" / "cryobench" / "cryobench_results_frozen_100pct_upernet.csv"
    for model, reason, fields in cryobench_benchmarks(cryobench):
        add("Cryo-Bench", resolver.resolve("cryobench", model), reason, fields)
    report.lines = [line for _, line in sorted(entries)]
    return report


def import_shared_tables(
    shared_dir: Path,
    records: Sequence[ModelRecord],
    *,
    output: Path | None = None,
    dry_run: bool = False,
) -> ImportReport:
    """Import the shared tables for ``records``; write the attachment file atomically unless ``dry_run``."""
    report = build_import(shared_dir, records)
    write_attachments(report, output or default_data_dir() / "benchmarks" / OUTPUT_NAME, dry_run)
    return report


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``import-benchmarks --shared DIR [--data DIR] [--dry-run]``."""
    return register_import_command(
        subparsers,
        "import-benchmarks",
        "Import the shared benchmark tables (capabilities-encoding, GEO-Bench-2, Cryo-Bench).",
        build_import,
        OUTPUT_NAME,
    )
