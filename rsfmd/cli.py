"""`remsa db ...`: validate, inspect and audit RS-FMD."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rsfmd.catalog import (
    audit_lines,
    audit_sample,
    database_stats,
    filter_records,
    find_record,
    suggest_names,
)
from rsfmd.loader import DatabaseError, load_database, load_records


def register(subparsers: Any) -> None:
    """Add the `db` command group."""
    db = subparsers.add_parser("db", help="Validate, inspect and audit RS-FMD.")
    sub = db.add_subparsers(dest="db_command", required=True)

    validate = sub.add_parser("validate", help="Check JSONL files; print every error with line and field.")
    validate.add_argument("path", nargs="?", help="JSONL file or folder (default: shipped database).")
    validate.set_defaults(handler=_validate)

    stats = sub.add_parser("stats", help="Counts and field coverage.")
    stats.add_argument("--json", action="store_true", help="Print one JSON object.")
    stats.add_argument("--path", help="JSONL file or folder (default: shipped database).")
    stats.set_defaults(handler=_stats)

    show = sub.add_parser("show", help="Print one record as JSON.")
    show.add_argument("name", help="Model id, name or alias.")
    show.add_argument("--path", help="JSONL file or folder (default: shipped database).")
    show.set_defaults(handler=_show)

    listing = sub.add_parser("list", help="List records, optionally filtered.")
    listing.add_argument("--modality", help="e.g. SAR, multispectral, hyperspectral.")
    listing.add_argument("--sensor", help="e.g. Sentinel-2, S1, Landsat-8.")
    listing.add_argument("--category", help="e.g. vision, vision-language.")
    listing.add_argument("--task-type", help="e.g. segmentation, change detection.")
    listing.add_argument("--max-params", type=float, help="Smallest variant at most this many millions.")
    listing.add_argument("--year", type=int, help="Released in this year.")
    listing.add_argument("--since", type=int, help="Released in this year or later.")
    listing.add_argument("--architecture", help="Backbone family: CNN, transformer or Mamba.")
    listing.add_argument("--json", action="store_true", help="Print a JSON list.")
    listing.add_argument("--path", help="JSONL file or folder (default: shipped database).")
    listing.set_defaults(handler=_list)

    audit = sub.add_parser("audit", help="Print sampled records field by field with their sources.")
    audit.add_argument("--sample", type=int, default=20, help="How many records.")
    audit.add_argument("--seed", type=int, default=0, help="Sampling seed (same seed, same sample).")
    audit.add_argument("--path", help="JSONL file or folder (default: shipped database).")
    audit.set_defaults(handler=_audit)

    from rsfmd import importers, importers_extra, infer_fields
    from rsfmd.extraction import cli as extraction_cli

    importers.register(sub)
    importers_extra.register(sub)
    extraction_cli.register(sub)
    infer_fields.register(sub)


def _validate(args: argparse.Namespace) -> int:
    try:
        result = load_database(args.path, strict=False)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for error in result.errors:
        print(error)
    benchmarks = sum(len(r.benchmarks) for r in result.records)
    print(
        f"{len(result.records)} valid record(s), {benchmarks} benchmark result(s), "
        f"{len(result.errors)} error(s) in {len(result.files)} file(s)"
    )
    return 1 if result.errors else 0


def _load(path: str | None) -> list[Any] | None:
    try:
        return load_records(path)
    except (DatabaseError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def _stats(args: argparse.Namespace) -> int:
    records = _load(args.path)
    if records is None:
        return 2
    stats = database_stats(records)
    if args.json:
        print(json.dumps(stats, indent=2))
        return 0
    print(
        f"records: {stats['count']}  benchmark results: {stats['benchmark_results']}  "
        f"records with benchmarks: {stats['records_with_benchmarks']}"
    )
    for key in ("by_category", "by_modality", "by_task_type", "by_year"):
        print(f"{key.removeprefix('by_')}: " + ", ".join(f"{k} {v}" for k, v in stats[key].items()))
    top_sensors = list(stats["by_sensor"].items())[:15]
    print("sensors (top 15): " + ", ".join(f"{k} {v}" for k, v in top_sensors))
    print("field coverage (% of records):")
    for field, pct in stats["field_coverage"].items():
        print(f"  {field:<22} {pct:5.1f}")
    usage = stats["usage"]
    print(
        f"how to load: {usage['records_with_usage']} of {usage['records_releasing_weights']} records "
        f"releasing weights ({usage['percent']:.1f}%), {usage['rows']} ways; records by library: "
        + ", ".join(f"{k} {v}" for k, v in usage["records_by_library"].items())
    )
    return 0


def _show(args: argparse.Namespace) -> int:
    records = _load(args.path)
    if records is None:
        return 2
    record = find_record(records, args.name)
    if record is None:
        hint = suggest_names(records, args.name)
        extra = f" Did you mean: {', '.join(hint)}?" if hint else " Try `remsa db list`."
        print(f"error: no model named {args.name!r}.{extra}", file=sys.stderr)
        return 1
    print(record.model_dump_json(indent=2, exclude_defaults=True))
    return 0


def _list(args: argparse.Namespace) -> int:
    records = _load(args.path)
    if records is None:
        return 2
    try:
        found = filter_records(
            records,
            modality=args.modality,
            sensor=args.sensor,
            category=args.category,
            task_type=args.task_type,
            max_parameters=args.max_params,
            year=args.year,
            since=args.since,
            architecture=args.architecture,
        )
    except ValueError as exc:  # an unknown vocabulary term or architecture
        print(f"error: {exc}", file=sys.stderr)
        return 2
    found.sort(key=lambda r: r.model_name.lower())
    if args.json:
        rows = [
            {
                "model_id": r.model_id,
                "name": r.model_name,
                "category": r.category.value,
                "year": r.year,
                "modalities": r.modalities,
                "sensors": r.supported_sensors,
                "min_params_m": r.smallest_parameters,
            }
            for r in found
        ]
        print(json.dumps(rows, indent=2))
        return 0
    for r in found:
        params = f"{r.smallest_parameters:g}M" if r.smallest_parameters is not None else "?"
        print(f"{r.model_name:<28} {r.year or '':<5} {params:>8}  {', '.join(r.modalities)}")
    print(f"{len(found)} model(s)")
    return 0


def _audit(args: argparse.Namespace) -> int:
    records = _load(args.path)
    if records is None:
        return 2
    for record in audit_sample(records, args.sample, args.seed):
        print("\n".join(audit_lines(record)))
        print()
    return 0
