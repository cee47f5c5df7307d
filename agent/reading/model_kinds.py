"""The kind of model asked for: 'a pretrained hyperspectral encoder', 'which SAR-capable models', 'a
Sentinel-1 checkpoint', 'a model that takes thermal input', 'it has to work on SAR alone'. The model
must take one of the kinds named so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agent.reading.imagery import NOT_IMAGERY
from agent.reading.tables import cue_pattern, model_noun_after, model_trained_before
from agent.reading.terms import TermSpan
from rsfmd.vocab import airborne, sensor_modality

# A kind ruled out: 'no RGB model', or inside a restated exclusion ('; no ... an RGB-only backbone').
_NEGATED = re.compile(r"\b(?:no|not|non|without)[\s-]+(?:an?\s+|any\s+)?$|;\s*no\s[^;]*$")
# Between two kinds named together: 'hyperspectral or LiDAR', 'SAR/optical', 'RGB+NIR', 'the LiDAR
# and/or the hyperspectral'.
_JOINED = re.compile(r"\s*(?:\band/or\b|[+/,]|\bor\b|\band\b)\s*(?:the\s+)?")
# Kinds of imagery named by a word the modality table leaves to other rules.
_KIND_WORDS = (
    (re.compile(r"\b(?:sar|radar)\b"), ("SAR",)),
    (re.compile(r"\boptical\b"), ("Multispectral", "RGB")),
)


def asked_model_kinds(
    lowered: str, data: list[TermSpan], sensor_terms: list[TermSpan]
) -> tuple[list[str], list[str]]:
    """The kinds of imagery that name the model asked for ('a pretrained hyperspectral encoder',
    'which SAR foundation models', 'a Sentinel-1 checkpoint'): the model must take one of them; and
    the satellites that name it ('models pretrained on Landsat, including the older TM sensor'),
    whose imagery it should have been pretrained on. One ruled out ('no RGB-only backbone') names
    none. ``data``: the text's ``data_terms``."""
    named: list[tuple[Sequence[str], int, int]] = [((m,), s, e) for m, s, e in data]
    # A satellite's name, not a platform's: 'our drone model' is the make of the drone.
    satellites = {
        (s, e): sensor
        for sensor, s, e in sensor_terms
        if airborne(sensor) is False and sensor_modality(sensor)
    }
    named += [((sensor_modality(sensor),), s, e) for (s, e), sensor in satellites.items()]
    named += [(kinds, *m.span()) for pattern, kinds in _KIND_WORDS for m in pattern.finditer(lowered)]
    follows = model_noun_after()
    trained = model_trained_before()
    # ('it has to work on SAR alone': the model must take what is its only input)
    alone, on = cue_pattern("sole_input", "after"), cue_pattern("sole_input", "before")
    naming = {
        (s, e)
        for _, s, e in named
        if follows.match(lowered, e)
        or trained.search(lowered, max(0, s - 80), s)
        or (alone.match(lowered, e) and on.search(lowered, max(0, s - 12), s))
    }
    # ('my primary input is Sentinel-1 VV/VH, with Sentinel-2 filling in when it is clear': with no
    # kind of model named, the model must take the main input)
    primary = cue_pattern("sole_input", "primary")
    naming = naming or {(s, e) for _, s, e in named if primary.search(lowered, max(0, s - 40), s)}
    # 'hyperspectral or hyperspectral+LiDAR models', 'models that ingest the LiDAR and/or the
    # hyperspectral': a kind joined to one that names the model does too.
    while joined := {
        (s, e)
        for _, s, e in named
        if (s, e) not in naming
        and (
            ((link := _JOINED.match(lowered, e)) and any(start == link.end() for start, _ in naming))
            or any((after := _JOINED.match(lowered, end)) and after.end() == s for _, end in naming)
        )
    }:
        naming |= joined
    naming = {(s, e) for s, e in naming if not _NEGATED.search(lowered, 0, s)}
    found = [
        kind
        for kinds, start, end in named
        if (start, end) in naming
        for kind in kinds
        if kind not in NOT_IMAGERY and kind != "Multi-temporal"
    ]
    sensors = [satellites[span] for span in sorted(naming) if span in satellites]
    return list(dict.fromkeys(found)), list(dict.fromkeys(sensors))
