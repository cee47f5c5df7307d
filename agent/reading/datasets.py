"""Benchmark datasets, benchmark suites and pretraining data named in the task: 'on EuroSAT',
'the best model on PANGAEA' (its datasets), 'pretrained on SSL4EO-S12' (no benchmark to rank on).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.mentions import LIST_GAP, PRETRAINED_ON
from agent.reading.terms import dataset_terms, fold_accents, overlaps, scan_terms, suite_terms
from rsfmd.datasets import find_dataset, get_dataset_table, suite_datasets


def _pretraining_spans(plain: str) -> list[tuple[str, int, int]]:
    """Datasets named as pretraining data: 'pretrained on SSL4EO-S12', 'trained on MillionAID or
    fMoW'."""
    out: list[tuple[str, int, int]] = []
    if not re.search(r"train|learn", plain, re.IGNORECASE):
        return out  # (the scan of every dataset name is the costly part)
    explicit = False
    for name, start, end in scan_terms(plain, dataset_terms(corpora=True)):
        before = plain[max(0, start - 80) : start]
        listed = bool(out) and LIST_GAP.match(plain[out[-1][2] : start])
        if not listed:
            if not PRETRAINED_ON.search(before):
                continue
            explicit = bool(re.search(r"\bpre-?train", before[-40:], re.IGNORECASE))
        # 'a model trained on EuroSAT' is one fine-tuned there, a benchmark; 'trained on SeCo' (a
        # corpus) or 'pretrained on MillionAID' is pretraining data.
        info = find_dataset(name)
        if explicit or info is None or not info.task_type:
            out.append((name, start, end))
    return out


@dataclass
class NamedData:
    """The datasets and suites a task names, and the pretraining data it asks for."""

    plain: str
    """The text in one spacing, accents folded: the offsets below are into it."""
    datasets: list[str]
    pretrained_on: list[str]
    suites: list[str]
    dataset_ranges: list[tuple[int, int]]


def _member_for(name: str, application: str | None) -> str:
    """A name its family shares ('LEVIR' for LEVIR-OD and LEVIR-CD) read as the member for the
    application the text states: LEVIR-CD for building changes."""
    info = find_dataset(name)
    if application is None or info is None or info.application == application:
        return name
    members = [
        n
        for n in get_dataset_table().names
        if n.lower().startswith(f"{info.name.lower()}-")
        and (m := find_dataset(n))
        and m.application == application
    ]
    return members[0] if len(members) == 1 else name


def read_datasets(text: str, application: str | None, notes: list[str]) -> tuple[NamedData, str | None]:
    """The data the task names, and its application (``application``, else the one of the benchmark
    named); ``notes`` says what was read from them."""
    plain = fold_accents(" ".join(text.split()))
    pretraining = _pretraining_spans(plain)
    pretraining_ranges = [(s, e) for _, s, e in pretraining]
    # A dataset named as pretraining data is no benchmark to rank on: 'pretrained on BigEarthNet'.
    dataset_spans = [
        span
        for span in scan_terms(plain, dataset_terms())
        if not overlaps(span[1], span[2], pretraining_ranges)
    ]
    datasets = list(dict.fromkeys(_member_for(name, application) for name, _, _ in dataset_spans))
    dataset_ranges = [(s, e) for _, s, e in dataset_spans]
    if application is None and datasets:
        # 'the best model on EuroSAT': the named benchmark says what the task is.
        benchmark = find_dataset(datasets[0])
        if benchmark is not None and benchmark.application:
            application = benchmark.application
            notes.append(
                f"application read from the dataset named: {benchmark.name} is a {application} benchmark"
            )
    suite_spans = [
        (suite, start, end)
        for suite, start, end in scan_terms(plain, suite_terms())
        if not overlaps(start, end, dataset_ranges)
    ]
    for suite, start, end in suite_spans:
        # 'the best model on PANGAEA': results on the suite's datasets count first.
        members = suite_datasets(suite)
        datasets = list(dict.fromkeys([*datasets, *members]))
        notes.append(f"'{plain[start:end]}' read as its {len(members)} datasets: {', '.join(members)}")
    pretrained = list(dict.fromkeys(name for name, _, _ in pretraining))
    suites = list(dict.fromkeys(suite for suite, _, _ in suite_spans))
    return NamedData(plain, datasets, pretrained, suites, dataset_ranges), application
