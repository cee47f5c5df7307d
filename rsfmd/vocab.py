"""Controlled vocabularies for RS-FMD, kept as CSV tables in ``rsfmd/vocab/``.

Each table has a canonical ``name`` and pipe-separated ``synonyms``. Lookups are case-,
space-, hyphen- and underscore-insensitive, so "S1", "Sentinel-1 GRD" and "sentinel 1" all
resolve to ``Sentinel-1``.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

VocabularyName = Literal["modalities", "sensors", "task_types", "metrics", "applications", "regions"]
VOCABULARY_NAMES: tuple[VocabularyName, ...] = (
    "modalities",
    "sensors",
    "task_types",
    "metrics",
    "applications",
    "regions",
)


class UnknownTermError(ValueError):
    """A value is not in a controlled vocabulary."""

    def __init__(self, vocabulary: str, value: str, suggestions: list[str]) -> None:
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(
            f"unknown {vocabulary[:-1].replace('_', ' ')} {value!r}.{hint} "
            f"Use a known value or add it to rsfmd/vocab/{vocabulary}.csv."
        )
        self.vocabulary = vocabulary
        self.value = value


@cache
def term_key(text: str) -> str:
    """Key used for synonym matching: lower case, no spaces, hyphens, underscores or dots."""
    return re.sub(r"[\s\-_.]+", "", text.strip().lower())


@dataclass(frozen=True)
class Vocabulary:
    """One controlled vocabulary: canonical names, their synonyms and extra columns."""

    name: str
    rows: dict[str, dict[str, str]]
    lookup: dict[str, str] = field(repr=False)

    @property
    def names(self) -> list[str]:
        """Canonical names in table order."""
        return list(self.rows)

    def get(self, value: str) -> str | None:
        """The canonical name for ``value``, or None when it is unknown."""
        return self.lookup.get(term_key(value))

    def normalise(self, value: str) -> str:
        """The canonical name for ``value``; raises UnknownTermError when it is unknown."""
        found = self.get(value)
        if found is None:
            raise UnknownTermError(self.name, value, self.suggest(value))
        return found

    def suggest(self, value: str, limit: int = 3) -> list[str]:
        """Canonical names whose key shares the longest prefix with ``value``."""
        key = term_key(value)
        if not key:
            return []
        scored: list[tuple[int, str]] = []
        for synonym_key, canonical in self.lookup.items():
            common = 0
            for a, b in zip(key, synonym_key, strict=False):
                if a != b:
                    break
                common += 1
            if common >= 3:
                scored.append((common, canonical))
        scored.sort(key=lambda item: -item[0])
        out: list[str] = []
        for _, canonical in scored:
            if canonical not in out:
                out.append(canonical)
            if len(out) == limit:
                break
        return out

    def column(self, canonical: str, column: str) -> str:
        """An extra column's value for a canonical name ('' when blank, or when the name is not
        one of the vocabulary's: a value from outside, such as an LLM's, must never crash a rule)."""
        row = self.rows.get(canonical)
        return (row.get(column, "") or "") if row is not None else ""

    def terms(self, canonical: str) -> list[str]:
        """Every term read as ``canonical``: itself, its synonyms, then the terms in ``closest_for``."""
        return _row_terms(canonical, self.rows.get(canonical, {}))

    def synonyms(self, canonical: str) -> list[str]:
        """The synonyms of ``canonical`` (not its ``closest_for`` terms)."""
        return _split_terms(self.rows.get(canonical, {}).get("synonyms"))


def _split_terms(value: str | None) -> list[str]:
    return [t.strip() for t in (value or "").split("|") if t.strip()]


def _row_terms(canonical: str, row: dict[str, str]) -> list[str]:
    # ``closest_for`` (applications): terms with no entry of their own, read as this one.
    return [canonical, *_split_terms(row.get("synonyms")), *_split_terms(row.get("closest_for"))]


def _read_table(name: str) -> Vocabulary:
    text = resources.files("rsfmd").joinpath("vocab").joinpath(f"{name}.csv").read_text(encoding="utf-8")
    rows: dict[str, dict[str, str]] = {}
    lookup: dict[str, str] = {}
    for line_no, row in enumerate(csv.DictReader(text.splitlines()), start=2):
        canonical = (row.get("name") or "").strip()
        if not canonical:
            raise ValueError(f"rsfmd/vocab/{name}.csv line {line_no}: empty name")
        if canonical in rows:
            raise ValueError(f"rsfmd/vocab/{name}.csv line {line_no}: duplicate name {canonical!r}")
        rows[canonical] = {k: (v or "").strip() for k, v in row.items() if k}
        for synonym in _row_terms(canonical, row):
            key = term_key(synonym)
            previous = lookup.get(key)
            if previous is not None and previous != canonical:
                raise ValueError(
                    f"rsfmd/vocab/{name}.csv line {line_no}: synonym {synonym!r} of {canonical!r} "
                    f"already means {previous!r}"
                )
            lookup[key] = canonical
    return Vocabulary(name=name, rows=rows, lookup=lookup)


@cache
def get_vocabulary(name: VocabularyName) -> Vocabulary:
    """Load (once) and return a vocabulary by name."""
    if name not in VOCABULARY_NAMES:
        raise KeyError(f"unknown vocabulary {name!r}; known: {', '.join(VOCABULARY_NAMES)}")
    return _read_table(name)


def list_vocabularies() -> tuple[VocabularyName, ...]:
    """Names of every vocabulary table."""
    return VOCABULARY_NAMES


def normalise_sensor(value: str) -> str:
    """Canonical sensor name."""
    return get_vocabulary("sensors").normalise(value)


def normalise_modality(value: str) -> str:
    """Canonical modality name."""
    return get_vocabulary("modalities").normalise(value)


def normalise_task_type(value: str) -> str:
    """Canonical task type."""
    return get_vocabulary("task_types").normalise(value)


# Task types answered in text a language model writes: a caption, an answer.
TEXT_ANSWER_TASKS = frozenset({"captioning", "vqa"})
# Task types a vision-language model does as it is, from an image and text: it is run, not trained.
PROMPTED_TASKS = frozenset({*TEXT_ANSWER_TASKS, "visual grounding", "retrieval", "zero-shot classification"})


def normalise_metric(value: str) -> str:
    """Canonical metric name."""
    return get_vocabulary("metrics").normalise(value)


def sensor_modality(sensor: str) -> str:
    """The modality a (canonical or synonym) sensor produces."""
    vocab = get_vocabulary("sensors")
    return vocab.column(vocab.normalise(sensor), "modality")


@cache
def sensor_gsd_m() -> dict[str, float]:
    """Ground sampling distance in metres per sensor of the vocabulary (those that state one)."""
    vocab = get_vocabulary("sensors")
    out = {}
    for name in vocab.names:
        value = vocab.column(name, "gsd_m")
        try:
            out[name] = float(value)
        except ValueError:
            continue
    return out


@cache
def _sensor_families() -> tuple[frozenset[str], ...]:
    """Sensors whose data a model documented for one can take with little or no adaptation
    (``rsfmd/sensor_families.csv``)."""
    text = resources.files("rsfmd").joinpath("sensor_families.csv").read_text(encoding="utf-8")
    return tuple(frozenset(row["members"].split("|")) for row in csv.DictReader(text.splitlines()))


def sensor_family(sensor: str) -> set[str]:
    """A sensor and the sensors whose data it can stand in for."""
    out = {sensor}
    for family in _sensor_families():
        if sensor in family:
            out |= family
    return out


AIRBORNE_PLATFORMS = frozenset({"aerial", "drone"})


@cache
def airborne(sensor: str) -> bool | None:
    """Whether a sensor flies on an aircraft or a drone (True) or a satellite (False); None when
    its platform is not known (or is neither, such as a reanalysis). Cached: ranking asks it for
    every sensor of every candidate."""
    vocab = get_vocabulary("sensors")
    platform = vocab.column(vocab.normalise(sensor), "platform")
    if platform in AIRBORNE_PLATFORMS:
        return True
    return False if platform == "satellite" else None


@cache
def sensor_body(sensor: str) -> str:
    """The world a sensor images when it is not Earth ('Mars' for HiRISE), else ''. Cached: the
    modality rule asks it for every sensor of every candidate."""
    vocab = get_vocabulary("sensors")
    return vocab.column(vocab.get(sensor) or sensor, "body")


@dataclass(frozen=True)
class MetricInfo:
    """Direction and range of a metric."""

    name: str
    higher_is_better: bool
    minimum: float
    maximum: float
    scale: str


@cache
def metric_info(metric: str) -> MetricInfo:
    """Direction, range and scale of a (canonical or synonym) metric."""
    vocab = get_vocabulary("metrics")
    canonical = vocab.normalise(metric)
    row = vocab.rows[canonical]
    return MetricInfo(
        name=canonical,
        higher_is_better=row["higher_is_better"] == "true",
        minimum=float(row["min"]),
        maximum=float(row["max"]),
        scale=row["scale"],
    )


def typical_modalities(application: str | None) -> list[str]:
    """The usual input modalities of a known application (empty when unknown)."""
    return [m for m in (_application_column(application, "typical_modalities") or "").split("|") if m]


def application_task_type(application: str | None) -> str | None:
    """The task type of a known application, or None when there is none or it is not in the table."""
    return _application_column(application, "task_type")


def application_domain(application: str | None) -> str | None:
    """The domain of a known application ('vision-language'), or None when there is none or it is
    not in the table."""
    return _application_column(application, "domain")


def _application_column(application: str | None, column: str) -> str | None:
    vocab = get_vocabulary("applications")
    canonical = vocab.get(application) if application else None
    return vocab.column(canonical, column) if canonical else None
