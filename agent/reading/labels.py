"""How many labels the task has and how it uses the encoder: zero-shot, few labels (said or
counted: '500 labelled tiles'), full labels or none (clustering, similarity search), frozen or not.

The phrasings of each data regime are rows of ``cues.csv`` (field ``data_regime``).
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from agent.reading.context import sentence_spans
from agent.reading.tables import cue_pattern, cues, first_cue
from agent.reading.terms import blank_spans

# 'without retraining' with two sensors or more: one model across them, not use without labels.
_WITHOUT_RETRAINING = re.compile(
    r"without (?:any )?re-?training|no re-?training|without training (?:it )?again"
)


# The encoder used frozen: a linear probe or k-NN on its features, or its embeddings as they are.
_SIMILARITY_SEARCH = re.compile(
    r"\bsimilarity search|\bnearest[\s-]neighbou?r (?:query|queries|search|lookups?)\b|"
    r"\b(?:find|finding|search(?:ing)?(?:\s+for)?|retriev\w*|look(?:ing)?\s+for)\s+"
    r"(?:the\s+)?(?:most\s+)?similar\s+(?:images|tiles|patches|scenes|places|locations|areas|fields|sites)\b|"
    r"\b(?:highlight|flag|map|mark)\s+(?:every|all|each)\s+similar\b|\bcosine similarity\b"
)
# Learning of one's own from unlabelled data ('continue self-supervised pretraining on our archive',
# 'unsupervised change signals').
# ('self-supervised ResNet-50 encoders' names a kind of model, not what the user will do)
_OWN_PRETRAINING = re.compile(
    r"\b(?:self[\s-]supervis(?:ed|ion)|unsupervised)\b"
    r"(?!\s+(?:[\w/-]+\s+){0,2}(?:encoders?|models?|backbones?|weights|checkpoints?|networks?)\b)"
    # ('learn one general SAR feature extractor on our cluster', 'learn features from our archive')
    r"|\blearn(?:s|ing|t)?\s+(?:[\w-]+\s+){0,4}?(?:feature\s+extractors?|encoders?|representations?|features)"
    r"\s+(?:[\w-]+\s+){0,3}?(?:on|from)\s+(?:our|my|this|these|the\s+unlabell?ed)\b"
)
# Pretraining further on one's own archive ('continue pretraining', 'self-supervise a backbone on them').
_PRETRAIN_FURTHER = re.compile(
    r"\b(?:continue|continuing|keep|redo|further)\s+(?:the\s+|its\s+)?(?:self[\s-]supervised\s+)?pre-?train\w*|"
    r"\bself[\s-]supervis(?:e|ed|ing)\s+(?:[\w-]+\s+){0,3}?on\s+(?:our|my|this|the|them)\b|"
    r"\bpre-?train\w*\s+(?:[\w-]+\s+){0,3}?on\s+(?:our|my)\s+(?:own\s+)?(?:archive|data|imagery|tiles|scenes|chips)"
)
_FROZEN = re.compile(
    r"\bfrozen\s+(?:(?:pre-?trained|[\w-]*(?:clip|vit|dino|mae|fm)[\w-]*)\s+){0,2}(?:encoders?|backbones?|features?|embeddings?|weights|models?|"
    r"representations?)\b|"
    r"\b(?:keep|keeping|kept)\s+(?:the\s+|its\s+)?(?:encoder|backbone|model|weights)\s+frozen\b|"
    r"\bfreez(?:e|ing)\s+(?:the\s+|its\s+)?(?:encoder|backbone|weights|model)\b|"
    r"\blinear[\s-]prob(?:e|es|ing)\b|\bk[\s-]?nn\b|\bk[\s-]nearest|\bnearest[\s-]neighbou?rs?\b|"
    r"\bfeature[\s-]extractors?\b|"
    # 'embeddings of every pixel to train a random forest': features for a classical classifier.
    r"\b(?:embeddings?|features|feature\s+vectors?)\b[^.?!]{0,60}\b(?:random[\s-]forests?|xgboost|gradient[\s-]boosting|svms?|"
    r"logistic[\s-]regression|linear[\s-]classifiers?|(?:simple|small|light(?:weight)?|tiny|shallow)\s+"
    r"(?:classifiers?|regressors?|heads?))\b|" + _SIMILARITY_SEARCH.pattern
)
# 'no fine-tuning' says how the encoder is used, not that there are no labels: with a frozen
# encoder it means a light head (linear probe, k-NN) on labelled samples.
_NO_FINE_TUNING = re.compile(
    r"\b(?:no|without(?:\s+any)?)\s+(?:fine[\s-]?tuning|re-?training|training(?!\s+(?:data|labels|samples)))"
)


_FEW_SHOT = re.compile(r"\bfew[\s-]?shot")
_OUT_OF_THE_BOX = re.compile(r"out[\s-]of[\s-]the[\s-]box")
_AS_IT_COMES = re.compile(f"{_OUT_OF_THE_BOX.pattern}|{_NO_FINE_TUNING.pattern}")
_CLUSTERING = re.compile(
    r"\bclustering\b|\b(?:to|can|could|or|then) cluster\b|"
    r"(?<![\w-]\s)\bcluster\s+(?:or|and|it|its|their)\b|"
    r"\bcluster (?:them|the|my|our|these|land|pixels|images|tiles|scenes|patches)\b|"
    # ('feature differences I can threshold'): features used as they come out
    r"\b(?:features?|embeddings?|feature differences?)\s+(?:that\s+)?(?:i|we)\s+(?:can|could)\s+"
    r"(?:threshold|cluster|compare)|"
    # ('embed each annual composite and flag the years where it jumps'): features used as they come
    r"\bembed\s+(?:each|every|all|our|my)\b"
)
# A count of labelled samples, read in three parts: a number ('1,200', '25k', 'a few hundred'), up to
# three words that qualify the samples ('hand-digitised change'), and a noun of samples from
# ``cues.csv`` (field ``label_count``, value ``sample``: polygons, tiles, plots ...); it is a count of
# labels when a word of labelling (value ``labelled``: labelled, annotated, digitised, verified ...)
# or the labels themselves ('labels are 400 patches') stand within the same sentence, close to it.
# (a letter scale is written against the number: '3M pixels', but '3 m tiles' are 3-metre tiles)
_NUMBER = r"(\d[\d,]*(?:\.\d+)?)(?:(k|m)|\s*(thousand|million))?\b"
_NOT_QUALIFIER = r"(?:over|from|in|at|of|and|or|with|to|for|by|on|per|the|a|an|we|i|our|my)\b"
_QUALIFIERS = rf"((?:(?!{_NOT_QUALIFIER})[\w'/^×-]+\s+|/\s*){{0,3}}?)"
_PER_CLASS = re.compile(r"\s*(?:per|a|each|for each|for every)\s+(?:class|category|label|type)\b")
_NEAR = 70
"""How far (in characters) a word of labelling may stand from the count."""
FEW_LABELS, FEW_LABELS_PER_CLASS = 5000, 500
"""Fewer labelled samples than this (in all, or per class) read as few-shot; more as enough to fine-tune."""
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}


class _CountPatterns(NamedTuple):
    """The patterns of a count of labelled samples, from ``cues.csv``."""

    figures: re.Pattern[str]  # a count in figures: number, qualifiers, sample noun
    samples: re.Pattern[str]  # what follows a count in words: qualifiers, sample noun
    labelled: re.Pattern[str]  # a word of labelling
    testing: re.Pattern[str]  # labels kept to test a model, not to train one ('which I'd keep for testing')
    words: tuple[tuple[re.Pattern[str], float], ...]  # counts in words ('a few hundred': 300)


@cache
def _count_patterns() -> _CountPatterns:
    """The patterns of a count of labelled samples, read from ``cues.csv`` once."""
    rows = dict(cues("label_count"))
    sample, labelled, testing = rows.pop("sample"), rows.pop("labelled"), rows.pop("testing")
    words = tuple(
        # ('a few hundred thousand instances': the word count scaled)
        (re.compile(rf"\b(?:{pattern})\s+(?:(thousand|million)\s+)?(?:of\s+)?"), float(value))
        for value, pattern in rows.items()
    )
    samples = rf"{_QUALIFIERS}(?:{sample})\b"
    # (a year is no count: 'pairs from 2016 and 2022')
    # (nor is a length: '3 m PlanetScope tiles'; but '2000 labels' is a count)
    year = rf"(?:19|20)\d\d\b(?!\s+(?:[\w-]+\s+)?(?:{sample})\b)"
    count = re.compile(rf"(?<![\w.,^×-])(?!{year}){_NUMBER}(?!\s+[ckm]?m\b)\s*{samples}")
    return _CountPatterns(
        count, re.compile(samples), re.compile(rf"(?<!\w)(?:{labelled})"), re.compile(testing), words
    )


def _counts(text: str) -> list[tuple[float, int, int]]:
    """(count, start, end) of every count of samples in ``text``, in words or in figures."""
    patterns = _count_patterns()
    found = []
    for match in patterns.figures.finditer(text):
        scale = _SCALE.get((match.group(2) or match.group(3) or "").lower(), 1.0)
        found.append((float(match.group(1).replace(",", "")) * scale, match.start(), match.end()))
    for pattern, value in patterns.words:
        for match in pattern.finditer(text):
            if tail := patterns.samples.match(text, match.end()):
                found.append((value * _SCALE.get(match.group(1) or "", 1.0), match.start(), tail.end()))
    return sorted(found, key=lambda f: f[1])


# 'not one change annotation yet', 'no labels': a word of labelling said of none.
_NONE_BEFORE = re.compile(
    r"\b(?:no|not(?:\s+(?:a|one|a single|any))?|without|zero|never)\s+(?:[\w-]+\s+){0,2}$"
)


def _said_labelled(near: str, labelled: re.Pattern[str]) -> bool:
    """Whether ``near`` holds a word of labelling not said of none."""
    return any(not _NONE_BEFORE.search(near[: m.start()]) for m in labelled.finditer(near))


def _label_count(text: str) -> tuple[str, str] | None:
    """(regime, note) from a stated number of labelled samples; None when no count is stated."""
    patterns = _count_patterns()
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        for count, s, e in _counts(sentence):
            near = sentence[max(0, s - _NEAR) : e + _NEAR]
            if patterns.testing.match(sentence[e : e + _NEAR]):
                # Labels kept to test a model with are no budget to train one on.
                continue
            # ('20 images per class': a count per class is a count of labels)
            per = _PER_CLASS.match(sentence, e)
            # (a count of pixels says how many samples only per class: '1M labelled pixels' may be a
            # few dense masks)
            pixels = sentence[s:e].rstrip("s").endswith("pixel")
            if "unlabel" in sentence[s:e]:
                continue  # '400,000 unlabelled chips' counts what has no labels
            per_class, e = bool(per), per.end() if per else e
            if not per_class and (pixels or not _said_labelled(near, patterns.labelled)):
                continue
            limit = FEW_LABELS_PER_CLASS if per_class else FEW_LABELS
            regime = "few-shot" if count < limit else "full-labels"
            reading = "few labels" if regime == "few-shot" else "enough labels to fine-tune"
            side = "fewer than" if regime == "few-shot" else "at least"
            bound = f"{side} {limit:,}{' per class' if per_class else ''}"
            return regime, f"'{sentence[s:e].strip()}' read as {reading} ({bound})"
    return None


def regime_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` says how many labels there are ('few labels', '500 labelled images')."""
    lowered = text.lower()
    spans = [m.span() for _, pattern in cues("data_regime") for m in re.finditer(pattern, lowered)]
    return spans + [(s, e) for _, s, e in _counts(lowered)]


class Regime(NamedTuple):
    """The data regime read, whether the encoder is used frozen, and a task type it implies."""

    data: str | None
    frozen: bool
    pretrain_further: bool
    transfer: bool
    task_type: str | None


def _zero_shot_besides(phrases: re.Pattern[str], lowered: str) -> bool:
    """Whether the task still reads as zero-shot with ``phrases`` taken out of it."""
    blanked = blank_spans(lowered, [m.span() for m in phrases.finditer(lowered)])
    return first_cue(cues("data_regime"), blanked) == "zero-shot"


def read_regime(lowered: str, sensors: list[str], task_type: str | None, notes: list[str]) -> Regime:
    """The data regime of the task (``lowered``), saying in ``notes`` what was inferred."""
    regimes = cues("data_regime")
    # 'labels aren't really the bottleneck' says there are enough, whatever else is said of them.
    regime = "full-labels" if cue_pattern("labels_suffice", "full-labels").search(lowered) else None
    regime = regime or first_cue(regimes, lowered)
    frozen = bool(_FROZEN.search(lowered))
    counted = _label_count(lowered)
    if frozen and regime == "zero-shot" and not _zero_shot_besides(_NO_FINE_TUNING, lowered):
        regime = None
        notes.append(
            "'no fine-tuning' with a frozen encoder read as a light head on its features, not zero-shot"
        )
    if (
        regime == "zero-shot"
        and (counted or cue_pattern("trains_own", "own").search(lowered))
        and not _zero_shot_besides(_AS_IT_COMES, lowered)
    ):
        # 'the pretrained detector drew tiny boxes out of the box; I can hand-label a few hundred
        # crowns', '18,000 crowns ... transfer to Borneo without retraining', 'BLIP-2 works out of
        # the box ...; later we fine-tune on our own pairs': how a model runs as it comes is no
        # regime when the user counts labels to be had or trains a model of their own.
        regime = None
    if regime == "zero-shot" and (held := cue_pattern("labels_held", "labelled").search(lowered)):
        # 'our labelled data are UAV cubes ..., the Gaofen-5 scenes to map carry no labels': labels
        # of the user's own, from other imagery, are trained on; the task is transfer, not zero-shot.
        regime = None
        notes.append(f"'{held.group(0)}' read as labels you have: none for other imagery is not zero-shot")
    if regime == "few-shot" and counted and counted[0] == "full-labels" and not _FEW_SHOT.search(lowered):
        # 'GEDI footprints as sparse labels (tens of millions of shots)': a count says how many labels
        # there are better than a word for them does ('few-shot' itself says how they are used).
        regime = None
    # A count of labelled samples says how many labels there are, whatever else is done without them.
    if regime is None and counted:
        regime = counted[0]
        notes.append(counted[1])
    uses_unlabelled = (
        _CLUSTERING.search(lowered) or _SIMILARITY_SEARCH.search(lowered) or _OWN_PRETRAINING.search(lowered)
    )
    further = bool(_PRETRAIN_FURTHER.search(lowered))
    if further and regime == "few-shot":
        # 'continue pretraining on our archive, then fine-tune with a few labels': the model is
        # chosen to pretrain further first.
        notes.append("pretraining further on your own archive comes first: read as unlabelled data")
        regime = "unlabeled"
    if (uses_unlabelled or further) and regime in {None, "zero-shot"}:
        # Grouping or searching embeddings, or pretraining further on one's own archive, without
        # labels is unsupervised use of an encoder, not zero-shot prompting.
        regime = "unlabeled"
    transfer = _WITHOUT_RETRAINING.search(lowered) if regime == "zero-shot" and len(sensors) > 1 else None
    if transfer:
        # 'works on Sentinel-2 and Landsat without retraining': one model across sensors.
        regime = None
        notes.append(
            f"'{transfer.group(0)}' across {' and '.join(sensors)} read as one model for all of them "
            "(generalisation across sensors), not as use without labels"
        )
    if regime == "zero-shot" and task_type in {"classification", "multi-label classification", None}:
        # Classifying without any labels is zero-shot classification: vision-language territory.
        task_type = "zero-shot classification"
    return Regime(regime, frozen, further and regime == "unlabeled", bool(transfer), task_type)
