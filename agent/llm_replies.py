"""The LLM steps' replies: their models, the bounds they are decoded under, and how they are parsed."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, Field, TypeAdapter

from tools.candidate import Candidate

T = TypeVar("T")


class RankItem(BaseModel):
    """One entry of the re-ranker's list."""

    model: str
    rank: int
    reason: list[str] = Field(default_factory=list)


class ExplanationItem(BaseModel):
    """One entry of the explainer's list."""

    model_name: str
    explanation: list[str] = Field(min_length=1)
    trade_offs: list[str] = Field(default_factory=list)


def parse_json(text: str, adapter: TypeAdapter[T]) -> T:
    """Validate a reply as JSON; a reply wrapped in one Markdown code fence is unwrapped first."""
    body = text.strip()
    if body.startswith("```"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = body.rsplit("```", 1)[0]
    return adapter.validate_json(body)


# Bounds of a reply decoded under its schema: a model that runs on must close its strings and
# lists, so the reply ends as valid JSON within the step's token cap. Validation stays unbounded.
DECODING_BOUNDS = {"maxLength": 100, "maxItems": 3, "top_maxItems": 16}


def bounded(schema: dict[str, Any], top: bool = True) -> dict[str, Any]:
    """``schema`` with every string and array given the decoding bounds it does not state (the
    reply's own list may be longer than the lists inside its items)."""
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if isinstance(value, dict):
            out[key] = (
                bounded(value, top=False)
                if key != "$defs"
                else {k: bounded(v, False) for k, v in value.items()}
            )
        elif isinstance(value, list):
            out[key] = [bounded(v, top=False) if isinstance(v, dict) else v for v in value]
        else:
            out[key] = value
    kind = schema.get("type")
    if kind == "string":
        out.setdefault("maxLength", DECODING_BOUNDS["maxLength"])
    elif kind == "array":
        out.setdefault("maxItems", DECODING_BOUNDS["top_maxItems" if top else "maxItems"])
    return out


def rerank_schema(adapter: TypeAdapter[Any], ranked: list[Candidate]) -> dict[str, Any]:
    """The re-rank's decoding schema: names only from the candidates, one line of reasons each,
    at most one entry per candidate (a constrained reply cannot invent or repeat its way to the
    token cap). Validation keeps the adapter's own schema."""
    schema = bounded(adapter.json_schema())
    item = schema["$defs"]["RankItem"]["properties"]
    item["model"] = {"type": "string", "enum": [c.record.model_name for c in ranked]}
    item["reason"] |= {"maxItems": 1, "items": {"type": "string", "maxLength": 80}}
    schema["maxItems"] = len(ranked)
    return schema
