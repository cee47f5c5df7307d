"""Ranking criteria on what a model is: task fit, data fit, adoption and recency (its size against the
user's budget is judged in ``tools/fit.py``).

Each returns a ``Criterion``: a score in [0, 1], the evidence behind it, and whether that evidence
is real (``known``) or a default.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from functools import cache

from agent.query import EITHER_MODALITIES, StructuredQuery
from rsfmd.datasets import (
    bench_application,
    dataset_family,
    dataset_identity,
    described_for,
    evaluated_on,
    pretrained_on,
    results_only_as_another_task,
)
from rsfmd.schema import Alignment, Category, ModelRecord
from rsfmd.vocab import PROMPTED_TASKS
from tools.candidate import Candidate, Criterion
from tools.evidence import RELATED_TASKS, same_imagery
from tools.filtering import coarser_grid, reads_no_text_for
from tools.fit import far_from_users_pixels
from tools.inputs import (
    compatible_for,
    images_with_images,
    models_time,
    requested_imagery,
    requested_modalities,
)

MAP_TASKS = frozenset({"segmentation", "instance segmentation", "regression", "change detection"})
# Applications whose input is an image pair, though their task type is shared with single-image
# ones: a change captioner writes about a before and an after image, not about one image.
PAIR_INPUT_APPLICATIONS = frozenset({"change captioning"})


def _named_datasets_shown(record: ModelRecord, query: StructuredQuery) -> list[str]:
    """The datasets the user named on which ``record`` reports a result, in the order named."""
    have = {dataset_identity(b.dataset) for b in record.benchmarks}
    return [d for d in query.datasets if dataset_identity(d) in have]


def _dataset_list(names: Sequence[str], named: int) -> str:
    """'EuroSAT, BigEarthNet'; a long list (a suite) is counted: '9 of the 12 named datasets (A, B, ...)'."""
    if len(names) <= 4:
        return ", ".join(names)
    return f"{len(names)} of the {named} named datasets ({', '.join(names[:3])}, ...)"


def _input_mismatch(r: ModelRecord, query: StructuredQuery, shown_on_application: bool) -> Criterion | None:
    """The task's kind of input or output the model cannot take or give (text, prompts), if any."""
    # Retrieval pairs images with another modality: text (vision-language) or sound (vision-audio).
    cross_modal = (
        {Category.vision_language, Category.vision_audio}
        if query.task_type == "retrieval"
        else {Category.vision_language}
    )
    # (unless the application pairs images with images: 'find tiles that look like this one')
    if (
        query.task_type in PROMPTED_TASKS
        and r.category not in cross_modal
        and not shown_on_application
        and not images_with_images(query)
    ):
        return Criterion(0.1, evidence=[f"{query.task_type} needs a vision-language model"], known=True)
    if reads_no_text_for(r, query):
        # 'open-vocabulary detection': the classes come as text, which a closed-set model cannot read.
        return Criterion(0.1, evidence=[f"{query.application} needs a model that reads text"], known=True)
    if (query.conversational or query.task_type == "vqa") and not r.writes_text:
        # A CLIP-style model answers a question only by choosing among answers it is given.
        return Criterion(0.2, evidence=["writes no free text: it can only pick among given answers"])
    if query.application == "promptable segmentation" and not shown_on_application:
        # Clicks or boxes in, masks out: a segmenter trained with class heads takes no prompts.
        if r.takes_prompts:
            return Criterion(0.9, evidence=["segments from point or box prompts (SAM-style)"])
        # As a vision-language task needs a vision-language model: without prompts it cannot be done.
        if {"segmentation", "instance segmentation"} & set(r.all_task_types):
            return Criterion(0.1, evidence=["segments, but takes no point or box prompts"], known=True)
        return Criterion(0.1, evidence=["takes no point or box prompts"], known=True)
    return None


def application_fit(c: Candidate, query: StructuredQuery, unevidenced: bool = False) -> Criterion:
    """Does the model do the user's kind of task? ``unevidenced``: no candidate reports a result on
    the application, so a model whose description names it is the nearest thing to evidence."""
    r = c.record
    tasks = set(r.all_task_types)
    shown_on_application = evaluated_on(r, query.application)
    if (cannot := _input_mismatch(r, query, shown_on_application)) is not None:
        return cannot
    if query.datasets:
        if shown := sorted(set(_named_datasets_shown(r, query))):
            return Criterion(1.0, evidence=[f"evaluated on {_dataset_list(shown, len(query.datasets))}"])
        have = {dataset_identity(b.dataset) for b in r.benchmarks}
        if variants := sorted(have & dataset_family(query.datasets)):
            # PASTIS-HD for PASTIS: the same images or labels, under another input set or protocol.
            named = " or ".join(query.datasets)
            return Criterion(0.95, evidence=[f"evaluated on {', '.join(variants[:2])}, a variant of {named}"])
    if shown_on_application and query.datasets:
        text = (
            f"evaluated on {query.application}, not on {_dataset_list(query.datasets, len(query.datasets))}"
        )
        # The user named the benchmark: a result elsewhere on the application is not a result there.
        return Criterion(0.8, evidence=[text])
    if shown_on_application and (
        other := results_only_as_another_task(r, query.application, query.task_type)
    ):
        # 'one polygon per building': results on building segmentation as semantic masks only.
        said = f"evaluated on {query.application} as {other}, not {query.task_type}"
        return Criterion(0.8, evidence=[said])
    if shown_on_application:
        imagery = requested_imagery(query)
        on_users_imagery = not imagery or any(
            bench_application(b) == query.application
            and same_imagery(b, imagery)
            and not far_from_users_pixels(b.dataset, query)
            for b in r.benchmarks
        )
        if on_users_imagery:
            return Criterion(1.0, evidence=[f"evaluated on {query.application}"])
        return Criterion(0.9, evidence=[f"evaluated on {query.application}, but on other imagery"])
    built = r.category == Category.task_specific
    if (unevidenced or built) and query.application and described_for(r, query.application):
        # 'archaeological sites': DeepAndes reports no result yet, but was built for them; so was a
        # task-specific model (polygonal building extraction) whose results RS-FMD does not hold.
        return Criterion(0.9, evidence=[f"described as a model for {query.application}, no result recorded"])
    if pairs := image_pairs_only(r, query):
        return Criterion(0.3, evidence=[f"{query.task_type} of image pairs only ({', '.join(pairs)})"])
    if query.task_type and query.task_type in tasks:
        return Criterion(0.75, evidence=[f"handles {query.task_type}"])
    if query.task_type == "segmentation" and query.multi_temporal and "time-series classification" in tasks:
        # A map from image time series is each pixel's series classified: what such an encoder does.
        return Criterion(0.75, evidence=["maps by classifying each pixel's time series"])
    if query.task_type in MAP_TASKS and r.category == Category.vision_language and r.writes_text:
        # A chat model answers in words; masks, boxes or values per pixel need a model shown making them.
        return Criterion(0.3, evidence=[f"writes text, not shown giving {query.task_type} output"])
    if query.task_type and tasks & RELATED_TASKS.get(query.task_type, frozenset()):
        return Criterion(0.55, evidence=[f"handles related tasks ({', '.join(sorted(tasks)[:3])})"])
    if not tasks:
        base = 0.35 + 0.3 * max(0.0, min(1.0, c.similarity))
        return Criterion(base, evidence=["task coverage not documented"], known=False)
    if query.task_type is None:
        return Criterion(
            0.5 + 0.3 * max(0.0, min(1.0, c.similarity)), evidence=["no task stated"], known=False
        )
    return Criterion(0.2, evidence=[f"shown on {', '.join(sorted(tasks)[:3])}, not {query.task_type}"])


_WAVELENGTH_AWARE = "wavelength-aware: takes arbitrary band sets"


def modality_fit(c: Candidate, query: StructuredQuery) -> Criterion:
    """Does the model take the user's data: modality, sensor, time series?"""
    found = _modality_fit(c, query)
    if (
        query.any_bands
        and c.record.spectral_alignment == Alignment.full
        and _WAVELENGTH_AWARE not in found.evidence
    ):
        found.evidence.insert(0, _WAVELENGTH_AWARE)  # what the user asked for first
    if query.pretrained_on and (matched := pretrained_on(c.record, query.pretrained_on)):
        found.evidence.insert(0, f"pretrained on {' and '.join(matched)}, as asked")
    return found


def _modality_fit(c: Candidate, query: StructuredQuery) -> Criterion:
    r = c.record
    wanted = requested_modalities(query)
    have = set(r.modalities)
    evidence: list[str] = []
    if not wanted:
        return _unstated_modality_fit(r, query)
    exact = wanted & have
    compatible = compatible_for(query)
    partial = {m for m in wanted - exact if have & compatible.get(m, frozenset())}
    if partial and (shown := _named_datasets_shown(r, query)):
        # A result on the benchmark whose imagery the user has (NIR-red-green tiles 'like Potsdam')
        # shows the model takes that imagery.
        exact, partial = exact | partial, set()
        evidence.append(f"takes the imagery of {shown[0]}, on which it reports results")
    either = wanted & EITHER_MODALITIES if query.either_modality else set()
    if either & exact:
        # 'Optical imagery': RGB or multispectral, either serving; a model for one meets the wish.
        partial -= either
        wanted = (wanted - either) | (either & exact)
    elif either:
        # One wish, met at best through related input (Hyperspectral for multispectral).
        one = min(either & partial or either)
        wanted = (wanted - either) | {one}
        partial = (partial - either) | ({one} & partial)
    # Coordinates with no imagery ('from coordinates alone'): a model that takes a location only
    # beside its imagery, as metadata, half meets it; a location encoder meets it.
    beside_imagery = (
        "Location" in exact and not requested_imagery(query) and r.category != Category.vision_location
    )
    # Each modality counts by its rarity in RS-FMD: beside common Multispectral, the thermal band
    # or the hyperspectral cube the user names is what makes the task theirs.
    weight = modality_rarity()
    total = sum(weight(m) for m in wanted)
    score = (
        sum(weight(m) for m in exact)
        - 0.5 * beside_imagery * weight("Location")
        + 0.5 * sum(weight(m) for m in partial)
    ) / total
    if beside_imagery:
        evidence.append("takes Location, but beside imagery (not a location encoder)")
        exact = exact - {"Location"}
    if exact:
        evidence.append(f"takes {', '.join(sorted(exact))}")
    if partial:
        through = sorted({h for m in partial for h in have & compatible[m]})
        evidence.append(f"{', '.join(sorted(partial))} only through related input ({', '.join(through)})")
    # How the model's pretraining imagery fits the user's sensor is the imagery criterion's.
    if coarse := coarser_grid(r, query):
        score *= 0.5
        evidence.append(coarse)
    if query.multi_temporal:
        if not models_time(r):
            score, said = 0.8 * score, "single-date input only"
        elif r.temporal_alignment == Alignment.partial:
            # Time pooled over images or given as metadata (RS-FMD's 'partial' temporal alignment).
            score, said = 0.8 * score + 0.1, "models time series only in part"
        else:
            score, said = 0.8 * score + 0.2, "models time series"
        evidence.append(said)
    return Criterion(min(score, 1.0), evidence=evidence)


def _unstated_modality_fit(r: ModelRecord, query: StructuredQuery) -> Criterion:
    """No modality stated: the usual inputs of the task, when assumed, are preferred."""
    have = set(r.modalities)
    usual = set(query.assumed_modality) - {"Multi-temporal"}
    if usual and have & usual:
        found = Criterion(
            0.75, evidence=[f"takes {', '.join(sorted(have & usual))}, the usual input"], known=False
        )
    elif usual:
        found = Criterion(
            0.35, evidence=[f"takes {', '.join(sorted(have)) or 'unknown inputs'}"], known=False
        )
    else:
        found = Criterion(0.6, evidence=["no modality stated"], known=False)
    if coarse := coarser_grid(r, query):
        found.score *= 0.5
        found.evidence.append(coarse)
    return found


@cache
def modality_counts() -> dict[str, int]:
    """How many RS-FMD records take each modality."""
    import json
    from collections import Counter

    from rsfmd.loader import data_files

    # Read from the shipped records' JSON (no validation needed to count a list of names).
    counts: Counter[str] = Counter()
    for file in data_files(None):
        for line in file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                counts.update(json.loads(line).get("modalities", []))
    return dict(counts)


@cache
def modality_rarity() -> Callable[[str], float]:
    """Weight of a modality in the modality fit: 1/sqrt(records in RS-FMD that take it)."""
    counts = modality_counts()
    return lambda modality: 1.0 / math.sqrt(max(counts.get(modality, 1), 1))


def image_pairs_only(record: ModelRecord, query: StructuredQuery) -> list[str]:
    """The image-pair applications (change captioning) a model does its task type on, when those
    are all it does it on and the user's task takes single images; else nothing. Read from its
    results of that task type, or, with none, from its description."""
    if not query.task_type or query.multi_temporal or query.application in PAIR_INPUT_APPLICATIONS:
        return []
    on_task = [bench_application(b) for b in record.benchmarks if b.task_type == query.task_type]
    if on_task:
        pairs = [a for a in on_task if a in PAIR_INPUT_APPLICATIONS]
        return sorted(set(pairs)) if len(pairs) == len(on_task) else []
    return sorted(a for a in PAIR_INPUT_APPLICATIONS if described_for(record, a))


def popularity_fit(c: Candidate) -> Criterion:
    """Stars or citations when known; else how many independent evaluations include the model."""
    r = c.record
    if r.github_stars is not None or r.citations is not None:
        count = max(r.github_stars or 0, r.citations or 0)
        return Criterion(min(1.0, math.log10(count + 1) / 3.5), evidence=[f"{count} stars/citations"])
    # The model's own pages (its paper, repository and the sources its record cites) are no
    # independent evaluation of it.
    own = {s.url for s in r.sources}
    prefixes = tuple(u.rstrip("/") for u in (r.repository, r.paper_link) if u)
    sources = {
        url
        for b in r.benchmarks
        if (url := b.source_url) not in own and not (prefixes and url.startswith(prefixes))
    }
    score = min(1.0, 0.3 + 0.2 * len(sources))
    return Criterion(score, evidence=[f"in {len(sources)} independent evaluation(s)"], known=bool(sources))


def release_day(record: ModelRecord) -> dt.date | None:
    """The release date, or mid-year when only the year is known; None when neither is."""
    if record.release_date is not None:
        return record.release_date
    return dt.date(record.year, 7, 1) if record.year is not None else None


def recency_fit(c: Candidate, newest: dt.date | None = None) -> Criterion:
    """Release year, as in the rubric (2025+ best).

    When the user asks for the latest models, ``newest`` (the latest release among the candidates)
    sets a finer scale: 1.0 for it, 0.2 less for every year before it.
    """
    released = release_day(c.record)
    if released is None:
        return Criterion(0.4, evidence=["release date unknown"], known=False)
    year = released.year
    if newest is not None:
        score = max(0.0, 1.0 - 0.2 * (newest - released).days / 365.25)
        shown = c.record.release_date.isoformat() if c.record.release_date else str(year)
        return Criterion(min(score, 1.0), evidence=[f"released {shown}"])
    score = {2026: 1.0, 2025: 1.0, 2024: 0.8, 2023: 0.6, 2022: 0.4}.get(year, 0.2 if year < 2022 else 1.0)
    return Criterion(score, evidence=[f"released {year}"])
