"""Which error the user can least afford: a false alarm (so precision matters) or a miss (so
recall matters). A sentence names errors of either side (``cues.csv``, field ``error``, values
``false_alarm`` and ``miss``) and says what each costs (values ``costly`` and ``tolerated``); a
comparison orders them: 'a missed ship is much worse than a false alarm' (the side before 'than'
costs more), 'I'd rather miss a borderline site than send officers out' (the side after 'rather'
is the one put up with).
"""

from __future__ import annotations

import re
from functools import cache

from agent.reading.context import sentence_spans
from agent.reading.tables import cue_pattern

_PRIORITY = {"false_alarm": "precision", "miss": "recall"}
_OTHER = {"false_alarm": "miss", "miss": "false_alarm"}
# A comparison: what comes before 'than' weighs more ('worse than', 'matters more than').
_MORE_THAN = re.compile(r"\b(?:more|worse|costlier|higher|bigger)\b(?:\s+\w+){0,3}?\s+than\b|\bover\b")
_NOTHING = re.compile(r"\b(?:nothing|none|no\s+\w+)\s+(?:\w+\s+){0,2}$")
_RATHER = re.compile(r"\b(?:rather|prefer to)\b")
_CLAUSE = re.compile(r"[;:,]|\s[-–—]\s|\b(?:but|while|whereas|because|since|so)\b")


@cache
def _pattern(value: str) -> re.Pattern[str]:
    return cue_pattern("error", value)


def _sides(text: str) -> list[tuple[int, str]]:
    found = [(m.start(), side) for side in _PRIORITY for m in _pattern(side).finditer(text)]
    return sorted(found)


def _weighed(sentence: str) -> str | None:
    """The side of error the sentence says costs more, or None."""
    sides = _sides(sentence)
    if not sides:
        return None
    if rather := _RATHER.search(sentence):
        # 'rather miss X than Y', 'rather review extra boxes than miss trees': put up with the first;
        # 'rather not miss any' says the first costs.
        after = [side for start, side in sides if start >= rather.end()]
        if after:
            refused = sentence[rather.end() :].lstrip().startswith("not ")
            return after[0] if refused else _OTHER[after[0]]
    if more := _MORE_THAN.search(sentence):
        before = [side for start, side in sides if start < more.start()]
        if before and {s for _, s in sides} == set(_PRIORITY):
            return before[-1]
        if not before and more.group(0) != "over":
            # 'recall matters far more than the odd false positive': the error after 'than' is
            # the one put up with ('nothing is worse than a false alarm': the one that costs most).
            lesser = sides[0][1]
            return lesser if _NOTHING.search(sentence, 0, more.start()) else _OTHER[lesser]
    # Otherwise what each clause says its error costs; clauses that disagree ('missing a few tiny
    # boats is acceptable, missing large dark vessels is not') say nothing.
    verdicts = set()
    for start, side in sides:
        clause = _clause_of(sentence, start)
        if _pattern("tolerated").search(clause):
            verdicts.add(_OTHER[side])
        elif _pattern("costly").search(clause):
            verdicts.add(side)
    return verdicts.pop() if len(verdicts) == 1 else None


def _clause_of(sentence: str, at: int) -> str:
    """The clause of ``sentence`` around position ``at``."""
    cuts = [0, *(m.end() for m in _CLAUSE.finditer(sentence)), len(sentence)]
    start = max(c for c in cuts if c <= at)
    end = min((c for c in cuts if c > at), default=len(sentence))
    return sentence[start:end]


def error_priorities(lowered: str) -> list[str]:
    """'precision' and/or 'recall', as the sentences of ``lowered`` weigh the two errors."""
    out: list[str] = []
    for start, stop in sentence_spans(lowered):
        side = _weighed(lowered[start:stop])
        if side and _PRIORITY[side] not in out:
            out.append(_PRIORITY[side])
    return out
