"""Batch runner: every system on every benchmark query, resumable, then scores, metrics and the report.

Files in the output folder:

- ``picks.jsonl``: one line per finished (system, query), appended as soon as it finishes. A rerun
  skips pairs already there, except ``skipped`` picks of a system that has become available (e.g.
  an LLM is now configured) and, with ``retry_failed``, ``failed`` ones; a pair's latest line wins.
- ``scores.jsonl``: the rubric's criteria and final score of every (query, model) pair picked.
- ``metrics.json``, ``report.md`` and PNG charts (see evaluation.report).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, cast

from pydantic import BaseModel, ValidationError
from tqdm import tqdm

from agent.settings import Settings
from agent.systems import SelectionSystem, SystemPick
from benchmark_queries.generate import BenchmarkQuery
from evaluation.metrics import (
    CrossTemplateRanking,
    Outcome,
    SystemMetrics,
    difficulty_weighted_ranking,
    per_template,
    sensitivity,
    system_metrics,
    template_quality,
)
from evaluation.report import write_report
from evaluation.rubric import PairScore, Rubric
from evaluation.simulated_user import make_user
from rsfmd.loader import atomic_write_text, content_hash, load_database
from rsfmd.schema import ModelRecord

SYSTEM_NAMES = ("remsa", "remsa-llm", "db-retrieval", "remsa-naive", "unstructured-rag")
"""Systems of the paper's comparison, as named in agent.baselines.get_system."""

PICKS_FILE = "picks.jsonl"
SCORES_FILE = "scores.jsonl"
METRICS_FILE = "metrics.json"


class PickLine(BaseModel):
    """One line of picks.jsonl."""

    system: str
    query_id: str
    template: str
    pick: SystemPick


class PicksFileError(ValueError):
    """picks.jsonl has a bad line that is not an interrupted final write."""


def read_picks(path: Path, repair: bool = True) -> list[PickLine]:
    """All pick lines; an unparsable last line (interrupted append) is dropped and, with ``repair``, cut."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[PickLine] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            out.append(PickLine.model_validate_json(line))
        except ValidationError as exc:
            if number == len(lines):
                print(f"{path}:{number}: dropping an incomplete last line (interrupted run)", file=sys.stderr)
                if repair:
                    atomic_write_text(path, "".join(f"{kept}\n" for kept in lines[:-1]))
                break
            raise PicksFileError(
                f"{path}:{number}: not a pick line ({exc.errors()[0]['msg']}); fix or delete it"
            ) from exc
    return out


def latest_picks(lines: Sequence[PickLine]) -> dict[tuple[str, str], PickLine]:
    """(system, query id) to its latest pick line."""
    return {(line.system, line.query_id): line for line in lines}


def _is_done(line: PickLine | None, retry_failed: bool) -> bool:
    if line is None or line.pick.status == "skipped":
        return False
    return not (retry_failed and line.pick.status == "failed")


def _append(handle: TextIO, line: PickLine) -> None:
    handle.write(line.model_dump_json() + "\n")
    handle.flush()


def _run_one(system: SelectionSystem, query: BenchmarkQuery, k: int) -> SystemPick:
    started = time.perf_counter()
    try:
        pick = system.select(query.text, k, make_user(query))
    except Exception as exc:  # a crashing system is recorded as failed with its error, then the run goes on
        return SystemPick(
            system=system.name,
            model_ids=[],
            latency_s=time.perf_counter() - started,
            status="failed",
            detail=f"{type(exc).__name__}: {exc}",
        )
    return pick


def run_picks(
    systems: Sequence[SelectionSystem],
    queries: Sequence[BenchmarkQuery],
    out_dir: Path,
    *,
    k: int = 3,
    retry_failed: bool = False,
    progress: bool = True,
) -> int:
    """Run every pending (system, query) pair, appending picks as they finish; returns how many ran."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / PICKS_FILE
    done = latest_picks(read_picks(path))
    reasons = {system.name: system.unavailable_reason() for system in systems}
    pending = []
    for system in systems:
        for query in queries:
            previous = done.get((system.name, query.id))
            skipped = previous is not None and previous.pick.status == "skipped"
            if not (skipped and reasons[system.name]) and not _is_done(previous, retry_failed):
                pending.append((system, query))
    with (
        path.open("a", encoding="utf-8") as handle,
        tqdm(total=len(pending), file=sys.stderr, disable=not progress, desc="bench", unit="pick") as bar,
    ):
        for system, query in pending:
            bar.set_postfix_str(f"{system.name} {query.id}")
            reason = reasons[system.name]
            if reason is not None:
                pick = SystemPick(
                    system=system.name, model_ids=[], latency_s=0.0, status="skipped", detail=reason
                )
            else:
                pick = _run_one(system, query, k)
                if pick.status == "failed":
                    bar.write(f"{system.name} failed on {query.id}: {pick.detail}", file=sys.stderr)
            _append(
                handle, PickLine(system=system.name, query_id=query.id, template=query.template, pick=pick)
            )
            bar.update(1)
    return len(pending)


@dataclass
class Evaluation:
    """Everything the report shows."""

    k: int
    queries: dict[str, BenchmarkQuery]
    picks: list[PickLine]
    pair_scores: dict[tuple[str, str], PairScore]
    metrics: list[SystemMetrics]
    skipped: dict[str, str]
    by_template: dict[str, list[SystemMetrics]]
    sensitivity: dict[str, list[SystemMetrics]]
    ranking: CrossTemplateRanking
    database_version: str = ""
    database_errors: int = 0
    systems: list[str] = field(default_factory=list)


def _outcome(line: PickLine) -> Outcome:
    return Outcome(
        system=line.system,
        query_id=line.query_id,
        template=line.template,
        model_ids=tuple(line.pick.model_ids),
        status=line.pick.status,
        latency_s=line.pick.latency_s,
    )


def evaluate(
    out_dir: Path,
    queries: Sequence[BenchmarkQuery],
    records: Sequence[ModelRecord],
    *,
    k: int = 3,
    database_version: str = "",
    database_errors: int = 0,
) -> Evaluation:
    """Score every picked (query, model) pair in picks.jsonl and compute all metrics (both written)."""
    by_id = {q.id: q for q in queries}
    lines = [
        line for line in latest_picks(read_picks(out_dir / PICKS_FILE)).values() if line.query_id in by_id
    ]
    rubric = Rubric(records)
    pair_scores: dict[tuple[str, str], PairScore] = {}
    for line in lines:
        for model_id in line.pick.model_ids[:k]:
            key = (line.query_id, model_id)
            if key not in pair_scores:
                pair_scores[key] = rubric.score(by_id[line.query_id], model_id)
    atomic_write_text(
        out_dir / SCORES_FILE,
        "".join(pair_scores[key].model_dump_json() + "\n" for key in sorted(pair_scores)),
    )
    outcomes = [_outcome(line) for line in lines]
    table = {key: score.final for key, score in pair_scores.items()}
    metrics = system_metrics(outcomes, table, k)
    scored = {m.system for m in metrics}
    skipped = {line.system: line.pick.detail or "skipped" for line in lines if line.system not in scored}
    by_template = per_template(outcomes, table, k)
    evaluation = Evaluation(
        k=k,
        queries=by_id,
        picks=sorted(lines, key=lambda line: (line.system, line.query_id)),
        pair_scores=pair_scores,
        metrics=metrics,
        skipped=dict(sorted(skipped.items())),
        by_template=by_template,
        sensitivity=sensitivity(outcomes, pair_scores, k),
        ranking=difficulty_weighted_ranking(template_quality(by_template)),
        database_version=database_version,
        database_errors=database_errors,
        systems=sorted({line.system for line in lines}),
    )
    summary = {
        "k": k,
        "database_version": database_version,
        "systems": [m.model_dump() for m in metrics],
        "skipped": evaluation.skipped,
        "per_template": {t: [m.model_dump() for m in ms] for t, ms in by_template.items()},
        "sensitivity": {s: [m.model_dump() for m in ms] for s, ms in evaluation.sensitivity.items()},
        "cross_template_ranking": evaluation.ranking.model_dump(),
    }
    atomic_write_text(out_dir / METRICS_FILE, json.dumps(summary, indent=2) + "\n")
    return evaluation


def load_judge_records(settings: Settings) -> tuple[list[ModelRecord], str, int]:
    """RS-FMD records for the judge (invalid lines skipped and counted), the database version, error count."""
    result = load_database(settings.database.path, strict=False)
    if result.errors:
        print(f"warning: {len(result.errors)} invalid RS-FMD line(s) ignored by the judge", file=sys.stderr)
    return result.records, content_hash(settings.database.path), len(result.errors)


SystemFactory = Callable[[str, Settings], SelectionSystem]


def resolve_systems(
    names: Sequence[str], settings: Settings, factory: SystemFactory | None = None
) -> list[SelectionSystem]:
    """Selection systems by name, through agent.baselines.get_system (imported only here, when needed)."""
    if factory is None:
        module = importlib.import_module("agent.baselines")
        factory = cast(SystemFactory, module.get_system)
    return [factory(name, settings) for name in names]


def run_benchmark(
    systems: Sequence[SelectionSystem],
    queries: Sequence[BenchmarkQuery],
    out_dir: Path,
    records: Sequence[ModelRecord],
    *,
    k: int = 3,
    retry_failed: bool = False,
    progress: bool = True,
    charts: bool = True,
    database_version: str = "",
    database_errors: int = 0,
) -> Evaluation:
    """Run pending picks, score, compute metrics and write the report into ``out_dir``."""
    run_picks(systems, queries, out_dir, k=k, retry_failed=retry_failed, progress=progress)
    evaluation = evaluate(
        out_dir, queries, records, k=k, database_version=database_version, database_errors=database_errors
    )
    write_report(evaluation, out_dir, charts=charts)
    return evaluation
