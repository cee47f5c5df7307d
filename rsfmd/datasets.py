"""The controlled table of benchmark datasets (``rsfmd/vocab/datasets.csv``).

Same conventions as the other vocabularies: a canonical ``name``, pipe-separated ``synonyms``,
matching that ignores case, spaces, hyphens, underscores and dots. Extra columns give the task
type, application, modalities, sensors, region and the dataset's conventional metric.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from rsfmd.backbones import spelling_pattern
from rsfmd.vocab import (
    UnknownTermError,
    Vocabulary,
    _read_table,
    application_task_type,
    get_vocabulary,
    term_key,
)

if TYPE_CHECKING:
    from rsfmd.schema import Benchmark, ModelRecord


@dataclass(frozen=True)
class DatasetInfo:
    """One benchmark dataset as described in the table."""

    name: str
    task_type: str
    application: str | None
    modalities: tuple[str, ...]
    sensors: tuple[str, ...]
    regions: tuple[str, ...]
    metric: str | None
    notes: str


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split("|") if part.strip())


@cache
def get_dataset_table() -> Vocabulary:
    """Load (once) the dataset table as a Vocabulary."""
    return _read_table("datasets")


@cache
def get_suite_table() -> Vocabulary:
    """Load (once) the table of benchmark suites (``rsfmd/vocab/suites.csv``): PANGAEA, GEO-Bench..."""
    return _read_table("suites")


def suite_datasets(suite: str) -> tuple[str, ...]:
    """The datasets of a benchmark suite (canonical or synonym name), as the suite names them."""
    table = get_suite_table()
    return _split(table.rows[table.normalise(suite)].get("datasets", ""))


def normalise_dataset(value: str) -> str:
    """Canonical dataset name; raises UnknownTermError (with suggestions) when unknown."""
    table = get_dataset_table()
    found = table.get(value)
    if found is None:
        raise UnknownTermError("datasets", value, table.suggest(value))
    return found


def dataset_info(value: str) -> DatasetInfo:
    """Facts about a (canonical or synonym) dataset name."""
    table = get_dataset_table()
    name = normalise_dataset(value)
    row = table.rows[name]
    return DatasetInfo(
        name=name,
        task_type=row["task_type"],
        application=row.get("application") or None,
        modalities=_split(row.get("modality", "")),
        sensors=_split(row.get("sensors", "")),
        regions=_split(row.get("region", "")),
        metric=row.get("metric") or None,
        notes=row.get("notes", ""),
    )


_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


def strip_qualifier(name: str) -> str:
    """``name`` without a trailing qualifier in brackets ('HLS Burn Scars (PANGAEA)' -> 'HLS Burn Scars')."""
    return _QUALIFIER.sub("", name)


@cache
def find_dataset(value: str) -> DatasetInfo | None:
    """Facts about a dataset, or None when the table does not know it (cheap; cached).

    A trailing qualifier in brackets names a protocol or suite, not another dataset
    ("HLS Burn Scars (PANGAEA)" is HLS Burn Scars), so it is dropped when the full name is unknown.
    """
    table = get_dataset_table()
    found = table.get(value)
    if found is None and (base := strip_qualifier(value)) != value and base:
        found = table.get(base)
    return dataset_info(found) if found is not None else None


@cache
def dataset_key(name: str) -> str:
    """Canonical dataset name when the dataset table knows it, else a normalised key.

    A protocol in brackets keeps its own key ('HLS Burn Scars (PANGAEA)'): results under another
    protocol form a column of their own when models are compared.
    """
    return get_dataset_table().get(name) or term_key(name)


@cache
def dataset_identity(name: str) -> str:
    """Which dataset a result is on, protocol aside ('HLS Burn Scars (PANGAEA)' is HLS Burn Scars)."""
    info = find_dataset(name)
    return info.name if info is not None else dataset_key(name)


def dataset_identities(names: Sequence[str]) -> frozenset[str]:
    """``dataset_identity`` of each name: the datasets a task named, to test results against."""
    return _identities(tuple(names))


@cache
def _identities(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(dataset_identity(n) for n in names)


def dataset_family(names: Sequence[str]) -> frozenset[str]:
    """The identities of the named datasets and of their variants (``variant_of`` in the table:
    the same images or labels under another split, input set or protocol, e.g. m-eurosat and
    EuroSAT, PASTIS-HD and PASTIS): a result on any of them is a result on what was named."""
    return _family(tuple(names))


@cache
def _family(names: tuple[str, ...]) -> frozenset[str]:
    base_of = _variant_bases()
    bases = {base_of.get(i, i) for i in _identities(names)}
    return frozenset(bases | {v for v, b in base_of.items() if b in bases} | _identities(names))


@cache
def _variant_bases() -> dict[str, str]:
    table = get_dataset_table()
    return {name: base for name in table.names if (base := table.rows[name].get("variant_of") or "")}


def list_datasets() -> list[str]:
    """Canonical dataset names in table order."""
    return get_dataset_table().names


# Outputs other than a dataset's usual one: its usual application does not carry over to them.
_OTHER_OUTPUT_TASKS = frozenset(
    {"generation", "super-resolution", "captioning", "vqa", "visual grounding", "retrieval"}
)


@cache
def _name_pattern(canonical: str) -> re.Pattern[str]:
    """Any of a dataset's names as words, separators loose: 'Million-AID' finds 'MillionAID' too."""
    table = get_dataset_table()
    names = dict.fromkeys([canonical, *(table.terms(canonical) if canonical in table.rows else [])])
    return re.compile("|".join(spelling_pattern(n) for n in names if n.strip()), re.IGNORECASE)


def pretrained_on(record: ModelRecord, datasets: Sequence[str]) -> list[str]:
    """Which of ``datasets`` (canonical names) the record's pretraining data names."""
    texts = [phase.dataset for phase in record.pretraining_phases if phase.dataset]
    return [d for d in datasets if any(_name_pattern(d).search(t) for t in texts)]


def evaluated_on(record: ModelRecord, application: str | None) -> bool:
    """Whether the record reports a result on ``application`` (False when none is given)."""
    return application is not None and any(bench_application(b) == application for b in record.benchmarks)


def results_only_as_another_task(
    record: ModelRecord, application: str | None, task_type: str | None
) -> str | None:
    """The one task type of all the record's results on ``application``, when the user asks for a
    task apart from the application's usual one (instance masks of buildings) that the model does
    not handle; else None."""
    if task_type in {None, application_task_type(application or "")} or task_type in record.all_task_types:
        return None
    kinds = {b.task_type for b in record.benchmarks if bench_application(b) == application}
    return next(iter(kinds)) if len(kinds) == 1 and task_type not in kinds else None


def described_for(record: ModelRecord, application: str) -> bool:
    """Whether the record's description names ``application`` (or a synonym of it): what a model
    built for an application says of itself, before any result on it is recorded."""
    names = _application_words(application)
    if not names:
        return False
    words = f" {_words(record.short_description)} "
    return any(f" {name} " in words for name in names)


@cache
def _words(text: str) -> str:
    """``text`` in lower case with every run of other characters one space: 'Land-cover mapping.'
    -> 'land cover mapping'."""
    return " ".join(re.split(r"[^a-z0-9]+", text.lower())).strip()


@cache
def _application_words(application: str) -> tuple[str, ...]:
    vocab = get_vocabulary("applications")
    canonical = vocab.get(application)
    if canonical is None:
        return ()
    return tuple(dict.fromkeys(w for n in [canonical, *vocab.synonyms(canonical)] if (w := _words(n))))


def bench_application(bench: Benchmark) -> str | None:
    """The benchmark's application, canonical when the vocabularies know it."""
    return _application(bench.application, bench.dataset, bench.task_type)


_MULTIPLE_CHOICE = re.compile(r"\bMCQ\b|multiple[\s-]choice", re.IGNORECASE)
_VL_FORMATS = (  # (label pattern, the row's task type, application)
    (
        re.compile(r"\bvqa\b|question answering", re.IGNORECASE),
        "vqa",
        "visual question answering",
    ),
    (re.compile(r"\bchange\s+captioning\b", re.IGNORECASE), "captioning", "change captioning"),
    (re.compile(r"\bcaptioning\b", re.IGNORECASE), "captioning", "image captioning"),
    (
        re.compile(r"referring expression comprehension|\bvisual grounding\b", re.IGNORECASE),
        "visual grounding",
        "visual grounding",
    ),
)


@cache
def _application(application: str | None, dataset: str, task_type: str) -> str | None:
    # A multiple-choice question about a task ('change detection (bi-temporal MCQ)') is answered by
    # picking an option: no result on the task's own output.
    if application and not _MULTIPLE_CHOICE.search(application):
        # A trailing qualifier names a protocol ("cross-view geo-localization (image retrieval)").
        vocab = get_vocabulary("applications")
        if found := vocab.get(application) or vocab.get(strip_qualifier(application)):
            return found
        # Vision-language results labelled by their format and what is asked ('VQA, quantity
        # questions', 'region captioning') are results on that format. Multiple-choice sets are not:
        # contrastive models answer them by matching options, which is no free-form answer.
        for pattern, format_task, format_application in _VL_FORMATS:
            if task_type == format_task and pattern.search(application):
                return format_application
    info = find_dataset(dataset)
    # A different kind of output on the same images (images generated from a classification
    # dataset's labels, questions about a change-detection pair, classes of a captioning set's
    # images) says nothing of its usual application.
    if info is None or (task_type != info.task_type and _OTHER_OUTPUT_TASKS & {task_type, info.task_type}):
        return None
    return info.application
