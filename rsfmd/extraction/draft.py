"""The extraction draft (record + scores + review list), its file format, and merging into RS-FMD."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rsfmd.loader import atomic_write_text, default_data_dir, find_duplicates, load_database, parse_lines
from rsfmd.schema import ModelRecord

DRAFT_FORMAT: Final = "remsa-extraction-draft/1"
ADDED_FILE = "models_added.jsonl"
REQUIRED_FIELDS = ("model_name", "short_description", "category")
ReviewStatus = Literal["pending", "accepted", "chosen", "edited"]


class DraftError(ValueError):
    """A draft cannot become a record (unreviewed flags, invalid fields, bad file)."""


class DuplicateRecordError(DraftError):
    """The record's id, name or an alias is already in RS-FMD."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Snippet(_Model):
    """A passage of a source that mentions a candidate value."""

    source: str
    text: str


class Candidate(_Model):
    """One value proposed by some runs (None: those runs left the field out)."""

    value: Any = None
    runs: int = Field(ge=0, description="How many runs gave this value.")
    snippets: list[Snippet] = Field(default_factory=list)


class FieldScore(_Model):
    """Confidence of one extracted field and its two ingredients."""

    confidence: float = Field(ge=0, le=1)
    consistency: float = Field(ge=0, le=1)
    normalised_logprob: float | None = Field(default=None, ge=0, le=1)
    method: str
    flagged: bool


class ReviewItem(_Model):
    """A flagged field: current value, the candidates behind it, and the reviewer's decision."""

    field: str
    confidence: float = Field(ge=0, le=1)
    value: Any = None
    candidates: list[Candidate] = Field(default_factory=list)
    reason: str = ""
    status: ReviewStatus = "pending"


class Draft(_Model):
    """What `remsa db extract` writes and `remsa db review` / `add` read."""

    format: Literal["remsa-extraction-draft/1"] = DRAFT_FORMAT
    record: dict[str, Any] = Field(default_factory=dict, description="The record as aggregated so far.")
    fields: dict[str, FieldScore] = Field(default_factory=dict)
    review: list[ReviewItem] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list, description="URLs the record cites.")
    source_labels: list[str] = Field(default_factory=list, description="Files or texts that were read.")
    runs_requested: int = 0
    runs_usable: int = 0
    confidence_method: str = ""
    notices: list[str] = Field(default_factory=list)
    settings: dict[str, float] = Field(default_factory=dict)

    def unresolved(self) -> list[ReviewItem]:
        """Flagged fields nobody has decided on yet."""
        return [item for item in self.review if item.status == "pending"]


def load_draft(path: str | os.PathLike[str]) -> Draft:
    """Read a draft file; DraftError says what is wrong with it."""
    target = Path(path)
    try:
        return Draft.model_validate_json(target.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DraftError(f"no draft at {target}; create one with `remsa db extract`") from exc
    except ValidationError as exc:
        raise DraftError(f"{target} is not an extraction draft: {str(exc)[:400]}") from exc


def save_draft(draft: Draft, path: str | os.PathLike[str]) -> None:
    """Write a draft atomically."""
    atomic_write_text(path, draft.model_dump_json(indent=2) + "\n")


def model_id_from_name(name: str) -> str:
    """CURATION.md rule: lower case, every run of characters outside [a-z0-9.+] becomes '-'."""
    return re.sub(r"[^a-z0-9.+]+", "-", name.lower()).strip("-")


_PLACEHOLDER: dict[str, Any] = {
    "model_id": "placeholder",
    "model_name": "placeholder",
    "short_description": "placeholder description",
    "category": "vision",
    "sources": [{"url": "https://example.org"}],
}


def validate_field(name: str, value: Any) -> Any:
    """The value of one ModelRecord field after validation (canonical vocabulary names, JSON types).

    Raises DraftError with pydantic's reason when the value does not fit the schema.
    """
    if name not in ModelRecord.model_fields:
        raise DraftError(f"{name!r} is not a ModelRecord field")
    try:
        record = ModelRecord.model_validate({**_PLACEHOLDER, name: value})
    except ValidationError as exc:
        reasons = [
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg'].removeprefix('Value error, ')}"
            for err in exc.errors()
        ]
        raise DraftError("; ".join(reasons)) from exc
    # Nested defaults (empty lists, nulls) are left out, as in the JSONL files.
    return record.model_dump(mode="json", include={name}, exclude_defaults=True).get(name)


def set_field(draft: Draft, field: str, value: Any, status: ReviewStatus) -> None:
    """Set a field (validated; None removes it) and mark its review item decided."""
    if value is None:
        draft.record.pop(field, None)
    else:
        draft.record[field] = validate_field(field, value)
    for item in draft.review:
        if item.field == field:
            item.value = draft.record.get(field)
            item.status = status


def final_record(draft: Draft, *, require_review: bool = True) -> ModelRecord:
    """The record a draft stands for, with id, sources, confidences and verified flags filled in."""
    if require_review and draft.unresolved():
        names = ", ".join(item.field for item in draft.unresolved())
        raise DraftError(
            f"flagged fields not reviewed yet: {names}. Run `remsa db review DRAFT` first; "
            "nothing enters RS-FMD unreviewed."
        )
    if not draft.sources:
        raise DraftError("the draft cites no source URL; extract again with --source-url URL")
    data = dict(draft.record)
    missing = [name for name in REQUIRED_FIELDS if not data.get(name)]
    if missing:
        raise DraftError(f"required fields missing: {', '.join(missing)}; set them with `remsa db review`")
    data["model_id"] = model_id_from_name(str(data["model_name"]))
    filled = [name for name in data if name != "model_id"]
    data["sources"] = [
        {"url": url, "fields": filled, "note": "automated extraction"} for url in draft.sources
    ]
    data["confidence"] = {name: s.confidence for name, s in draft.fields.items() if name in data}
    data["verified"] = {item.field: True for item in draft.review if item.status != "pending"}
    try:
        return ModelRecord.model_validate(data)
    except ValidationError as exc:
        raise DraftError(f"the draft does not validate as a record: {str(exc)[:600]}") from exc


def database_target(path: str | os.PathLike[str] | None) -> tuple[Path, Path]:
    """(database to check duplicates against, file new records are written to)."""
    database = Path(path) if path is not None else default_data_dir()
    target = database if database.is_file() else database / ADDED_FILE
    return database, target


def add_record(record: ModelRecord, path: str | os.PathLike[str] | None = None) -> Path:
    """Append a record to RS-FMD atomically after checking duplicates against the whole database.

    ``path`` is a database folder (the record goes to ``models_added.jsonl`` in it, created if
    missing) or one JSONL file; the shipped database when None. Returns the file written.
    """
    database, target = database_target(path)
    existing = load_database(database, strict=True)
    clashes = [e for e in find_duplicates([*existing.records, record]) if e.line == len(existing.records) + 1]
    if clashes:
        reasons = "; ".join(e.reason for e in clashes)
        raise DuplicateRecordError(
            f"{record.model_name!r} is already in RS-FMD ({reasons}); nothing was written. "
            "Edit the existing record instead, or give this one a distinct name."
        )
    text = target.read_text(encoding="utf-8") if target.is_file() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    line = record.to_json_line()
    check = parse_lines([line], str(target))
    if check.errors:
        raise DraftError(f"record does not survive a round trip: {check.errors[0]}")
    atomic_write_text(target, text + line + "\n")
    return target


def record_summary(record: dict[str, Any]) -> str:
    """One line naming a draft record."""
    name = record.get("model_name") or "(no name)"
    mods = ", ".join(record.get("modalities") or []) or "?"
    return f"{name} [{mods}]"


def to_json(value: Any) -> str:
    """Compact JSON of a field value, for display."""
    return json.dumps(value, ensure_ascii=False)
