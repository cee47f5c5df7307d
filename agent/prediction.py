"""The capabilities-encoding predictor as the ranker takes it: a model's expected standing on the
datasets most like the user's, with its uncertainty, or None where the encoding cannot place it."""

from __future__ import annotations

from agent.query import StructuredQuery
from agent.resources import Resources
from agent.settings import Settings
from rsfmd.schema import ModelRecord
from tools.candidate import Predict, Prediction
from tools.evidence import other_imagery
from tools.inputs import requested_imagery


def capabilities_predictor(resources: Resources, settings: Settings) -> Predict | None:
    """A predictor over the fitted capabilities encoding; None when it is off or unavailable."""
    predictor = resources.capabilities(settings)
    if predictor is None:
        return None

    def predict(record: ModelRecord, query: StructuredQuery) -> Prediction | None:
        if not predictor.has_model(record.model_id):
            return None
        standing = predictor.standing(
            record.model_id,
            query.task_type,
            query.application,
            query.sensor,
            query.modality,
            datasets=query.datasets,
        )
        if standing is None:
            return None
        score = max(0.0, min(1.0, 1.0 - float(standing.expected_gap)))
        other = other_imagery(standing.datasets, requested_imagery(query))
        summary = standing.summary() + (", all on other imagery" if other else "")
        return Prediction(
            score=score, uncertainty=float(standing.uncertainty), summary=summary, other_imagery=other
        )

    return predict
