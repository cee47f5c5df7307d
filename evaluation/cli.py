"""The ``remsa bench`` command group: ``run`` the benchmark, or rebuild its ``report`` from saved picks.

agent/cli.py calls ``register(subparsers)``; each subcommand sets ``func`` (args -> exit code).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from benchmark_queries.generate import load_queries, select_queries

if TYPE_CHECKING:
    from agent.settings import Settings

DEFAULT_OUT = Path("bench-results")


def _names(text: str) -> list[str]:
    return [part for part in re.split(r"[,\s]+", text) if part]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``bench`` command group (run, report) to an argparse subparsers object."""
    from evaluation.runner import SYSTEM_NAMES

    bench = subparsers.add_parser("bench", help="Run the 75-query benchmark and report on it.")
    commands = bench.add_subparsers(dest="bench_command", required=True)

    def add_common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--queries", type=Path, default=None, help="Benchmark queries JSONL (default: the committed 75)."
        )
        parser.add_argument(
            "--select",
            default="",
            help="Comma-separated query ids or templates to use (e.g. q01,q02 or A1,B3).",
        )
        parser.add_argument(
            "--out", type=Path, default=DEFAULT_OUT, help=f"Output folder (default: {DEFAULT_OUT})."
        )
        parser.add_argument("-k", type=int, default=3, help="Models per pick that are scored (default: 3).")
        parser.add_argument(
            "--no-charts", action="store_true", help="Write the Markdown report without PNGs."
        )

    def add_llm(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--llm",
            default=None,
            help=(
                "The LLM of remsa-llm and the LLM baselines: llamacpp[:FILE.gguf] or "
                "openai:MODEL[@BASE_URL] (default: the REMSA_LLM__* settings)."
            ),
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=None,
            help="Seconds of LLM time per request; later steps then use the offline engine.",
        )

    run = commands.add_parser("run", help="Run systems on the queries (resumable), score and report.")
    add_common(run)
    run.add_argument(
        "--systems",
        default=",".join(SYSTEM_NAMES),
        help=f"Comma-separated systems (default: {','.join(SYSTEM_NAMES)}).",
    )
    add_llm(run)
    run.add_argument("--retry-failed", action="store_true", help="Rerun pairs whose saved pick failed.")
    run.add_argument("--no-progress", action="store_true", help="No progress bar on stderr.")
    run.set_defaults(func=run_command)

    realistic = commands.add_parser(
        "realistic", help="Judge systems on the realistic set's sourced gold (held-out quarter first)."
    )
    realistic.add_argument("--systems", default="remsa,db-retrieval", help="Comma-separated systems.")
    realistic.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"Output folder (default: {DEFAULT_OUT})."
    )
    realistic.add_argument(
        "--fresh", action="store_true", help="Rerun every pick instead of reusing saved ones."
    )
    realistic.add_argument(
        "--no-dominance", action="store_true", help="Skip the 75 benchmark queries (top-3 dominance table)."
    )
    realistic.add_argument(
        "--select",
        default=None,
        help="Comma-separated request ids to run and judge (default: every request).",
    )
    add_llm(realistic)
    realistic.set_defaults(func=realistic_command)

    report = commands.add_parser("report", help="Rescore the saved picks and rewrite the report.")
    add_common(report)
    report.set_defaults(func=report_command)


def _system_names(text: str) -> list[str] | None:
    """The systems named, or None after saying which are unknown and which exist."""
    from evaluation.runner import SYSTEM_NAMES

    names = _names(text)
    unknown = [n for n in names if n not in SYSTEM_NAMES]
    if unknown or not names:
        print(
            f"error: unknown systems {unknown or names}; choose from {', '.join(SYSTEM_NAMES)}",
            file=sys.stderr,
        )
        return None
    return names


def llm_settings(spec: str | None, timeout: float | None) -> dict[str, object]:
    """LLM settings from ``--llm`` and ``--timeout``; ValueError says the accepted forms."""
    update: dict[str, object] = {}
    if spec:
        provider, _, rest = spec.partition(":")
        if provider == "llamacpp":
            update = {"provider": "llamacpp", **({"model_path": rest} if rest else {})}
        elif provider == "openai" and rest:
            model, _, base_url = rest.partition("@")
            update = {"provider": "openai", "model": model, **({"base_url": base_url} if base_url else {})}
        else:
            raise ValueError(f"--llm {spec!r}: use llamacpp[:FILE.gguf] or openai:MODEL[@BASE_URL]")
    if timeout is not None:
        if timeout <= 0:
            raise ValueError("--timeout must be a positive number of seconds")
        update |= {"step_budget_s": timeout, "timeout_s": timeout}
    return update


def _settings(args: argparse.Namespace) -> Settings | None:
    """Settings with the command's LLM options; None after saying what is wrong."""
    from agent.settings import Settings

    settings = Settings()
    try:
        update = llm_settings(args.llm, args.timeout)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    if update:
        llm = settings.llm.model_validate(settings.llm.model_dump() | update)
        settings = settings.model_copy(update={"llm": llm})
    return settings


def run_command(args: argparse.Namespace) -> int:
    """``remsa bench run``."""
    from evaluation.runner import load_judge_records, resolve_systems, run_benchmark

    names = _system_names(args.systems)
    settings = _settings(args)
    if names is None or settings is None:
        return 2
    try:
        queries = select_queries(load_queries(args.queries), args.select)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    records, version, errors = load_judge_records(settings)
    evaluation = run_benchmark(
        resolve_systems(names, settings),
        queries,
        args.out,
        records,
        k=args.k,
        retry_failed=args.retry_failed,
        progress=not args.no_progress,
        charts=not args.no_charts,
        database_version=version,
        database_errors=errors,
    )
    print(f"wrote {args.out / 'report.md'}")
    for system, reason in evaluation.skipped.items():
        print(f"skipped {system}: {reason}", file=sys.stderr)
    return 0


def realistic_command(args: argparse.Namespace) -> int:
    """``remsa bench realistic``."""
    from evaluation.realistic_run import METRICS, REPORT, SPLITS, run_realistic
    from evaluation.runner import load_judge_records, resolve_systems

    names = _system_names(args.systems)
    settings = _settings(args)
    if names is None or settings is None:
        return 2
    from evaluation.realistic import load_requests

    only = None
    if args.select:
        only = {i.strip() for i in args.select.split(",") if i.strip()}
        unknown = sorted(only - {r.id for r in load_requests()})
        if unknown:
            print(f"error: unknown request ids: {', '.join(unknown)}", file=sys.stderr)
            return 2
    records, _, _ = load_judge_records(settings)
    texts = {} if args.no_dominance else {f"bench-{q.id}": q.text for q in load_queries()}
    result = run_realistic(
        resolve_systems(names, settings),
        records,
        args.out,
        benchmark_texts=texts,
        fresh=args.fresh,
        only=only,
    )
    for system in names:
        for split in SPLITS:
            s = result[system][split]["overall"]
            print(
                f"{system:>16} {split:>8}: violations {s['violation_rate']}%, good@3 {s['good_at_3']}%, "
                f"top-1 good {s['top1_good']}%, acceptable {s['acceptable_fraction']}% ({s['requests']})"
            )
    print(f"wrote {args.out / REPORT} and {args.out / METRICS}")
    return 0


def report_command(args: argparse.Namespace) -> int:
    """``remsa bench report``."""
    from agent.settings import Settings
    from evaluation.report import write_report
    from evaluation.runner import PICKS_FILE, evaluate, load_judge_records

    if not (args.out / PICKS_FILE).exists():
        print(
            f"error: no {PICKS_FILE} in {args.out}; run `remsa bench run --out {args.out}` first",
            file=sys.stderr,
        )
        return 2
    try:
        queries = select_queries(load_queries(args.queries), args.select)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    records, version, errors = load_judge_records(Settings())
    evaluation = evaluate(
        args.out, queries, records, k=args.k, database_version=version, database_errors=errors
    )
    print(f"wrote {write_report(evaluation, args.out, charts=not args.no_charts)}")
    return 0
