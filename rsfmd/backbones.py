"""Standard backbone architectures and their documented sizes (``rsfmd/vocab/backbones.csv``).

Each row gives a canonical ``name``, pipe-separated ``synonyms``, the parameter count in
millions (``params_m``) and the ``source_url`` that states it. ``match_backbone`` finds which
row a free-text ``backbone`` field names, and refuses to guess when the text is ambiguous.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from rsfmd.vocab import UnknownTermError, Vocabulary, _read_table


@dataclass(frozen=True)
class Backbone:
    """One standard architecture with its documented parameter count."""

    name: str
    synonyms: tuple[str, ...]
    params_m: float
    source_url: str
    notes: str


class MatchStatus(StrEnum):
    """Outcome of matching a backbone string against the table."""

    matched = "matched"
    no_match = "no match"
    ambiguous = "ambiguous"
    composite = "composite"


@dataclass(frozen=True)
class BackboneMatch:
    """Which table rows a backbone string names, and whether that is one unambiguous row."""

    status: MatchStatus
    names: tuple[str, ...] = ()
    backbone: Backbone | None = None


@cache
def _vocabulary() -> Vocabulary:
    return _read_table("backbones")


@cache
def get_backbone_table() -> dict[str, Backbone]:
    """Load (once) the backbone table, keyed by canonical name in table order."""
    table = _vocabulary()
    out: dict[str, Backbone] = {}
    for name, row in table.rows.items():
        synonyms = tuple(s.strip() for s in row.get("synonyms", "").split("|") if s.strip())
        out[name] = Backbone(
            name=name,
            synonyms=synonyms,
            params_m=float(row["params_m"]),
            source_url=row["source_url"],
            notes=row.get("notes", ""),
        )
    return out


def list_backbones() -> list[str]:
    """Canonical backbone names in table order."""
    return list(get_backbone_table())


def get_backbone(name: str) -> Backbone:
    """A backbone by canonical name or synonym; raises UnknownTermError when unknown."""
    table = _vocabulary()
    canonical = table.get(name)
    if canonical is None:
        raise UnknownTermError("backbones", name, table.suggest(name))
    return get_backbone_table()[canonical]


def spelling_pattern(spelling: str) -> str:
    """A pattern for a backbone's spelling, to compile with re.IGNORECASE."""
    # Hyphens, spaces and underscores are interchangeable or optional ("ResNet-50" = "ResNet50"),
    # and a match must not sit inside a longer token ("ViT-B" is not in "HiViT-B" or "ViT-Base").
    parts = [re.escape(part) for part in re.split(r"[\s\-_]+", spelling.strip()) if part]
    return r"(?<![A-Za-z0-9])" + r"[\s\-_]?".join(parts) + r"(?![A-Za-z0-9])"


_COMPOSITE = re.compile(r"\+|\bencoders\b", re.IGNORECASE)


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    out: list[tuple[re.Pattern[str], str]] = []
    for backbone in get_backbone_table().values():
        for spelling in (backbone.name, *backbone.synonyms):
            out.append((re.compile(spelling_pattern(spelling), re.IGNORECASE), backbone.name))
    return tuple(out)


def match_backbone(text: str) -> BackboneMatch:
    """The one table row ``text`` names, or why there is none.

    A spelling found inside a longer match is ignored ("CLIP ViT-L/14" is CLIP's tower, not the
    generic ViT-L). Text naming several rows is ambiguous; text joining parts with "+" or naming
    several encoders describes a composite whose size is not one backbone's, so it is refused
    even when one row matches.
    """
    spans: list[tuple[int, int, str]] = []
    for pattern, name in _patterns():
        spans.extend((m.start(), m.end(), name) for m in pattern.finditer(text))
    kept = [
        (start, end, name)
        for start, end, name in spans
        if not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)
    ]
    names = tuple(dict.fromkeys(name for _, _, name in sorted(kept)))
    if not names:
        return BackboneMatch(MatchStatus.no_match)
    if _COMPOSITE.search(text):
        return BackboneMatch(MatchStatus.composite, names)
    if len(names) > 1:
        return BackboneMatch(MatchStatus.ambiguous, names)
    return BackboneMatch(MatchStatus.matched, names, get_backbone_table()[names[0]])


# Backbone families a task can ask for by name ('a Swin backbone'): the name as shown, and a
# pattern (re.IGNORECASE) for the family's members in a record's backbone text.
BACKBONE_FAMILIES: dict[str, str] = {
    "ViT": r"(?<![A-Za-z0-9])vit(?![a-z])",
    "Swin": r"(?<![A-Za-z0-9])swin",
    "ResNet": r"(?<![A-Za-z0-9])(?:resnet|wrn)",
    "ConvNeXt": r"(?<![A-Za-z0-9])convnext",
}
# The table rows a task can name as its backbone ('ResNet-50', 'ViT-L'): generic architectures, not
# a pretrained tower (CLIP, DINOv2) or a size class (7B LLM).
NAMEABLE_FAMILIES = ("ViT-", "Swin", "ResNet-", "WRN-", "ConvNeXt-")


@cache
def backbone_name_pattern(name: str) -> re.Pattern[str]:
    """A pattern for a family ('Swin') or a nameable table row ('ResNet-50') in backbone text."""
    if name in BACKBONE_FAMILIES:
        return re.compile(BACKBONE_FAMILIES[name], re.IGNORECASE)
    backbone = get_backbone_table()[name]
    spellings = (backbone.name, *backbone.synonyms)
    return re.compile("|".join(spelling_pattern(s) for s in spellings), re.IGNORECASE)


def names_backbone(text: str, names: list[str]) -> list[str]:
    """Which of ``names`` (families or table rows) the backbone ``text`` names."""
    return [name for name in names if backbone_name_pattern(name).search(text)]
