"""Read-only views over RS-FMD: statistics, filtered listings, lookup by name, audit samples."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rsfmd.schema import ModelRecord
from rsfmd.traits import ARCHITECTURE_FAMILIES
from rsfmd.usage import usage_coverage
from rsfmd.vocab import get_vocabulary, term_key

COVERAGE_FIELDS: tuple[str, ...] = (
    "release_date",
    "release_year",
    "short_description",
    "paper_link",
    "repository",
    "weights",
    "license",
    "backbone",
    "num_parameters",
    "variants",
    "modalities",
    "supported_sensors",
    "bands",
    "spatial_resolution",
    "pretext_training_type",
    "pretraining_phases",
    "task_types",
    "benchmarks",
    "sources",
    "citations",
    "github_stars",
)


def is_filled(record: ModelRecord, field: str) -> bool:
    """Whether a field holds a value (non-empty for lists)."""
    if field == "num_parameters":
        return record.smallest_parameters is not None
    if field == "release_year":
        return record.year is not None  # a full date gives the year too
    value = getattr(record, field)
    if isinstance(value, list | dict | str):
        return len(value) > 0
    return value is not None


def field_coverage(records: Sequence[ModelRecord]) -> dict[str, float]:
    """Percent of records with each field filled (parameters count variants too)."""
    total = len(records) or 1
    return {f: round(100.0 * sum(is_filled(r, f) for r in records) / total, 1) for f in COVERAGE_FIELDS}


def database_stats(records: Sequence[ModelRecord]) -> dict[str, Any]:
    """Counts by category, modality, sensor, task type and year, plus field and usage coverage."""
    by_year = Counter(str(r.year) if r.year else "unknown" for r in records)
    return {
        "count": len(records),
        "benchmark_results": sum(len(r.benchmarks) for r in records),
        "records_with_benchmarks": sum(1 for r in records if r.benchmarks),
        "by_category": dict(Counter(r.category.value for r in records).most_common()),
        "by_modality": dict(Counter(m for r in records for m in r.modalities).most_common()),
        "by_sensor": dict(Counter(s for r in records for s in r.supported_sensors).most_common()),
        "by_task_type": dict(Counter(t for r in records for t in r.all_task_types).most_common()),
        "by_year": dict(sorted(by_year.items())),
        "field_coverage": field_coverage(records),
        "usage": usage_coverage(records),
    }


def find_record(records: Sequence[ModelRecord], name: str) -> ModelRecord | None:
    """A record by id, name or alias (case- and punctuation-insensitive)."""
    key = term_key(name)
    for record in records:
        if record.model_id == name or any(term_key(n) == key for n in (record.model_name, *record.aliases)):
            return record
    for record in records:
        if term_key(record.model_id) == key:
            return record
    return None


def suggest_names(records: Sequence[ModelRecord], name: str, limit: int = 5) -> list[str]:
    """Model names that contain, or are contained in, ``name``."""
    key = term_key(name)
    hits = [
        r.model_name
        for r in records
        if key and (key in term_key(r.model_name) or term_key(r.model_name) in key)
    ]
    return hits[:limit]


def filter_records(
    records: Sequence[ModelRecord],
    *,
    modality: str | None = None,
    sensor: str | None = None,
    category: str | None = None,
    task_type: str | None = None,
    max_parameters: float | None = None,
    year: int | None = None,
    since: int | None = None,
    architecture: str | None = None,
) -> list[ModelRecord]:
    """Records matching every given filter (vocabulary synonyms accepted)."""
    out = list(records)
    if modality:
        canonical = get_vocabulary("modalities").normalise(modality)
        out = [r for r in out if canonical in r.modalities]
    if sensor:
        canonical = get_vocabulary("sensors").normalise(sensor)
        out = [r for r in out if canonical in r.supported_sensors]
    if category:
        out = [r for r in out if r.category.value == category]
    if task_type:
        canonical = get_vocabulary("task_types").normalise(task_type)
        out = [r for r in out if canonical in r.all_task_types]
    if max_parameters is not None:
        out = [r for r in out if (p := r.smallest_parameters) is not None and p <= max_parameters]
    if year is not None:
        out = [r for r in out if r.year == year]
    if since is not None:
        out = [r for r in out if r.year is not None and r.year >= since]
    if architecture:
        families = {f.lower(): f for f in ARCHITECTURE_FAMILIES}
        family = families.get(architecture.strip().lower())
        if family is None:
            raise ValueError(
                f"unknown architecture {architecture!r}: use one of {', '.join(ARCHITECTURE_FAMILIES)}"
            )
        out = [r for r in out if family in r.architectures]
    return out


def audit_sample(records: Sequence[ModelRecord], size: int, seed: int) -> list[ModelRecord]:
    """A reproducible random sample of records for manual checking."""
    ordered = sorted(records, key=lambda r: r.model_id)
    return random.Random(seed).sample(ordered, min(size, len(ordered)))


def sources_for_field(record: ModelRecord, field: str) -> list[str]:
    """URLs of the sources that name ``field``."""
    return [s.url for s in record.sources if field in s.fields]


def audit_lines(record: ModelRecord) -> list[str]:
    """A record printed field by field, each with the sources that support it."""
    lines = [f"== {record.model_name} ({record.model_id})"]
    data = record.model_dump(mode="json", exclude_defaults=True)
    for field, value in data.items():
        if field in {"sources", "benchmarks", "confidence", "verified", "model_id"}:
            continue
        text = value if isinstance(value, str) else repr(value)
        if len(text) > 160:
            text = text[:157] + "..."
        urls = sources_for_field(record, field)
        flag = []
        if field in record.confidence:
            flag.append(f"confidence {record.confidence[field]:.2f}")
        if record.verified.get(field):
            flag.append("verified")
        suffix = f"  [{'; '.join(flag)}]" if flag else ""
        lines.append(f"  {field}: {text}{suffix}")
        lines.append(f"      source: {', '.join(urls) if urls else 'NONE NAMED'}")
    for bench in record.benchmarks:
        values = ", ".join(f"{m} {v:g}" for m, v in bench.values().items())
        setting = f" [{bench.setting}]" if bench.setting else ""
        lines.append(f"  benchmark: {bench.dataset} ({bench.task_type}){setting}: {values}")
        lines.append(
            f"      source: {bench.source_url}{' ' + bench.source_note if bench.source_note else ''}"
        )
    return lines
