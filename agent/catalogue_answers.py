"""Answers to questions about the catalogue, from the models that pass the task's hard constraints:
how many take the imagery asked for, who reports results on a benchmark and the best of them, the
extremes (most modalities or sensors, the oldest) and sizes. The models an answer lists are ranked
to be shown, and those that answer it in full come first."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from agent.catalogue_questions import (
    about_results,
    asks_leaderboard,
    asks_which_models,
    asks_who_reports,
    catalogue_superlative,
    size_question,
)
from agent.imagery_groups import answers_in_full, documented_for_all, imagery_groups, takes_all
from agent.query import StructuredQuery
from agent.size_answers import shown_size_note, size_note
from rsfmd.datasets import dataset_identities, dataset_identity
from rsfmd.schema import Alignment, Benchmark, Category, ModelRecord
from rsfmd.vocab import metric_info
from tools.candidate import Candidate
from tools.filtering import violations
from tools.inputs import COMPATIBLE_MODALITIES, requested_modalities
from tools.model_facts import protocol_parts
from tools.ranking import unconfirmed_requirements

if TYPE_CHECKING:
    from agent.turn import Turn

# Not a kind of input data but how it comes: not counted among a model's modalities.
_NOT_COUNTED = {"Multi-temporal"}


def answer_catalogue_question(
    turn: Turn, records: list[ModelRecord], by_id: Mapping[str, ModelRecord], strict: int
) -> None:
    """Answers the question about the catalogue the task asks, if any, among ``records`` (RS-FMD)
    that pass its hard constraints, when ``strict`` models meet them all: said first, with the
    models that answer it in full set in ``turn.answer_in_full``."""
    query, text = turn.query, turn.text
    size = size_question(text) if strict else None
    superlative = catalogue_superlative(text) if strict and not size else None
    reporting = bool(strict and not size and not superlative and asks_who_reports(text, query))
    leaderboard = bool(strict and not size and not superlative and asks_leaderboard(text, query))
    catalogue = bool(strict and not turn.named_only and asks_which_models(text, query))
    turn.answer_in_full = set()
    if not (size or catalogue or superlative or reporting or leaderboard):
        return
    passing = [r for r in records if not violations(r, query) and not unconfirmed_requirements(r, query)]
    if size and not query.precomputed_embeddings:
        # 'the smallest model for SAR': a question about models to run, not products.
        turn.answer_in_full = {r.model_id for r in passing if r.category != Category.embedding_product}
    if leaderboard:
        # 'which model has the highest mIoU on Sen1Floods11?': the best results reported.
        note, leaders = _leaderboard_note(passing, query)
        turn.answer(note)
        if leaders and about_results(text, query):
            turn.answer_in_full = {r.model_id for r in leaders}
            _consider(turn, leaders)
    elif reporting:
        _answer_who_reports(turn, passing)
    elif superlative:
        # 'which model handles the most modalities?': the models listed are those shown.
        note, listed = _superlative_note(passing, superlative, query.task_type)
        turn.answer(note)
        turn.answer_in_full = {r.model_id for r in listed}
        _consider(turn, listed)
    elif size and turn.size_among:
        # 'which of these is the smallest?': the models shown, then all that pass.
        shown = [by_id[i] for i in turn.size_among if i in by_id]
        turn.answer(shown_size_note(shown, largest=size == "largest", limit=query.compute.parameter_limit()))
        turn.answer(size_note(passing, query, largest=size == "largest"))
    elif size:
        # 'the smallest model that takes Sentinel-1': answered by size, whatever the ranking.
        turn.answer(size_note(passing, query, largest=size == "largest"))
    else:
        _answer_how_many(turn, passing)


def _answer_who_reports(turn: Turn, passing: list[ModelRecord]) -> None:
    """'which models were evaluated on BigEarthNet?': how many report results there, shown first."""
    query = turn.query
    named = dataset_identities(query.datasets)
    on = {r.model_id: named & {dataset_identity(b.dataset) for b in r.benchmarks} for r in passing}
    reporting_models = [r for r in passing if on[r.model_id]]
    on_all = [r for r in reporting_models if on[r.model_id] == named]
    every = ""
    if len(named) > 1:
        # 'results on BigEarthNet and EuroSAT': those reporting on all are shown first.
        every = f" ({len(on_all)} of them on {'both' if len(named) == 2 else f'all {len(named)}'})"
    turn.answer(
        f"{len(reporting_models)} models in RS-FMD that pass the hard constraints of this task "
        f"report results on {' or '.join(query.datasets)}{every}; shown are the best placed for "
        "the task among them (browse them in the app's Explore tab or with `remsa db list`)"
    )
    turn.answer_in_full = {r.model_id for r in on_all or reporting_models}
    _consider(turn, reporting_models)


def _answer_how_many(turn: Turn, passing: list[ModelRecord]) -> None:
    """'which models take EnMAP?': a question about the catalogue; say how many answer it."""
    query = turn.query
    groups = imagery_groups(requested_modalities(query))
    # A model passes on any one of the imagery asked for: 'optical and SAR' also asks
    # how many take them all.
    both = sum(takes_all(r, groups) for r in passing)
    # Those that answer all of a question the counts below split are shown first.
    if len(groups) > 1 or requested_modalities(query) & {"LiDAR", "DEM"} or len(query.sensor) > 1:
        turn.answer_in_full = {r.model_id for r in passing if answers_in_full(r, query, groups)}
    together = (
        f" ({both} of them {'takes' if both == 1 else 'take'} "
        f"{' and '.join(name for name, _ in groups)} together)"
        if len(groups) > 1
        else ""
    )
    for wanted in sorted(requested_modalities(query) & {"LiDAR", "DEM"}):
        # 'which models take LiDAR?': a DEM raster stands in for LiDAR, but say so.
        itself = sum(wanted in r.modalities for r in passing)
        if itself < len(passing):
            other = " or ".join(sorted(COMPATIBLE_MODALITIES[wanted] - {wanted}))
            together += f" ({itself} of them take {wanted} itself, the others {other} only)"
    if len(query.sensor) > 1:
        # 'Landsat 8 and Sentinel-2 together': a model passes on any one sensor asked for.
        documented = sum(documented_for_all(r, query.sensor) for r in passing)
        any_bands = sum(r.spectral_alignment == Alignment.full for r in passing)
        # ... which says more than the imagery they take together.
        together = (
            f" ({documented} of them documented for {' and '.join(query.sensor)} together"
            + (f", {any_bands} taking any band set" if any_bands else "")
            + ")"
        )
    full = len(turn.answer_in_full)
    first = f", the {full} that answer it in full first" if 0 < full < len(passing) else ""
    turn.answer(
        f"{len(passing)} models in RS-FMD pass the hard constraints of this task{together}; "
        f"shown are the best placed on general-purpose capability{first} (browse them in the "
        "app's Explore tab or with `remsa db list`)"
    )


def _consider(turn: Turn, records: list[ModelRecord]) -> None:
    """Adds ``records`` to the candidates ranked, those not already among them: the models an answer
    lists are ranked to be shown, whatever retrieval found."""
    present = {c.record.model_id for c in turn.candidates}
    turn.candidates += [Candidate(record=r) for r in records if r.model_id not in present]


def _superlative_note(
    records: list[ModelRecord],
    kind: Literal["modalities", "sensors", "earliest"],
    task: str | None = None,
    shown: int = 5,
) -> tuple[str, list[ModelRecord]]:
    """The answer to 'which model handles the most modalities (sensors)?' or 'the oldest model?'
    among ``records`` (those passing the task's hard constraints) that handle ``task``, and the
    models it names."""
    records = [r for r in records if task is None or task in r.all_task_types]
    scope = f"of the {len(records)} models that pass the task's hard constraints"
    if task:
        scope += f" and handle {task}"
    if kind == "earliest":
        dated = [r for r in records if r.year is not None]
        dated.sort(key=lambda r: (r.release_date or dt.date(r.year or 1, 12, 31), r.model_name.lower()))
        listed = dated[:shown]
        undated = len(records) - len(dated)
        tail = f"; {undated} more do not document their release" if undated else ""
        names = ", ".join(f"{r.model_name} ({r.release_date or r.year})" for r in listed)
        return f"Earliest released {scope}: {names}{tail}", listed
    if kind == "modalities":
        counted = {r.model_id: [m for m in r.modalities if m not in _NOT_COUNTED] for r in records}
        what = "input modalities (multi-temporal not counted as one)"
    else:
        counted = {r.model_id: list(r.supported_sensors) for r in records}
        what = "documented sensors"
    ranked = sorted(records, key=lambda r: (-len(counted[r.model_id]), r.model_name.lower()))
    listed = [r for r in ranked[:shown] if counted[r.model_id]]
    if not listed:
        return f"None {scope} documents its {what}", []
    names = ", ".join(
        f"{r.model_name} ({len(counted[r.model_id])}: {', '.join(counted[r.model_id])})" for r in listed
    )
    return f"Most {what} {scope}: {names}", listed


def _leaderboard_note(
    records: list[ModelRecord], query: StructuredQuery, shown: int = 5
) -> tuple[str, list[ModelRecord]]:
    """The best result each of ``records`` (those passing the task's hard constraints) reports on
    the benchmarks the task names, best first, in the metric the task names or else the one most
    reported there; and the models listed."""
    named = dataset_identities(query.datasets)
    rows = [(r, b) for r in records for b in r.benchmarks if dataset_identity(b.dataset) in named]
    # Results of the task's type: BigEarthNet's retrieval mAP is no classification mAP.
    rows = [(r, b) for r, b in rows if b.task_type == query.task_type] or rows
    where = " or ".join(query.datasets)
    if not rows:
        return f"No model that passes the task's hard constraints reports a result on {where}", []
    counts = Counter(m for _, b in rows for m in b.metrics)
    asked = [m for m in query.priority_metrics if m in counts]
    metric = asked[0] if asked else counts.most_common(1)[0][0]
    higher = metric_info(metric).higher_is_better
    best: dict[str, tuple[float, ModelRecord, Benchmark]] = {}
    for record, bench in rows:
        value = bench.values().get(metric)
        if value is None:
            continue
        held = best.get(record.model_id)
        if held is None or (value > held[0] if higher else value < held[0]):
            best[record.model_id] = (value, record, bench)
    ranked = sorted(best.values(), key=lambda item: (-item[0] if higher else item[0], item[1].model_name))
    listed = ranked[:shown]

    def said(value: float, record: ModelRecord, bench: Benchmark) -> str:
        how = [bench.dataset] if dataset_identity(bench.dataset) != bench.dataset else []
        how += protocol_parts(bench)
        return f"{record.model_name} {value:g}" + (f" ({', '.join(how)})" if how else "")

    items = ", ".join(said(*item) for item in listed)
    end = "Highest" if higher else "Lowest"
    models = f"{len(best)} models that pass" if len(best) > 1 else "1 model that passes"
    report = "reports" if len(best) == 1 else "report"
    return (
        f"{end} reported {metric} on {where} of the {models} the task's hard constraints and "
        f"{report} it: {items}; as each source reports it, under the protocols shown",
        [record for _, record, _ in listed],
    )
