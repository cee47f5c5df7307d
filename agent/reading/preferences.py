"""What the task wants of the model beyond data and compute: priorities (phrasings in ``cues.csv``,
field ``priority``), a performance floor, release years, backbone families and named backbones,
any band set ('arbitrary spectral bands') and embeddings already computed (``cues.csv``, field
``wish``).
"""

from __future__ import annotations

import re
from functools import cache

from agent.mentions import NOT
from agent.query import MinPerformance
from agent.reading.error_costs import error_priorities
from agent.reading.sizes import BOUND_AFTER, BOUND_BEFORE
from agent.reading.tables import cue_pattern, cues
from agent.reading.terms import find_terms, overlaps
from rsfmd.backbones import NAMEABLE_FAMILIES, get_backbone_table, spelling_pattern
from rsfmd.vocab import metric_info

_FLOOR = re.compile(
    r"(?<![a-z])(?:at least|minimum(?: of)?|min\.?|above|over|more than|>=?|no less than|"
    r"exceed(?:ing|s)?|higher than|better than|reach(?:es|ing)?|achiev(?:e|es|ing))(?![a-z])"
    r"\s*(?:an?\s+|the\s+)?"
    r"(?:([a-z][a-z0-9@\- ]{1,24}?)\s+(?:of\s+)?)?"
    r"(\d+(?:\.\d+)?)\s*(%|percent)?"
    r"(?:\s*(?:in\s+|on\s+)?([a-z][a-z0-9@\-]{0,20}(?:\s[a-z]+)?))?"
)
# A metric right before a comparator: 'mIoU above', 'F1 score of at least', 'accuracy is >'.
_METRIC_LEAD = re.compile(
    r"([a-z][a-z0-9@\-]*(?:\s+[a-z0-9@\-]+)?)\s+(?:(?:of|is|score|must\s+be|should\s+be)\s+)*$"
)


# Backbone families a task asks for or rules out ('CNN only', 'no transformers') are the rows of
# cues.csv with field 'architecture' (a bare 'transformer' counts only with a qualifier or a
# negation: a power transformer is no backbone); those named as a wish ('a Swin backbone'),
# 'backbone_family'.
# A variant of a family by its size ('ViT-Large', 'ResNet-152'): ruled out, the size is.
_SIZED_VARIANT = re.compile(r"[\s-]?(?:large|huge|giant|base|small|tiny|[lhgbst]\b|\d)")
_SIZE_LETTER = re.compile(r"[\s-][lhgbst]$")
_ARCHITECTURE_NEGATION = re.compile(
    rf"(?:{NOT}|\bno|\bnon-?|\bwithout|\bavoid(?:ing)?|\bexcept|\brather\s+than|\binstead\s+of|\bnothing)"
    r"(?:\s+(?:with|using|use|based\s+on))?(?:\s+(?:an?|any))?\s*$"
)
# 'no big ViT', 'not a big vision transformer', 'a big ResNet-152 is not an option' (restated 'no big
# ResNet-152'): a size ruled out, not the family.
_BIG_RULED_OUT = re.compile(
    rf"(?:{NOT}|\bno|\bwithout|\bavoid(?:ing)?)(?:\s+(?:an?|any|the))?\s+(?:big|large|huge|heavy|giant|bulky)\s+$"
)


# The model's release year: 'models from 2025', 'released after 2024', '2024 or later', 'before 2023'.
_YEAR = r"(20[1-3]\d)"
_MODEL_WORDS = r"(?:models?|rsfms?|fms?|encoders?|backbones?|ones|options|papers?|alternatives?)"
_RELEASED = r"(?:released|published|introduced|proposed|presented|came\s+out|appeared|trained)"
_MODEL_OR_RELEASED = rf"\b(?:{_MODEL_WORDS}|{_RELEASED})"
_RELEASE_YEARS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # '2024 or later', 'from 2024 on', 'since 2024', 'not older than 2024'
    (
        "from",
        re.compile(
            rf"{_MODEL_OR_RELEASED}\s+(?:(?:in|from)\s+)?{_YEAR}\s+(?:or|and)\s+(?:later|newer|after)\b|"
            rf"{_MODEL_OR_RELEASED}\s+(?:since|from)\s+{_YEAR}\s+(?:on(?:wards?)?|onwards?)\b|"
            rf"{_MODEL_OR_RELEASED}\s+since\s+{_YEAR}\b|"
            rf"\bnot\s+older\s+than\s+{_YEAR}\b"
        ),
    ),
    # 'after 2024', 'newer than 2024'
    (
        "after",
        re.compile(rf"{_MODEL_OR_RELEASED}\s+after\s+{_YEAR}\b|\b(?:newer|more\s+recent)\s+than\s+{_YEAR}\b"),
    ),
    # 'before 2023', 'older than 2023'
    (
        "before",
        re.compile(rf"{_MODEL_OR_RELEASED}\s+before\s+{_YEAR}\b|\bolder\s+than\s+{_YEAR}\b"),
    ),
    # 'models from 2025', 'released in 2025', '2025 models'
    (
        "in",
        re.compile(
            rf"\b{_MODEL_WORDS}\s+(?:released\s+|published\s+)?(?:in|from|of)\s+{_YEAR}\b|"
            rf"\b{_RELEASED}\s+(?:in|during)\s+{_YEAR}\b|"
            rf"\b{_YEAR}\s+(?:(?:remote[\s-]sensing|foundation|geospatial|eo|vision)\s+)*{_MODEL_WORDS}\b"
        ),
    ),
)


def _release_years(text: str) -> tuple[int | None, int | None, str | None]:
    """(earliest, latest) release year the task asks for, and the words that said so."""
    for kind, pattern in _RELEASE_YEARS:
        match = pattern.search(text)
        if match is None:
            continue
        year = int(next(g for g in match.groups() if g))
        if kind == "from":
            return year, None, match.group(0)
        if kind == "after":
            return year + 1, None, match.group(0)
        if kind == "before":
            return None, year - 1, match.group(0)
        return year, year, match.group(0)
    return None, None, None


# 'outline accuracy', 'positional accuracy': accuracy of something else than the class labels.
_QUALIFIED_ACCURACY = re.compile(
    r"\b(?:outline|boundary|boundaries|edge|positional|position|geometric|geolocation|location|localisation|"
    r"localization|height|vertical|horizontal|planimetric|registration|timing|temporal)\s+$"
)


# 'Precision' of numbers ('a 7B model in half precision') is a number format, not the metric.
_NUMBER_PRECISION = re.compile(
    r"\b(?:half|single|double|mixed|full|reduced|numerical|floating[\s-]point|fp16|bf16|fp32|\d+[\s-]bit)\s+$"
)
_NOT_THE_METRIC = {"accuracy": _QUALIFIED_ACCURACY, "precision": _NUMBER_PRECISION}


def _not_the_metric(text: str, start: int, end: int) -> bool:
    """Whether the metric word at ``text[start:end]`` is said of something else: 'accuracy' of
    outlines or positions, 'precision' of numbers."""
    qualified = _NOT_THE_METRIC.get(text[start:end].lower())
    return bool(qualified and qualified.search(text[:start].lower()))


def named_metrics(text: str) -> list[str]:
    """The metrics ``text`` names, in order, less those said of something else or said not to
    matter ('boundary quality more than raw recall')."""
    return [
        m
        for m, start, end in find_terms(text, "metrics")
        if not _not_the_metric(text, start, end) and not _waived(text, start)
    ]


def _metric_in(fragment: str | None) -> str | None:
    if not fragment:
        return None
    terms = find_terms(fragment, "metrics")
    return terms[0][0] if terms else None


def performance_floor(text: str) -> MinPerformance | None:
    metrics: list[str] = []
    values: list[float] = []
    for match in _FLOOR.finditer(text):
        before, number, percent, after = match.groups()
        # 'mIoU above 90', 'F1 > 85', 'an mIoU of at least 0.8': the metric named just before.
        lead = _METRIC_LEAD.search(text, max(0, match.start() - 40), match.start())
        metric = _metric_in(before) or (_metric_in(lead.group(1)) if lead else None) or _metric_in(after)
        if metric is None or metric in metrics:
            continue
        value = float(number)
        info = metric_info(metric)
        if info.scale == "percent" and value <= 1.0 and not percent:
            value *= 100.0
        if not info.minimum <= value <= info.maximum:
            continue
        metrics.append(metric)
        values.append(value)
    return MinPerformance(metric=metrics, value=values) if metrics else None


_AS_BACKBONE_AFTER = re.compile(r"(?:[\s-]*(?:based|backbones?|encoders?|architectures?|family|models?))\b")
_AS_BACKBONE_BEFORE = re.compile(
    r"\b(?:uses?|using|with|built\s+on|based\s+on|on\s+top\s+of|has|have|(?:what|how)\s+about)\s+"
    r"(?:an?\s+|the\s+)?$"
)


@cache
def _nameable_backbones() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, name) of the backbones a task can ask for by name, specific rows before families."""
    rows = [
        (re.compile(spelling_pattern(s) + r"(?!/)", re.IGNORECASE), b.name)
        for b in get_backbone_table().values()
        if b.name.startswith(NAMEABLE_FAMILIES)
        for s in sorted((b.name, *b.synonyms), key=len, reverse=True)
    ]
    families = [
        (re.compile(rf"(?<![a-z0-9]){spelled}(?![a-z0-9])", re.IGNORECASE), name)
        for name, spelled in cues("backbone_family")
    ]
    return (*rows, *families)


def backbones_asked(lowered: str) -> list[str]:
    """Backbones the task asks for by name ('a Swin backbone', 'built on ResNet-50'); not those
    ruled out ('no ResNet') or given as a size ('ViT-L or larger')."""
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    if not re.search(r"vit|swin|resnet|wrn|convnext|deit", lowered):
        return []
    for pattern, name in _nameable_backbones():
        for match in pattern.finditer(lowered):
            start, end = match.span()
            if overlaps(start, end, taken):
                continue
            taken.append((start, end))
            before = lowered[max(0, start - 30) : start]
            if _GENERIC_BASELINE.search(lowered, max(0, start - 50), start):
                continue  # 'our U-Net models with ImageNet ResNet encoders': the baseline the user has
            wished = _AS_BACKBONE_AFTER.match(lowered, end) or _AS_BACKBONE_BEFORE.search(before)
            sized = BOUND_AFTER.match(lowered, end) or BOUND_BEFORE.search(before)
            ruled_out = _ARCHITECTURE_NEGATION.search(before) or _BIG_RULED_OUT.search(before)
            if wished and not sized and not ruled_out:
                found.append((start, name))
    return list(dict.fromkeys(name for _, name in sorted(found)))


# A backbone pretrained on everyday photos, or none at all, is the user's baseline; so is the one
# the user has now ('our CNN trained on one region', 'my current pipeline is a single-date 2D CNN').
_GENERIC_BASELINE = re.compile(
    r"\b(?:imagenet(?:-\d+k)?|vanilla|plain|off-the-shelf|fine[\s-]?tuned)[\s-]+(?:pre-?trained\s+)?$"
    r"|\b(?:our|my|its|their|current|currently|existing|baseline|until now|so far|used|right now|"
    r"at the moment)\b"
    r"(?:(?!\b(?:need|want|prefer|like|rather)\b)[^.;,])*$"
    # 'which encoders could replace the CNN?', 'to beat a plain U-Net': the model to do better than
    r"|\b(?:replac(?:e|es|ing)|beat(?:s|ing)?|outperform(?:s|ing)?|improv(?:e|es|ing)\s+(?:on|over|upon)|"
    r"instead\s+of)\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+|plain\s+)?(?:[\w-]+\s+){0,2}$"
)


def _family_asked(lowered: str, start: int, end: int) -> bool:
    """Whether the family named at [start, end) is asked for: wanted ('we need a small CNN'), named
    as the kind of model ('a Mamba model', 'based on ResNet-50') or asked about ('why not a ResNet?');
    not a size ('around ResNet-50 size') nor a model described ('an SSD ResNet-101 pretrained on
    Open Images', 'the paper's ResNet-50 baselines')."""
    before = lowered[max(0, start - 30) : start]
    if BOUND_BEFORE.search(before) or BOUND_AFTER.match(lowered, end) or _SIZE_AFTER.match(lowered, end):
        return False
    if _DESCRIBED_AFTER.match(lowered, end) or _ALTERNATIVE_BEFORE.search(
        words_before(lowered, start, 80, ends=r"[.;:!?]")
    ):
        return False
    return bool(
        _AS_BACKBONE_AFTER.match(lowered, end)
        or _ONLY_AFTER.match(lowered, end)
        or _AS_BACKBONE_BEFORE.search(before)
        or cue_pattern("architecture_lead", "want").search(words_before(lowered, start, 60, ends=r"[.;:!?]"))
        or in_question(lowered, start)
    )


# 'a Swin-L encoder pretrained on RGB': one model described, not a family asked for.
_DESCRIBED_AFTER = re.compile(
    r"[\w/-]*(?:\s+(?:backbone|encoder|model|network))?\s+(?:pre-?trained|trained|initiali[sz]ed)\s+(?:on|with|from)\b"
)
# '... or should I simply train a tiny CNN?', 'or stay with lightweight CNNs?': the way without a
# pretrained model, offered as the other choice; 'train a small CNN': a network built, not one chosen.
_ALTERNATIVE_BEFORE = re.compile(
    r"\bor\s+(?:should|do|would|shall|must|could)\s+(?:i|we)\b[^.;:!?]*$"
    r"|\b(?:train|training|build|building)\s+(?:an?\s+|my\s+own\s+|our\s+own\s+)?(?:[\w-]+\s+){0,2}$"
)
# 'CNN only', 'a ViT please'.
_ONLY_AFTER = re.compile(r"\s+(?:only|please)\b")
# 'ResNet-50 size', 'ViT-B-sized models', 'the ViT patch size', 'the ResNet-50 / ViT-S range': a size,
# not a family.
_SIZE_AFTER = re.compile(
    r"[\w/-]*?(?:\s*/\s*[\w-]+)?(?:\s+[\w-]+)?(?:-sized?|\s+(?:size|sized|class|scale|range))\b"
)


def architectures(lowered: str) -> list[str]:
    """Backbone families the task accepts: those it asks for, else all those it does not rule out;
    empty when it names none (a family only mentioned asks for nothing)."""
    wanted: list[str] = []
    excluded: list[str] = []
    families = cues("architecture")
    for family, words in families:
        # Not inside a longer name ('hi-vit'), but after 'non-' ('a non-transformer model').
        for match in re.finditer(rf"(?:(?<=non-)|(?<![a-z0-9-]))(?:{words})(?![a-z0-9])", lowered):
            before = lowered[max(0, match.start() - 30) : match.start()]
            if _GENERIC_BASELINE.search(lowered, max(0, match.start() - 50), match.start()):
                continue  # 'an ImageNet ResNet': the baseline the user has, not a family asked for
            if _BIG_RULED_OUT.search(before):
                continue
            if _ARCHITECTURE_NEGATION.search(before):
                # 'no ViT-Large', 'no ViT-L': a size ruled out
                if not (_SIZED_VARIANT.match(lowered, match.end()) or _SIZE_LETTER.search(match.group(0))):
                    excluded.append(family)
            elif _family_asked(lowered, match.start(), match.end()):
                wanted.append(family)
    if wanted:
        return [f for f in dict.fromkeys(wanted) if f not in excluded]
    if excluded:
        return [f for f, _ in families if f not in excluded]
    return []


def in_question(text: str, at: int) -> bool:
    """Whether the sentence holding position ``at`` is a question."""
    end = re.search(r"[.!?](?!\d)", text[at:])
    return end is not None and end.group(0) == "?"


def words_before(text: str, at: int, width: int = 40, ends: str = r"[.;:!?,]") -> str:
    """The up to ``width`` characters of ``text`` before ``at``, from the last clause end (``ends``)."""
    return re.split(ends, text[max(0, at - width) : at])[-1]


def words_after(text: str, at: int, width: int = 60, ends: str = r"[.;:!?]") -> str:
    """The up to ``width`` characters of ``text`` from ``at``, to the next sentence or clause end
    (``ends``)."""
    return re.split(ends, text[at : at + width])[0]


def _waived(lowered: str, start: int, end: int | None = None) -> bool:
    """Whether the priority said at ``start`` is said not to matter ('I don't need state-of-the-art
    accuracy', 'speed and size are not concerns'): a waiver of ``cues.csv`` (field
    ``priority_waived``) shortly before it, or right after it, in its clause."""
    if cue_pattern("priority_waived", "waived").search(words_before(lowered, start)):
        return True
    after = words_after(lowered, end) if end is not None else ""
    return bool(cue_pattern("priority_waived", "after").match(after))


def read_priorities(lowered: str, device: str | None, transfer: bool, notes: list[str]) -> list[str]:
    """What the task says matters most, saying in ``notes`` how adoption is weighed."""
    table = cues("priority")
    priorities = [
        label
        for label, pattern in table
        if any(
            not _waived(lowered, m.start(), m.end()) and not _not_the_metric(lowered, m.start(), m.end())
            for m in re.finditer(pattern, lowered)
        )
    ]
    # Which error costs more ('a missed ship is worse than a false alarm') says which metric matters.
    priorities += [p for p in error_priorities(lowered) if p not in priorities]
    if "adoption" in priorities:
        adoption = re.search(dict(table)["adoption"], lowered)
        assert adoption is not None
        notes.append(
            f"'{adoption.group(0)}' read as adoption: RS-FMD records no citation or star counts, so it "
            "counts the independent evaluations (benchmarks by others) that include each model"
        )
    if device in {"edge", "cpu"} and "efficiency" not in priorities:
        priorities.append("efficiency")
    if transfer and "generalization" not in priorities:
        priorities.append("generalization")
    return priorities


def read_release_years(lowered: str, notes: list[str]) -> tuple[int | None, int | None]:
    """(earliest, latest) release year the task asks for, saying in ``notes`` which words said so."""
    earliest, latest, said = _release_years(lowered)
    if said is not None:
        notes.append(f"'{said}' read as the model's release year")
    return earliest, latest


# A wish said of what is not wanted: 'no big chat models', 'not a time-series encoder', 'not
# interested in a chat model' (a negation at most three words before the wish, in its clause).
# ('not my odd 6-channel stack' sets the user's own data against what others take: no negated wish)
_WISH_NEGATED = re.compile(rf"(?:{NOT}|\bno|\bnor|\bwithout|n't)\s+(?!my\s|our\s)(?:[\w-]+\s+){{0,3}}$")


def wished(lowered: str, wish: str) -> bool:
    """Whether the task asks for ``wish`` (a field ``wish`` of ``cues.csv``), not only says it does
    not want it."""
    for match in cue_pattern("wish", wish).finditer(lowered):
        before = words_before(lowered, match.start())
        if _WISH_NEGATED.search(before):
            continue
        # Offered as one way among others ('a model I fine-tune, or ready-made embeddings'): accepted,
        # not asked for.
        if not cue_pattern("wish_accepted", "before").search(before):
            return True
    return False


def asks_any_bands(lowered: str) -> bool:
    """Whether the task wants a model for any band set ('arbitrary spectral bands')."""
    return wished(lowered, "any_bands")


def asks_all_inputs(lowered: str) -> bool:
    """Whether the task wants one model taking all its inputs together ('takes both', 'fusion')."""
    return wished(lowered, "all_inputs")


def asks_series_model(lowered: str) -> bool:
    """Whether the task wants a model that takes image time series ('a time-series encoder')."""
    return wished(lowered, "series_model")


def asks_specialist(lowered: str) -> bool:
    """Whether the task wants a model pretrained on its kind of imagery alone ('SAR-specific model')."""
    return wished(lowered, "specialist")


def asks_precomputed_embeddings(lowered: str) -> bool:
    """Whether the task wants embeddings already computed and published, to download."""
    return wished(lowered, "precomputed_embeddings")
