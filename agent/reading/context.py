"""The role of each stretch of a message, by a table-driven context algorithm (after NegEx/ConText).

A mention's meaning depends on what it is said of: in "most models are RGB; ours is 6-band
Landsat" RGB is background and Landsat the user's data. Triggers (``context.csv``) give a role, a
direction (the words after them, or before them; 'after' leaves the trigger's own words out) and a
scope (to the end of the clause or of the sentence); a terminator ("but", "ours", "we have") ends
a scope early; a pseudo-trigger ("not only") blocks a trigger that would match inside it. Quoted
text ('flooded parking lot') is an example of the user's input, not a requirement. Adding a
phrasing is a row of the table, not code.

Three kinds of row shape a scope further. A terminator with a role ends only forward scopes of
that role: "we tried Prithvi | for crop type mapping" keeps the task, "I tried SatMAE on | our
Sentinel-2 parcels" keeps the user's data. A resume phrase of a role opens it again after such an
early end, in the same sentence ("... and it was too slow"), and bounds backward scopes. A
continuation carries a clause-scoped trigger over a comma into a relative clause ("unlike Prithvi,
which only takes optical bands, ...").
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal, cast

from agent.reading.probes import Probed, required_literal
from agent.reading.tables import cue_pattern

Role = Literal[
    "background",
    "reference",
    "labels_source",
    "check",
    "hypothetical",
    "excluded",
    "quoted",
    "tool",
    "classes",
    "processing",
    "output",
    "current",
    "previous",
]
Direction = Literal["forward", "backward", "after"]

ROLE_WORDS: dict[str, str] = {
    "background": "said of other models or of the world, not your data",
    "reference": "a model or data you tried, not a requirement",
    "labels_source": "the source of the labels, not an input",
    "check": "data to check results against, not an input",
    "hypothetical": "a hypothetical option",
    "excluded": "ruled out",
    "quoted": "an example of your input text, not the task",
    "tool": "software or a platform you work in, not your data",
    "classes": "the classes to tell apart, not the task",
    "processing": "used in processing the data, not an input",
    "output": "what the model should produce, not an input",
    "current": "what you run today, not a requirement",
    "previous": "what you are moving away from, not your data now",
}

# Sentence ends ('.', not a decimal point), and clause ends for clause-scoped triggers.
# Not the points of 'et al.', 'e.g.', 'i.e.', 'vs.', 'cf.', 'approx.' or of a decimal.
_POINT = r"(?<!\bal)(?<!\bvs)(?<!\bcf)(?<!\bapprox)(?<!\be)(?<!\be\.g)(?<!\bi)(?<!\bi\.e)\.(?!\d)"
SENTENCE_END = re.compile(rf"[;?!]|{_POINT}")
_CLAUSE_END = re.compile(rf"[;?!,:()]|{_POINT}|\s[-–—]\s")
# Quoted stretches: 'flooded parking lot', "how many trucks?", “two new buildings”.
_QUOTED = re.compile(r"(?<![\w])'([^'\n]{3,120})'(?![\w])|\"([^\"\n]{3,160})\"|“([^”\n]{3,160})”")
# Questions given as examples in a parenthesis ('free-form questions about scenes (how many ships
# are docked, where is the damaged hangar)') are examples of the user's input too.
_EXAMPLE_QUESTIONS = re.compile(
    r"\((?:e\.g\.,?\s*|for example,?\s*|such as\s+)?"
    r"(?:how (?:many|much|far|big|large)|where (?:is|are|was|were|did)|what (?:is|are|was|were|kind)|"
    r"which \w+ (?:is|are|was|were|has|have)|is there|are there|has the|have the|did the|does the)"
    r"\b[^()]{0,160}\)",
    re.IGNORECASE,
)


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
    """The words that gave the role, as written (lower case)."""


@dataclass(frozen=True)
class ContextTable:
    """Triggers, pseudo-triggers, terminators (with the role they end, or None for all),
    resume phrases (by role), continuations and names, as read from ``context.csv``."""

    triggers: Probed[Trigger]
    pseudo: Probed[re.Pattern[str]]
    terminators: tuple[tuple[re.Pattern[str], Role | None], ...]
    resume: tuple[tuple[re.Pattern[str], Role], ...] = ()
    continuations: tuple[re.Pattern[str], ...] = ()
    names: tuple[tuple[re.Pattern[str], Role], ...] = ()
    """Names that play a role by themselves ('Google Earth Engine': a tool, not imagery)."""


# A '*' in a phrase stands for up to four words: 'which * models were trained on' also reads
# 'which foundation models were trained on'.
_GAP = r"(?:[\w'~≈<>+/-]+\s+){0,4}"


# A negation in a phrase reads in full or contracted: 'is not an option' also reads "isn't an
# option", and "can't resolve" also reads 'cannot resolve'.
_NEGATED = {"can": r"ca(?:n['’]t|nnot|n\s+not)", "will": r"(?:won['’]t|will\s+not)"}


def _word(word: str, negated: bool) -> str:
    if word.endswith("n't") and word not in {"can't", "won't"}:
        word, negated = word[:-3], True
    elif word in {"can't", "won't"}:
        return _NEGATED["can" if word == "can't" else "will"]
    if not negated:
        return re.escape(word)
    return _NEGATED.get(word, re.escape(word) + r"(?:n['’]t|\s+not)")


# A '<name>' in a phrase stands for any word or phrase of that class in ``word_classes.csv``: 'most
# * <models>' also reads 'most VLMs I know', '<be> <unusable>' also reads 'are out of the question'.
_CLASS = re.compile(r"<([a-z_]+)>")


@cache
def word_classes() -> dict[str, str]:
    """Each class of ``word_classes.csv`` as one alternation of its phrases, longest first."""
    text = (resources.files("agent.reading") / "word_classes.csv").read_text(encoding="utf-8")
    classes = {}
    for row in csv.DictReader(text.splitlines()):
        phrases = sorted(
            {p.strip().lower() for p in row["phrases"].split("|") if p.strip()}, key=len, reverse=True
        )
        classes[row["class"]] = (
            "(?:" + "|".join(r"\s+".join(map(re.escape, p.split())) for p in phrases) + ")"
        )
    return classes


# '<score>' stands for a score as results are given: a percentage or a fraction ('88%', '0.84'),
# not a count ('2000 GPU hours') nor a measure ('0.5 m imagery'), or an error named with its value
# in any unit ('RMSE 7.5 m', 'MAE of 5.7 m').
_UNIT = r"(?:m|cm|mm|km|nm|µm|um|ha|px|gb|mb|tb|m/px|met(?:er|re)s?|pixels?|degrees?)\b"
_SCORE = (
    r"(?:[~≈]?(?:\d{1,3}(?:\.\d+)?\s*%|(?:0?\.\d+|1\.0+)"
    rf"(?!\s*{_UNIT})(?!\s*(?:-|–|to)\s*\d*\.?\d+\s*{_UNIT}))|"
    r"\b(?:rmse|rmsd|mae|mse)\s*(?:of\s+|=\s*|:\s*)?(?:about\s+|around\s+|~\s*)?\d+(?:\.\d+)?)"
)


def _class(word: str) -> str:
    name = _CLASS.fullmatch(word)
    if name is None:
        return ""
    if name.group(1) == "score":
        return _SCORE
    if name.group(1) not in word_classes():
        raise ValueError(f"context.csv: unknown word class {word} (add it to word_classes.csv)")
    return word_classes()[name.group(1)]


# A phrase ending in '<end>' matches only at the end of a clause: 'a ViT-L is realistic, a
# multi-billion-parameter model isn't.' leaves its predicate unsaid.
_END = "<end>"
_AT_END = r"(?=\s*(?:[.;,:!?)]|$))"


def _phrase(phrase: str) -> re.Pattern[str]:
    words = phrase.split()
    at_end = len(words) > 1 and words[-1] == _END
    words = words[:-1] if at_end else words
    parts: list[str] = []
    for i, w in enumerate(words):
        if w == "not" and parts and i > 0 and words[i - 1] in _AUXILIARIES:
            continue  # read with the auxiliary before it
        negated = w in _AUXILIARIES and i + 1 < len(words) and words[i + 1] == "not"
        parts.append(_GAP if w == "*" else _class(w) or _attached(w) or _word(w, negated))
    body = "".join(p if p == _GAP else p + r"\s+" for p in parts[:-1]) + (parts[-1] if parts else "")
    # (a closing quote may follow: "most 'foundation models' I find")
    return re.compile(r"(?<![\w'’-])" + body + (_AT_END if at_end else r"(?![\w’-]|'\w)"), re.IGNORECASE)


# A word that begins with '-' in a phrase is the end of a compound and stands for it whole:
# '-derived * <labels>' reads 'LiDAR-derived weak labels' and 'Sentinel-2-derived masks'.
def _attached(word: str) -> str:
    if len(word) < 2 or word[0] != "-":
        return ""
    return r"[\w.+/]+(?:-[\w.+/]+)*?" + re.escape(word)


# Verbs whose negation may be contracted ("isn't", "don't", "can't").
_AUXILIARIES = frozenset(
    {"is", "are", "was", "were", "do", "does", "did", "has", "have", "had"}
    | {"can", "could", "would", "should", "will", "must"}
)


@cache
def context_table() -> ContextTable:
    """The table shipped with the package (read once)."""
    text = (resources.files("agent.reading") / "context.csv").read_text(encoding="utf-8")
    triggers: list[Trigger] = []
    pseudo: list[re.Pattern[str]] = []
    terminators: list[tuple[re.Pattern[str], Role | None]] = []
    resume: list[tuple[re.Pattern[str], Role]] = []
    continuations: list[re.Pattern[str]] = []
    names: list[tuple[re.Pattern[str], Role]] = []
    for row in csv.DictReader(text.splitlines()):
        phrase, kind = row["phrase"].strip().lower(), row["kind"]
        if row["role"] and row["role"] not in ROLE_WORDS:
            raise ValueError(f"context.csv: unknown role {row['role']!r} ({', '.join(ROLE_WORDS)})")
        role = cast("Role | None", row["role"] or None)
        if kind == "trigger":
            triggers.append(Trigger(phrase, role, row["direction"], row["scope"], _phrase(phrase)))  # type: ignore[arg-type]
        elif kind == "pseudo":
            pseudo.append(_phrase(phrase))
        elif kind == "terminator":
            terminators.append((_phrase(phrase), role))
        elif kind == "resume" and role:
            resume.append((_phrase(phrase), role))
        elif kind == "continuation":
            continuations.append(re.compile(r"\s*" + _phrase(phrase).pattern, re.IGNORECASE))
        elif kind == "name" and role:
            names.append((_phrase(phrase), role))
        else:
            raise ValueError(
                f"context.csv: unknown kind {kind!r} (trigger, pseudo, terminator, resume with a role, "
                "continuation, or name with a role)"
            )
    return ContextTable(
        Probed(triggers, lambda trigger: required_literal(trigger.pattern)),
        Probed(pseudo, required_literal),
        tuple(terminators),
        tuple(resume),
        tuple(continuations),
        tuple(names),
    )


# A short list item ('Sentinel-2', 'red edge') and a list's last link.
_LIST_ITEM = re.compile(r"\s*[\w'’+/.-]+(?:\s+[\w'’+/.-]+){0,2}\s*")
_LIST_END = re.compile(r"\s(?:and|or)\s")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, as a sentence-scoped trigger sees them: ended by
    '.', ';', '?' or '!', not by a decimal point."""
    ends = [m.end() for m in SENTENCE_END.finditer(text)]
    return list(zip([0, *ends], [*ends, len(text)], strict=True))


def _ends(text: str, scope: str) -> list[int]:
    return [m.start() for m in (SENTENCE_END if scope == "sentence" else _CLAUSE_END).finditer(text)]


def _terminators(text: str, table: ContextTable, role: Role | None) -> set[int]:
    """Where the terminators of ``role`` (None: those that end every role) begin in ``text``."""
    return {m.start() for t, ends in table.terminators if ends == role for m in t.finditer(text)}


def _forward(text: str, trigger: Trigger, end: int, table: ContextTable) -> tuple[int, bool]:
    """Where a forward scope stops, and whether a terminator of the trigger's own role stopped it."""
    ends = _ends(text, trigger.scope)
    own = _terminators(text, table, trigger.role)
    stops = sorted({*ends, *_terminators(text, table, None), *own})
    stop = next((p for p in stops if p >= end), len(text))
    # 'unlike Prithvi, which only takes optical bands, ...': a relative clause carries the scope on.
    while stop < len(text) and text[stop] == "," and trigger.scope == "clause":
        carried = next(
            (c.match(text, stop + 1) for c in table.continuations if c.match(text, stop + 1)), None
        )
        if carried is None:
            break
        stop = next((p for p in ends if p >= carried.end()), len(text))
    # 'the small classic scenes (Indian Pines, Pavia)': a parenthesis opened where the scope ends
    # says more of what is in it.
    if stop < len(text) and text[stop] == "(" and stop not in own and (close := text.find(")", stop)) > 0:
        stop = close + 1
    return stop, stop in own


def _backward(text: str, trigger: Trigger, start: int, table: ContextTable) -> int:
    """Where a backward scope begins: after the last clause end, terminator or resume phrase."""
    points = _ends(text, trigger.scope)
    # (a word that ends a scope is left out of it: the scope begins after it, less one character)
    points += [m.end() - 1 for t, role in table.terminators if role is None for m in t.finditer(text)]
    points += [m.end() - 1 for p, _ in table.resume for m in p.finditer(text)]
    before = sorted(p for p in points if p < start)
    # 'ViT-L backbones (300M+) are too slow': a parenthesis closed right before the trigger says
    # more of what the scope is said of.
    if before and text[before[-1]] == ")" and not text[before[-1] + 1 : start].strip():
        opened = text.rfind("(", 0, before[-1])
        before = [p for p in before if p < opened] if opened >= 0 else before
    # 'embeddings of stacked Sentinel-2, Sentinel-1 and DEM gave us the idea': the commas of a list
    # ending in 'and' or 'or' end no clause.
    while (
        trigger.scope == "clause"
        and before
        and text[before[-1]] == ","
        and (last := _LIST_END.search(text, before[-1], start))
        and _LIST_ITEM.fullmatch(text, before[-1] + 1, last.start())
    ):
        before.pop()
    return before[-1] + 1 if before else 0


def _resumes_at(text: str, role: Role, at: int, table: ContextTable) -> bool:
    """Whether a resume phrase of ``role`` opens the text at ``at`` (after any spaces)."""
    at = len(text) - len(text[at:].lstrip())
    return any(resume_role == role and pattern.match(text, at) for pattern, resume_role in table.resume)


def _resumed(text: str, role: Role, after: int, table: ContextTable) -> RoleSpan | None:
    """The role opened again by a resume phrase after an early end, up to the clause's end."""
    sentence_end = next((p for p in _ends(text, "sentence") if p >= after), len(text))
    for pattern, resume_role in table.resume:
        match = pattern.search(text, after, sentence_end)
        if resume_role == role and match:
            # (up to the clause's end, or a terminator of the role: 'but it missed fields in our data')
            ends = {
                *_ends(text, "clause"),
                *_terminators(text, table, role),
                *_terminators(text, table, None),
            }
            stop = min((p for p in ends if p >= match.end()), default=len(text))
            return RoleSpan(match.start(), stop, role, match.group(0).lower())
    return None


def role_spans(text: str) -> list[RoleSpan]:
    """Every stretch of ``text`` whose words play a role other than the user's own requirement."""
    table = context_table()
    blocked = [(m.start(), m.end()) for p in table.pseudo.candidates(text) for m in p.finditer(text)]
    spans: list[RoleSpan] = []
    # A word given as a prompt ('prompt it with 'building'') is the text the model reads, not an
    # example of the user's input: it stays in the task.
    prompts = [m.end() for m in cue_pattern("wish", "text_prompt").finditer(text.lower())]
    for quoted in (_QUOTED, _EXAMPLE_QUESTIONS):
        spans += [
            RoleSpan(m.start(), m.end(), "quoted", m.group(0))
            for m in quoted.finditer(text)
            if m.end() not in prompts
        ]
    for pattern, role in table.names:
        spans += [RoleSpan(m.start(), m.end(), role, m.group(0).lower()) for m in pattern.finditer(text)]
    for trigger in table.triggers.candidates(text):
        for match in trigger.pattern.finditer(text):
            if any(s <= match.start() < e for s, e in blocked):
                continue
            if any(s.role == "quoted" and s.start <= match.start() < s.end for s in spans):
                continue
            if trigger.direction == "backward":
                spans.append(
                    RoleSpan(
                        _backward(text, trigger, match.start(), table),
                        match.end(),
                        trigger.role,
                        match.group(0).lower(),
                    )
                )
                continue
            stop, cut_short = _forward(text, trigger, match.end(), table)
            # ('after': the words after the trigger, the trigger's own words kept: "isn't
            # hard-wired to [Sentinel-2's bands]" keeps the wish and leaves out the sensor)
            begin = match.end() if trigger.direction == "after" else match.start()
            spans.append(RoleSpan(begin, stop, trigger.role, match.group(0).lower()))
            # 'I tried X, but it was fine-tuned on aerial RGB': a resume phrase right after the early
            # end (a terminator of the role, or a comma) goes on saying it of the same model.
            # ('I've seen X but that's for Maxar imagery': a resume phrase that is itself the end)
            resumes = _resumes_at(text, trigger.role, stop, table) or (
                stop < len(text) and text[stop] == "," and _resumes_at(text, trigger.role, stop + 1, table)
            )
            if (cut_short or resumes) and (resumed := _resumed(text, trigger.role, stop, table)):
                spans.append(resumed)
    return sorted(spans, key=lambda s: (s.start, s.end))
