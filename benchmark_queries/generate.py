"""Generate the 75 benchmark queries from the paper's 16 templates (Table 5) and slot vocabularies.

Deterministic: the same seed and the same ``templates.json``/``slots.json`` give the same queries.
Regenerate the committed file with ``python -m benchmark_queries.generate``; ``--check`` only compares.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import sys
from collections import Counter
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rsfmd.loader import atomic_write_text
from rsfmd.vocab import application_task_type, get_vocabulary, sensor_modality

DEFAULT_SEED = 20250
DEFAULT_COUNT = 75
SLOT_ORDER = (
    "application",
    "modality",
    "sensor",
    "region",
    "spatial_resolution",
    "device",
    "data_regime",
    "compute",
    "priority",
    "complexity",
)
"""Order of keys in a query's ``slots`` (stated slots first, then template-implied constraints)."""


class QueryTemplate(BaseModel):
    """One template of the paper's Table 5."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    category: str
    text: str
    implied: dict[str, str] = Field(default_factory=dict)
    task_types: list[str] | None = None
    sensors: list[str] | None = Field(default=None, description="Sensors that fit the wording (None = any).")

    @property
    def placeholders(self) -> list[str]:
        """Slot names the text needs, in order of appearance."""
        return [name for _, name, _, _ in string.Formatter().parse(self.text) if name]


class BenchmarkQuery(BaseModel):
    """One benchmark query: its template, its ground-truth slots and its natural-language text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^q\d{2,3}$")
    template: str
    category: str
    slots: dict[str, str] = Field(description="Stated slots plus constraints implied by the template.")
    text: str = Field(min_length=10)


class SlotVocabulary(BaseModel):
    """The contents of ``slots.json``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str = ""
    modalities: dict[str, dict[str, str]]
    sensors: list[str]
    sensor_phrases: dict[str, str] = Field(default_factory=dict)
    regions: dict[str, list[str]]
    devices: list[str]
    compute_phrases: dict[str, str]
    data_regime_phrases: dict[str, str]
    applications: dict[str, dict[str, Any]]

    def application_modalities(self, application: str) -> list[str]:
        """Input modalities the application is plausibly done with."""
        return list(self.applications[application]["modalities"])

    def application_datasets(self, application: str) -> list[str]:
        """Benchmark dataset families that count as the same application."""
        return list(self.applications[application].get("datasets", []))

    def application_regions(self, application: str) -> list[str]:
        """Regions the application may be set in."""
        return self.regions[str(self.applications[application].get("regions", "land"))]

    def modality_phrase(self, modality: str) -> str:
        """How the modality reads inside a sentence."""
        return self.modalities[modality].get("phrase", modality)

    def sensor_phrase(self, sensor: str) -> str:
        """How the sensor reads inside a sentence."""
        return self.sensor_phrases.get(sensor, sensor)


def _package_text(name: str) -> str:
    return resources.files("benchmark_queries").joinpath(name).read_text(encoding="utf-8")


@cache
def load_templates() -> tuple[QueryTemplate, ...]:
    """The 16 templates of ``templates.json``."""
    data = json.loads(_package_text("templates.json"))
    return tuple(QueryTemplate.model_validate(item) for item in data["templates"])


@cache
def load_slot_vocabulary() -> SlotVocabulary:
    """The slot vocabularies of ``slots.json``, checked against the RS-FMD vocabularies."""
    vocab = SlotVocabulary.model_validate(json.loads(_package_text("slots.json")))
    check_slot_vocabulary(vocab)
    return vocab


def check_slot_vocabulary(vocab: SlotVocabulary) -> None:
    """Raise ValueError when a slot value is not a canonical RS-FMD vocabulary term."""
    problems: list[str] = []
    for kind, names in (
        ("modalities", list(vocab.modalities)),
        ("sensors", vocab.sensors),
        ("applications", list(vocab.applications)),
    ):
        table = get_vocabulary(kind)
        problems += [f"{kind}: {name!r} is not canonical" for name in names if table.get(name) != name]
    for application, info in vocab.applications.items():
        problems += [
            f"applications: {application!r} lists unknown modality {m!r}"
            for m in info["modalities"]
            if m not in vocab.modalities
        ]
    for template in load_templates():
        problems += [
            f"template {template.id}: sensor {s!r} is not in the sensor list"
            for s in template.sensors or []
            if s not in vocab.sensors
        ]
        if str(info.get("regions", "land")) not in vocab.regions:
            problems.append(f"applications: {application!r} names unknown region group")
    if problems:
        raise ValueError("benchmark_queries/slots.json: " + "; ".join(problems))


def sensor_gsd_m(sensor: str) -> float:
    """Ground sampling distance of a sensor in metres (rsfmd/vocab/sensors.csv)."""
    return float(get_vocabulary("sensors").column(sensor, "gsd_m"))


def format_resolution(metres: float) -> str:
    """'10 m', '0.31 m', '5.5 km'."""
    return f"{metres / 1000:g} km" if metres >= 1000 else f"{metres:g} m"


def _fits_sensor(vocab: SlotVocabulary, application: str, sensor: str) -> bool:
    info = vocab.applications[application]
    if sensor_modality(sensor) not in info["modalities"]:
        return False
    return sensor_gsd_m(sensor) <= float(info.get("max_gsd_m", 1e9))


def _fits_modality(vocab: SlotVocabulary, application: str, modality: str) -> bool:
    if modality not in vocab.application_modalities(application):
        return False
    limit = float(vocab.applications[application].get("max_gsd_m", 1e9))
    return any(sensor_modality(s) == modality and sensor_gsd_m(s) <= limit for s in vocab.sensors)


class _BalancedPicker:
    """Draws slot values, preferring the least used so far (random among ties) for variety."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.usage: Counter[tuple[str, str]] = Counter()

    def pick(self, slot: str, candidates: Sequence[str]) -> str:
        if not candidates:
            raise ValueError(f"no candidate value for slot {slot!r}")
        least = min(self.usage[(slot, c)] for c in candidates)
        choice = self.rng.choice([c for c in candidates if self.usage[(slot, c)] == least])
        self.usage[(slot, choice)] += 1
        return choice


def _draw_slots(template: QueryTemplate, vocab: SlotVocabulary, picker: _BalancedPicker) -> dict[str, str]:
    needs = set(template.placeholders)
    slots: dict[str, str] = {}
    sensors = template.sensors if template.sensors is not None else vocab.sensors
    applications = [
        a
        for a in vocab.applications
        if template.task_types is None or application_task_type(a) in template.task_types
    ]
    if "sensor" in needs:
        applications = [a for a in applications if any(_fits_sensor(vocab, a, s) for s in sensors)]
    if "modality" in needs:
        applications = [a for a in applications if any(_fits_modality(vocab, a, m) for m in vocab.modalities)]
    if "application" in needs:
        slots["application"] = picker.pick("application", applications)
    application = slots.get("application")
    if "sensor" in needs:
        fitting = [s for s in sensors if application is None or _fits_sensor(vocab, application, s)]
        slots["sensor"] = picker.pick("sensor", fitting)
        # The sensor fixes the modality; it is kept as ground truth so the slots stay coherent.
        slots["modality"] = sensor_modality(slots["sensor"])
    if "modality" in needs:
        modalities = [
            m for m in vocab.modalities if application is None or _fits_modality(vocab, application, m)
        ]
        slots["modality"] = picker.pick("modality", modalities)
    if "region" in needs:
        regions = vocab.application_regions(application) if application else vocab.regions["land"]
        slots["region"] = picker.pick("region", regions)
    if "spatial_resolution" in needs:
        slots["spatial_resolution"] = format_resolution(sensor_gsd_m(slots["sensor"]))
    if "device" in needs:
        slots["device"] = picker.pick("device", vocab.devices)
    slots.update(template.implied)
    return {key: slots[key] for key in SLOT_ORDER if key in slots}


def render(template: QueryTemplate, slots: dict[str, str], vocab: SlotVocabulary) -> str:
    """The query text: the template with its slots filled in."""
    values = dict(slots)
    if "modality" in values:
        values["modality"] = vocab.modality_phrase(values["modality"])
    if "sensor" in values:
        values["sensor"] = vocab.sensor_phrase(values["sensor"])
    return template.text.format(**values)


def generate_queries(seed: int = DEFAULT_SEED, count: int = DEFAULT_COUNT) -> list[BenchmarkQuery]:
    """``count`` queries covering every template (as evenly as possible), deterministic in ``seed``."""
    templates = load_templates()
    if count < len(templates):
        raise ValueError(f"count must be at least {len(templates)} to cover every template")
    vocab = load_slot_vocabulary()
    picker = _BalancedPicker(random.Random(seed))
    per_template = [
        count // len(templates) + (1 if i < count % len(templates) else 0) for i in range(len(templates))
    ]
    queries: list[BenchmarkQuery] = []
    seen: set[str] = set()
    for template, number in zip(templates, per_template, strict=True):
        for _ in range(number):
            for _attempt in range(100):
                slots = _draw_slots(template, vocab, picker)
                text = render(template, slots, vocab)
                if text not in seen:
                    break
            else:
                raise ValueError(f"template {template.id}: could not draw a new query; widen slots.json")
            seen.add(text)
            queries.append(
                BenchmarkQuery(
                    id=f"q{len(queries) + 1:02d}",
                    template=template.id,
                    category=template.category,
                    slots=slots,
                    text=text,
                )
            )
    return queries


def queries_to_jsonl(queries: Sequence[BenchmarkQuery]) -> str:
    """One JSON object per line, keys in schema order."""
    return "".join(json.dumps(q.model_dump(), ensure_ascii=False) + "\n" for q in queries)


def default_queries_path() -> Path:
    """The committed ``queries.jsonl``."""
    return Path(str(resources.files("benchmark_queries").joinpath("queries.jsonl")))


def load_queries(path: str | Path | None = None) -> list[BenchmarkQuery]:
    """Benchmark queries from a JSONL file (the committed 75 by default)."""
    target = Path(path) if path is not None else default_queries_path()
    queries: list[BenchmarkQuery] = []
    for line_no, line in enumerate(target.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            queries.append(BenchmarkQuery.model_validate_json(line))
        except ValueError as exc:
            raise ValueError(f"{target}:{line_no}: not a benchmark query: {exc}") from exc
    ids = [q.id for q in queries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"{target}: duplicate query ids {', '.join(duplicates)}")
    return queries


def select_queries(queries: Sequence[BenchmarkQuery], selection: str | None) -> list[BenchmarkQuery]:
    """Queries whose id or template is in a comma-separated ``selection`` (all when None or empty)."""
    wanted = {part.strip() for part in re.split(r"[,\s]+", selection or "") if part.strip()}
    if not wanted:
        return list(queries)
    known = {q.id for q in queries} | {q.template for q in queries}
    unknown = sorted(wanted - known)
    if unknown:
        raise ValueError(f"unknown query ids or templates: {', '.join(unknown)}")
    return [q for q in queries if q.id in wanted or q.template in wanted]


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with --check, compare) the committed queries."""
    parser = argparse.ArgumentParser(prog="python -m benchmark_queries.generate", description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--out", type=Path, default=None, help="Output JSONL (default: the committed file).")
    parser.add_argument(
        "--check", action="store_true", help="Fail when the file differs from a regeneration."
    )
    args = parser.parse_args(argv)
    target: Path = args.out or default_queries_path()
    text = queries_to_jsonl(generate_queries(args.seed, args.count))
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is out of date; run python -m benchmark_queries.generate", file=sys.stderr)
            return 1
        return 0
    atomic_write_text(target, text)
    print(f"wrote {args.count} queries to {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
