"""Import the score columns of torchgeo's pretrained-weight tables as benchmark attachments.

torchgeo's ``docs/api/weights/*.csv`` list, per pretrained weight, a few downstream scores
(BigEarthNet, EuroSAT, So2Sat, OSCD for Sentinel-2; NLCD/CDL accuracy and mIoU for Landsat;
GEO-Bench v1 tasks for the sensor-agnostic models). The docs name only the dataset, never the
metric or the protocol, so every column is imported only where ``COLUMN_PROTOCOLS`` records
where its metric and protocol were confirmed (the source cited in the row, or torchgeo's own
experiment configs). Other score columns are counted as unconfirmed and not written. Rows whose
value the record already carries (same dataset, metric and value) are skipped as duplicates.

Output: ``rsfmd/data/benchmarks/torchgeo_tables.jsonl``; CLI ``remsa db import-torchgeo-benchmarks``.
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
from rsfmd.datasets import get_dataset_table
from rsfmd.importers import ImportReport, ModelResolver
from rsfmd.loader import default_data_dir
from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.vocab import get_vocabulary

TORCHGEO_COMMIT = "65507dcbc4a51fdb49940508de77a5d5e2327eb3"  # mirror HEAD of the shared copy
TORCHGEO_URL = f"https://github.com/torchgeo/torchgeo/blob/{TORCHGEO_COMMIT}/docs/api/weights/"
OUTPUT_NAME = "torchgeo_tables.jsonl"
WEIGHT_TABLES = ("sentinel2.csv", "sentinel1.csv", "landsat.csv", "agnostic.csv")
INFO_COLUMNS = frozenset(
    {"Weight", "Channels", "Source", "Citation", "License", "Landsat", "Spatial", "Temporal", "Spectral"}
)
SSL4EO_S12_EVIDENCE = (
    "protocol from the SSL4EO-S12 README pre-trained models table and its linked srun_ft_* scripts "
    "(full fine-tuning, train_frac 1.0)"
)
SECO_EVIDENCE = "protocol from the SeCo code"
SSL4EO_L_EVIDENCE = (
    "metric from the column header; U-Net on the SSL4EO-L benchmark per torchgeo "
    "experiments/ssl4eo/landsat/conf; whether the encoder was frozen is not stated"
)


@dataclass(frozen=True)
class ColumnProtocol:
    """What one score column of one weight table means, for the weights it was confirmed for."""

    table: str
    column: str
    weights: str  # regex (fullmatch) over the weight name
    dataset: str  # canonical name in rsfmd/vocab/datasets.csv
    metric: str
    setting: str
    evidence: str
    sampling_percentage: float | None = 100.0
    num_classes: int | None = None


_S12 = r"(ResNet50|ViTSmall16)_Weights\.SENTINEL2_ALL_(MOCO|DINO)"
_LANDSAT = r".*_Weights\.LANDSAT_.*_(MOCO|SIMCLR)"
COLUMN_PROTOCOLS: tuple[ColumnProtocol, ...] = (
    ColumnProtocol(
        "sentinel2.csv",
        "BigEarthNet",
        _S12,
        "BigEarthNet",
        "mAP",
        "fine-tune",
        SSL4EO_S12_EVIDENCE + "; micro mAP over 19 labels, SeCo train/val split",
        num_classes=19,
    ),
    ColumnProtocol("sentinel2.csv", "EuroSAT", _S12, "EuroSAT", "OA", "fine-tune", SSL4EO_S12_EVIDENCE),
    ColumnProtocol("sentinel2.csv", "So2Sat", _S12, "So2Sat LCZ42", "OA", "fine-tune", SSL4EO_S12_EVIDENCE),
    ColumnProtocol(
        "sentinel2.csv",
        "EuroSAT",
        r"ResNet18_Weights\.SENTINEL2_RGB_SECO",
        "EuroSAT",
        "OA",
        "linear probe",
        SECO_EVIDENCE + " (main_eurosat.py: frozen encoder, linear classifier, accuracy)",
    ),
    ColumnProtocol(
        "sentinel2.csv",
        "OSCD",
        r"ResNet18_Weights\.SENTINEL2_RGB_SECO",
        "OSCD",
        "F1",
        "frozen encoder, siamese U-Net decoder",
        SECO_EVIDENCE + " (main_oscd.py: encoder excluded from the optimiser; binary F1 at threshold 0.5)",
    ),
    ColumnProtocol(
        "landsat.csv", "NLCD (Acc)", _LANDSAT, "SSL4EO-L NLCD", "OA", "U-Net decoder", SSL4EO_L_EVIDENCE, None
    ),
    ColumnProtocol(
        "landsat.csv",
        "NLCD (mIoU)",
        _LANDSAT,
        "SSL4EO-L NLCD",
        "mIoU",
        "U-Net decoder",
        SSL4EO_L_EVIDENCE,
        None,
    ),
    ColumnProtocol(
        "landsat.csv", "CDL (Acc)", _LANDSAT, "SSL4EO-L CDL", "OA", "U-Net decoder", SSL4EO_L_EVIDENCE, None
    ),
    ColumnProtocol(
        "landsat.csv",
        "CDL (mIoU)",
        _LANDSAT,
        "SSL4EO-L CDL",
        "mIoU",
        "U-Net decoder",
        SSL4EO_L_EVIDENCE,
        None,
    ),
)

_ARCHITECTURES = {
    "ResNet18": "ResNet18",
    "ResNet50": "ResNet50",
    "ResNet152": "ResNet152",
    "ViTSmall16": "ViT-S/16",
    "ViTBase16": "ViT-B/16",
    "ViTLarge16": "ViT-L/16",
    "ViTHuge14": "ViT-H/14",
}
_METHODS = {"MOCO": "MoCo", "DINO": "DINO", "SECO": "SeCo", "SIMCLR": "SimCLR", "MAE": "MAE"}
_LANDSAT_SENSORS = {"4--5": ["Landsat-4/5"], "7": ["Landsat-7"], "8--9": ["Landsat-8", "Landsat-9"]}


def protocol_for(table: str, column: str, weight: str) -> ColumnProtocol | None:
    """The confirmed meaning of ``column`` for ``weight``, or None when it was not confirmed."""
    for protocol in COLUMN_PROTOCOLS:
        if (protocol.table, protocol.column) == (table, column) and re.fullmatch(protocol.weights, weight):
            return protocol
    return None


def weight_variant(weight: str, channels: str, product: str | None = None) -> str:
    """A readable variant for a torchgeo weight, e.g. 'ResNet50 MoCo (13 bands)'."""
    arch_key, _, tag = weight.partition("_Weights.")
    parts = tag.split("_")
    arch = _ARCHITECTURES.get(arch_key, arch_key)
    method = _METHODS.get(parts[-1], parts[-1].title())
    bands = "RGB" if "RGB" in parts else f"{channels.strip()} bands"
    if product:
        bands = f"Landsat {product}, {bands}"
    return f"{arch} {method} ({bands})"


def _landsat_product(weight: str) -> str:
    tag = weight.partition("_Weights.LANDSAT_")[2]
    return " ".join(tag.split("_")[:-1]).replace("OLI TIRS", "OLI/TIRS")


@dataclass(frozen=True)
class WeightScore:
    """One non-empty score cell of a weight table."""

    table: str
    weight: str
    column: str
    raw: str
    row: dict[str, str]


def read_scores(weights_dir: Path) -> Iterator[WeightScore]:
    """Every non-empty score cell (not an info column, not '-') of the weight tables."""
    for table in WEIGHT_TABLES:
        path = weights_dir / table
        if not path.is_file():
            continue
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                cells = {k.strip(): (v or "").strip() for k, v in row.items() if isinstance(k, str)}
                weight = cells.get("Weight", "")
                for column, raw in cells.items():
                    if column in INFO_COLUMNS or raw in ("", "-"):
                        continue
                    yield WeightScore(table, weight, column, raw, cells)


def _benchmark_fields(score: WeightScore, protocol: ColumnProtocol) -> dict[str, object]:
    info = get_dataset_table().rows[protocol.dataset]
    sensors = [s for s in info.get("sensors", "").split("|") if s]
    product: str | None = None
    if score.table == "landsat.csv":
        sensors = _LANDSAT_SENSORS.get(score.row.get("Landsat", ""), sensors)
        product = _landsat_product(score.weight)
    note = (
        f"torchgeo docs/api/weights/{score.table}, row {score.weight}, column {score.column!r}; "
        f"{protocol.evidence}"
    )
    return {
        "task_type": info["task_type"],
        "application": info.get("application") or None,
        "dataset": protocol.dataset,
        "metrics": [protocol.metric],
        "metrics_value": [float(score.raw)],
        "sensor": sensors,
        "sampling_percentage": protocol.sampling_percentage,
        "num_classes": protocol.num_classes,
        "setting": protocol.setting,
        "variant": weight_variant(score.weight, score.row.get("Channels", ""), product),
        "source_url": TORCHGEO_URL + score.table,
        "source_note": note,
    }


def _dataset_key(name: str) -> str:
    return get_dataset_table().get(name) or name


def _already_reported(record: ModelRecord, benchmark: Benchmark) -> Benchmark | None:
    """An existing result of ``record`` (not from torchgeo) with the same dataset, metric and value."""
    metric, value = benchmark.metrics[0], benchmark.metrics_value[0]
    for existing in record.benchmarks:
        if existing.source_url.startswith(TORCHGEO_URL):
            continue
        if _dataset_key(existing.dataset) != benchmark.dataset:
            continue
        found = existing.values().get(metric)
        if found is None or abs(found - value) >= 0.005:
            continue
        if existing.variant is None or _same_variant(existing.variant, benchmark.variant or ""):
            return existing
    return None


def _squash(text: str) -> str:
    return re.sub(r"[\s\-_]", "", text.lower())


def _same_variant(existing: str, ours: str) -> bool:
    """Whether a record's variant label names the architecture and method of ``ours``."""
    arch, _, rest = ours.partition(" ")
    method = rest.split(" (", 1)[0]
    return _squash(arch) in _squash(existing) and _squash(method) in _squash(existing)


@dataclass
class TorchgeoImportReport(ImportReport):
    """An ImportReport plus the cells left out because of unconfirmed columns or duplicates."""

    unconfirmed: Counter[str] = field(default_factory=Counter)
    duplicates: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        """Several lines for the terminal."""
        out = [super().summary()]
        for label, counter in (
            ("cells in columns whose metric/protocol is not confirmed", self.unconfirmed),
            ("cells already in the record (same dataset, metric, value)", self.duplicates),
        ):
            if counter:
                names = ", ".join(f"{k} ({v})" for k, v in sorted(counter.items()))
                out.append(f"{sum(counter.values())} {label}: {names}")
        return "\n".join(out)


def build_torchgeo_import(shared_dir: Path, records: Sequence[ModelRecord]) -> TorchgeoImportReport:
    """Convert the torchgeo weight tables into attachment lines without writing anything."""
    resolver = ModelResolver(shared_dir / "model_name_crosswalk.csv", records)
    by_id = {record.model_id: record for record in records}
    report = TorchgeoImportReport()
    entries: list[tuple[tuple[str, ...], str]] = []
    for score in read_scores(shared_dir / "raw" / "torchgeo_weights"):
        source = f"torchgeo {score.table}"
        resolution = resolver.resolve("torchgeo", score.weight)
        if resolution.status != "ok" or resolution.model_id is None:
            report.count_unresolved(resolution, source)
            continue
        protocol = protocol_for(score.table, score.column, score.weight)
        if protocol is None:
            report.unconfirmed[f"{score.table} {score.column!r} ({resolution.model_id})"] += 1
            continue
        try:
            benchmark = Benchmark.model_validate(_benchmark_fields(score, protocol))
        except (ValidationError, ValueError) as exc:
            report.rejected[f"{source} {score.weight} {score.column!r}: {exc}"] += 1
            continue
        existing = _already_reported(by_id[resolution.model_id], benchmark)
        if existing is not None:
            report.duplicates[f"{resolution.model_id} {benchmark.dataset} (in {existing.source_url})"] += 1
            continue
        line = attachment_line(resolution.model_id, benchmark)
        report.written[source] += 1
        key = (resolution.model_id, benchmark.dataset, benchmark.variant or "", benchmark.metrics[0], line)
        entries.append((key, line))
    report.lines = [line for _, line in sorted(entries)]
    return report


def import_torchgeo_tables(
    shared_dir: Path,
    records: Sequence[ModelRecord],
    *,
    output: Path | None = None,
    dry_run: bool = False,
) -> TorchgeoImportReport:
    """Import the torchgeo weight tables; write the attachment file atomically unless ``dry_run``."""
    report = build_torchgeo_import(shared_dir, records)
    write_attachments(report, output or default_data_dir() / "benchmarks" / OUTPUT_NAME, dry_run)
    return report


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``import-torchgeo-benchmarks --shared DIR [--data DIR] [--dry-run]``."""
    return register_import_command(
        subparsers,
        "import-torchgeo-benchmarks",
        "Import the score columns of torchgeo's pretrained-weight tables (confirmed columns only).",
        build_torchgeo_import,
        OUTPUT_NAME,
    )


def check_protocols() -> None:
    """Every protocol names a dataset and metric the vocabularies know (run by the tests)."""
    metrics = get_vocabulary("metrics")
    for protocol in COLUMN_PROTOCOLS:
        if get_dataset_table().get(protocol.dataset) != protocol.dataset:
            raise ValueError(f"{protocol.dataset!r} is not a canonical name in rsfmd/vocab/datasets.csv")
        if metrics.get(protocol.metric) != protocol.metric:
            raise ValueError(f"{protocol.metric!r} is not a canonical name in rsfmd/vocab/metrics.csv")
