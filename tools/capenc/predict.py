"""The fitted capabilities encoding as a predictor the ranker and the app can query.

One full-data fit gives the point estimate; a bootstrap ensemble over the observed results gives
the uncertainty, which grows when few results place a model. Fits are cached under
``Settings().cache_dir()/capenc/`` keyed by the hash of the matrix and the fit configuration.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from agent.settings import Settings
from rsfmd.datasets import dataset_identities, dataset_identity, find_dataset
from rsfmd.loader import derived_dir
from rsfmd.schema import ModelRecord
from rsfmd.vocab import application_task_type, get_vocabulary
from tools.capenc.fit import Distance, FitConfig, fit_cells, pairwise_distance
from tools.capenc.matrix import ROW_SEPARATOR, Column, FloatArray, PerformanceMatrix, prepare, row_model_id

ARTIFACT_VERSION = 1
N_BOOTSTRAP = 12
NEAREST_DATASETS = 3
MAX_COLUMNS = 6
REFERENCE_RESULTS = 10


@dataclass(frozen=True)
class Prediction:
    """Predicted normalised gap (0 best .. 1 worst) of a model on one column."""

    model_id: str
    variant: str | None
    column: str
    column_label: str
    gap: float
    uncertainty: float
    observed_gap: float | None
    n_model_results: int


@dataclass(frozen=True)
class Standing:
    """A model's expected gap on datasets like the user's."""

    model_id: str
    expected_gap: float
    uncertainty: float
    n_model_results: int
    columns: list[str]
    datasets: list[str]
    observed: int = 0
    """How many of ``columns`` hold a reported result of the model (the rest are predicted)."""

    def summary(self) -> str:
        """One line: 'predicted gap 0.12 ± 0.08 on datasets like Sen1Floods11, MADOS (...)'."""
        like = ", ".join(self.datasets)
        if self.observed == len(self.columns):
            return f"reported gap {self.expected_gap:.2f} to the best model on datasets like {like}"
        return (
            f"predicted gap {self.expected_gap:.2f} ± {self.uncertainty:.2f} to the best model on "
            f"datasets like {like} ({self.observed} of {len(self.columns)} reported; "
            f"placed by {self.n_model_results} results)"
        )


@dataclass(frozen=True)
class MapPoint:
    """A model row or a dataset column projected to 2-D for the app's map."""

    label: str
    model_id: str | None
    x: float
    y: float


def fit_config(settings: Settings) -> FitConfig:
    """The fit configuration the settings ask for."""
    cap = settings.capabilities
    return FitConfig(
        dimensions=cap.dimensions,
        distance=cap.distance,
        seed=cap.seed,
        regularization=cap.regularization,
    )


def row_label(row_id: str) -> str:
    """A readable row name: the variant, prefixed with the model id unless the variant names it."""
    model_id, _, variant = row_id.partition(ROW_SEPARATOR)
    if not variant:
        return model_id
    squashed = "".join(ch for ch in variant.lower() if ch.isalnum())
    family = "".join(ch for ch in model_id.lower() if ch.isalnum())
    return variant if family[:5] in squashed else f"{model_id} · {variant}"


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


class CapabilitiesPredictor:
    """Fitted model and dataset points with prediction, standing and 2-D map queries."""

    def __init__(
        self,
        row_ids: list[str],
        columns: list[Column],
        gaps: FloatArray,
        model_points: FloatArray,
        column_points: FloatArray,
        distance: Distance,
        key: str,
    ) -> None:
        self.row_ids, self._columns, self.gaps = row_ids, columns, gaps
        self.model_points, self.column_points = model_points, column_points  # (members, n, dims)
        self.distance, self.key = distance, key
        self._col_of = {c.key: j for j, c in enumerate(columns)}
        self._nearest: dict[tuple[object, ...], list[Column]] = {}
        self._table: FloatArray | None = None  # gaps of every member, row and column (_member_gaps)
        rows, cols = np.nonzero(~np.isnan(gaps))
        fitted = pairwise_distance(model_points[0][rows], column_points[0][cols], distance)
        self.residual_rms = float(np.sqrt(np.mean((fitted - gaps[rows, cols]) ** 2))) if len(rows) else 0.0
        self._rows_of: dict[str, list[int]] = {}
        for i, row in enumerate(row_ids):
            self._rows_of.setdefault(row_model_id(row), []).append(i)

    # --- building, caching -------------------------------------------------------------------
    @staticmethod
    def cache_key(matrix: PerformanceMatrix, config: FitConfig, n_bootstrap: int) -> str:
        """Hash of everything the fit depends on."""
        text = json.dumps([ARTIFACT_VERSION, matrix.fingerprint(), config.__dict__, n_bootstrap])
        return hashlib.sha256(text.encode()).hexdigest()

    @classmethod
    def fit(
        cls, matrix: PerformanceMatrix, gaps: FloatArray, config: FitConfig, n_bootstrap: int = N_BOOTSTRAP
    ) -> CapabilitiesPredictor:
        """Fit the full-data embedding and a bootstrap ensemble."""
        rows, cols = (idx.astype(np.int64) for idx in np.nonzero(~np.isnan(gaps)))
        targets = gaps[rows, cols]
        members = [fit_cells(rows, cols, targets, gaps.shape, config)]
        rng = np.random.default_rng(config.seed)
        for b in range(n_bootstrap):
            pick = rng.integers(0, len(rows), size=len(rows))
            boot = replace(config, seed=config.seed + b + 1)
            members.append(fit_cells(rows[pick], cols[pick], targets[pick], gaps.shape, boot))
        return cls(
            matrix.model_ids,
            matrix.columns,
            gaps,
            np.stack([m.model_points for m in members]),
            np.stack([m.column_points for m in members]),
            config.distance,
            cls.cache_key(matrix, config, n_bootstrap),
        )

    def save(self, path: Path) -> None:
        """Write the artifact (npz, no pickles) atomically."""
        meta = {
            "version": ARTIFACT_VERSION,
            "key": self.key,
            "distance": self.distance,
            "rows": self.row_ids,
            "columns": [c.to_dict() for c in self._columns],
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp.npz")
        np.savez(
            tmp,
            meta=np.array(json.dumps(meta)),
            gaps=self.gaps,
            models=self.model_points,
            cols=self.column_points,
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> CapabilitiesPredictor:
        """Read an artifact written by save()."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            return cls(
                list(meta["rows"]),
                [Column.from_dict(c) for c in meta["columns"]],
                data["gaps"],
                data["models"],
                data["cols"],
                meta["distance"],
                str(meta["key"]),
            )

    @classmethod
    def load_or_fit(cls, records: Sequence[ModelRecord], settings: Settings) -> CapabilitiesPredictor:
        """The cached fit for these records and settings, fitting (and caching) it when absent."""
        cap = settings.capabilities
        config = fit_config(settings)
        matrix, gaps = prepare(records, cap.min_results)
        if not matrix.model_ids:
            raise ValueError(
                f"no model has {cap.min_results} or more benchmark results on shared columns; "
                "import benchmarks (`remsa db import-benchmarks`) or lower capabilities.min_results"
            )
        key = cls.cache_key(matrix, config, N_BOOTSTRAP)
        name = f"fit-{key[:20]}.npz"
        path = settings.cache_dir() / "capenc" / name
        for known in (derived_dir() / name, path):
            # The fit shipped for this database and these settings, else one cached earlier.
            if known.exists():
                return cls.load(known)
        predictor = cls.fit(matrix, gaps, config)
        predictor.save(path)
        return predictor

    # --- queries ---------------------------------------------------------------------------------
    def columns(self) -> list[Column]:
        """The dataset columns of the matrix."""
        return list(self._columns)

    @property
    def n_results(self) -> int:
        """Observed results in the fitted matrix."""
        return int((~np.isnan(self.gaps)).sum())

    def has_model(self, model_id: str) -> bool:
        """Whether the model has enough results to be placed."""
        return model_id in self._rows_of

    def n_model_results(self, model_id: str) -> int:
        """Results (over all its variants) that place the model."""
        rows = self._rows_of.get(model_id, [])
        return int((~np.isnan(self.gaps[rows])).sum())

    def _member_gaps(self, row: int, col: int) -> FloatArray:
        if self._table is None:
            # Every (member, row, column) gap at once, on first use: a request then only reads them.
            a, b = self.model_points[:, :, None, :], self.column_points[:, None, :, :]
            self._table = np.clip(pairwise_distance(a, b, self.distance), 0.0, 1.0)
        return self._table[:, row, col]

    def _uncertainty(self, member_gaps: FloatArray, n_results: int) -> float:
        """Bootstrap spread plus the fit's residual scale shrinking as 1/sqrt(results placing the model).

        The bootstrap alone under-reports for a sparsely placed model whose predictions sit at the
        clip bounds, so the residual term (calibrated at REFERENCE_RESULTS) keeps the trend monotone.
        """
        spread = float(member_gaps[1:].var()) if len(member_gaps) > 1 else 0.0
        residual = self.residual_rms**2 * REFERENCE_RESULTS / max(n_results, 1)
        return float(np.sqrt(spread + residual))

    def predict(self, model_id: str, column_key: str) -> Prediction:
        """Predicted gap on one column; for a family, its best-placed variant."""
        rows = self._rows_of.get(model_id)
        if rows is None:
            raise KeyError(f"model {model_id!r} is not in the capabilities matrix (too few results)")
        col = self._col_of.get(column_key)
        if col is None:
            raise KeyError(f"unknown column {column_key!r}; see CapabilitiesPredictor.columns()")
        best = min(rows, key=lambda r: float(self._member_gaps(r, col)[0]))
        member_gaps = self._member_gaps(best, col)
        observed = self.gaps[rows, col]
        row_id = self.row_ids[best]
        return Prediction(
            model_id=model_id,
            variant=row_id.split(ROW_SEPARATOR, 1)[1] if ROW_SEPARATOR in row_id else None,
            column=column_key,
            column_label=self._columns[col].label,
            gap=float(member_gaps[0]),
            uncertainty=self._uncertainty(member_gaps, self.n_model_results(model_id)),
            observed_gap=float(np.nanmin(observed)) if (~np.isnan(observed)).any() else None,
            n_model_results=self.n_model_results(model_id),
        )

    def nearest_columns(
        self,
        task_type: str | None,
        application: str | None,
        sensors: Sequence[str],
        modalities: Sequence[str],
    ) -> list[Column]:
        """Columns of the datasets most like the user's (task type, application, sensors, modalities)."""
        key = (task_type, application, tuple(sensors), tuple(modalities))
        if key not in self._nearest:  # one query asks this once per candidate model
            self._nearest[key] = self._nearest_columns(task_type, application, sensors, modalities)
        return self._nearest[key]

    def _nearest_columns(
        self,
        task_type: str | None,
        application: str | None,
        sensors: Sequence[str],
        modalities: Sequence[str],
    ) -> list[Column]:
        app = get_vocabulary("applications").get(application) if application else None
        task = task_type or (application_task_type(app) if app else None)
        task = get_vocabulary("task_types").get(task) if task else None
        want_sensors, want_modalities = set(sensors), set(modalities)
        scores: dict[str, float] = {}
        for column in self._columns:
            info = find_dataset(column.dataset)
            if info is None:  # a curated dataset name not (yet) in rsfmd/vocab/datasets.csv
                continue
            topical = 3.0 * (task == info.task_type) + 3.0 * (app is not None and app == info.application)
            if (task or app) and topical == 0:
                continue
            score = topical + 2 * _jaccard(want_sensors, set(info.sensors))
            score += _jaccard(want_modalities, set(info.modalities))
            if score > 0:
                scores[info.name] = score
        datasets = sorted(scores, key=lambda d: (-scores[d], d))[:NEAREST_DATASETS]
        chosen = [c for d in datasets for c in self._columns if c.dataset == d]
        return chosen[:MAX_COLUMNS]

    def standing(
        self,
        model_id: str,
        task_type: str | None,
        application: str | None,
        sensors: Sequence[str],
        modalities: Sequence[str],
        datasets: Sequence[str] = (),
    ) -> Standing | None:
        """Expected gap on datasets like the user's; None when the model or such datasets are absent.

        Columns of ``datasets`` (benchmarks the user named) are used when the matrix has them.
        """
        if not self.has_model(model_id):
            return None
        keys = dataset_identities(datasets)
        named = [c for c in self._columns if dataset_identity(c.dataset) in keys][:MAX_COLUMNS]
        columns = named or self.nearest_columns(task_type, application, sensors, modalities)
        if not columns:
            return None
        preds = [self.predict(model_id, c.key) for c in columns]
        gaps = [p.observed_gap if p.observed_gap is not None else p.gap for p in preds]
        variances = [0.0 if p.observed_gap is not None else p.uncertainty**2 for p in preds]
        return Standing(
            model_id=model_id,
            expected_gap=float(np.mean(gaps)),
            uncertainty=float(np.sqrt(np.mean(variances))),
            n_model_results=preds[0].n_model_results,
            columns=[c.label for c in columns],
            datasets=list(dict.fromkeys(c.dataset for c in columns)),
            observed=sum(p.observed_gap is not None for p in preds),
        )

    def project_2d(self) -> tuple[list[MapPoint], list[MapPoint]]:
        """Models and dataset columns of the full-data fit projected on their 2 principal axes."""
        stacked = np.concatenate([self.model_points[0], self.column_points[0]])
        centred = stacked - stacked.mean(axis=0)
        _, _, vt = np.linalg.svd(centred, full_matrices=False)
        xy = centred @ vt[:2].T if vt.shape[0] >= 2 else np.pad(centred, ((0, 0), (0, 1)))
        n = len(self.row_ids)
        models = [
            MapPoint(row_label(row), row_model_id(row), float(x), float(y))
            for row, (x, y) in zip(self.row_ids, xy[:n], strict=True)
        ]
        datasets = [
            MapPoint(c.label, None, float(x), float(y))
            for c, (x, y) in zip(self._columns, xy[n:], strict=True)
        ]
        return models, datasets
