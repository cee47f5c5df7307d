"""Benchmark attachment files (``rsfmd/data/benchmarks/*.jsonl``): writing them and the import commands."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from rsfmd.loader import atomic_write_text, default_data_dir, load_database
from rsfmd.schema import Benchmark, ModelRecord


def attachment_line(model_id: str, benchmark: Benchmark) -> str:
    """One line of an attachment file: the model id and the benchmark, defaults left out."""
    payload = {"model_id": model_id, "benchmark": benchmark.model_dump(mode="json", exclude_defaults=True)}
    return json.dumps(payload, ensure_ascii=False)


class AttachmentReport(Protocol):
    """What every table importer returns: the attachment lines and a printable summary."""

    lines: list[str]
    output: Path | None

    def summary(self) -> str:
        """Counts of what was written, skipped and rejected."""
        ...


def write_attachments(report: AttachmentReport, target: Path, dry_run: bool) -> None:
    """Write a report's attachment lines atomically (nothing when ``dry_run``)."""
    if not dry_run:
        atomic_write_text(target, "".join(line + "\n" for line in report.lines))
        report.output = target


def register_import_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help_text: str,
    build: Callable[[Path, Sequence[ModelRecord]], AttachmentReport],
    output_name: str,
) -> argparse.ArgumentParser:
    """Add ``NAME --shared DIR [--data DIR] [--dry-run]`` for one table importer."""

    def run(args: argparse.Namespace) -> int:
        data = Path(args.data) if args.data else default_data_dir()
        records = load_database(data, strict=False).records
        report = build(Path(args.shared), records)
        write_attachments(
            report, (data if data.is_dir() else data.parent) / "benchmarks" / output_name, args.dry_run
        )
        print(report.summary())
        return 0

    parser = subparsers.add_parser(name, help=help_text)
    parser.add_argument("--shared", required=True, help="Folder with the shared source tables.")
    parser.add_argument("--data", default=None, help="RS-FMD data folder (the shipped one by default).")
    parser.add_argument("--dry-run", action="store_true", help="Report what would be written; write nothing.")
    parser.set_defaults(func=run)
    return parser
