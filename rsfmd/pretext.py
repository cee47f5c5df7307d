"""Pretraining methods a task can ask for ('trained with contrastive learning', 'MAE-based'), and
whether a record's pretraining is described as using them.

Each method is read twice: from a task's text (phrases that name it as a way of pretraining, so
'MAE' the error metric is not taken for masked autoencoding) and from a record's
``pretext_training_type``, ``masking_strategy`` and backbone text (what the curated description
says it did).
"""

from __future__ import annotations

import re

from rsfmd.schema import ModelRecord

# method -> (pattern in a task's text, pattern in a record's description)
_METHODS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "contrastive learning": (
        # ('visual contrastive decoding' is a way of decoding, not of pretraining)
        re.compile(
            r"\bcontrastive(?:ly)?[\s-]+(?:pre-?train\w*|train\w*|learn\w*|self-supervis\w*|ssl|objectives?|"
            r"loss(?:es)?|methods?|models?|encoders?|backbones?|approach\w*|frameworks?|alignment)\b|"
            r"\bsimclr\b|\bmoco(?:[\s-]?v\d)?\b",
            re.IGNORECASE,
        ),
        re.compile(r"contrastive|simclr|\bmoco|info-?nce", re.IGNORECASE),
    ),
    "masked image modelling": (
        re.compile(
            r"\bmasked[\s-]*(?:auto-?encod\w*|image[\s-]+model\w*|modell?ing|reconstruction|pre-?training)\b|"
            r"\bmae[\s-](?:based|style|pre-?train\w*|models?|backbones?|encoders?)\b|\bmim\b",
            re.IGNORECASE,
        ),
        re.compile(
            r"mask(?:ed)?[\s-]*(?:auto-?encod|image\s+model|modell?ing|reconstruct|signal|token)|\bmae\b|\bmim\b",
            re.IGNORECASE,
        ),
    ),
    "self-distillation": (
        # DINO as a way of pretraining ('DINO-style', 'DINO pretraining', 'a method like DINO'), not
        # a checkpoint used ('DINOv2 features', 'a DINOv2 prototype detector') nor models named after
        # it (LAE-DINO, Grounding DINO, DINO-MC, DINO-MM)
        re.compile(
            r"\bself[\s-]distill\w*|\bibot\b|\bbyol\b|\b(?:like|as)\s+dino(?:v2|v3)?\b(?!-(?:mc|mm)\b)|"
            r"(?<![\w-])(?<!grounding\s)dino(?:v2|v3)?[\s-]+(?:style|like|based|type|pre-?train\w*|train\w*|"
            r"recipes?|objectives?|loss(?:es)?|methods?|models?|backbones?|encoders?)\b",
            re.IGNORECASE,
        ),
        re.compile(r"distill|\bdino|\bibot|\bbyol|teacher", re.IGNORECASE),
    ),
}


def pretext_methods(text: str) -> list[str]:
    """The pretraining methods ``text`` (a task) names, in vocabulary order."""
    return [method for method, (asked, _) in _METHODS.items() if asked.search(text)]


def uses_pretext(record: ModelRecord, methods: list[str]) -> list[str]:
    """Which of ``methods`` the record's pretraining is described as using."""
    described = " ".join(
        part for part in (record.pretext_training_type, record.masking_strategy, record.backbone_text) if part
    )
    return [m for m in methods if m in _METHODS and _METHODS[m][1].search(described)]


def pretext_described(record: ModelRecord) -> bool:
    """Whether RS-FMD records how the model was pretrained."""
    return bool(record.pretext_training_type)
