"""``remsa bench realistic``: run systems on the realistic set, judge them on its gold, report.

Writes, in the output folder: ``realistic_picks.jsonl`` (one line per system and request, reused
on a rerun unless ``fresh``), ``realistic_metrics.json`` (per system: held-out, develop and all;
a second curator against the gold beside each system on the same requests; the develop requests
as written and reworded; the models most often in the top 3), ``realistic_detail.json`` (per
family, per modality, per request; every model's top-3 count) and ``realistic_report.md``.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agent.settings import Settings
from agent.systems import SelectionSystem, SystemPick
from evaluation.realistic import (
    RealisticRequest,
    RequestScore,
    SecondOpinion,
    Split,
    Summary,
    grouped,
    load_requests,
    load_reworded,
    load_second_opinions,
    part_prefix,
    score_request,
    select_split,
    summarise,
    top3_appearances,
)
from rsfmd.schema import ModelRecord

PICKS = "realistic_picks.jsonl"
METRICS = "realistic_metrics.json"
DETAIL = "realistic_detail.json"
REPORT = "realistic_report.md"
SPLITS: tuple[Split, ...] = ("held-out", "develop", "all")


def run_picks(
    systems: Sequence[SelectionSystem],
    texts: dict[str, str],
    out_dir: Path,
    *,
    k: int = 3,
    fresh: bool = False,
) -> dict[tuple[str, str], SystemPick]:
    """Each system's pick for each text (no clarification: the answer a script gets), resumable."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / PICKS
    done: dict[tuple[str, str], SystemPick] = {}
    if path.exists() and not fresh:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done[(row["system"], row["id"])] = SystemPick.model_validate(row["pick"])
    elif path.exists():
        path.unlink()
    with path.open("a", encoding="utf-8") as handle:
        for system in systems:
            for request_id, text in texts.items():
                if (system.name, request_id) in done:
                    continue
                with _without_own_part(system, request_id):
                    pick = system.select(text, k)
                done[(system.name, request_id)] = pick
                row = {"system": system.name, "id": request_id, "pick": pick.model_dump(mode="json")}
                handle.write(json.dumps(row) + "\n")
                handle.flush()
    return done


@contextmanager
def _without_own_part(system: SelectionSystem, request_id: str) -> Iterator[None]:
    """A request of the set is judged without the precedents of its own part (the curated requests
    written with it): the judgement of what it asks is never consulted for it."""
    settings = getattr(system, "settings", None)
    if not isinstance(settings, Settings):
        yield
        return
    cfg = settings.precedents
    left_out = cfg.model_copy(update={"exclude": [*cfg.exclude, part_prefix(request_id)]})
    system.settings = settings.model_copy(update={"precedents": left_out})  # type: ignore[attr-defined]
    try:
        yield
    finally:
        system.settings = settings  # type: ignore[attr-defined]


def judge(
    requests: Sequence[RealisticRequest],
    picks: dict[tuple[str, str], SystemPick],
    system: str,
    records: Sequence[ModelRecord],
) -> list[RequestScore]:
    """Scores of one system on ``requests``."""
    by_id = {r.model_id: r for r in records}
    return [score_request(r, picks[(system, r.id)].model_ids, by_id) for r in requests]


def metrics(
    requests: Sequence[RealisticRequest],
    picks: dict[tuple[str, str], SystemPick],
    systems: Sequence[str],
    records: Sequence[ModelRecord],
) -> dict[str, dict[str, Any]]:
    """Per system and split: overall, per family, per modality; plus every request's score."""
    out: dict[str, dict[str, Any]] = {}
    for system in systems:
        per_split: dict[str, Any] = {}
        for split in SPLITS:
            chosen = select_split(requests, split)
            scores = judge(chosen, picks, system, records)
            per_split[split] = {
                "overall": summarise(scores).model_dump(),
                "family": {k: v.model_dump() for k, v in grouped(chosen, scores, "family").items()},
                "modality": {k: v.model_dump() for k, v in grouped(chosen, scores, "modality").items()},
            }
        per_split["requests"] = [s.model_dump() for s in judge(requests, picks, system, records)]
        out[system] = per_split
    return out


SECOND_OPINION = "second opinion"


def agreement(
    requests: Sequence[RealisticRequest],
    opinions: Sequence[SecondOpinion],
    picks: dict[tuple[str, str], SystemPick],
    systems: Sequence[str],
    records: Sequence[ModelRecord],
) -> dict[str, dict[str, Summary]]:
    """Per split: a second curator's picks judged against the gold, and each system's on the same
    requests (splits with no second opinion left out)."""
    answered = {o.id: o for o in opinions}
    by_id = {r.model_id: r for r in records}
    out: dict[str, dict[str, Summary]] = {}
    for split in SPLITS:
        chosen = [r for r in select_split(requests, split) if r.id in answered]
        if not chosen:
            continue
        scores = [score_request(r, answered[r.id].model_ids, by_id) for r in chosen]
        out[split] = {SECOND_OPINION: summarise(scores)}
        for system in systems:
            out[split][system] = summarise(judge(chosen, picks, system, records))
    return out


REWORDED = "~reworded"
"""The suffix of a reworded request's id among the picks."""


def wording(
    requests: Sequence[RealisticRequest],
    reworded: dict[str, str],
    picks: dict[tuple[str, str], SystemPick],
    systems: Sequence[str],
    records: Sequence[ModelRecord],
) -> dict[str, dict[str, Summary]]:
    """Per system: the develop requests that were reworded, as written and reworded, each judged on
    the original's gold."""
    by_id = {r.model_id: r for r in records}
    chosen = [r for r in select_split(requests, "develop") if r.id in reworded]
    out: dict[str, dict[str, Summary]] = {}
    for system in systems if chosen else ():
        again = [score_request(r, picks[(system, r.id + REWORDED)].model_ids, by_id) for r in chosen]
        out[system] = {
            "as written": summarise(judge(chosen, picks, system, records)),
            "reworded": summarise(again),
        }
    return out


def _table(rows: dict[str, dict[str, float]]) -> list[str]:
    lines = [
        "| | requests | violations % | good@3 % | top-1 good % | acceptable % |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, s in rows.items():
        lines.append(
            f"| {name} | {s['requests']:g} | {s['violation_rate']:g} | {s['good_at_3']:g} | "
            f"{s['top1_good']:g} | {s['acceptable_fraction']:g} |"
        )
    return lines


def _section(title: str, intro: str, groups: dict[str, dict[str, Summary]]) -> list[str]:
    """A report section: its title, what it shows, and one table per group."""
    lines = [f"## {title}", "", *textwrap.wrap(intro, 100)]
    for name, rows in groups.items():
        lines += ["", f"{name}:", ""]
        lines += _table({row: s.model_dump() for row, s in rows.items()})
    return [*lines, ""]


def report(
    result: dict[str, dict[str, Any]],
    names: dict[str, str],
    dominance: dict[str, int],
    develop: set[str],
    agreed: dict[str, dict[str, Summary]] | None = None,
    worded: dict[str, dict[str, Summary]] | None = None,
) -> str:
    """The Markdown report."""
    lines = [
        "# Realistic set: judged against sourced gold",
        "",
        "Requests written as practitioners write, each with good picks (with the source of the fact",
        "that makes them good), must-nots and acceptable others; decided before any system was run.",
        "The held-out quarter (seeded split) is reported first and was never tuned on.",
        "",
    ]
    for system, data in result.items():
        per = data
        lines += [f"## {system}", ""]
        lines += _table({split: per[split]["overall"] for split in SPLITS})
        for key in ("family", "modality"):
            lines += ["", f"All requests, per {key}:", ""]
            lines += _table(per["all"][key])
        failed = [
            s
            for s in per["requests"]
            if s["request_id"] in develop and (s["violations"] or not s["good_at_k"])
        ]
        if failed:
            # Only the develop part is listed: the held-out quarter is reported in aggregate only.
            lines += ["", "Develop requests with a violation or no good pick in the top 3:", ""]
            for s in failed:
                picks = ", ".join(names.get(m, m) for m in s["picks"])
                why = "; ".join(s["violations"]) or "no good pick"
                lines.append(f"- {s['request_id']}: {picks} ({why})")
        lines.append("")
    if agreed:
        lines += _section(
            "A second curator on the same requests",
            "Requests answered again by a curator who never saw their gold (gold_log.md, 'Second "
            "opinions'), judged like any system: how far the gold's judgement can be reproduced from the "
            "request and RS-FMD. The systems' rows are on the same requests.",
            {split.capitalize(): rows for split, rows in agreed.items()},
        )
    if worded:
        lines += _section(
            "The same develop requests in other words",
            "Each develop request written again by someone else, with the same facts and asks "
            "(reworded.jsonl), and judged on the original's gold: how far an answer depends on the "
            "wording rather than on the request.",
            worded,
        )
    if dominance:
        lines += [
            "## Models most often in the top 3 (realistic set and the 75 benchmark queries, remsa)",
            "",
            "| model | top-3 appearances |",
            "|---|---:|",
        ]
        lines += [f"| {names.get(m, m)} | {n} |" for m, n in list(dominance.items())[:15]]
    return "\n".join(lines) + "\n"


def run_realistic(
    systems: Sequence[SelectionSystem],
    records: Sequence[ModelRecord],
    out_dir: Path,
    *,
    benchmark_texts: dict[str, str] | None = None,
    fresh: bool = False,
    only: set[str] | None = None,
) -> dict[str, dict[str, Any]]:
    """Run, judge and report (``only``: these request ids); returns the metrics written."""
    requests = [r for r in load_requests() if only is None or r.id in only]
    texts = {r.id: r.text for r in requests}
    develop = {r.id for r in select_split(requests, "develop")}
    reworded = {i: text for i, text in load_reworded().items() if i in develop}
    texts.update({i + REWORDED: text for i, text in reworded.items()})
    texts.update(benchmark_texts or {})
    picks = run_picks(systems, texts, out_dir, fresh=fresh)
    names = [s.name for s in systems]
    result = metrics(requests, picks, names, records)
    dominance = (
        top3_appearances(
            p.model_ids
            for (system, request_id), p in picks.items()
            if system == "remsa" and not request_id.endswith(REWORDED)
        )
        if "remsa" in names
        else {}
    )
    summary = {s: {split: result[s][split]["overall"] for split in SPLITS} for s in names}
    top = dict(list(dominance.items())[:10])
    agreed = agreement(requests, load_second_opinions(), picks, names, records)
    second = {split: {name: s.model_dump() for name, s in rows.items()} for split, rows in agreed.items()}
    worded = wording(requests, reworded, picks, names, records)
    again = {system: {name: s.model_dump() for name, s in rows.items()} for system, rows in worded.items()}
    (out_dir / METRICS).write_text(
        json.dumps(
            {"summary": summary, "second_opinion": second, "reworded": again, "top3_most_often": top},
            indent=1,
        ),
        encoding="utf-8",
    )
    (out_dir / DETAIL).write_text(
        json.dumps({"dominance": dominance, "detail": result}, indent=1), encoding="utf-8"
    )
    labels = {r.model_id: r.model_name for r in records}
    (out_dir / REPORT).write_text(
        report(result, labels, dominance, develop, agreed, worded), encoding="utf-8"
    )
    return result
