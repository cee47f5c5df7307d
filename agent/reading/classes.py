"""Class lists: the classes a task tells apart, said as a list ('five classes - residential,
industrial, farmland, forest, water'; 'it keeps mixing up clearcuts, alpine shrub and treed
wetlands'). Each class is a label of the task, not an application of its own: 'farmland' in such a
list does not make the task cropland mapping. The lead-ins are ``class_list`` rows of ``cues.csv``.
"""

from __future__ import annotations

import re
from functools import cache

from agent.reading.context import SENTENCE_END, RoleSpan
from agent.reading.tables import cue_pattern

# Items of a list: at least two separators ('a, b and c', 'a / b / c').
_SEPARATOR = re.compile(r",|\band\b|\bor\b|/")


@cache
def _lead() -> re.Pattern[str]:
    return cue_pattern("class_list", "lead")


@cache
def _land() -> re.Pattern[str]:
    return cue_pattern("class_list", "land")


@cache
def _map_lead() -> re.Pattern[str]:
    return cue_pattern("class_list", "map_lead")


def class_list_spans(text: str) -> list[RoleSpan]:
    """The stretches of ``text`` that list the classes of the task; after a map named without the
    word 'classes' ('a land-surface map of Ukraine: cropland, grassland, forest'), only a legend of
    kinds of land."""
    lowered = text.lower()
    spans: list[RoleSpan] = []
    leads = [(m, True) for m in _map_lead().finditer(lowered)] + [
        (m, False) for m in _lead().finditer(lowered)
    ]
    for lead, legend_only in leads:
        start = lead.end()
        if lead.group(0).rstrip().endswith("("):
            close = lowered.find(")", start)
            end = close if close >= 0 else len(lowered)
        else:  # the list runs to the end of its sentence, or of its bracket when it opened one
            stop = SENTENCE_END.search(lowered, start)
            end = stop.start() if stop else len(lowered)
        listed = lowered[start:end]
        if (
            len(_SEPARATOR.findall(listed)) >= 2
            and (is_land_legend(listed) or not legend_only)
            and not any(s.start <= start < s.end for s in spans)
        ):
            spans.append(RoleSpan(start, end, "classes", lead.group(0).strip()))
    return spans


def is_land_legend(classes: str) -> bool:
    """Whether a list of classes names kinds of land ('residential, industrial, farmland, forest,
    water'): at least two of its items, and half of them, are land words (``class_list`` rows of
    ``cues.csv``, value ``land``): a land-cover legend, so the task is land cover. A list of crop
    states ('healthy, wilt, weeds') or of objects ('ships, planes') is not."""
    items = [i for i in _SEPARATOR.split(classes.lower()) if i.strip()]
    land = sum(bool(_land().search(item)) for item in items)
    return land >= 2 and 2 * land >= len(items)
