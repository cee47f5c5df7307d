"""What a record's free-text licence says about commercial use.

Records keep the licence as written by their source (e.g. "CC-BY-NC-4.0 (weights); MIT (code)").
A licence with a non-commercial or research-only part restricts commercial use; one made only of
well-known open licences allows it; anything else (custom terms, no licence stated) is unknown.
A user may also name the licences they accept ("Apache-2.0 or MIT only"): ``within_licenses`` says
whether a record's licence is one of them.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_RESTRICTED = re.compile(
    r"(?:^|[^a-z])nc(?:[^a-z]|$)|non[\s-]?commercial|research[\s-](?:use|only)|academic[\s-]use",
    re.IGNORECASE,
)
_OPEN = re.compile(
    r"apache|\bmit\b|\bbsd\b|cc-?by(?!-?nc)|cc0|odc-by|\b(?:a|l)?gpl\b|openrail|\bmpl\b|unlicense",
    re.IGNORECASE,
)
_NOTE = re.compile(r"\([^()]*\)")  # "(weights, per torchgeo)", "(README statement)"
# A note saying a part is the weights' licence: "(weights)", "(Hugging Face model card)".
_WEIGHTS = r"weight|checkpoint|model"
# Between two licences, outside any note: ';', ',' or 'and' ("MIT (code); CC-BY-4.0 (weights, per torchgeo)").
_SEPARATOR = re.compile(r"(?:[;,]|\band\b)(?![^()]*\))")


# Licences a user can name by family: ('Apache-2.0', 'MIT', 'BSD', 'CC-BY', 'CC0'); each asks for
# attribution at most, with no share-alike or non-commercial term.
LICENSE_FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Apache-2.0", re.compile(r"apache", re.IGNORECASE)),
    ("MIT", re.compile(r"\bmit\b", re.IGNORECASE)),
    ("BSD", re.compile(r"\bbsd\b", re.IGNORECASE)),
    ("CC-BY", re.compile(r"\bcc[\s-]?by\b(?![\s-]*(?:nc|sa|nd)\b)", re.IGNORECASE)),
    ("CC0", re.compile(r"\bcc[\s-]?0\b", re.IGNORECASE)),
)


def _parts(license_text: str | None) -> list[str] | None:
    """The licences a record states for its weights (notes in brackets dropped); None when unknown.

    When some parts are marked as the weights' ('Apache-2.0 (weights); MIT (code)'), those parts
    are the weights' licences; otherwise every part counts.
    """
    if not license_text or not license_text.strip():
        return None
    notes = " ".join(_NOTE.findall(license_text)).lower()
    if re.search(r"\b(?:code|data)\b", notes) and not re.search(_WEIGHTS, notes):
        return None  # only the code's or the data's licence is stated, not the weights'
    pieces = [p for p in _SEPARATOR.split(license_text) if p.strip()]
    bare = [_NOTE.sub("", p).strip() for p in pieces]
    marked = [
        text
        for piece, text in zip(pieces, bare, strict=True)
        if text and re.search(_WEIGHTS, " ".join(_NOTE.findall(piece)).lower())
    ]
    return marked or [text for text in bare if text] or None


def allows_commercial_use(license_text: str | None) -> bool | None:
    """False when any part restricts commercial use, True when every part is an open licence, else None."""
    if not license_text or not license_text.strip():
        return None
    if _RESTRICTED.search(license_text):
        return False
    parts = _parts(license_text)
    if parts and all(_OPEN.search(part) for part in parts):
        return True
    return None


def license_family(text: str) -> str | None:
    """The nameable family of one licence ('Apache-2.0' for 'Apache License 2.0'), or None."""
    return next((name for name, pattern in LICENSE_FAMILIES if pattern.search(text)), None)


def within_licenses(license_text: str | None, accepted: Collection[str]) -> bool | None:
    """True when every licence the record states is one of ``accepted`` (family names), False when
    one is another licence, None when the record states none for its weights."""
    if license_text and _RESTRICTED.search(license_text):
        return False
    parts = _parts(license_text)
    if parts is None:
        return None
    return all(license_family(part) in accepted for part in parts)
