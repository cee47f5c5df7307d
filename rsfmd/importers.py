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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from rsfmd.attachments import attachment_line, register_import_command, write_attachments
from rsfmd.corrections import find_correction
from rsfmd.datasets import dataset_info
from rsfmd.loader import default_data_dir
from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.vocab import UnknownTermError, get_vocabulary, metric_info

CAPENC_URL = "https://github.com/pierreadorni/capabilities-encoding/blob/main/data/data.csv"
GEOBENCH2_URL = "https://github.com/The-AI-Alliance/GEO-Bench-2-Leaderboard"
CRYOBENCH_URL = "https://github.com/Sk-2103/Cryo-Bench"
# Submission id -> protocol. The third submission (2ce4a907, Clay-B, DOFA-L and TerraMind-L on 19
# datasets) adds Sentinel-1 VV/VH where a backbone takes them and keeps the better of S1+S2 and
# S2-only. 50 of its 57 cells are the main submission's very runs; the 7 that differ (BioMassters
# for all three, Kuro Siwo for all three, BigEarthNet-V2 for TerraMind) do not record which input
# won, so no input could be stated for them and the submission is not imported.
GEOBENCH2_SETTINGS = {
    "114be1f0-5a41-43a5-b4e6-7fb683bc01ec": "full fine-tuning",
    "80100fc6-dc1a-4514-b946-341157eaf816": "frozen encoder",
}
CRYOBENCH_DATASETS = ("GLID", "GLD", "SICD", "CaFFe", "GSDD")
# The README table as of commit 41b6115 (2026-03-03), the repository's newest commit and the last one
# to touch the README; every earlier README version carries the same table.
CRYOBENCH_NOTE = (
    "Cryo-Bench README results table at commit 41b6115ee70e09faccc78e1f1236352200e354a5 (2026-03-03; "
    "frozen encoder, 100% training data, UPerNet)"
)
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


# --- capabilities-encoding setting_or_metric strings -------------------------------------------

_METRIC_TOKENS: tuple[tuple[str, str, str | None], ...] = (  # regex, metric, qualifier
    (r"top1acc\s*\(oa\)", "OA", None),
    (r"macro\s+f1", "F1", "macro F1"),
    (r"\bwf1\b", "F1", "weighted F1"),
    (r"\bm?f1\b", "F1", None),
    (r"\bm?iou\b", "mIoU", None),
    (r"\bm?ap50\b", "mAP", "AP50"),
    (r"\bap(\d+)\b", "mAP", "AP{0}"),
    (r"\bmap\b", "mAP", None),
    (r"\btop1acc\b|\boa\b", "OA", None),
    (r"\bpsnr\b", "PSNR", None),
    (r"\bssim\b", "SSIM", None),
    (r"\bscs\b", "SCS", None),
)
_QUALIFIER_TOKENS: tuple[tuple[str, str], ...] = (
    (r"\bmmseg splits\b", "mmseg splits"),
    (r"\brand split\b", "random split"),
    (r"\btest\b", "test split"),
    (r"\bval\b", "validation split"),
    (r"\ball\b", "all inputs"),
    (r"\bvhr\b", "VHR input"),
    (r"\bs2\b", "S2 input"),
    (r"\bs1\b", "S1 input"),
    (r"\b(\d+) samples\b", "{0} samples"),
)


@dataclass(frozen=True)
class ParsedSetting:
    """A capabilities-encoding column label split into metric, label fraction and qualifiers."""

    metric: str | None
    sampling_percentage: float | None
    qualifiers: tuple[str, ...]


def parse_setting(text: str) -> ParsedSetting:
    """Parse strings such as 'test mIoU', 'top1acc 10%', '5 samples OA', '37,5% (50% of 75%)'."""
    rest = re.sub(r"\([^)]*%[^)]*\)", " ", text)
    percentage: float | None = None
    found = re.search(r"(\d+(?:[.,]\d+)?)\s*%", rest)
    if found:
        percentage = float(found.group(1).replace(",", "."))
        rest = rest[: found.start()] + " " + rest[found.end() :]
    metric: str | None = None
    qualifiers: list[str] = []
    for pattern, name, qualifier in _METRIC_TOKENS:
        match = re.search(pattern, rest, re.IGNORECASE)
        if match:
            metric = name
            if qualifier:
                qualifiers.append(qualifier.format(*match.groups()))
            rest = rest[: match.start()] + " " + rest[match.end() :]
            break
    for pattern, label in _QUALIFIER_TOKENS:
        match = re.search(pattern, rest, re.IGNORECASE)
        if match:
            qualifiers.append(label.format(*match.groups()))
            rest = rest[: match.start()] + " " + rest[match.end() :]
    qualifiers.extend(token for token in rest.split() if token)
    return ParsedSetting(metric, percentage, tuple(qualifiers))


def _to_stored_value(metric: str, value: float, *, fraction_input: bool) -> float:
    """Convert a source value to the RS-FMD convention (percent for bounded metrics)."""
    info = metric_info(metric)
    if fraction_input and info.scale == "percent":
        return round(value * 100, 4)
    if info.scale == "fraction" and value > 1:  # SSIM reported in percent upstream
        return round(value / 100, 6)
    return value


def _capenc_benchmarks(path: Path) -> Iterator[tuple[str, str, dict[str, object]]]:
    """(source model name, reject reason or '', benchmark fields) for each capabilities-encoding row."""
    rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
    labels_of: dict[str, set[str]] = {}
    for row in rows:
        try:
            labels_of.setdefault(dataset_info(row["dataset"]).name, set()).add(row["dataset"])
        except UnknownTermError:
            continue
    for row in rows:
        model, label, raw = row["model"].strip(), row["dataset"], row["setting_or_metric"].strip()
        try:
            info = dataset_info(label)
        except UnknownTermError:
            yield model, f"unknown dataset {label!r}", {}
            continue
        parsed = parse_setting(raw)
        note = f"capabilities-encoding data.csv column {label!r} / {raw!r}"
        metric = parsed.metric
        if metric is None:
            metric = info.metric
            note += f"; metric not stated upstream, {metric} assumed (the dataset's conventional metric)"
        if metric is None or get_vocabulary("metrics").get(metric) is None:
            yield model, f"metric not in rsfmd/vocab/metrics.csv: {metric or raw!r}", {}
            continue
        qualifiers = list(parsed.qualifiers)
        if len(labels_of.get(info.name, ())) > 1:  # keep upstream columns apart when labels merge
            qualifiers.append(f"as {label!r}")
        sensors = list(info.sensors)
        if "S2 input" in qualifiers:
            sensors = ["Sentinel-2"]
        elif "S1 input" in qualifiers:
            sensors = ["Sentinel-1"]
        fields: dict[str, object] = {
            "task_type": info.task_type,
            "application": info.application,
            "dataset": info.name,
            "metrics": [metric],
            "metrics_value": [_to_stored_value(metric, float(row["value"]), fraction_input=False)],
            "sensor": sensors,
            "sampling_percentage": parsed.sampling_percentage,
            "setting": ", ".join(qualifiers) or None,
            "source_url": CAPENC_URL,
            "source_note": note,
        }
        correction = find_correction("capabilities-encoding", model, label, float(row["value"]))
        if correction is not None:
            corrected = correction.apply(fields)
            if corrected is None:
                yield model, "dropped by rsfmd/corrections.csv", {}
                continue
            fields = corrected
        yield model, "", fields


def _geobench2_benchmarks(path: Path) -> Iterator[tuple[str, str, str, dict[str, object]]]:
    """(backbone key, display name, reject reason, fields) for each leaderboard summary row."""
    for row in csv.DictReader(path.read_text(encoding="utf-8").splitlines()):
        protocol = GEOBENCH2_SETTINGS.get(row["submission_id"])
        key, display = row["backbone_key"], row["backbone_display_name"]
        if protocol is None:
            yield key, display, f"submission {row['submission_id'][:8]} not imported", {}
            continue
        info = dataset_info(row["dataset"])
        metric = get_vocabulary("metrics").normalise(row["metric"])
        note = (
            f"GEO-Bench-2 leaderboard, submission {row['submission_id'][:8]} ({protocol}), dataset key "
            f"{row['dataset']!r}, backbone {key!r}; "
            f"mean of {row['n_runs']} runs (std {row['std_test_metric']})"
        )
        yield (
            key,
            display,
            "",
            {
                "task_type": info.task_type,
                "application": info.application,
                "dataset": info.name,
                "metrics": [metric],
                "metrics_value": [
                    _to_stored_value(metric, float(row["mean_test_metric"]), fraction_input=True)
                ],
                "sensor": list(info.sensors),
                "sampling_percentage": float(row["partition"].rstrip("%")),
                "setting": f"{protocol}, {row['decoder']} decoder",
                "source_url": GEOBENCH2_URL,
                "source_note": note,
            },
        )


def _cryobench_benchmarks(path: Path) -> Iterator[tuple[str, str, dict[str, object]]]:
    for row in csv.DictReader(path.read_text(encoding="utf-8").splitlines()):
        for name in CRYOBENCH_DATASETS:
            info = dataset_info(name)
            yield (
                row["model"].strip(),
                "",
                {
                    "task_type": info.task_type,
                    "application": info.application,
                    "dataset": info.name,
                    "metrics": ["mIoU"],
                    "metrics_value": [float(row[name])],
                    "sensor": list(info.sensors),
                    "sampling_percentage": 100.0,
                    "setting": "frozen encoder, UPerNet decoder",
                    "source_url": CRYOBENCH_URL,
                    "source_note": CRYOBENCH_NOTE,
                },
            )


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

    for model, reason, fields in _capenc_benchmarks(shared_dir / "capabilities_encoding_long.csv"):
        add("capabilities-encoding", resolver.resolve("capenc", model), reason, fields)
    geobench = shared_dir / "geobench2_leaderboard_summary.csv"
    for key, display, reason, fields in _geobench2_benchmarks(geobench):
        add("GEO-Bench-2", resolver.resolve("geobench2", key, display), reason, fields)
    cryobench = shared_dir / "raw" / "cryobench" / "cryobench_results_frozen_100pct_upernet.csv"
    for model, reason, fields in _cryobench_benchmarks(cryobench):
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
