"""Locate top-level JSON values in an LLM reply, and find source passages behind a value."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from rsfmd.extraction.draft import Snippet
from rsfmd.extraction.sources import SourceText

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")


def _skip_ws(text: str, pos: int) -> int:
    match = _WS.match(text, pos)
    return match.end() if match else pos


def _body_start(text: str) -> int:
    """Offset of the JSON body: after leading space and an opening Markdown code fence, if any."""
    start = _skip_ws(text, 0)
    if text.startswith("```", start):
        newline = text.find("\n", start)
        return len(text) if newline < 0 else newline + 1
    return start


def locate_fields(text: str) -> tuple[dict[str, Any], dict[str, tuple[int, int]]]:
    """The reply's top-level JSON object and the character span of each value in ``text``.

    The spans let token log-probabilities be attributed to fields. ValueError (a
    ``json.JSONDecodeError``) when the reply is not one JSON object (an optional code fence aside).
    """
    idx = _skip_ws(text, _body_start(text))
    if not text.startswith("{", idx):
        raise ValueError(f"expected a JSON object at character {idx}, got {text[idx : idx + 30]!r}")
    data, end = _DECODER.raw_decode(text, idx)
    if not isinstance(data, dict):
        raise ValueError("the reply is not a JSON object")
    rest = text[end:].strip()
    if rest and rest != "```":
        raise ValueError(f"unexpected text after the JSON object: {rest[:40]!r}")
    spans: dict[str, tuple[int, int]] = {}
    # Walk the object again to find where each top-level value sits (the last duplicate wins, as in json).
    pos = _skip_ws(text, idx + 1)
    while pos < end and text[pos] != "}":
        key, pos = _DECODER.raw_decode(text, pos)
        pos = _skip_ws(text, _skip_ws(text, pos) + 1)  # past the ':'
        _, value_end = _DECODER.raw_decode(text, pos)
        spans[str(key)] = (pos, value_end)
        pos = _skip_ws(text, value_end)
        if text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
    return data, spans


def leaf_spans(text: str, start: int) -> tuple[list[tuple[int, int]], int]:
    """Spans of the scalar values (strings, numbers, booleans, null) inside the JSON value at ``start``.

    Returns (spans, end of the value). Used to score a list or object by its least certain leaf.
    """
    opener = text[start]
    if opener not in "[{":
        _, end = _DECODER.raw_decode(text, start)
        return [(start, end)], end
    spans: list[tuple[int, int]] = []
    pos = _skip_ws(text, start + 1)
    closer = "]" if opener == "[" else "}"
    while text[pos] != closer:
        if opener == "{":
            _, pos = _DECODER.raw_decode(text, pos)  # the key
            pos = _skip_ws(text, _skip_ws(text, pos) + 1)  # past the ':'
        inner, pos = leaf_spans(text, pos)
        spans.extend(inner)
        pos = _skip_ws(text, pos)
        if text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
    return spans, pos + 1


def _needles(value: Any) -> list[str]:
    """Short strings and numbers inside a value, as they might be written in a source."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, str):
        return [value] if 2 <= len(value) <= 60 else []
    if isinstance(value, int | float):
        if float(value).is_integer():
            return list(dict.fromkeys([str(int(value)), f"{int(value):,}"]))
        return [repr(float(value))]
    if isinstance(value, list):
        return [n for item in value for n in _needles(item)]
    if isinstance(value, dict):
        return [n for key, item in value.items() if key not in {"source_url"} for n in _needles(item)]
    return []


def find_snippets(
    sources: Sequence[SourceText], value: Any, *, limit: int = 3, width: int = 80
) -> list[Snippet]:
    """Up to ``limit`` passages of the sources that mention parts of ``value``."""
    out: list[Snippet] = []
    seen: set[tuple[str, int]] = set()
    # Numbers and dates first: they pin a passage down better than common words do.
    needles = sorted(dict.fromkeys(_needles(value)), key=lambda n: not any(ch.isdigit() for ch in n))
    for needle in needles:
        pattern = re.compile(re.escape(needle), re.IGNORECASE)
        for source in sources:
            match = pattern.search(source.text)
            if match is None or (source.label, match.start() // width) in seen:
                continue
            seen.add((source.label, match.start() // width))
            start, end = max(0, match.start() - width), min(len(source.text), match.end() + width)
            text = " ".join(source.text[start:end].split())
            prefix, suffix = ("…" if start else ""), ("…" if end < len(source.text) else "")
            out.append(Snippet(source=source.label, text=prefix + text + suffix))
            break
        if len(out) >= limit:
            break
    return out
