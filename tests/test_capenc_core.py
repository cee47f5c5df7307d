"""Capabilities encoding: normalisation, fitting on known geometry, uncertainty, caching."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from agent.settings import Settings
from rsfmd.schema import Benchmark, ModelRecord
from tools.capenc import CapabilitiesPredictor
from tools.capenc.evaluate import evaluate
from tools.capenc.fit import FitConfig, fit_embedding
from tools.capenc.matrix import Column, PerformanceMatrix, build_matrix, filter_min_results, normalised_gaps

URL = "https://example.org/results"


def _matrix(values: list[list[float]], higher: list[bool]) -> PerformanceMatrix:
    columns = [Column(f"D{j}", "RMSE" if not h else "OA", "", None, h) for j, h in enumerate(higher)]
    return PerformanceMatrix([f"m{i}" for i in range(len(values))], columns, np.array(values, dtype=float))


def test_gaps_respect_direction_and_bounds() -> None:
    nan = float("nan")
    gaps = normalised_gaps(_matrix([[90, 1.0], [80, 3.0], [70, nan]], [True, False]))
    assert gaps[0].tolist() == [0.0, 0.0]  # best accuracy and lowest RMSE are both gap 0
    assert gaps[1].tolist() == [0.5, 1.0]
    assert gaps[2, 0] == 1.0 and np.isnan(gaps[2, 1])
    assert np.nanmin(gaps) >= 0 and np.nanmax(gaps) <= 1


def test_min_results_filter_iterates_until_stable() -> None:
    nan = float("nan")
    m = _matrix([[1, 1, 1], [1, 1, nan], [1, nan, nan]], [True] * 3)
    kept = filter_min_results(m, 2)
    assert kept.model_ids == ["m0", "m1"] and [c.dataset for c in kept.columns] == ["D0", "D1"]


def _synthetic(n_models: int = 30, n_cols: int = 25, dims: int = 3, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    models, cols = rng.normal(0, 0.3, (n_models, dims)), rng.normal(0, 0.3, (n_cols, dims))
    return np.asarray(np.linalg.norm(models[:, None] - cols[None], axis=-1))


def test_fit_recovers_known_distances() -> None:
    truth = _synthetic()
    rng = np.random.default_rng(2)
    gaps = np.where(rng.random(truth.shape) < 0.6, truth, np.nan)  # 60% observed
    emb = fit_embedding(gaps, FitConfig(dimensions=3, seed=0, max_iter=2000))
    rows, cols = np.nonzero(np.isnan(gaps))
    held_out = np.abs(emb.predict(rows, cols) - truth[rows, cols]).mean()
    assert held_out < 0.02 < np.abs(truth[rows, cols] - np.nanmean(gaps)).mean()
    again = fit_embedding(gaps, FitConfig(dimensions=3, seed=0, max_iter=2000))
    assert np.array_equal(emb.model_points, again.model_points)  # deterministic


def _records_from(gaps: np.ndarray) -> list[ModelRecord]:
    records = []
    for i, row in enumerate(gaps):
        benchmarks = [
            Benchmark(
                task_type="segmentation",
                dataset="Sen1Floods11" if j == 0 else "MADOS" if j == 1 else f"Synth{j}",
                metrics=["mIoU"],
                metrics_value=[max(0.0, 100 - 40 * v)],
                source_url=URL,
                setting=f"s{j}",
            )
            for j, v in enumerate(row)
            if not np.isnan(v)
        ]
        records.append(
            ModelRecord(
                model_id=f"m{i}",
                model_name=f"M{i}",
                short_description="synthetic model",
                category="vision",
                sources=[{"url": URL}],
                benchmarks=benchmarks,
            )
        )
    return records


def test_uncertainty_grows_as_results_are_removed() -> None:
    truth = _synthetic(n_models=25, n_cols=20, dims=2, seed=3) * 0.9
    uncertainties = []
    for keep in (20, 6, 3):
        gaps = truth.copy()
        gaps[3, keep:] = np.nan  # model m3 (mid-pack, so the columns' normalisation barely moves)
        matrix = build_matrix(_records_from(gaps))
        predictor = CapabilitiesPredictor.fit(
            matrix, normalised_gaps(matrix), FitConfig(dimensions=2), n_bootstrap=8
        )
        keys = [
            c.key for c in predictor.columns() if c.dataset.startswith("Synth") and int(c.dataset[5:]) >= 6
        ]
        uncertainties.append(float(np.mean([predictor.predict("m3", k).uncertainty for k in keys])))
    assert uncertainties[0] < uncertainties[1] < uncertainties[2]


def test_load_or_fit_caches_and_answers_standing(tmp_path: Path) -> None:
    records = _records_from(_synthetic(n_models=12, n_cols=8, dims=2, seed=4))
    settings = Settings(data_dir=tmp_path)
    first = CapabilitiesPredictor.load_or_fit(records, settings)
    assert len(list((tmp_path / "cache" / "capenc").glob("*.npz"))) == 1
    cached = CapabilitiesPredictor.load_or_fit(records, settings)
    assert cached.key == first.key
    assert len(list((tmp_path / "cache" / "capenc").glob("*.npz"))) == 1  # loaded, not refitted
    standing = cached.standing("m3", None, "flood mapping", ["Sentinel-1"], ["SAR"])
    assert standing is not None and standing.datasets[0] == "Sen1Floods11"
    assert 0 <= standing.expected_gap <= 1 and standing.n_model_results == 8
    # m3 has a result in every column: the standing is reported, not predicted.
    assert standing.observed == len(standing.columns)
    assert standing.summary().startswith("reported gap ")
    assert cached.standing("unknown", "segmentation", None, [], []) is None
    # A benchmark the user named is used when the matrix has it, whatever the task says.
    other = next(c.dataset for c in cached.columns() if c.dataset != "Sen1Floods11")
    named = cached.standing("m3", None, "flood mapping", ["Sentinel-1"], ["SAR"], datasets=[other])
    assert named is not None and named.datasets == [other]
    models, datasets = cached.project_2d()
    assert len(models) == 12 and len(datasets) == 8


@pytest.mark.slow
def test_evaluation_beats_column_mean_on_structured_data() -> None:
    truth = _synthetic(n_models=30, n_cols=20, dims=3, seed=5)
    gaps = np.where(np.random.default_rng(6).random(truth.shape) < 0.5, truth, np.nan)
    report = evaluate(gaps, chosen=FitConfig(dimensions=3), distances=("l2",), dimensions=(3,), folds=3)
    assert report.mae["l2-3"] < report.mae["column mean"]


def test_penalty_shrinks_points_and_numpy_matches_torch() -> None:
    truth = _synthetic(n_models=15, n_cols=10, dims=2, seed=7)
    gaps = np.where(np.random.default_rng(8).random(truth.shape) < 0.7, truth, np.nan)
    plain = fit_embedding(gaps, FitConfig(dimensions=2, seed=0))
    shrunk = fit_embedding(gaps, FitConfig(dimensions=2, seed=0, regularization=1.0))
    norms = [float(np.linalg.norm(np.vstack([e.model_points, e.column_points]))) for e in (plain, shrunk)]
    assert norms[1] < norms[0]
    # The closed-form numpy gradient is the gradient of the penalised loss (finite differences).
    from tools.capenc.fit import _numpy_l2_objective

    rows, cols = (idx.astype(np.int64) for idx in np.nonzero(~np.isnan(gaps)))
    config = FitConfig(dimensions=2, seed=0, regularization=0.3)
    objective = _numpy_l2_objective(rows, cols, gaps[rows, cols], gaps.shape[0], config)
    point = np.random.default_rng(3).normal(size=(sum(gaps.shape) * 2,))
    _, grad = objective(point)
    step = 1e-6
    for i in range(0, len(point), 7):
        up, down = point.copy(), point.copy()
        up[i] += step
        down[i] -= step
        numeric = (objective(up)[0] - objective(down)[0]) / (2 * step)
        assert grad[i] == pytest.approx(numeric, rel=1e-4, abs=1e-7)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch (the st extra) is not installed")
def test_numpy_and_torch_fits_optimise_the_same_loss() -> None:
    truth = _synthetic(n_models=15, n_cols=10, dims=2, seed=7)
    gaps = np.where(np.random.default_rng(8).random(truth.shape) < 0.7, truth, np.nan)
    config = FitConfig(dimensions=2, seed=0, regularization=0.3, max_iter=2000)
    by_numpy = fit_embedding(gaps, config, backend="numpy")
    by_torch = fit_embedding(gaps, config, backend="torch")
    assert by_numpy.loss == pytest.approx(by_torch.loss, rel=1e-3)


@pytest.mark.slow
def test_nested_cv_picks_the_penalty_with_lower_inner_error_and_reports_it() -> None:
    truth = _synthetic(n_models=30, n_cols=20, dims=3, seed=9)
    gaps = np.where(np.random.default_rng(10).random(truth.shape) < 0.5, truth, np.nan)
    # A huge penalty collapses every point onto the origin (all gaps predicted near 0): never picked.
    grid = (0.0, 100.0)
    report = evaluate(
        gaps,
        chosen=FitConfig(dimensions=3, regularization=0.01),
        distances=("l2",),
        dimensions=(3,),
        folds=3,
        regularization_grid=grid,
    )
    nested = report.to_dict()["regularization_nested_cv"]
    assert isinstance(nested, dict) and nested["picked"] == [0.0, 0.0, 0.0]
    assert nested["mae"] == pytest.approx(report.mae["l2-3 without penalty (paper loss)"])
    assert report.mae["l2-3"] < report.mae["column mean"]
    assert "penalty picked by inner CV" in report.table()
