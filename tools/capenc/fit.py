"""Fit points for models and dataset columns so that their distance predicts the normalised gap.

Loss (paper eq. 1): mean over observed cells of (d(x_model, x_column) - gap)^2, plus an optional
ridge penalty ``regularization * mean_i |x_i|^2`` over all points (0 gives the paper's loss; the
shipped setting is chosen by nested cross-validation, see evaluate.py). Optimised with
scipy's L-BFGS on float64. The gradient is closed-form numpy for L2 (the default, about 50x faster
than torch here: per-call tensor overhead dominates such small problems; see
benchmarks_perf/capenc_fit_bench.py) and torch autograd for cosine and Poincare.
Deterministic for a given seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from tools.capenc.matrix import FloatArray

Distance = Literal["l2", "cosine", "poincare"]
Backend = Literal["auto", "torch", "numpy"]
DISTANCES: tuple[Distance, ...] = ("l2", "cosine", "poincare")
_EPS = 1e-9


@dataclass(frozen=True)
class FitConfig:
    """Hyper-parameters of one fit."""

    dimensions: int = 5
    distance: Distance = "l2"
    seed: int = 0
    max_iter: int = 300
    init_scale: float = 0.3
    regularization: float = 0.0


@dataclass(frozen=True)
class Embedding:
    """Fitted points: one per matrix row (model) and one per column (dataset)."""

    model_points: FloatArray
    column_points: FloatArray
    distance: Distance
    loss: float

    def predict(self, rows: NDArray[np.int64], cols: NDArray[np.int64]) -> FloatArray:
        """Predicted gaps for (row, column) index pairs."""
        return pairwise_distance(self.model_points[rows], self.column_points[cols], self.distance)


def to_ball(u: FloatArray) -> FloatArray:
    """Map free parameters into the open unit ball (Poincare model): x = tanh(|u|) u / |u|."""
    norm = np.linalg.norm(u, axis=-1, keepdims=True)
    return np.asarray(np.tanh(norm) * u / np.maximum(norm, _EPS), dtype=np.float64)


def pairwise_distance(a: FloatArray, b: FloatArray, distance: Distance) -> FloatArray:
    """Row-wise distance between matched points (numpy; points already in their space)."""
    if distance == "l2":
        return np.asarray(np.sqrt(((a - b) ** 2).sum(-1) + _EPS), dtype=np.float64)
    if distance == "cosine":
        na, nb = np.linalg.norm(a, axis=-1), np.linalg.norm(b, axis=-1)
        return np.asarray(1.0 - (a * b).sum(-1) / np.maximum(na * nb, _EPS), dtype=np.float64)
    sq = ((a - b) ** 2).sum(-1)
    denom = (1 - (a**2).sum(-1)) * (1 - (b**2).sum(-1))
    return np.asarray(np.arccosh(1 + 2 * sq / np.maximum(denom, _EPS)), dtype=np.float64)


def _torch_objective(
    rows: NDArray[np.int64], cols: NDArray[np.int64], gaps: FloatArray, n_rows: int, config: FitConfig
) -> Callable[[FloatArray], tuple[float, FloatArray]]:
    from agent.extras import require

    # Lazy: loading a cached fit must not import torch.
    torch = require("torch", "st", "Fitting the capabilities encoding with cosine or Poincare distance")

    r, c = torch.from_numpy(rows), torch.from_numpy(cols)
    target = torch.from_numpy(gaps)

    def objective(flat: FloatArray) -> tuple[float, FloatArray]:
        params = torch.from_numpy(flat).reshape(-1, config.dimensions).requires_grad_(True)
        a, b = params[:n_rows][r], params[n_rows:][c]
        if config.distance == "l2":
            d = torch.sqrt(((a - b) ** 2).sum(-1) + _EPS)
        elif config.distance == "cosine":
            d = 1 - torch.nn.functional.cosine_similarity(a, b, dim=-1, eps=_EPS)
        else:

            def ball(u: Any) -> Any:  # a torch tensor
                norm = u.norm(dim=-1, keepdim=True).clamp_min(_EPS)
                return torch.tanh(norm) * u / norm

            a, b = ball(a), ball(b)
            denom = ((1 - (a**2).sum(-1)) * (1 - (b**2).sum(-1))).clamp_min(_EPS)
            d = torch.acosh(1 + 2 * ((a - b) ** 2).sum(-1) / denom + _EPS)
        loss = ((d - target) ** 2).mean() + config.regularization * (params**2).sum() / len(params)
        loss.backward()  # type: ignore[no-untyped-call]
        assert params.grad is not None
        return float(loss.detach()), params.grad.numpy().ravel().copy()

    return objective


def _numpy_l2_objective(
    rows: NDArray[np.int64], cols: NDArray[np.int64], gaps: FloatArray, n_rows: int, config: FitConfig
) -> Callable[[FloatArray], tuple[float, FloatArray]]:
    n = len(gaps)

    def objective(flat: FloatArray) -> tuple[float, FloatArray]:
        params = flat.reshape(-1, config.dimensions)
        diff = params[:n_rows][rows] - params[n_rows:][cols]
        d = np.sqrt((diff**2).sum(-1) + _EPS)
        residual = d - gaps
        coeff = (2.0 / n) * residual / d
        grad_pair = coeff[:, None] * diff
        grad = np.zeros_like(params)
        np.add.at(grad, rows, grad_pair)
        np.add.at(grad, n_rows + cols, -grad_pair)
        loss = float((residual**2).mean())
        if config.regularization:
            loss += config.regularization * float((params**2).sum()) / len(params)
            grad += (2.0 * config.regularization / len(params)) * params
        return loss, grad.ravel()

    return objective


def fit_embedding(
    gaps: FloatArray,
    config: FitConfig,
    *,
    weights_mask: NDArray[np.bool_] | None = None,
    backend: Backend = "auto",
) -> Embedding:
    """Fit on the observed (non-NaN, and selected by ``weights_mask``) cells of a gap matrix."""
    mask = ~np.isnan(gaps) if weights_mask is None else weights_mask & ~np.isnan(gaps)
    rows, cols = (idx.astype(np.int64) for idx in np.nonzero(mask))
    return fit_cells(rows, cols, gaps[rows, cols], gaps.shape, config, backend=backend)


def fit_cells(
    rows: NDArray[np.int64],
    cols: NDArray[np.int64],
    targets: FloatArray,
    shape: tuple[int, ...],
    config: FitConfig,
    *,
    backend: Backend = "auto",
) -> Embedding:
    """Fit on explicit (row, column, gap) triples; repeated triples weigh more (bootstrap)."""
    n_rows, n_cols = shape[0], shape[1]
    rng = np.random.default_rng(config.seed)
    start = rng.normal(0.0, config.init_scale, size=(n_rows + n_cols) * config.dimensions)
    if backend == "auto":
        backend = "numpy" if config.distance == "l2" else "torch"
    if backend == "numpy":
        if config.distance != "l2":
            raise ValueError("the numpy backend fits L2 only; use backend='torch' for cosine or poincare")
        objective = _numpy_l2_objective(rows, cols, np.asarray(targets, float), n_rows, config)
    else:
        objective = _torch_objective(rows, cols, np.asarray(targets, float), n_rows, config)
    # Imported here: scipy.optimize takes about half a second to import, and a fit read from the
    # cache never needs it.
    from agent.extras import require

    minimize = require("scipy.optimize", "fit", "Fitting the capabilities encoding anew").minimize

    result = minimize(objective, start, jac=True, method="L-BFGS-B", options={"maxiter": config.max_iter})
    points = np.asarray(result.x, dtype=np.float64).reshape(-1, config.dimensions)
    models, columns = points[:n_rows], points[n_rows:]
    if config.distance == "poincare":
        models, columns = to_ball(models), to_ball(columns)
    return Embedding(models, columns, config.distance, float(result.fun))
