"""Held-out evaluation of capabilities encoding against simple baselines (paper section 4).

k-fold over observed cells: each fold's cells are masked, the rest is fitted, the masked gaps are
predicted. As in the paper, gaps are normalised once on the full matrix before the split.

The ridge penalty (FitConfig.regularization) is checked by nested cross-validation: inside each
outer fold, an inner k-fold over the training cells picks the penalty from a grid, and only the
outer fold's held-out cells score that pick, so the reported error is not tuned on its own test cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from tools.capenc.fit import DISTANCES, Distance, FitConfig, fit_embedding
from tools.capenc.matrix import FloatArray

RESULT_BINS: tuple[tuple[int, int], ...] = ((1, 9), (10, 19), (20, 10_000))
REGULARIZATION_GRID: tuple[float, ...] = (0.0, 0.01, 0.03, 0.1, 0.3, 1.0)
INNER_FOLDS = 3


def _masked_means(train: FloatArray, axis: int) -> FloatArray:
    """Means of the observed cells along ``axis``; the overall mean where a line has none."""
    observed = ~np.isnan(train)
    counts = observed.sum(axis=axis, keepdims=True)
    sums = np.where(observed, train, 0.0).sum(axis=axis, keepdims=True)
    overall = float(np.nanmean(train))
    return np.where(counts > 0, sums / np.maximum(counts, 1), overall)


def column_mean_baseline(train: FloatArray) -> FloatArray:
    """Every cell predicted by its column's mean training gap."""
    return np.broadcast_to(_masked_means(train, axis=0), train.shape).copy()


def model_mean_baseline(train: FloatArray) -> FloatArray:
    """Every cell predicted by its model's mean training gap."""
    return np.broadcast_to(_masked_means(train, axis=1), train.shape).copy()


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
    regularization: float = 0.0
    mae_by_results: dict[str, dict[str, float]] = field(default_factory=dict)
    count_by_results: dict[str, int] = field(default_factory=dict)
    nested: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """JSON-serialisable form."""
        return {
            "matrix": {"models": self.n_models, "columns": self.n_columns, "results": self.n_results},
            "folds": self.folds,
            "chosen": self.chosen,
            "regularization": self.regularization,
            "chosen_mae": self.mae.get(self.chosen),
            "baselines_mae": {name: self.mae[name] for name in BASELINES},
            "mae": self.mae,
            "rmse": self.rmse,
            "mae_by_model_results": self.mae_by_results,
            "cells_by_model_results": self.count_by_results,
            "regularization_nested_cv": self.nested,
        }

    def table(self) -> str:
        """Distance x dimension grid of held-out MAE, then the baselines."""
        dims = sorted({int(k.split("-")[1]) for k in self._grid_names()})
        lines = ["distance  " + " ".join(f"{d:>6}" for d in dims)]
        for distance in DISTANCES:
            cells = [self.mae.get(f"{distance}-{d}") for d in dims]
            lines.append(
                f"{distance:<9} " + " ".join(f"{c:6.3f}" if c is not None else "     -" for c in cells)
            )
        lines += [f"{name}: {self.mae[name]:.3f}" for name in self.mae if name not in self._grid_names()]
        lines.append(
            f"chosen {self.chosen} (regularization {self.regularization:g}): "
            f"{self.mae.get(self.chosen, float('nan')):.3f}"
        )
        if self.nested:
            lines.append(
                f"penalty picked by inner CV: MAE {self.nested['mae']:.3f}, "
                f"picks per outer fold {self.nested['picked']}"
            )
        return "\n".join(lines)

    def _grid_names(self) -> list[str]:
        """Keys of the distance x dimension grid (e.g. 'l2-5')."""
        names = []
        for key in self.mae:
            distance, _, dims = key.partition("-")
            if distance in DISTANCES and dims.isdigit():
                names.append(key)
        return names


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
    regularization_grid: tuple[float, ...] = REGULARIZATION_GRID,
) -> EvaluationReport:
    """k-fold held-out MAE/RMSE for each distance x dimension and for the baselines.

    The grid uses the chosen penalty; the chosen configuration is also scored without it (the
    paper's loss) and with the penalty picked by nested cross-validation from ``regularization_grid``
    (skipped when the grid is empty).
    """
    observed = np.argwhere(~np.isnan(gaps))
    splits = _splits(observed, folds, seed)
    configs = {f"{d}-{n}": replace(chosen, dimensions=n, distance=d) for d in distances for n in dimensions}
    chosen_name = f"{chosen.distance}-{chosen.dimensions}"
    configs.setdefault(chosen_name, chosen)
    if chosen.regularization:
        configs[f"{chosen_name} without penalty (paper loss)"] = replace(chosen, regularization=0.0)
    errors: dict[str, list[FloatArray]] = {name: [] for name in [*configs, *BASELINES]}
    nested_errors: list[FloatArray] = []
    picked: list[float] = []
    for test in splits:
        mask = ~np.isnan(gaps)
        mask[test[:, 0], test[:, 1]] = False
        train = np.where(mask, gaps, np.nan)
        truth = gaps[test[:, 0], test[:, 1]]
        for name, config in configs.items():
            errors[name].append(_held_out_error(gaps, mask, test, config))
        for name, baseline in BASELINES.items():
            errors[name].append(baseline(train)[test[:, 0], test[:, 1]] - truth)
        if regularization_grid:
            penalty = pick_regularization(train, chosen, regularization_grid, seed=seed)
            picked.append(penalty)
            nested_errors.append(_held_out_error(gaps, mask, test, replace(chosen, regularization=penalty)))
    report = EvaluationReport(
        gaps.shape[0],
        gaps.shape[1],
        len(observed),
        folds,
        chosen=chosen_name,
        regularization=chosen.regularization,
    )
    for name, parts in errors.items():
        err = np.concatenate(parts)
        report.mae[name] = round(float(np.abs(err).mean()), 4)
        report.rmse[name] = round(float(np.sqrt((err**2).mean())), 4)
    if nested_errors:
        err = np.concatenate(nested_errors)
        report.nested = {
            "grid": list(regularization_grid),
            "inner_folds": INNER_FOLDS,
            "picked": picked,
            "mae": round(float(np.abs(err).mean()), 4),
            "rmse": round(float(np.sqrt((err**2).mean())), 4),
        }
    _by_results(report, gaps, splits, errors, chosen_name)
    return report


def pick_regularization(
    train: FloatArray, config: FitConfig, grid: tuple[float, ...], *, seed: int = 0
) -> float:
    """The penalty from ``grid`` with the lowest inner k-fold MAE on the observed cells of ``train``."""
    inner = _splits(np.argwhere(~np.isnan(train)), INNER_FOLDS, seed + 1)
    best, best_mae = grid[0], float("inf")
    for penalty in grid:
        candidate = replace(config, regularization=penalty)
        errs = []
        for test in inner:
            mask = ~np.isnan(train)
            mask[test[:, 0], test[:, 1]] = False
            errs.append(_held_out_error(train, mask, test, candidate))
        mae = float(np.abs(np.concatenate(errs)).mean())
        if mae < best_mae:
            best, best_mae = penalty, mae
    return best


def _splits(cells: NDArray[np.int64], folds: int, seed: int) -> list[NDArray[np.int64]]:
    order = np.random.default_rng(seed).permutation(len(cells))
    return [cells[idx] for idx in np.array_split(order, folds)]


def _held_out_error(
    gaps: FloatArray, mask: NDArray[np.bool_], test: NDArray[np.int64], config: FitConfig
) -> FloatArray:
    """Fit on ``mask``'s cells; the clipped predictions minus the truth on ``test``'s cells."""
    embedding = fit_embedding(gaps, config, weights_mask=mask)
    predicted = np.clip(embedding.predict(test[:, 0], test[:, 1]), 0, 1)
    return np.asarray(predicted - gaps[test[:, 0], test[:, 1]], dtype=np.float64)


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
