"""The role of each stretch of a message, by a table-driven context algorithm (after NegEx/ConText).

A mention's meaning depends on what it is said of: in "most models are RGB; ours is 6-band
Landsat" RGB is background and Landsat the user's data. Triggers (``context.csv``) give a role, a
direction (the words after them, or before them) and a scope (to the end of the clause or of the
sentence); a terminator ("but", "ours", "we have") ends a scope early; a pseudo-trigger ("not only")
blocks a trigger that would match inside it. Quoted text ('flooded parking lot') is an example of
the user's input, not a requirement. Adding a phrasing is a row of the table, not code.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

Role = Literal["background", "reference", "labels_source", "hypothetical", "quoted"]
Direction = Literal["forward", "backward"]

ROLE_WORDS: dict[str, str] = {
    "background": "said of other models or of the world, not your data",
    "reference": "a model or data you tried, not a requirement",
    "labels_source": "the source of the labels, not an input",
    "hypothetical": "a hypothetical or ruled-out option",
    "quoted": "an example of your input text, not the task",
}

# Sentence ends ('.', not a decimal point), and clause ends for clause-scoped triggers.
_SENTENCE_END = re.compile(r"[;?!]|\.(?!\d)")
_CLAUSE_END = re.compile(r"[;?!,:()]|\.(?!\d)|\s[-–—]\s")
# Quoted stretches: 'flooded parking lot', "how many trucks?", “two new buildings”.
_QUOTED = re.compile(r"(?<![\w])'([^'\n]{3,120})'(?![\w])|\"([^\"\n]{3,160})\"|“([^”\n]{3,160})”")


@dataclass(frozen=True)
class Trigger:
    """One row of the table: a phrase that gives the words in its scope a role."""

    phrase: str
    role: Role
    direction: Direction
    scope: Literal["clause", "sentence"]
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class RoleSpan:
    """A stretch of the message and the role the words in it play."""

    start: int
    end: int
    role: Role
    cue: str


@dataclass(frozen=True)
class ContextTable:
    """Triggers, pseudo-triggers and terminators, as read from ``context.csv``."""

    triggers: tuple[Trigger, ...]
    pseudo: tuple[re.Pattern[str], ...]
    terminators: tuple[re.Pattern[str], ...]


def _phrase(phrase: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in phrase.split()]
    return re.compile(r"(?<![\w'-])" + r"\s+".join(words) + r"(?![\w'-])", re.IGNORECASE)


@cache
def context_table() -> ContextTable:
    """The table shipped with the package (read once)."""
    text = (resources.files("agent.reading") / "context.csv").read_text(encoding="utf-8")
    triggers, pseudo, terminators = [], [], []
    for row in csv.DictReader(text.splitlines()):
        phrase = row["phrase"].strip().lower()
        if row["kind"] == "trigger":
            triggers.append(
                Trigger(phrase, row["role"], row["direction"], row["scope"], _phrase(phrase))  # type: ignore[arg-type]
            )
        elif row["kind"] == "pseudo":
            pseudo.append(_phrase(phrase))
        elif row["kind"] == "terminator":
            terminators.append(_phrase(phrase))
        else:
            raise ValueError(f"context.csv: unknown kind {row['kind']!r} (trigger, pseudo or terminator)")
    return ContextTable(tuple(triggers), tuple(pseudo), tuple(terminators))


def _boundaries(text: str, scope: str, table: ContextTable) -> list[int]:
    ends = _SENTENCE_END if scope == "sentence" else _CLAUSE_END
    points = [m.start() for m in ends.finditer(text)]
    points += [m.start() for t in table.terminators for m in t.finditer(text)]
    return sorted(points)


def _scope(text: str, trigger: Trigger, start: int, end: int, table: ContextTable) -> tuple[int, int]:
    stops = _boundaries(text, trigger.scope, table)
    if trigger.direction == "forward":
        stop = next((p for p in stops if p >= end), len(text))
        return start, stop
    begin = max((p + 1 for p in stops if p < start), default=0)
    return begin, end


def role_spans(text: str) -> list[RoleSpan]:
    """Every stretch of ``text`` whose words play a role other than the user's own requirement."""
    table = context_table()
    blocked = [(m.start(), m.end()) for p in table.pseudo for m in p.finditer(text)]
    spans: list[RoleSpan] = []
    for match in _QUOTED.finditer(text):
        spans.append(RoleSpan(match.start(), match.end(), "quoted", match.group(0)))
    for trigger in table.triggers:
        for match in trigger.pattern.finditer(text):
            if any(s <= match.start() < e for s, e in blocked):
                continue
            if any(s.role == "quoted" and s.start <= match.start() < s.end for s in spans):
                continue
            start, end = _scope(text, trigger, match.start(), match.end(), table)
            spans.append(RoleSpan(start, end, trigger.role, trigger.phrase))
    return sorted(spans, key=lambda s: (s.start, s.end))
