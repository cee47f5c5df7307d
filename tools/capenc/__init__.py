"""Capabilities encoding: predict a model's standing on datasets it was never evaluated on.

Public API: ``CapabilitiesPredictor.load_or_fit(records, settings)``, then ``has_model``,
``predict``, ``standing``, ``columns`` and ``project_2d``.
"""

from tools.capenc.predict import CapabilitiesPredictor, MapPoint, Prediction, Standing

__all__ = ["CapabilitiesPredictor", "MapPoint", "Prediction", "Standing"]
