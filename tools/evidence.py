"""Reported results as ranking evidence: how a model stands on datasets like the user's task.

Every benchmark value becomes a cell of a (dataset, metric, setting) column. A model's standing in
a column is the fraction of other models that reported a worse value there, but never less than
half its closeness to the column's best value: in a small column of specialists, the last of three
models a few points behind the best has not shown itself weak.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from agent.query import StructuredQuery
from rsfmd.datasets import (
    bench_application,
    dataset_identities,
    dataset_identity,
    dataset_key,
    find_dataset,
)
from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.vocab import application_task_type, metric_info
from tools.inputs import requested_imagery
from tools.variants import result_variant_size

RELATED_TASKS: dict[str, frozenset[str]] = {
    "classification": frozenset(
        {"multi-label classification", "time-series classification", "zero-shot classification"}
    ),
    "multi-label classification": frozenset({"classification"}),
    "time-series classification": frozenset({"classification", "segmentation"}),
    "zero-shot classification": frozenset({"classification", "retrieval"}),
    "segmentation": frozenset({"change detection", "instance segmentation", "time-series classification"}),
    "change detection": frozenset({"segmentation"}),
    "detection": frozenset({"instance segmentation"}),
    "instance segmentation": frozenset({"detection", "segmentation"}),
    "regression": frozenset({"segmentation"}),
    "captioning": frozenset({"vqa", "visual grounding"}),
    "vqa": frozenset({"captioning", "visual grounding"}),
    "visual grounding": frozenset({"vqa", "detection"}),
    "retrieval": frozenset({"zero-shot classification"}),
}
RELEVANCE_WEIGHT = {"application": 1.0, "task": 0.85, "related": 0.6}
CLOSE_GAP = 0.2
"""Relative distance to a column's best value at which closeness reaches 0 (20% behind the best)."""


def setting_class(bench: Benchmark) -> str:
    """Coarse evaluation protocol: zero-shot, few-shot, frozen or fine-tune."""
    text = (bench.setting or "").lower()
    if "zero" in text:
        return "zero-shot"
    if (
        "few" in text
        or "shot" in text
        or (bench.sampling_percentage is not None and bench.sampling_percentage <= 10)
    ):
        return "few-shot"
    if re.search(r"linear|frozen|knn|k-nn|probe", text):
        return "frozen"
    return "fine-tune"


@dataclass(frozen=True)
class Standing:
    """A value's place in its column: blended standing in [0, 1], column size, and rank."""

    standing: float | None
    n_models: int
    rank: int | None


@dataclass(frozen=True)
class EvidenceItem:
    """One reported result relevant to the user's task."""

    dataset: str
    metric: str
    value: float
    setting: str
    relevance: str
    standing: float | None
    n_models: int
    source_url: str
    sampling_percentage: float | None
    variant: str | None = None  # named only when the model reports results for several variants
    variant_size: float | None = None  # parameters (millions) of the variant reported, when its name tells
    application: str | None = None  # the benchmark's own application, when known
    rank: int | None = None  # 1 for the column's best value, when the column has other models
    # The dataset's imagery when it shares none with the imagery the user asked for, else empty
    other_imagery: tuple[str, ...] = ()

    def describe(self, *, name_application: bool = False) -> str:
        """e.g. 'mIoU 88.9 on Sen1Floods11 (ViT-L; fine-tune; #2 of 9 models reporting it)'.

        ``name_application`` adds what the benchmark is about ('on PASTIS, a crop type mapping
        benchmark'), for results shown on behalf of another application.
        """
        parts = [self.variant, self.setting] if self.variant else [self.setting]
        shown = [m for m in self.other_imagery if m != "Multi-temporal"]
        if shown:  # said, so an optical result is not read as one on the user's SAR
            parts.insert(0, f"{'/'.join(shown)} imagery")
        if self.sampling_percentage is not None and self.sampling_percentage < 100:
            parts.append(f"{self.sampling_percentage:g}% labels")
        if self.rank is not None and self.n_models > 1:
            parts.append(f"#{self.rank} of {self.n_models} models reporting it")
        about = ""
        if name_application and self.application:
            article = "an" if self.application[0] in "aeiou" else "a"
            about = f", {article} {self.application} benchmark"
        return f"{self.metric} {self.value:g} on {self.dataset}{about} ({'; '.join(parts)})"


class EvidenceIndex:
    """Every reported result in RS-FMD, grouped into comparable columns."""

    def __init__(self, records: Sequence[ModelRecord]) -> None:
        columns: dict[tuple[str, str, str], dict[str, float]] = defaultdict(dict)
        for record in records:
            for bench in record.benchmarks:
                key_ds = dataset_key(bench.dataset)
                for metric, value in bench.values().items():
                    column = columns[(key_ds, metric, setting_class(bench))]
                    higher = metric_info(metric).higher_is_better
                    old = column.get(record.model_id)
                    if old is None or (value > old if higher else value < old):
                        column[record.model_id] = value
        self._columns = dict(columns)
        # A standing depends on the column alone, not on the query: computed once per result.
        self._standings: dict[tuple[str, str, str, str], Standing] = {}
        self._rows_of: dict[int, tuple[ModelRecord, tuple[_Row, ...]]] = {}

    def standing(self, model_id: str, dataset: str, metric: str, setting: str) -> Standing:
        """Where the model's value sits in its column: standing (module docstring), size and rank."""
        key = (model_id, dataset, metric, setting)
        if (known := self._standings.get(key)) is None:
            known = self._standings[key] = self._standing(model_id, dataset, metric, setting)
        return known

    def _standing(self, model_id: str, dataset: str, metric: str, setting: str) -> Standing:
        column = self._columns.get((dataset_key(dataset), metric, setting), {})
        if model_id not in column or len(column) < 2:
            return Standing(None, len(column), None)
        mine = column[model_id]
        higher = metric_info(metric).higher_is_better
        others = [v for m, v in column.items() if m != model_id]
        beaten = sum(1.0 if (mine > v if higher else mine < v) else 0.5 if mine == v else 0.0 for v in others)
        better = sum(1 for v in others if (v > mine if higher else v < mine))
        best = max(column.values()) if higher else min(column.values())
        scale = max(abs(best), abs(mine))
        gap = abs(best - mine) / scale if scale > 0 else 0.0
        closeness = max(0.0, 1.0 - gap / CLOSE_GAP)
        return Standing(max(beaten / len(others), 0.5 * closeness), len(column), 1 + better)

    def _rows(self, record: ModelRecord) -> tuple[_Row, ...]:
        """The record's results with what the query does not change read once (the record is kept
        with them, so its id stays its own)."""
        kept = self._rows_of.get(id(record))
        if kept is None:
            rows = tuple(
                _Row(
                    b,
                    bench_application(b),
                    dataset_identity(b.dataset),
                    setting_class(b),
                    tuple(b.values().items()),
                    info.modalities if (info := find_dataset(b.dataset)) else (),
                    result_variant_size(record, b.variant) if b.variant else None,
                )
                for b in record.benchmarks
            )
            kept = self._rows_of[id(record)] = (record, rows)
        return kept[1]

    def reported_variant_sizes(self, record: ModelRecord) -> list[float]:
        """Parameters (millions) of the variants the record's results are known to be of."""
        return [row.variant_size for row in self._rows(record) if row.variant_size is not None]

    def relevant(self, record: ModelRecord, query: StructuredQuery) -> list[EvidenceItem]:
        """The record's results on the user's application, task type or related tasks, best first."""
        items: list[EvidenceItem] = []
        several_variants = len({b.variant for b in record.benchmarks if b.variant}) > 1
        seen: set[tuple[str, str, float, str]] = set()
        imagery = requested_imagery(query)
        named = dataset_identities(query.datasets)
        for row in self._rows(record):
            bench = row.bench
            relevance = _task_relevance(row, query, named)
            if relevance is None:
                continue
            # A known dataset sharing no modality with the imagery asked for is other imagery.
            elsewhere = row.imagery if imagery and row.imagery and imagery.isdisjoint(row.imagery) else ()
            if elsewhere:
                # A result on other imagery (an optical benchmark for a SAR task) says less about the task.
                relevance = _DOWNGRADE[relevance]
            for metric, value in row.values:
                # One result reported by two sources (the paper's README and a shared table, under
                # "UC Merced (8:2 split)" and "UC Merced") is one piece of evidence: keep the first.
                if (row.identity, metric, value, row.setting) in seen:
                    continue
                seen.add((row.identity, metric, value, row.setting))
                place = self.standing(record.model_id, bench.dataset, metric, row.setting)
                items.append(
                    EvidenceItem(
                        dataset=bench.dataset,
                        metric=metric,
                        value=value,
                        setting=row.setting,
                        relevance=relevance,
                        standing=place.standing,
                        n_models=place.n_models,
                        source_url=bench.source_url,
                        sampling_percentage=bench.sampling_percentage,
                        variant=bench.variant if several_variants else None,
                        variant_size=row.variant_size,
                        application=row.application,
                        rank=place.rank,
                        other_imagery=elsewhere,
                    )
                )
        items.sort(
            key=lambda i: (
                -RELEVANCE_WEIGHT[i.relevance],
                dataset_identity(i.dataset) not in named,  # results on a dataset the user named first
                bool(i.other_imagery),  # then results on the imagery the user asked for
                -(i.standing if i.standing is not None else -1),
            )
        )
        return items


_DOWNGRADE = {"application": "task", "task": "related", "related": "related"}


@dataclass(frozen=True)
class _Row:
    """A result and what the query does not change: its application, dataset, protocol, values."""

    bench: Benchmark
    application: str | None
    identity: str
    setting: str
    values: tuple[tuple[str, float], ...]
    imagery: tuple[str, ...]  # the dataset's modalities, when the dataset table knows them
    variant_size: float | None  # parameters (millions) of the variant reported, when its name tells


def _task_relevance(row: _Row, query: StructuredQuery, named: Collection[str]) -> str | None:
    """'application', 'task' or 'related' (``named``: the identities of the datasets the user named)."""
    bench = row.bench
    on_application = bool(query.application) and row.application == query.application
    if query.datasets:
        # The benchmarks the user named come first; other results on the application count as
        # results on the task.
        if row.identity in named:
            return "application"
        if on_application:
            return "task"
    elif on_application:
        # A task said apart from the application's usual one ('one polygon per building'): a result
        # of another kind on the application (semantic masks) shows the task less.
        said_apart = query.task_type not in {None, application_task_type(query.application or "")}
        return "task" if said_apart and bench.task_type != query.task_type else "application"
    if query.task_type is None:
        return "related"
    if bench.task_type == query.task_type:
        return "task"
    if bench.task_type in RELATED_TASKS.get(query.task_type, frozenset()):
        return "related"
    return None


def same_imagery(bench: Benchmark, modalities: Collection[str]) -> bool:
    """False only when the dataset's imagery is known and shares no modality with the query's."""
    return _dataset_shares_imagery(bench.dataset, modalities)


def other_imagery(datasets: Collection[str], modalities: Collection[str]) -> bool:
    """True when the user named imagery and every one of ``datasets`` is known to be of another kind."""
    return (
        bool(modalities)
        and bool(datasets)
        and not any(_dataset_shares_imagery(d, modalities) for d in datasets)
    )


def _dataset_shares_imagery(dataset: str, modalities: Collection[str]) -> bool:
    info = find_dataset(dataset)
    if info is None or not info.modalities:
        return True
    return bool(set(info.modalities) & set(modalities))
