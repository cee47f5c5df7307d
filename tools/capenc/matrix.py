"""The performance matrix behind capabilities encoding: models x (dataset, metric, setting) columns.

Built from RS-FMD benchmarks only (which include the imported shared tables). One row per evaluated
variant (``model_id`` or ``model_id::variant``), as in the paper, where sizes of one family are
separate points; ``row_model_id`` maps a row back to its RS-FMD record. When one row reports twice
on a column, the better value is kept. Gaps follow the paper: per column,
distance to the best model divided by the column's largest distance, so 0 is best and 1 is worst.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from rsfmd.schema import ModelRecord
from rsfmd.vocab import metric_info

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Column:
    """One matrix column: a dataset evaluated with one metric under one setting."""

    dataset: str
    metric: str
    setting: str
    sampling_percentage: float | None
    higher_is_better: bool

    @property
    def key(self) -> str:
        """Stable identifier, e.g. 'Sen1Floods11|mIoU|frozen encoder, UNet decoder|100'."""
        pct = "" if self.sampling_percentage is None else f"{self.sampling_percentage:g}"
        return f"{self.dataset}|{self.metric}|{self.setting}|{pct}"

    @property
    def label(self) -> str:
        """Human-readable name, e.g. 'Sen1Floods11 mIoU (10% labels)'."""
        extras = [self.setting] if self.setting else []
        if self.sampling_percentage is not None and self.sampling_percentage < 100:
            extras.append(f"{self.sampling_percentage:g}% labels")
        suffix = f" ({'; '.join(extras)})" if extras else ""
        return f"{self.dataset} {self.metric}{suffix}"

    def to_dict(self) -> dict[str, object]:
        """JSON-serialisable form."""
        return {
            "dataset": self.dataset,
            "metric": self.metric,
            "setting": self.setting,
            "sampling_percentage": self.sampling_percentage,
            "higher_is_better": self.higher_is_better,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Column:
        """Inverse of to_dict."""
        pct = data["sampling_percentage"]
        return cls(
            dataset=str(data["dataset"]),
            metric=str(data["metric"]),
            setting=str(data["setting"]),
            sampling_percentage=float(pct) if isinstance(pct, int | float) else None,
            higher_is_better=bool(data["higher_is_better"]),
        )


@dataclass
class PerformanceMatrix:
    """Raw metric values (NaN where a model has no result) with row and column labels."""

    model_ids: list[str]
    columns: list[Column]
    values: FloatArray = field(repr=False)

    @property
    def observed(self) -> NDArray[np.bool_]:
        """Mask of cells with a result."""
        return ~np.isnan(self.values)

    @property
    def n_results(self) -> int:
        """Number of observed cells."""
        return int(self.observed.sum())

    def subset(self, rows: NDArray[np.bool_], cols: NDArray[np.bool_]) -> PerformanceMatrix:
        """The matrix restricted to the selected rows and columns."""
        return PerformanceMatrix(
            [m for m, keep in zip(self.model_ids, rows, strict=True) if keep],
            [c for c, keep in zip(self.columns, cols, strict=True) if keep],
            self.values[np.ix_(rows, cols)],
        )

    def fingerprint(self) -> str:
        """SHA-256 of labels and values: the identity of the fit's input."""
        digest = hashlib.sha256()
        digest.update(json.dumps([self.model_ids, [c.key for c in self.columns]]).encode())
        digest.update(np.nan_to_num(self.values, nan=-1e300).tobytes())
        return digest.hexdigest()


ROW_SEPARATOR = "::"


def row_model_id(row_id: str) -> str:
    """The RS-FMD model id of a matrix row."""
    return row_id.split(ROW_SEPARATOR, 1)[0]


def build_matrix(records: Sequence[ModelRecord], *, by_variant: bool = True) -> PerformanceMatrix:
    """One row per evaluated variant (or per record), one column per (dataset, metric, setting, fraction)."""
    cells: dict[tuple[str, str], float] = {}
    columns: dict[str, Column] = {}
    for record in records:
        for benchmark in record.benchmarks:
            for metric, value in benchmark.values().items():
                info = metric_info(metric)
                column = Column(
                    benchmark.dataset,
                    info.name,
                    benchmark.setting or "",
                    benchmark.sampling_percentage,
                    info.higher_is_better,
                )
                columns.setdefault(column.key, column)
                row = record.model_id
                if by_variant and benchmark.variant:
                    row = f"{record.model_id}{ROW_SEPARATOR}{benchmark.variant}"
                cell = (row, column.key)
                previous = cells.get(cell)
                if previous is None or (value > previous) == info.higher_is_better:
                    cells[cell] = value
    model_ids = sorted({model for model, _ in cells})
    keys = sorted(columns)
    row_of = {m: i for i, m in enumerate(model_ids)}
    col_of = {k: j for j, k in enumerate(keys)}
    values = np.full((len(model_ids), len(keys)), np.nan)
    for (model, key), value in cells.items():
        values[row_of[model], col_of[key]] = value
    return PerformanceMatrix(model_ids, [columns[k] for k in keys], values)


def filter_min_results(matrix: PerformanceMatrix, min_results: int) -> PerformanceMatrix:
    """Drop models and columns with fewer than ``min_results`` results, repeating until stable."""
    current = matrix
    while True:
        observed = current.observed
        rows = observed.sum(axis=1) >= min_results
        cols = observed.sum(axis=0) >= min_results
        if rows.all() and cols.all():
            return current
        current = current.subset(rows, cols)


def normalised_gaps(matrix: PerformanceMatrix) -> FloatArray:
    """Per column: distance to the best value over the column's largest distance (0 best, 1 worst).

    Direction comes from the metric (lower RMSE is better). A column where every model ties has no
    spread; its gaps are 0.
    """
    values = matrix.values
    sign = np.array([1.0 if c.higher_is_better else -1.0 for c in matrix.columns])
    oriented = values * sign  # higher is better everywhere
    with np.errstate(all="ignore"):
        best = np.nanmax(oriented, axis=0)
        gaps = best - oriented
        spread = np.nanmax(gaps, axis=0)
        normalised = np.where(spread > 0, gaps / np.where(spread > 0, spread, 1.0), 0.0)
    return np.where(np.isnan(values), np.nan, normalised)


def prepare(
    records: Sequence[ModelRecord], min_results: int, *, by_variant: bool = True
) -> tuple[PerformanceMatrix, FloatArray]:
    """Matrix from records, filtered, with columns that have no spread removed, and its gaps."""
    matrix = filter_min_results(build_matrix(records, by_variant=by_variant), min_results)
    while matrix.values.size:
        spread = np.nanmax(matrix.values, axis=0) - np.nanmin(matrix.values, axis=0)
        if (spread > 0).all():
            break
        matrix = filter_min_results(
            matrix.subset(np.ones(len(matrix.model_ids), dtype=bool), spread > 0), min_results
        )
    return matrix, normalised_gaps(matrix)
