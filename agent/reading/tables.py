"""The reading's data tables (CSV and word lists under agent/reading/), read from the package."""

from __future__ import annotations

import csv
import re
from functools import cache
from importlib import resources


def table_rows(name: str) -> list[dict[str, str]]:
    """The rows of the CSV table ``name`` shipped in agent/reading/, as dicts by column."""
    text = (resources.files("agent.reading") / name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def word_list(name: str) -> list[str]:
    """The words of the list ``name`` in agent/reading/: one or more a line, '#' lines are comments."""
    text = (resources.files("agent.reading") / name).read_text(encoding="utf-8")
    return [w for line in text.splitlines() if not line.startswith("#") for w in line.split()]


@cache
def cues(field: str) -> tuple[tuple[str, str], ...]:
    """(value, pattern) for one field of ``cues.csv`` ('data_regime', 'device', 'priority',
    'architecture', 'backbone_family', 'wish', 'commercial', 'error'), in table order: the phrasings of a
    value, one a row, joined into one pattern."""
    phrasings: dict[str, list[str]] = {}
    for row in table_rows("cues.csv"):
        if row["field"] == field:
            phrasings.setdefault(row["value"], []).append(row["pattern"])
    if not phrasings:
        raise ValueError(f"cues.csv has no rows for {field!r}: add them (field,value,pattern)")
    return tuple((value, "|".join(patterns)) for value, patterns in phrasings.items())


@cache
def cue_pattern(field: str, value: str) -> re.Pattern[str]:
    """The phrasings of one value of ``cues.csv`` ('wish', 'open_weights') as one pattern."""
    patterns = dict(cues(field))
    if value not in patterns:
        raise ValueError(f"cues.csv has no rows for {field!r}, {value!r}: add them (field,value,pattern)")
    return re.compile(patterns[value])


@cache
def model_noun_after() -> re.Pattern[str]:
    """A model noun right after a kind of imagery, with its qualifiers: '[SAR]-pretrained backbone',
    '[hyperspectral] foundation models', '[SAR] models' (``cues.csv``, field ``model_noun``); match
    it at the end of the kind."""
    words = dict(cues("model_noun"))
    return re.compile(rf"(?:[\s-]+(?:{words['qualifier']}))*[\s-]+(?:{words['noun']})\b")


@cache
def person_noun_after() -> re.Pattern[str]:
    """A noun of people right after a kind of imagery: '[SAR] analysts', '[radar] expertise'
    (``cues.csv``, field ``person_noun``): the kind is said of people, not of data; match it at the
    end of the kind."""
    return cue_pattern("person_noun", "after")


@cache
def model_trained_before() -> re.Pattern[str]:
    """A model noun and what it saw or takes, right before a kind of imagery: 'a model pretrained on
    [thermal]', 'any model that has actually seen [thermal] infrared', 'a model that knows aerial
    [thermal] imagery', 'a backbone that ingests the [thermal] channel', 'models that can actually
    ingest the [LiDAR]' (``cues.csv``, field ``model_noun``); search it up to the kind's start."""
    words = dict(cues("model_noun"))
    return re.compile(
        rf"\b(?:{words['noun']})\s+(?:(?:that|which)\s+)?(?:(?:can|could|will|would|must|should|do|does)\s+)?"
        rf"(?:{words['trained']}|{words['takes']})\s+"
        r"(?:[\w-]+\s+){0,2}$"
    )


def first_cue(patterns: tuple[tuple[str, str], ...], text: str) -> str | None:
    """The value of the first of ``patterns`` found in ``text``."""
    for value, pattern in patterns:
        if re.search(pattern, text):
            return value
    return None
