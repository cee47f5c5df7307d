"""Parameter limits and floors said in words: numbers ('under 100M parameters', 'over 1B
parameters', 'between 100M and 1B'), a limit said in a sentence ('10M parameters is the hard
ceiling'), and a standard backbone's size ('ViT-L or larger', 'a ViT-B sized model').
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from functools import cache

from agent.reading.context import sentence_spans
from agent.reading.probes import Probed, required_literal
from agent.reading.tables import cue_pattern
from rsfmd.backbones import get_backbone_table, spelling_pattern

# A size: '100M parameters', '1.5 billion params' (number, unit when written, the word).
_SIZE_NUMBER = r"(?:~\s*|about\s+|around\s+|roughly\s+)?(\d+(?:\.\d+)?)\s*(k|m|million|b|billion)?"
_PARAM_WORD = r"(?:param|parameters|params|(?:int8|int4|fp16|fp32|8-bit|16-bit)\s+weights)"
_PARAMS = re.compile(
    r"(?:under|below|less than|fewer than|at most|max(?:imum)?|<=?|up to|no more than|smaller than|within)\s*"
    rf"{_SIZE_NUMBER}\s*{_PARAM_WORD}"
)
_PARAMS_UNIT_FIRST = re.compile(
    # ('under 100M', written together: 'under 1 m' is a ground resolution)
    r"(?:under|below|less than|at most|<=?|up to)\s*(\d+(?:\.\d+)?)(m|b)\b(?!\s*(?:gsd|res))"
)
# '20 million parameters at most', '50M params max', '100M parameters or less'.
_PARAMS_BOUND_AFTER = re.compile(
    rf"\b{_SIZE_NUMBER}\s*{_PARAM_WORD}\s*(?:at most|max(?:imum)?\b|or (?:less|fewer|smaller|below)|tops\b"
    r"|(?:is|are) (?:our|the) (?:ceiling|limit|cap|maximum|budget)\b)"
)
# 'the budget is 30M parameters', 'a ceiling of 20M params'.
_PARAMS_BUDGET = re.compile(
    rf"\b(?:budget|ceiling|cap|limit)\s+(?:is\s+|of\s+)?(?:about\s+|around\s+)?{_SIZE_NUMBER}\s*{_PARAM_WORD}"
)
# 'over 1B parameters', 'at least 300M params', 'billion-parameter models', '1B+ models'.
_PARAMS_FLOOR = re.compile(
    r"(?:(?<!no )(?<!not )(?:over|above|more than|larger than|bigger than|greater than|exceeding)|at least|"
    r"no (?:fewer|less|smaller) than|min(?:imum)?(?: of)?|>=?)\s*"
    rf"{_SIZE_NUMBER}\+?[\s-]*{_PARAM_WORD}\b"
)
# The words that negate a size said after them ('no', "can't be bigger than").
_NEGATION = r"no|nothing|not|can'?t|cannot|mustn'?t|shouldn'?t|won'?t|avoid|stay away from"
# 'no model over 100M parameters', 'anything much over ~30M parameters' (or a ruled-out 'anything
# over ~100M parameters is off the table', restated as a negation by the reading): a floor ruled
# out is a limit.
_PARAMS_NEGATED_FLOOR = re.compile(
    rf"\b(?:{_NEGATION}|anything)\b[^.;,]{{0,40}}?"
    r"(?:over|above|beyond|past|more than|larger than|bigger than|exceeding)\s*"
    rf"{_SIZE_NUMBER}\s*{_PARAM_WORD}"
)
# '300M+', '1B+': a size and up.
_SIZE_PLUS = r"\b(\d+(?:\.\d+)?)\s*(m|b)\+"
_PARAMS_FLOOR_PLUS = re.compile(rf"{_SIZE_PLUS}[\s-]*(?:{_PARAM_WORD}|models?)\b")
_PARAMS_FLOOR_PLUS_BARE = re.compile(_SIZE_PLUS)
# ('4 billion parameters or fewer' is a limit)
_PARAMS_BILLION_SCALE = re.compile(
    r"\bbillion[\s-](?:param|parameters?|params|scale)\b(?!\s+or\s+(?:fewer|less|smaller|below))"
)
# 'anything in the billion-parameter range is out' (restated 'no anything in the billion-parameter
# range'): the scale ruled out is a limit.
_PARAMS_NEGATED_BILLION = re.compile(rf"\b(?:no|nothing|not)\b[^.;,]{{0,40}}?{_PARAMS_BILLION_SCALE.pattern}")
# 'no 300M+ models' (a size said too slow, restated by the reading): the floor ruled out is a limit.
_PARAMS_NEGATED_PLUS = re.compile(rf"\b(?:{_NEGATION})\b[^.;,]{{0,40}}?{_SIZE_PLUS}")
_PARAMS_BETWEEN = re.compile(rf"between\s*{_SIZE_NUMBER}\s*(?:and|to|-)\s*{_SIZE_NUMBER}\s*{_PARAM_WORD}\b")


_PARAMETER_UNITS = {"k": 0.001, "m": 1.0, "million": 1.0, "b": 1000.0, "billion": 1000.0}


def _millions(value: str, unit: str | None) -> float:
    return float(value) * _PARAMETER_UNITS[(unit or "m").lower()]


def parameter_limit(text: str) -> float | None:
    if between := _PARAMS_BETWEEN.search(text):
        # 'between 100M and 1B parameters': an unstated first unit is the second one's.
        return _millions(between.group(3), between.group(4))
    match = (
        _PARAMS.search(text)
        or _PARAMS_UNIT_FIRST.search(text)
        or _PARAMS_BOUND_AFTER.search(text)
        or _PARAMS_BUDGET.search(text)
        or _PARAMS_NEGATED_FLOOR.search(text)
    )
    if not match:
        if _PARAMS_NEGATED_BILLION.search(text):
            return 1000.0
        if plus := _PARAMS_NEGATED_PLUS.search(text):
            # (just under the size ruled out: '300M+' rules out 300M itself)
            return math.nextafter(_millions(plus.group(1), plus.group(2)), 0.0)
        return _limit_said_in_sentence(text)
    return _millions(match.group(1), match.group(2))


_PARAMETER_COUNT = re.compile(rf"\b{_SIZE_NUMBER}\s*{_PARAM_WORD}\b")


def _limit_said_in_sentence(text: str) -> float | None:
    """'10M parameters is the hard ceiling', '40M parameters is the most I can afford': the one
    parameter count of a sentence that says a limit (``cues.csv``, field ``size_limit``) and asks
    for no floor."""
    limit_words = cue_pattern("size_limit", "limit")
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        counts = list(_PARAMETER_COUNT.finditer(sentence))
        if len(counts) == 1 and limit_words.search(sentence) and not _PARAMS_FLOOR.search(sentence):
            return _millions(counts[0].group(1), counts[0].group(2))
    return None


# 'the encoder can't be bigger than 100M parameters': a floor said not to be crossed is a limit.
_NEGATED_BEFORE = re.compile(rf"\b(?:{_NEGATION})\b[^.;,]{{0,25}}$")


def _asked(text: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The first match of ``pattern`` that is not negated nor said as a size the user allows ('we
    can fine-tune billion-parameter backbones', 'a multi-billion-parameter encoder is fine':
    ``cues.csv``, field ``size_allowed``)."""
    allowed_before = cue_pattern("size_allowed", "before")
    allowed_after = cue_pattern("size_allowed", "after")
    return next(
        (
            m
            for m in pattern.finditer(text)
            if not allowed_before.search(before := text[max(0, m.start() - 80) : m.start()])
            and not allowed_after.match(text, m.end())
            and not _NEGATED_BEFORE.search(before[-40:])
        ),
        None,
    )


def parameter_floor(text: str) -> float | None:
    """The smallest size asked for ('over 1B parameters', 'billion-parameter models'), in millions."""
    if between := _PARAMS_BETWEEN.search(text):
        return _millions(between.group(1), between.group(2) or between.group(4))
    if match := _asked(text, _PARAMS_FLOOR) or _asked(text, _PARAMS_FLOOR_PLUS):
        return _millions(match.group(1), match.group(2))
    return 1000.0 if _asked(text, _PARAMS_BILLION_SCALE) else None


# 'a ViT-L or larger', 'at most Swin-B': a size bound given as a standard backbone's size. The
# bound is loose by a tenth, as the same backbone is counted a little differently across records.
_BACKBONE_BOUND_SLACK = 0.1
BOUND_AFTER = re.compile(
    r"\s*(?:-?sized?\s+|size\s+|class\s+)?(?:models?\s+)?(?:or|and)\s+"
    r"(?:(larger|bigger|above|more|heavier)|(smaller|below|less|lighter))\b"
)
BOUND_BEFORE = re.compile(
    r"(?:(at least|no smaller than|not smaller than|minimum of)|"
    r"(at most|no (?:larger|bigger|heavier) than|nothing (?:larger|bigger|heavier) than|"
    r"not (?:larger|bigger|heavier) than|up to|"
    # 'I'd rather not go beyond a ViT-Base', 'nothing beyond a ResNet-50'
    r"not (?:to )?go (?:beyond|above|past|over|bigger than|larger than)|nothing (?:beyond|above|past)|"
    # 'anything much bigger than ViT-Base is ruled out'
    r"anything (?:much )?(?:(?:larger|bigger|heavier) than|beyond|above|past)))"
    r"\s+(?:an?\s+|the\s+)?$"
)
_NEGATED_SIZE = re.compile(r"\b(?:no|not|nothing|never)\s+(?:an?\s+|the\s+|any\s+)?(?:[\w-]+\s+)?$")
_SIZED_AS = re.compile(r"[\s-]*(?:sized|size|scale|class)\b(?!\s+(?:or|and)\b)")
_BOUND_FAMILIES = ("ViT-", "Swin", "ResNet-", "WRN-", "ConvNeXt-")


@cache
def _bound_backbones() -> Probed[tuple[re.Pattern[str], str, float]]:
    """(pattern, name, size in millions) of the generic backbones a size can be given as."""
    out = []
    for backbone in get_backbone_table().values():
        if backbone.name.startswith(_BOUND_FAMILIES):
            for spelling in (backbone.name, *backbone.synonyms):
                # Not inside a longer spelling: 'ViT-L' is not the start of 'ViT-L/16'.
                pattern = re.compile(spelling_pattern(spelling) + r"(?!/)", re.IGNORECASE)
                out.append((pattern, backbone.name, backbone.params_m))
    return Probed(out, lambda row: required_literal(row[0]))


def backbone_bound(lowered: str, written: str) -> tuple[float | None, float | None, str] | None:
    """(limit, floor, note) from a size given as a standard backbone's ('ViT-L or larger'); of
    several limits ('ResNet-50 scale; the ViT-Base models would be too slow'), the tightest."""
    bounds = list(_backbone_bounds(lowered, written))
    limits = [b for b in bounds if b[0] is not None]
    return min(limits, key=lambda b: b[0] or 0.0) if limits else next(iter(bounds), None)


def _backbone_bounds(lowered: str, written: str) -> Iterator[tuple[float | None, float | None, str]]:
    for pattern, name, size in _bound_backbones().candidates(lowered):
        for match in pattern.finditer(lowered):
            after = BOUND_AFTER.match(lowered, match.end())
            before = BOUND_BEFORE.search(lowered, max(0, match.start() - 32), match.start())
            bound = after or before
            if _NEGATED_SIZE.search(lowered, max(0, match.start() - 24), match.start()) and not (
                bound and bound.group(2)
            ):
                # 'no ViT-L backbones', 'nothing ViT-Large-class' (a size said too slow or too big,
                # restated by the reading): under that size.
                value = round(size * (1 - _BACKBONE_BOUND_SLACK), 1)
                said = written[match.start() : match.end()]
                yield (
                    value,
                    None,
                    f"'{said}' ruled out: read as under about {value:g}M parameters ({name}: {size:g}M)",
                )
                continue
            if bound is None:
                if sized := _SIZED_AS.match(lowered, match.end()):
                    # 'a ViT-B sized model': about that size, read as no larger.
                    said = written[match.start() : sized.end()]
                    value = size * (1 + _BACKBONE_BOUND_SLACK)
                    value = round(value) if value >= 10 else round(value, 1)
                    yield (
                        value,
                        None,
                        f"'{said}' read as at most about {value:g}M parameters ({name}: {size:g}M)",
                    )
                continue
            said = written[
                (before.start() if before else match.start()) : (after.end() if after else match.end())
            ]
            larger = bool(bound.group(1))
            value = size * (1 - _BACKBONE_BOUND_SLACK if larger else 1 + _BACKBONE_BOUND_SLACK)
            value = round(value) if value >= 10 else round(value, 1)
            side = "least" if larger else "most"
            note = f"'{said}' read as at {side} about {value:g}M parameters ({name}: {size:g}M)"
            yield (None, value, note) if larger else (value, None, note)


def names_size(text: str) -> bool:
    """Whether ``text`` names a model size: a parameter count ('300M parameters', '300M+') or a
    standard backbone's size ('ViT-L', 'a ViT-Large-class backbone')."""
    lowered = text.lower()
    if _PARAMETER_COUNT.search(lowered) or _PARAMS_FLOOR_PLUS_BARE.search(lowered):
        return True
    return any(p.search(lowered) for p, _, _ in _bound_backbones().candidates(lowered))
