"""How to load a model: sourced Usage rows, the library templates their snippets come from, and
the views the app, the CLI and the statistics show.

The rows live in ``rsfmd/data/usage.csv`` (one row per way to load), joined onto the records by the
loader; the libraries and their one template each in ``rsfmd/data/usage_templates.toml``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

if TYPE_CHECKING:
    from rsfmd.schema import ModelRecord

USAGE_COLUMNS: tuple[str, ...] = (
    "model_id",
    "library",
    "identifier",
    "variant",
    "inputs",
    "source_url",
    "weights",
    "note",
)
"""Columns of ``usage.csv``, in order."""
OTHERS_NAMED = 6
"""How many further identifiers of a library an answer names before counting the rest."""


def _url(value: str) -> str:
    from rsfmd.schema import _check_url  # the one URL rule of RS-FMD; schema imports this module

    return _check_url(value)


_UsageUrl = Annotated[str, AfterValidator(_url)]


@dataclass(frozen=True)
class LibraryTemplate:
    """A library a Usage row may name, with the template its snippets are filled from."""

    name: str
    label: str
    language: str
    docs: str
    template: str


@cache
def library_templates() -> dict[str, LibraryTemplate]:
    """The controlled list of libraries, in the order answers show them (most specific first)."""
    text = resources.files("rsfmd").joinpath("data", "usage_templates.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)
    return {
        name: LibraryTemplate(
            name=name,
            label=entry["label"],
            language=entry["language"],
            docs=entry["docs"],
            template=entry["template"].strip("\n"),
        )
        for name, entry in table.items()
    }


class Usage(BaseModel):
    """One way to load a model (or one of its variants), with where it is documented."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    library: str = Field(description="One of the libraries in rsfmd/data/usage_templates.toml.")
    identifier: str = Field(
        min_length=1,
        description="The name in that library: a TorchGeo weight, a TerraTorch backbone, a Hugging Face "
        "repository id, an open_clip 'hf-hub:' name, a timm model name, or the repository URL.",
    )
    variant: str | None = Field(default=None, description="Which released variant this row loads.")
    inputs: str | None = Field(default=None, description="Bands or input the loader expects, as sourced.")
    source_url: _UsageUrl = Field(description="Registry file, model card or README the row was read from.")
    weights: _UsageUrl | None = Field(
        default=None, description="Where the checkpoint is, when not in a library."
    )
    note: str | None = Field(default=None, description="Anything else, e.g. the registry commit.")

    @field_validator("library")
    @classmethod
    def _library(cls, value: str) -> str:
        known = library_templates()
        if value not in known:
            raise ValueError(f"unknown library {value!r}: use one of {', '.join(known)}")
        return value

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Usage:
        """A Usage from one CSV row (the model_id column is left out; empty cells are None)."""
        values: dict[str, Any] = {k: (v or None) for k, v in row.items() if k != "model_id"}
        return cls.model_validate(values)


class UsageSnippet(Usage):
    """A Usage row with its snippet filled in, as answers carry it."""

    snippet: str = Field(description="The code that loads it, from the library's one template.")

    @classmethod
    def of(cls, usage: Usage) -> UsageSnippet:
        """The row with its snippet."""
        return cls(**usage.model_dump(), snippet=snippet(usage))


def snippet(usage: Usage) -> str:
    """The code that loads ``usage``: its library's template filled in, under a comment naming the
    variant and inputs when the row gives them."""
    template = library_templates()[usage.library]
    body = template.template.format(identifier=usage.identifier, weights=usage.weights or usage.source_url)
    said = " - ".join(part for part in (usage.variant, usage.inputs) if part)
    return f"# {said}\n{body}" if said else body


U = TypeVar("U", bound=Usage)


def by_library(usages: Iterable[U]) -> dict[str, list[U]]:
    """Rows grouped by library, libraries in the order of the template table."""
    order = list(library_templates())
    groups: dict[str, list[U]] = {}
    for usage in sorted(usages, key=lambda u: order.index(u.library)):
        groups.setdefault(usage.library, []).append(usage)
    return groups


def leading_usages(usages: Sequence[U], limit: int = 3) -> list[tuple[U, list[U]]]:
    """For each library (at most ``limit``), the row to show as code and the other rows of it."""
    return [(rows[0], rows[1:]) for rows in list(by_library(usages).values())[:limit]]


def usage_line(usages: Sequence[Usage], limit: int = 3) -> str:
    """One Markdown line naming the first way to load it in each library, with its source."""
    shown = [
        f"{library_templates()[first.library].label} `{first.identifier}` ([source]({first.source_url}))"
        + (f" and {len(others)} more" if others else "")
        for first, others in leading_usages(usages, limit)
    ]
    return "Load with: " + "; ".join(shown)


def usage_markdown(usages: Sequence[Usage], limit: int = 3) -> list[str]:
    """Markdown lines: one fenced snippet per library, and the other identifiers it offers."""
    lines: list[str] = []
    for first, others in leading_usages(usages, limit):
        template = library_templates()[first.library]
        lines.append(f"{template.label} ([source]({first.source_url})):")
        lines.extend([f"```{template.language}", snippet(first), "```"])
        if others:
            named = ", ".join(f"`{u.identifier}`" for u in others[:OTHERS_NAMED])
            more = f" and {len(others) - OTHERS_NAMED} more" if len(others) > OTHERS_NAMED else ""
            lines.append(f"Also: {named}{more}")
    return lines


def usage_coverage(records: Sequence[ModelRecord]) -> dict[str, Any]:
    """How many records releasing weights say how to load them, overall and by library."""
    releasing = [r for r in records if r.weights_released]
    covered = [r for r in releasing if r.usage]
    libraries = {
        name: sum(1 for r in records if any(u.library == name for u in r.usage))
        for name in library_templates()
    }
    return {
        "records_releasing_weights": len(releasing),
        "records_with_usage": len(covered),
        "percent": round(100.0 * len(covered) / (len(releasing) or 1), 1),
        "rows": sum(len(r.usage) for r in records),
        "records_by_library": libraries,
    }
