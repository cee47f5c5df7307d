"""Answers by model size: the smallest (or largest) of the models that pass a task's hard
constraints, or of the models an answer showed ('which of these is the smallest?')."""

from __future__ import annotations

from agent.imagery_groups import imagery_groups, takes_all
from agent.query import StructuredQuery
from rsfmd.schema import Category, ModelRecord
from tools.criteria import image_pairs_only
from tools.filtering import task_takes_text
from tools.fit import LOW_CONFIDENCE, size_confidence
from tools.inputs import requested_modalities


def size_note(
    records: list[ModelRecord], query: StructuredQuery, *, largest: bool = False, shown: int = 5
) -> str:
    """The smallest of ``records`` (those passing the task's hard constraints) that handle its task
    type, by their smallest variant, or the largest by their largest: the plain answer to 'which is
    the smallest (largest) model that ...'."""
    task = query.task_type
    # 'Sentinel-1 and Sentinel-2 together': a model for all the imagery asked for, not for part of it.
    groups = imagery_groups(requested_modalities(query))
    # For a task with no text in or out, a vision-language model's size is mostly its language
    # model: 'the biggest RS vision models' are not 7B chat models.
    kinds = {Category.embedding_product} | (set() if task_takes_text(query) else {Category.vision_language})
    passing = [
        r
        for r in records
        if r.category not in kinds
        and (task is None or task in r.all_task_types)
        and takes_all(r, groups)
        and not image_pairs_only(r, query)  # (a change captioner captions no single image)
    ]
    # Under a size budget ('best under 10M params? ... and the largest?'), the largest variant within it.
    limit = query.compute.parameter_limit() if largest else None
    sized = _by_size(passing, largest, limit)
    scope = _scope(groups, task)
    if not passing:
        # 'which of these is the smallest?' when nothing passes: said plainly, not 'none of the 0'.
        return f"No model to run in RS-FMD {_scope(groups, task, one=True)}"
    if not sized:
        return f"None of the {len(passing)} models to run that {scope} documents its size"
    unknown = len(passing) - len(sized)
    tail = f"; {unknown} more do not document their size" if unknown else ""
    return (
        f"{'Largest' if largest else 'Smallest'} of the {len(passing)} models to run that {scope}, "
        f"by their {'largest' if largest else 'smallest'} variant"
        f"{f' within {limit:g}M' if limit is not None else ''}: {_sizes(sized[:shown], largest, limit)}{tail}"
    )


def _scope(groups: list[tuple[str, frozenset[str]]], task: str | None, *, one: bool = False) -> str:
    """'pass the task's hard constraints, take SAR and optical and handle segmentation' (with
    ``one``, said of one model: 'passes ...')."""
    s = "s" if one else ""
    scope = f"pass{'es' if one else ''} the task's hard constraints"
    if len(groups) > 1:
        scope += f", take{s} {' and '.join(name for name, _ in groups)}"
    if task:
        scope += f" and handle{s} {task}"
    return scope


def shown_size_note(records: list[ModelRecord], *, largest: bool = False, limit: float | None = None) -> str:
    """The models an answer showed, smallest (largest) first by their smallest (largest) variant
    (within ``limit``, a size budget): the answer to 'which of these is the smallest?'."""
    end = "largest" if largest else "smallest"
    limit = limit if largest else None
    sized = _by_size(records, largest, limit)
    if not sized:
        return f"None of the {len(records)} models shown documents its size"
    unsized = [r.model_name for r in records if _variant_size(r, largest, limit) is None]
    tail = ""
    if unsized:
        verb = "does not document its" if len(unsized) == 1 else "do not document their"
        tail = f"; {', '.join(unsized)} {verb} size"
    listed = _sizes(sized, largest, limit)
    within = f" within {limit:g}M" if limit is not None else ""
    return f"Of the {len(records)} models shown, {end} first by their {end} variant{within}: {listed}{tail}"


def _variant_size(record: ModelRecord, largest: bool, limit: float | None = None) -> float | None:
    """The record's smallest (largest) variant's size; the largest within ``limit`` when one is given."""
    if largest and limit is not None:
        fits = [size for size in record.released_sizes if size <= limit]
        return max(fits) if fits else record.smallest_parameters
    return record.largest_parameters if largest else record.smallest_parameters


def _by_size(records: list[ModelRecord], largest: bool, limit: float | None = None) -> list[ModelRecord]:
    """``records`` that document their size, smallest (or largest) first, by that end's variant."""
    return sorted(
        (r for r in records if _variant_size(r, largest, limit) is not None),
        key=lambda r: ((-1 if largest else 1) * (_variant_size(r, largest, limit) or 0.0), r.model_name),
    )


def _sizes(records: list[ModelRecord], largest: bool, limit: float | None = None) -> str:
    """'SatMAE (86M), CROMA (about 300M)': 'about' where the size is derived."""
    about = {r.model_id: "about " if size_confidence(r) < LOW_CONFIDENCE else "" for r in records}
    return ", ".join(
        f"{r.model_name} ({about[r.model_id]}{_variant_size(r, largest, limit):g}M)" for r in records
    )
