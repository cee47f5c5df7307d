"""Held-out evaluation of capabilities encoding against simple baselines (paper section 4).

k-fold over observed cells: each fold's cells are masked, the rest is fitted, the masked gaps are
predicted. As in the paper, gaps are normalised once on the full matrix before the split.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from tools.capenc.fit import DISTANCES, Distance, FitConfig, fit_embedding
from tools.capenc.matrix import FloatArray

RESULT_BINS: tuple[tuple[int, int], ...] = ((1, 9), (10, 19), (20, 10_000))


def column_mean_baseline(train: FloatArray) -> FloatArray:
    """Every cell predicted by its column's mean training gap."""
    overall = float(np.nanmean(train))
    means = np.nanmean(np.where(np.isnan(train), np.nan, train), axis=0, keepdims=True)
    return np.broadcast_to(np.where(np.isnan(means), overall, means), train.shape).copy()


def model_mean_baseline(train: FloatArray) -> FloatArray:
    """Every cell predicted by its model's mean training gap."""
    overall = float(np.nanmean(train))
    means = np.nanmean(train, axis=1, keepdims=True)
    return np.broadcast_to(np.where(np.isnan(means), overall, means), train.shape).copy()


def additive_baseline(train: FloatArray, n_iter: int = 50) -> FloatArray:
    """gap ~ overall + model effect + column effect, fitted by alternating least squares."""
    observed = ~np.isnan(train)
    mu = float(np.nanmean(train))
    rows, cols = np.zeros(train.shape[0]), np.zeros(train.shape[1])
    for _ in range(n_iter):
        resid = np.where(observed, train - mu - cols[None, :], 0.0)
        rows = resid.sum(1) / np.maximum(observed.sum(1), 1)
        resid = np.where(observed, train - mu - rows[:, None], 0.0)
        cols = resid.sum(0) / np.maximum(observed.sum(0), 1)
    return np.asarray(np.clip(mu + rows[:, None] + cols[None, :], 0, 1), dtype=np.float64)


BASELINES = {
    "column mean": column_mean_baseline,
    "model mean": model_mean_baseline,
    "additive (model + column effects)": additive_baseline,
}


@dataclass
class EvaluationReport:
    """Held-out errors per configuration and baseline, plus error by results per model."""

    n_models: int
    n_columns: int
    n_results: int
    folds: int
    mae: dict[str, float] = field(default_factory=dict)
    rmse: dict[str, float] = field(default_factory=dict)
    chosen: str = ""
    mae_by_results: dict[str, dict[str, float]] = field(default_factory=dict)
    count_by_results: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """JSON-serialisable form."""
        return {
            "matrix": {"models": self.n_models, "columns": self.n_columns, "results": self.n_results},
            "folds": self.folds,
            "chosen": self.chosen,
            "chosen_mae": self.mae.get(self.chosen),
            "baselines_mae": {name: self.mae[name] for name in BASELINES},
            "mae": self.mae,
            "rmse": self.rmse,
            "mae_by_model_results": self.mae_by_results,
            "cells_by_model_results": self.count_by_results,
        }

    def table(self) -> str:
        """Distance x dimension grid of held-out MAE, then the baselines."""
        dims = sorted({int(k.split("-")[1]) for k in self.mae if k.split("-")[0] in DISTANCES})
        lines = ["distance  " + " ".join(f"{d:>6}" for d in dims)]
        for distance in DISTANCES:
            cells = [self.mae.get(f"{distance}-{d}") for d in dims]
            lines.append(
                f"{distance:<9} " + " ".join(f"{c:6.3f}" if c is not None else "     -" for c in cells)
            )
        lines += [f"{name}: {self.mae[name]:.3f}" for name in BASELINES]
        lines.append(f"chosen {self.chosen}: {self.mae.get(self.chosen, float('nan')):.3f}")
        return "\n".join(lines)


def _bin_label(low: int, high: int) -> str:
    return f"{low}+" if high >= 10_000 else f"{low}-{high}"


def evaluate(
    gaps: FloatArray,
    *,
    chosen: FitConfig,
    distances: tuple[Distance, ...] = DISTANCES,
    dimensions: tuple[int, ...] = tuple(range(2, 11)),
    folds: int = 5,
    seed: int = 0,
) -> EvaluationReport:
    """k-fold held-out MAE/RMSE for each distance x dimension and for the baselines."""
    observed = np.argwhere(~np.isnan(gaps))
    order = np.random.default_rng(seed).permutation(len(observed))
    splits = [observed[idx] for idx in np.array_split(order, folds)]
    configs = {
        f"{d}-{n}": FitConfig(n, d, chosen.seed, chosen.max_iter) for d in distances for n in dimensions
    }
    chosen_name = f"{chosen.distance}-{chosen.dimensions}"
    configs.setdefault(chosen_name, chosen)
    errors: dict[str, list[FloatArray]] = {name: [] for name in [*configs, *BASELINES]}
    for test in splits:
        mask = ~np.isnan(gaps)
        mask[test[:, 0], test[:, 1]] = False
        train = np.where(mask, gaps, np.nan)
        truth = gaps[test[:, 0], test[:, 1]]
        for name, config in configs.items():
            embedding = fit_embedding(gaps, config, weights_mask=mask)
            predicted = np.clip(embedding.predict(test[:, 0], test[:, 1]), 0, 1)
            errors[name].append(predicted - truth)
        for name, baseline in BASELINES.items():
            errors[name].append(baseline(train)[test[:, 0], test[:, 1]] - truth)
    report = EvaluationReport(gaps.shape[0], gaps.shape[1], len(observed), folds, chosen=chosen_name)
    for name, parts in errors.items():
        err = np.concatenate(parts)
        report.mae[name] = round(float(np.abs(err).mean()), 4)
        report.rmse[name] = round(float(np.sqrt((err**2).mean())), 4)
    _by_results(report, gaps, splits, errors, chosen_name)
    return report


def _by_results(
    report: EvaluationReport,
    gaps: FloatArray,
    splits: list[NDArray[np.int64]],
    errors: dict[str, list[FloatArray]],
    chosen_name: str,
) -> None:
    """Held-out MAE grouped by how many results the cell's model has in total."""
    per_model = (~np.isnan(gaps)).sum(axis=1)
    counts = np.concatenate([per_model[test[:, 0]] for test in splits])
    for name in (chosen_name, "column mean"):
        err = np.abs(np.concatenate(errors[name]))
        report.mae_by_results[name] = {}
        for low, high in RESULT_BINS:
            in_bin = (counts >= low) & (counts <= high)
            if in_bin.any():
                label = _bin_label(low, high)
                report.mae_by_results[name][label] = round(float(err[in_bin].mean()), 4)
                report.count_by_results[label] = int(in_bin.sum())
