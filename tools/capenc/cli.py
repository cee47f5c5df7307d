"""``remsa capenc fit|evaluate|predict|plot``: the capabilities-encoding command group."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from agent.settings import Settings
from rsfmd.loader import load_database
from rsfmd.schema import ModelRecord


def _records(settings: Settings) -> list[ModelRecord]:
    return load_database(settings.database.path, strict=False).records


def _fit(args: argparse.Namespace) -> int:
    from tools.capenc.predict import CapabilitiesPredictor

    settings = Settings()
    start = time.perf_counter()
    predictor = CapabilitiesPredictor.load_or_fit(_records(settings), settings)
    elapsed = time.perf_counter() - start
    if args.out:
        predictor.save(Path(args.out))
    n_results = predictor.n_results
    print(
        f"capabilities encoding {predictor.distance}, {predictor.model_points.shape[2]}-D: "
        f"{len(predictor.row_ids)} models x {len(predictor.columns())} columns, {n_results} results; "
        f"{elapsed:.2f} s (key {predictor.key[:12]})" + (f"; wrote {args.out}" if args.out else "")
    )
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    from tools.capenc.evaluate import evaluate
    from tools.capenc.matrix import prepare
    from tools.capenc.predict import fit_config

    settings = Settings()
    cap = settings.capabilities
    _, gaps = prepare(_records(settings), cap.min_results)
    chosen = fit_config(settings)
    dims = tuple(range(2, 11)) if not args.quick else (cap.dimensions,)
    report = evaluate(gaps, chosen=chosen, dimensions=dims, folds=args.folds)
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.table())
    return 0


def _predict(args: argparse.Namespace) -> int:
    from tools.capenc.predict import CapabilitiesPredictor

    settings = Settings()
    predictor = CapabilitiesPredictor.load_or_fit(_records(settings), settings)
    if not predictor.has_model(args.model):
        print(f"{args.model!r} is not placed: it needs {settings.capabilities.min_results}+ results")
        return 1
    wanted = args.dataset.lower()
    keys = [c.key for c in predictor.columns() if wanted in (c.key.lower(), c.dataset.lower())]
    if not keys:
        print(f"no column for {args.dataset!r}; datasets: {sorted({c.dataset for c in predictor.columns()})}")
        return 1
    for key in keys:
        p = predictor.predict(args.model, key)
        seen = f" (reported: {p.observed_gap:.2f})" if p.observed_gap is not None else ""
        print(f"{p.column_label}: gap {p.gap:.2f} ± {p.uncertainty:.2f}{seen} [{p.variant or p.model_id}]")
    return 0


def _plot(args: argparse.Namespace) -> int:
    from tools.capenc.plot import plot_map
    from tools.capenc.predict import CapabilitiesPredictor

    settings = Settings()
    predictor = CapabilitiesPredictor.load_or_fit(_records(settings), settings)
    print(f"wrote {plot_map(predictor, Path(args.out))}")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``capenc`` command group; each handler is ``args.func(args) -> int``."""
    parser = subparsers.add_parser("capenc", help="Capabilities-encoding performance predictor.")
    commands = parser.add_subparsers(dest="capenc_command", required=True)
    fit = commands.add_parser("fit", help="Fit (or load the cached fit) from RS-FMD benchmarks.")
    fit.add_argument("--out", default=None, help="Also write the fitted artifact here (for DVC).")
    fit.set_defaults(func=_fit)
    ev = commands.add_parser("evaluate", help="k-fold held-out error vs baselines.")
    ev.add_argument("--json", action="store_true", help="Print JSON.")
    ev.add_argument("--folds", type=int, default=5, help="Number of folds.")
    ev.add_argument("--quick", action="store_true", help="Only the configured dimension.")
    ev.set_defaults(func=_evaluate)
    pr = commands.add_parser("predict", help="Predicted gap of MODEL on DATASET (name or column key).")
    pr.add_argument("model")
    pr.add_argument("dataset")
    pr.set_defaults(func=_predict)
    pl = commands.add_parser("plot", help="Write a 2-D map of models and datasets.")
    pl.add_argument("out")
    pl.set_defaults(func=_plot)
    return parser
