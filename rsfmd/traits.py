"""What a record's free text says about the model: whether it is built on a generative language
model, takes point or box prompts, which architecture families its backbones belong to, and how
fine a grid its stated resolution is."""

from __future__ import annotations

import re
from functools import cache

# A large language model in a backbone or description ('Qwen2.5-VL-7B', 'LLaVA-1.5', 'Vicuna-7B +
# CLIP'); an LLM used only as a text encoder ('LLM2Vec Llama-3') or to write the training captions
# ('LLM-generated captions') makes no model that writes text.
_GENERATIVE_LLM = re.compile(
    r"\b(?:m?llms?|lvlms?|llava\w*|qwen\w*|vicuna\w*|llama\w*|internvl\w*|minigpt\w*|gpt-?\w*|phi-?\d[\w.]*|"
    r"mipha\w*|glm-?\w*|longva\w*|large language models?)\b",
    re.IGNORECASE,
)
# A segmenter that takes the user's clicks or boxes: SAM's prompt encoder, kept or retrained.
_PROMPTS = re.compile(
    r"\bpromptable\b|\bprompt encoder\b|\binteractive segmentation\b|"
    r"\b(?:points?|box(?:es)?|clicks?)(?:\s+(?:and|or)\s+(?:points?|box(?:es)?|clicks?))?[\s-]+prompts?\b",
    re.IGNORECASE,
)
# Architecture families named in a backbone ('ResNet-50', 'ViT-B/16', 'Swin-T', 'VMamba').
_ARCHITECTURES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "CNN",
        re.compile(
            r"\b(?:resnet|resnext|wide[\s-]resnet|convnext|u-?net|cnns?|efficientnet|mobilenet|vgg|hrnet|"
            r"densenet|convolutional|regnet|darknet|cspnext|cspdarknet|rn\d+)\w*",
            re.IGNORECASE,
        ),
    ),
    (
        "transformer",
        re.compile(
            r"\b(?:vit|swin|transformer|deit|beit|hivit|itpn|segformer|twins|perceiver|dinov2)\w*",
            re.IGNORECASE,
        ),
    ),
    ("Mamba", re.compile(r"\b(?:v?mamba|state[\s-]space)\w*", re.IGNORECASE)),
)
ARCHITECTURE_FAMILIES: tuple[str, ...] = tuple(family for family, _ in _ARCHITECTURES)


@cache
def architecture_families(backbones: str) -> frozenset[str]:
    """The families the backbone names in ``backbones`` belong to (once per text: rankings ask often)."""
    return frozenset(family for family, pattern in _ARCHITECTURES if pattern.search(backbones))


_TEXT_ENCODER_LLM = re.compile(
    r"\bllm2vec\b[\w\s.-]*|\bllms?[\s-]+(?:based[\s-]+)?text[\s-]+encoders?\b|"
    r"\b(?:m?llms?|gpt-?\w*)[\s-]+(?:generated|written|annotated|produced|refined)\b",
    re.IGNORECASE,
)


def names_a_generative_llm(described: str) -> bool:
    """Whether ``described`` names a large language model that writes text, not one used only as a
    text encoder or to write the training captions."""
    return bool(_GENERATIVE_LLM.search(_TEXT_ENCODER_LLM.sub("", described)))


def names_prompts(described: str) -> bool:
    """Whether ``described`` says the model segments from point or box prompts."""
    return bool(_PROMPTS.search(described))


_LENGTH = re.compile(r"(\d+(?:\.\d+)?)\s*(km|m|cm|deg(?:ree)?s?|°)(?![a-z])", re.IGNORECASE)
_METRES = {"km": 1000.0, "m": 1.0, "cm": 0.01}


def grid_metres(resolution: str) -> float | None:
    """The first length a stated resolution gives, in metres ('10 m'; '0.25 degree grid': about
    27.8 km); None when it gives none."""
    match = _LENGTH.search(resolution)
    if match is None:
        return None
    value, unit = float(match.group(1)), match.group(2).lower()
    return value * _METRES.get(unit, 111_320.0)  # a degree of latitude
