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
# Where the data a task is done on are named: 'from', 'using'.
_SOURCE = re.compile(r"\s(?:from|using)\s")


@cache
def _lead() -> re.Pattern[str]:
    return cue_pattern("class_list", "lead")


@cache
def _land() -> re.Pattern[str]:
    return cue_pattern("class_list", "land")


@cache
def _map_lead() -> re.Pattern[str]:
    return cue_pattern("class_list", "map_lead")


@cache
def _after_last() -> re.Pattern[str]:
    return cue_pattern("class_list", "after_last")


def _list_end(lowered: str, start: int, end: int) -> int:
    """Where a list that may run to ``end`` stops: after its last item, before a clause that follows
    it ('... quarry and parking lot [by writing the class names as prompts]'; ``class_list`` rows of
    ``cues.csv``, value ``after_last``)."""
    separators = list(_SEPARATOR.finditer(lowered, start, end))
    if not separators:
        return end
    # ('classify trees into nine species [from multispectral laser scans: point clouds, ...]': the
    # data come before any item is listed)
    if source := _SOURCE.search(lowered, start, separators[0].start()):
        return source.start()
    after = _after_last().search(lowered, separators[-1].end(), end)
    return after.start() if after else end


def class_list_spans(text: str) -> list[RoleSpan]:
    """The stretches of ``text`` that list the classes of the task; after a map named without the
    word 'classes' ('a land-surface map of Ukraine: cropland, grassland, forest'), only a legend of
    kinds of land."""
    lowered = text.lower()
    spans: list[RoleSpan] = []
    leads = sorted(
        [(m, True) for m in _map_lead().finditer(lowered)] + [(m, False) for m in _lead().finditer(lowered)],
        key=lambda lead: lead[0].start(),
    )
    for lead, legend_only in leads:
        start = lead.end()
        if lead.group(0).rstrip().endswith("("):
            close = lowered.find(")", start)
            end = close if close >= 0 else len(lowered)
        else:  # the list runs to the end of its sentence, or of its bracket when it opened one
            stop = SENTENCE_END.search(lowered, start)
            end = _list_end(lowered, start, stop.start() if stop else len(lowered))
        listed = lowered[start:end]
        if len(_SEPARATOR.findall(listed)) < 2 or (legend_only and not is_land_legend(listed)):
            continue
        outer = next((s for s in spans if s.start <= lead.start() < s.end), None)
        if outer is None:
            spans.append(RoleSpan(start, end, "classes", lead.group(0).strip()))
        elif not legend_only:
            # 'sort them into [12 scene classes such as] a, b and c': the list starts after the
            # inner lead-in, whose words name the kind of classes (and so the task).
            spans[spans.index(outer)] = RoleSpan(start, outer.end, "classes", outer.cue)
    return spans


def is_land_legend(classes: str) -> bool:
    """Whether a list of classes names kinds of land ('residential, industrial, farmland, forest,
    water'): at least two of its items, and half of them, are land words (``class_list`` rows of
    ``cues.csv``, value ``land``): a land-cover legend, so the task is land cover. A list of crop
    states ('healthy, wilt, weeds') or of objects ('ships, planes') is not."""
    items = [i for i in _SEPARATOR.split(classes.lower()) if i.strip()]
    land = sum(bool(_land().search(item)) for item in items)
    return land >= 2 and 2 * land >= len(items)
