"""Hand-made RS-FMD records for tests."""

from __future__ import annotations

from typing import Any

from rsfmd.schema import ModelRecord

SRC = "https://example.org/paper"


def make_record(model_id: str = "m", **fields: Any) -> ModelRecord:
    """A valid vision record named after ``model_id``; ``fields`` add to or replace its values."""
    data: dict[str, Any] = {
        "model_id": model_id,
        "model_name": model_id.upper(),
        "short_description": "A test foundation model.",
        "category": "vision",
        "sources": [{"url": SRC}],
    }
    data.update(fields)
    return ModelRecord.model_validate(data)
