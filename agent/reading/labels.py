"""How many labels the task has and how it uses the encoder: zero-shot, few labels (said or
counted: '500 labelled tiles'), full labels or none (clustering, similarity search), frozen or not.

The phrasings of each data regime are rows of ``cues.csv`` (field ``data_regime``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from agent.reading.tables import cues, first_cue
from agent.reading.terms import blank_spans

# 'without retraining' with two sensors or more: one model across them, not use without labels.
_WITHOUT_RETRAINING = re.compile(
    r"without (?:any )?re-?training|no re-?training|without training (?:it )?again"
)


# The encoder used frozen: a linear probe or k-NN on its features, or its embeddings as they are.
_SIMILARITY_SEARCH = re.compile(
    r"\bsimilarity search|\b(?:find|finding|search(?:ing)?(?:\s+for)?|retriev\w*|look(?:ing)?\s+for)\s+"
    r"(?:the\s+)?(?:most\s+)?similar\s+(?:images|tiles|patches|scenes|places|locations|areas|fields|sites)\b"
)
# Learning of one's own from unlabelled data ('continue self-supervised pretraining on our archive',
# 'unsupervised change signals').
_OWN_PRETRAINING = re.compile(r"\b(?:self[\s-]supervised|unsupervised)\b")
_FROZEN = re.compile(
    r"\bfrozen\s+(?:(?:pre-?trained|[\w-]*(?:clip|vit|dino|mae|fm)[\w-]*)\s+){0,2}(?:encoders?|backbones?|features?|embeddings?|weights|models?|"
    r"representations?)\b|"
    r"\b(?:keep|keeping|kept)\s+(?:the\s+|its\s+)?(?:encoder|backbone|model|weights)\s+frozen\b|"
    r"\bfreez(?:e|ing)\s+(?:the\s+|its\s+)?(?:encoder|backbone|weights|model)\b|"
    r"\blinear[\s-]prob(?:e|es|ing)\b|\bk[\s-]?nn\b|\bk[\s-]nearest|\bnearest[\s-]neighbou?rs?\b|"
    r"\bfeature[\s-]extractors?\b|"
    # 'embeddings of every pixel to train a random forest': features for a classical classifier.
    r"\b(?:embeddings?|features)\b[^.?!]{0,60}\b(?:random[\s-]forests?|xgboost|gradient[\s-]boosting|svms?|"
    r"logistic[\s-]regression|linear[\s-]classifiers?)\b|" + _SIMILARITY_SEARCH.pattern
)
# 'no fine-tuning' says how the encoder is used, not that there are no labels: with a frozen
# encoder it means a light head (linear probe, k-NN) on labelled samples.
_NO_FINE_TUNING = re.compile(
    r"\b(?:no|without(?:\s+any)?)\s+(?:fine[\s-]?tuning|re-?training|training(?!\s+(?:data|labels|samples)))"
)


_CLUSTERING = re.compile(
    r"\bclustering\b|\bto cluster\b|"
    r"\bcluster (?:them|the|my|our|these|land|pixels|images|tiles|scenes|patches)\b"
)
_COUNT = r"(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|m|million)?"
_LABELLED = r"(?:hand[\s-]|manually\s+)?(?:labell?ed|annotated|digiti[sz]ed|ground[\s-]truth(?:ed)?)"
# '500 labelled tiles', 'we annotated 12,000 patches', 'a labelled dataset of 15k images'.
_LABEL_COUNTS = (
    re.compile(rf"\b{_COUNT}\s+{_LABELLED}\s+([a-z]+)(\s+per\s+class)?"),
    re.compile(rf"\b(?:labell?ed|annotated|digiti[sz]ed)\s+{_COUNT}\s+([a-z]+)(\s+per\s+class)?"),
    re.compile(rf"\b{_LABELLED}\s+(?:dataset|set|data)\s+of\s+{_COUNT}\s+([a-z]+)(\s+per\s+class)?"),
    # 'the only labels are ~400 patches', 'our ground truth is about 60 polygons'.
    re.compile(
        rf"\b(?:labels|annotations|ground[\s-]truth|training\s+data)\s+(?:are|is|were|was)\s+"
        rf"(?:only\s+|just\s+)?(?:about\s+|around\s+|roughly\s+|~\s*)?{_COUNT}\s+([a-z]+)(\s+per\s+class)?"
    ),
    # 'crop types, 1000 labels': the labels counted themselves.
    re.compile(rf"\b{_COUNT}\s+(labels|annotations)(\s+per\s+(?:class|category))?\b"),
    # '10 samples per class': a count per class is a count of labels.
    re.compile(rf"\b{_COUNT}\s+([a-z]+)(\s+per\s+(?:class|category|label))\b"),
)
_NOT_SAMPLES = frozenset({"pixels", "pixel", "points", "bands", "classes", "categories", "percent", "hours"})
_POINT_LABELS = frozenset({"points"})
FEW_LABELS, FEW_LABELS_PER_CLASS = 5000, 500
"""Fewer labelled samples than this (in all, or per class) read as few-shot; more as enough to fine-tune."""


def _label_count(text: str) -> tuple[str, str] | None:
    """(regime, note) from a stated number of labelled samples; None when no count is stated."""
    for i, pattern in enumerate(_LABEL_COUNTS):
        match = pattern.search(text)
        # '300 labelled points' are point labels; '300 points' alone are not samples (nor are pixels).
        not_samples = _NOT_SAMPLES - _POINT_LABELS if i < 4 else _NOT_SAMPLES
        if match is None or match.group(3) in not_samples:
            continue
        scale = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}.get(match.group(2) or "", 1.0)
        count = float(match.group(1).replace(",", "")) * scale
        per_class = bool(match.group(4))
        limit = FEW_LABELS_PER_CLASS if per_class else FEW_LABELS
        regime = "few-shot" if count < limit else "full-labels"
        reading = "few labels" if regime == "few-shot" else "enough labels to fine-tune"
        side = "fewer than" if regime == "few-shot" else "at least"
        bound = f"{side} {limit:,}{' per class' if per_class else ''}"
        return regime, f"'{match.group(0).strip()}' read as {reading} ({bound})"
    return None


def regime_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` says how many labels there are ('few labels', '500 labelled images')."""
    lowered = text.lower()
    spans = [m.span() for _, pattern in cues("data_regime") for m in re.finditer(pattern, lowered)]
    return spans + [m.span() for pattern in _LABEL_COUNTS for m in pattern.finditer(lowered)]


class Regime(NamedTuple):
    """The data regime read, whether the encoder is used frozen, and a task type it implies."""

    data: str | None
    frozen: bool
    transfer: bool
    task_type: str | None


def read_regime(lowered: str, sensors: list[str], task_type: str | None, notes: list[str]) -> Regime:
    """The data regime of the task (``lowered``), saying in ``notes`` what was inferred."""
    regimes = cues("data_regime")
    regime = first_cue(regimes, lowered)
    frozen = bool(_FROZEN.search(lowered))
    if (
        frozen
        and regime == "zero-shot"
        and first_cue(regimes, blank_spans(lowered, [m.span() for m in _NO_FINE_TUNING.finditer(lowered)]))
        != "zero-shot"
    ):
        regime = None
        notes.append(
            "'no fine-tuning' with a frozen encoder read as a light head on its features, not zero-shot"
        )
    uses_unlabelled = (
        _CLUSTERING.search(lowered) or _SIMILARITY_SEARCH.search(lowered) or _OWN_PRETRAINING.search(lowered)
    )
    if uses_unlabelled and regime in {None, "zero-shot"}:
        # Grouping or searching embeddings, or pretraining further on one's own archive, without
        # labels is unsupervised use of an encoder, not zero-shot prompting.
        regime = "unlabeled"
    if regime is None and (counted := _label_count(lowered)):
        regime = counted[0]
        notes.append(counted[1])
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
    return Regime(regime, frozen, bool(transfer), task_type)
