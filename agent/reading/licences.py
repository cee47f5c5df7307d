"""Licence and weights wishes: permissive licences named ('Apache-2.0 or MIT only'), commercial use
asked for or ruled out, and open weights (the phrasings of the last two in ``cues.csv``).
"""

from __future__ import annotations

import re

from agent.reading.tables import cue_pattern
from rsfmd.licenses import LICENSE_FAMILIES, license_family

# Commercial use asked for ('for our startup'), ruled out ('research only'), and non-commercial use
# ruled out ('nothing CC-BY-NC'), which asks for commercial use: rows of cues.csv, field 'commercial'.
_COMMERCIAL_CUES = ("asked", "not_commercial", "no_non_commercial")


def _commercial(value: str) -> re.Pattern[str]:
    return cue_pattern("commercial", value)


def licence_spans(lowered: str) -> list[tuple[int, int]]:
    """Where the text speaks of licences, commercial use or open weights."""
    patterns = (cue_pattern("wish", "open_weights"), *map(_commercial, _COMMERCIAL_CUES), _PERMISSIVE_NAMED)
    return [m.span() for pattern in patterns for m in pattern.finditer(lowered)]


def asks_commercial_use(lowered: str, permissive: bool) -> bool:
    """Commercial use asked for, and not undone by a non-commercial wish ('non-commercial research
    is fine'); 'nothing non-commercial' asks for it."""
    if _commercial("no_non_commercial").search(lowered):
        return True
    asked = _commercial("asked").search(lowered) or permissive
    return bool(asked) and not _commercial("not_commercial").search(lowered)


# 'Apache-2.0 or MIT only', 'BSD-licensed': a named permissive licence.
_CC = r"cc[\s-]?by(?![\s-]*(?:nc|sa|nd)\b)(?:[\s-]*4(?:\.0)?)?|cc[\s-]?0"
_LICENCE_NAME = rf"(?:apache(?:[\s-]*2(?:\.0)?)?|mit|bsd(?:[\s-]*[23](?:[\s-]clause)?)?|{_CC})\b"
_PERMISSIVE_NAMED = re.compile(
    # 'CC-BY-4.0', 'CC0': a Creative Commons name is a licence on its own.
    rf"\b(?:{_CC})\b|"
    rf"\b{_LICENCE_NAME}"
    r"(?=[^.]{0,40}\blicen[cs](?:e|ed|ing)\b|\s*(?:or|/|,)\s*(?:apache|mit|bsd|cc)\b|[\s-]licen[cs]ed\b"
    r"|\s*or\s+(?:anything\s+|something\s+)?(?:more\s+permissive|less\s+restrictive)\b)"
    r"|\blicen[cs]ed? (?:under )?(?:apache|mit|bsd)\b|\bapache[\s-]2(?:\.0)?\b"
    # 'SAR ship detection, under 30M params, Apache': a bare licence name closing a list of constraints.
    rf"|(?:(?<=,)|(?<=;))\s*{_LICENCE_NAME}(?=\s*(?:only)?\s*(?:$|[.;!?)]))"
)
_MORE_PERMISSIVE = re.compile(
    r"\bor\s+(?:anything\s+|something\s+)?(?:more\s+permissive|less\s+restrictive)\b"
)
_LICENCE_RUN = re.compile(rf"(?:[\s-]*2(?:\.0)?\b)?(?:\s*(?:,|/|or|and)\s*{_LICENCE_NAME})*")
_LICENCE_LIST = re.compile(rf"\b{_LICENCE_NAME}")


def asks_open_weights(lowered: str) -> bool:
    """Whether the task wants weights it can download."""
    return bool(cue_pattern("wish", "open_weights").search(lowered))


def read_licences(lowered: str, notes: list[str]) -> tuple[list[str], bool]:
    """The licence families the task allows (empty: any) and whether it named a permissive licence,
    saying in ``notes`` how they were read."""
    licence_at: dict[int, str] = {}  # start -> licence as written
    for match in _PERMISSIVE_NAMED.finditer(lowered):
        # 'apache-2.0 or mit only': the licences listed after a named one are named too.
        run = _LICENCE_RUN.match(lowered, match.end())  # matches, if only the empty string
        end = run.end() if run else match.end()
        licence_at.update(
            (m.start(), m.group(0)) for m in _LICENCE_LIST.finditer(lowered, match.start(), end)
        )
    named_licences = list(dict.fromkeys(licence_at[k] for k in sorted(licence_at)))
    permissive = bool(named_licences)
    licences = list(dict.fromkeys(f for m in named_licences if (f := license_family(m))))
    more = _MORE_PERMISSIVE.search(lowered) if licences else None
    if more:
        # 'CC-BY-4.0 or more permissive': that licence and the others asking attribution at most.
        licences = list(dict.fromkeys([*licences, *(name for name, _ in LICENSE_FAMILIES)]))
    if licences:
        named = ", ".join(repr(m) for m in named_licences) + (f" {more.group(0)}" if more else "")
        notes.append(
            f"{named} read as: only models licensed {' or '.join(licences)}, which allow commercial use"
        )
    return licences, permissive
