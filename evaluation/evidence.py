"""Vocabulary matching and benchmark evidence the rubric criteria read (pure functions, no ranking code).

Written independently of ``tools/``: the judge must not share the ranker's logic.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from benchmark_queries.generate import BenchmarkQuery, SlotVocabulary
from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.vocab import application_task_type, get_vocabulary, metric_info, sensor_modality, term_key

TASK_FAMILIES: tuple[frozenset[str], ...] = (
    frozenset(
        {
            "classification",
            "multi-label classification",
            "time-series classification",
            "zero-shot classification",
        }
    ),
    frozenset({"segmentation", "instance segmentation", "change detection", "time-series classification"}),
    frozenset({"detection", "instance segmentation"}),
    frozenset({"captioning", "vqa", "visual grounding", "retrieval", "zero-shot classification"}),
    frozenset({"regression", "super-resolution"}),
)
"""Task types that count as 'related' for the rubric (same family); a type may sit in two families."""

MODALITY_PARTIAL: dict[tuple[str, str], float] = {
    ("RGB", "Multispectral"): 3.5,
    ("RGB", "Hyperspectral"): 3.0,
    ("Multispectral", "RGB"): 2.5,
    ("Multispectral", "Hyperspectral"): 3.0,
    ("Hyperspectral", "Multispectral"): 2.5,
    ("Hyperspectral", "RGB"): 2.0,
    ("LiDAR", "DEM"): 3.0,
    ("DEM", "LiDAR"): 3.0,
}
"""Modality-match score when the query wants the first modality and the model takes only the second.

A multispectral model can usually take the RGB bands (partial fit); an RGB model given multispectral
data loses most bands. Pairs not listed (e.g. SAR versus optical) score 1.
"""

GLOBAL_WORDS = ("global", "worldwide", "world-wide", "planetary", "all continents")


def round_half(value: float) -> float:
    """Round to the nearest half step (ties up), as the rubric's 0.5 precision requires."""
    return math.floor(value * 2 + 0.5) / 2


def clip(value: float, low: float, high: float) -> float:
    """``value`` limited to [low, high]."""
    return max(low, min(high, value))


def related_task(a: str, b: str) -> bool:
    """Whether two task types share a family (identity counts)."""
    return a == b or any(a in family and b in family for family in TASK_FAMILIES)


@dataclass(frozen=True)
class QueryConstraints:
    """The ground-truth constraints of a benchmark query, resolved against the vocabularies."""

    application: str | None
    task_type: str | None
    domain: str | None
    datasets: tuple[str, ...]
    modality: str | None
    sensor: str | None
    application_modalities: tuple[str, ...]
    compute: str | None
    data_regime: str | None
    priority: str | None

    @classmethod
    def from_query(cls, query: BenchmarkQuery, vocab: SlotVocabulary) -> QueryConstraints:
        """Read the constraints from the query's slots (never from a system's interpretation)."""
        slots = query.slots
        application = slots.get("application")
        apps = get_vocabulary("applications")
        canonical = apps.get(application) if application else None
        sensor = slots.get("sensor")
        modality = slots.get("modality") or (sensor_modality(sensor) if sensor else None)
        known = canonical is not None and canonical in vocab.applications
        return cls(
            application=canonical,
            task_type=application_task_type(canonical) if canonical else None,
            domain=apps.column(canonical, "domain") if canonical else None,
            datasets=tuple(vocab.application_datasets(canonical)) if known and canonical else (),
            modality=modality,
            sensor=sensor,
            application_modalities=tuple(vocab.application_modalities(canonical))
            if known and canonical
            else (),
            compute=slots.get("compute"),
            data_regime=slots.get("data_regime"),
            priority=slots.get("priority"),
        )


def benchmark_application(benchmark: Benchmark) -> str | None:
    """The canonical application a benchmark states, when it is in the vocabulary."""
    return get_vocabulary("applications").get(benchmark.application) if benchmark.application else None


def in_dataset_family(dataset: str, families: Sequence[str]) -> bool:
    """Whether a dataset name contains a family name; short names (< 5 characters) must be a whole word.

    "ISPRS Potsdam" is in family "Potsdam", "UCM (8:2)" in "UCM", but "UCM-Captions" is not in "UC Merced".
    """
    key = term_key(dataset)
    words = set(re.split(r"[^a-z0-9]+", dataset.lower()))
    for family in families:
        family_key = term_key(family)
        if len(family_key) >= 5 and family_key in key:
            return True
        if 0 < len(family_key) < 5 and family_key in words:
            return True
    return False


def matches_application(benchmark: Benchmark, constraints: QueryConstraints) -> bool:
    """Same application: the benchmark names it, or uses a dataset of its family for a related task."""
    if constraints.application is None:
        return False
    if benchmark_application(benchmark) == constraints.application:
        return True
    # A dataset shared across tasks (UCM images vs UCM-Captions) only counts for a related task type.
    related = constraints.task_type is not None and related_task(benchmark.task_type, constraints.task_type)
    return related and in_dataset_family(benchmark.dataset, constraints.datasets)


def same_domain(benchmark: Benchmark, constraints: QueryConstraints) -> bool:
    """The benchmark's application lies in the query application's domain (e.g. agriculture)."""
    application = benchmark_application(benchmark)
    if application is None or constraints.domain in (None, "", "general"):
        return False
    return get_vocabulary("applications").column(application, "domain") == constraints.domain


def record_modalities(record: ModelRecord) -> set[str]:
    """Modalities the model takes: declared ones plus those of its supported and pretraining sensors."""
    sensors = set(record.supported_sensors)
    for phase in record.pretraining_phases:
        sensors.update(phase.sensors)
    return set(record.modalities) | {sensor_modality(s) for s in sensors}


def record_sensors(record: ModelRecord) -> set[str]:
    """Sensors the model is documented to accept or was pretrained on."""
    sensors = set(record.supported_sensors)
    for phase in record.pretraining_phases:
        sensors.update(phase.sensors)
    return sensors


def normalised_value(metric: str, value: float) -> float | None:
    """A bounded metric as a 0-1 quality (direction-aware); None for unbounded metrics."""
    info = metric_info(metric)
    if info.scale != "percent":
        return None
    quality = (value - info.minimum) / (info.maximum - info.minimum)
    return quality if info.higher_is_better else 1.0 - quality


class PerformanceIndex:
    """Every model's best reported value per (dataset, metric) across RS-FMD, for relative standing."""

    def __init__(self, records: Sequence[ModelRecord]) -> None:
        best: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
        for record in records:
            for benchmark in record.benchmarks:
                for metric, value in benchmark.values().items():
                    info = metric_info(metric)
                    signed = value if info.higher_is_better else -value
                    slot = best[(term_key(benchmark.dataset), metric)]
                    slot[record.model_id] = max(signed, slot.get(record.model_id, -math.inf))
        self._best = dict(best)

    def level(self, model_id: str, benchmark: Benchmark) -> float:
        """0-1 standing of this result: percentile among >= 3 models on the dataset, else absolute value."""
        levels: list[float] = []
        for metric, value in benchmark.values().items():
            peers = self._best.get((term_key(benchmark.dataset), metric), {})
            if len(peers) >= 3:
                signed = value if metric_info(metric).higher_is_better else -value
                others = [v for m, v in peers.items() if m != model_id]
                levels.append(sum(1 for v in others if signed >= v) / len(others))
                continue
            absolute = normalised_value(metric, value)
            levels.append(absolute if absolute is not None else 0.5)
        return max(levels) if levels else 0.5


def regime_fits(benchmark: Benchmark, data_regime: str | None) -> bool:
    """Whether the benchmark's protocol matches the query's data regime (few-shot, zero-shot, unlabeled)."""
    setting = (benchmark.setting or "").lower()
    if data_regime == "few-shot":
        few = benchmark.sampling_percentage is not None and benchmark.sampling_percentage <= 10
        return few or "few" in setting
    if data_regime == "zero-shot":
        return "zero" in setting
    if data_regime == "unlabeled":
        return any(word in setting for word in ("linear", "knn", "frozen"))
    if data_regime == "fully labeled":
        return "fine" in setting
    return False
