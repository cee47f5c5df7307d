"""What a record's free-text licence says about commercial use.

Records keep the licence as written by their source (e.g. "CC-BY-NC-4.0 (weights); MIT (code)").
A licence with a non-commercial or research-only part restricts commercial use; one made only of
well-known open licences allows it; anything else (custom terms, no licence stated) is unknown.
"""

from __future__ import annotations

import re

_RESTRICTED = re.compile(
    r"(?:^|[^a-z])nc(?:[^a-z]|$)|non[\s-]?commercial|research[\s-](?:use|only)|academic[\s-]use",
    re.IGNORECASE,
)
_OPEN = re.compile(
    r"apache|\bmit\b|\bbsd\b|cc-?by(?!-?nc)|cc0|odc-by|\b(?:a|l)?gpl\b|openrail|\bmpl\b|unlicense",
    re.IGNORECASE,
)
_NOTE = re.compile(r"\([^()]*\)")  # "(weights, per torchgeo)", "(README statement)"


def allows_commercial_use(license_text: str | None) -> bool | None:
    """False when any part restricts commercial use, True when every part is an open licence, else None."""
    if not license_text or not license_text.strip():
        return None
    if _RESTRICTED.search(license_text):
        return False
    notes = " ".join(_NOTE.findall(license_text)).lower()
    if re.search(r"\b(?:code|data)\b", notes) and not re.search(r"weight|checkpoint|model", notes):
        return None  # only the code's or the data's licence is stated, not the weights'
    parts = [p.strip() for p in re.split(r"[;,]|\band\b", _NOTE.sub("", license_text)) if p.strip()]
    if parts and all(_OPEN.search(part) for part in parts):
        return True
    return None
