"""How a task is written: its nouns ('mapping'), verbs ('map floods'), doers ('a vessel detector')
and results ('a flood map'), from ``verb_forms.csv``; the patterns an application synonym yields by
them; and the tasks the vocabulary reads as a broader application for want of their own.
"""

from __future__ import annotations

import re
from functools import cache

from agent.reading.tables import cues, table_rows
from rsfmd.vocab import get_vocabulary, term_key


@cache
def verb_forms() -> dict[str, str]:
    """An application named by its verb: 'map floods' is flood mapping, 'detect ships' ship detection."""
    return {r["noun"]: r["verbs"] for r in table_rows("verb_forms.csv")}


SEP = r"[\s\-_./]*"


@cache
def task_nouns() -> frozenset[str]:
    """The nouns of tasks ('mapping', 'segmentation') and of their results ('map')."""
    rows = table_rows("verb_forms.csv")
    return frozenset(r["noun"] for r in rows) | {w for r in rows for w in r["results"].split("|") if w}


@cache
def task_qualifier() -> str:
    """Words that qualify a task noun without changing the application ('semantic', 'per-pixel')."""
    return dict(cues("task_noun"))["qualifier"]


def task_object(phrase: str) -> tuple[str, str] | None:
    """'flood mapping' -> (a pattern for its object 'flood', its task noun 'mapping'); None for a
    phrase that does not end in a task noun."""
    *head, noun = phrase.split()
    if not head or noun not in verb_forms():
        return None
    return SEP.join(re.escape(p) for p in re.split(r"[\s\-_./]+", " ".join(head)) if p), noun


def verb_pattern(phrase: str) -> str | None:
    """'flood mapping' -> a pattern for 'map floods', 'mapping the flood'; None for other phrases."""
    if (found := task_object(phrase)) is None:
        return None
    obj, noun = found
    # One describing word may come between ('map dominant tree species', 'detect small ships'), but
    # not a participle: 'flooded roads' and 'damaged buildings' name an event's application. The
    # object may be the last of a short list ('detect people and livestock', 'map roads or buildings').
    return (
        rf"(?<![a-z0-9])(?:{verb_forms()[noun]})\s+(?:the\s+|all\s+|any\s+)?"
        r"(?P<first>(?:[a-z]+(?:\s+[a-z]+)?(?:\s*,\s*|\s+(?:and|or|&)\s+)(?:the\s+)?){1,3})?"
        r"(?:(?![a-z]+ed\b)[a-z]+[\s-]+)?"
        rf"{obj}(?:s|es)?"
        r"(?![a-z0-9])"
    )


def binary_pattern(phrase: str) -> str | None:
    """'forest mapping' -> a pattern for 'forest / non-forest', 'forest vs. non-forest': a map of
    one class against the rest is that class mapped. None for phrases without a task noun."""
    if (found := task_object(phrase)) is None:
        return None
    obj = found[0]
    return rf"(?<![a-z0-9]){obj}\s*(?:/|vs\.?|versus|or|and)\s*non[\s-]?{obj}(?![a-z0-9])"


def shared_noun_pattern(phrase: str) -> str | None:
    """'open-vocabulary segmentation' -> a pattern for 'open-vocabulary' in 'open-vocabulary or
    referring segmentation': a task noun said once for two objects joined before it. The match
    covers the first object only. None for phrases without a task noun."""
    if (found := task_object(phrase)) is None:
        return None
    obj, noun = found
    return (
        rf"(?<![a-z0-9]){obj}"
        rf"(?=\s*(?:,|/|&|\bor\b|\band\b)\s*(?:[a-z]+[\s-]+){{1,2}}?{noun}(?![a-z0-9]))"
    )


@cache
def agent_nouns() -> dict[str, list[str]]:
    """The nouns of what does a task ('detector' for detection): 'a vessel detector' names
    vessel detection."""
    return {
        r["noun"]: [a for column in ("agents", "results") for a in r[column].split("|") if a]
        for r in table_rows("verb_forms.csv")
    }


def with_other_task_noun(application: str, written: str) -> bool:
    """Whether ``written`` names ``application`` with another task noun than its synonyms' (then
    the noun written says the task: 'ship segmentation' wants masks)."""
    words = written.lower().split()
    synonyms = {term_key(t) for t in get_vocabulary("applications").terms(application)}
    return bool(words) and words[-1] in verb_forms() and term_key(written) not in synonyms


@cache
def _closest_for(application: str) -> tuple[frozenset[str], tuple[re.Pattern[str], ...]]:
    """The application's closest_for terms (as keys), and their verb forms ('detect wildfires')."""
    terms = [t.strip() for t in get_vocabulary("applications").column(application, "closest_for").split("|")]
    verbs = (re.compile(v) for t in terms if t and (v := verb_pattern(t.lower())))
    return frozenset(term_key(t) for t in terms if t), tuple(verbs)


def is_closest_for(application: str | None, written: str) -> bool:
    """True when ``written`` names a task the vocabulary reads as ``application`` for want of its own."""
    if application is None:
        return False
    keys, verbs = _closest_for(application)
    return term_key(_with_task_noun(written)) in keys or any(v.fullmatch(written.lower()) for v in verbs)


def _with_task_noun(written: str) -> str:
    """``written`` with a last word naming what does a task put as the task's noun ('tree-crown
    detectors' -> 'tree-crown detection')."""
    *head, last = written.lower().split() or [""]
    noun = next((n for n, agents in agent_nouns().items() if last in agents), last)
    return " ".join([*head, noun])
