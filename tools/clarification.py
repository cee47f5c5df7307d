"""Clarification tool: targeted questions from missing or ambiguous StructuredQuery fields."""

from __future__ import annotations

import re

from agent.query import StructuredQuery
from agent.systems import ClarificationQuestion
from rsfmd.vocab import typical_modalities

APPLICATION_OPTIONS = [
    "land cover mapping",
    "crop type mapping",
    "flood mapping",
    "building segmentation",
    "change detection",
    "object detection",
    "image captioning",
]
MODALITY_OPTIONS = [
    "Multispectral (e.g. Sentinel-2)",
    "SAR (e.g. Sentinel-1)",
    "RGB / aerial",
    "Hyperspectral",
]
DEVICE_OPTIONS = ["CPU-only laptop", "edge device (e.g. Jetson)", "single GPU", "GPU cluster"]
REGIME_OPTIONS = [
    "no labels (zero-shot)",
    "a few labelled samples",
    "a well-labelled dataset",
    "only unlabelled data",
]


def questions_for(
    query: StructuredQuery, reason: str, asked: set[str], limit: int = 3
) -> list[ClarificationQuestion]:
    """Up to ``limit`` questions, mandatory fields first, never re-asking a field.

    ``reason`` is why the orchestrator clarifies: 'missing', 'too_many' or 'low_confidence'.
    """
    out: list[ClarificationQuestion] = []

    def ask(field: str, text: str, options: list[str]) -> None:
        if field not in asked and len(out) < limit:
            out.append(ClarificationQuestion(field=field, text=text, options=options))

    # Named benchmarks ('the best on EuroSAT', 'on PANGAEA') stand for the task and the imagery.
    if not query.application and not query.task_type and not query.datasets:
        ask("application", "What do you want the model to do (the application)?", APPLICATION_OPTIONS)
    if not query.modality and not query.datasets:
        ask("modality", "What kind of imagery will you feed it?", _modality_options(query))
    if reason == "missing" and out:
        return out
    if not query.sensor and query.modality and not set(query.modality) <= {"Text", "Multi-temporal"}:
        ask("sensor", "Which sensor or platform does your data come from?", _sensor_options(query))
    if query.data_regime is None:
        ask("data_regime", "How much labelled data do you have?", REGIME_OPTIONS)
    compute = query.compute
    if compute.device_class is None and compute.max_parameters_m is None and compute.min_parameters_m is None:
        ask("deployment_device", "Where will the model run?", DEVICE_OPTIONS)
    if reason == "low_confidence" and not query.region:
        ask(
            "region",
            "Which region is your data from?",
            ["Europe", "Africa", "North America", "Asia", "Global"],
        )
    return out


def _modality_options(query: StructuredQuery) -> list[str]:
    """The imagery options, the application's usual inputs first (SAR first for flood mapping)."""
    usual = typical_modalities(query.application) if query.application else []

    def place(option: str) -> int:
        name = option.split()[0]
        return usual.index(name) if name in usual else len(usual)

    return sorted(MODALITY_OPTIONS, key=place)  # stable: the others keep their order


def _sensor_options(query: StructuredQuery) -> list[str]:
    if "SAR" in query.modality:
        return ["Sentinel-1", "Gaofen-3", "TerraSAR-X", "Capella"]
    if "Hyperspectral" in query.modality:
        return ["EnMAP", "PRISMA", "AVIRIS", "Gaofen-5"]
    if "RGB" in query.modality and "Multispectral" not in query.modality:
        return ["Aerial", "Google Earth", "NAIP", "UAV"]
    return ["Sentinel-2", "Landsat-8", "PlanetScope", "WorldView"]


def answer_text(question: ClarificationQuestion, answer: str) -> str:
    """An answer phrased so the interpreter reads it in the context of its question."""
    templates = {
        "application": "The application is {a}.",
        "modality": "My data is {a} imagery.",
        "sensor": "The sensor is {a}.",
        "deployment_device": "It will run on a {a}.",
        "region": "The region is {a}.",
    }
    cleaned = re.sub(r"\s*\(e\.g\.[^)]*\)", "", answer).strip()
    if question.field == "data_regime":
        typed = typed_labels_answer(cleaned)
        if typed is not None:
            return typed
        return (
            f"Labels: {cleaned}."
            if re.search(r"label", cleaned, re.IGNORECASE)
            else f"I have {cleaned} labels."
        )
    return templates.get(question.field, "{a}").format(a=cleaned)


# Answers to 'How much labelled data do you have?' as people type them: '500', '2k', '5%', 'none',
# 'lots', 'a few hundred'.
_NO_LABELS = re.compile(
    r"(?:none|no|zero|0|nothing|not any|no labels?|"
    r"(?:(?:i|we) )?(?:don'?t|do not) have any|(?:i|we) have none)",
    re.IGNORECASE,
)
# '100 fields', 'about 300 polygons': a count of labelled things (not '5 km' or '20 classes').
_NOT_LABELLED_THINGS = frozenset(
    re.findall(
        r"\w+",
        "label labels labelled labeled km m cm mm gb mb tb ms px pixel pixels band bands class classes "
        "epoch epochs year years month months day days gpu gpus percent",
    )
)
_AMOUNT = r"(?:about |around |roughly |~)?\d[\d,.]*\s*k?"  # '2000', 'about 2k', '~1,500'
_COUNT_OF = re.compile(rf"{_AMOUNT}\s+([a-z]+)", re.IGNORECASE)
# 'what if we label 200 fields?', 'if I annotate 500 images', 'suppose we had 2k labels'
_LABELLING = re.compile(
    r"(?:(?:and\s+|but\s+|so\s+)?(?:what\s+if|if|suppose|say)\s+)?(?:we|i)\s+"
    r"(?:(?:could|can|will|would|do|did)\s+)?(?:label|annotate|labell?ed|annotated|had|have|get|got)\s+"
    rf"({_AMOUNT})\s+([a-z]+)\s*\??",
    re.IGNORECASE,
)
_MANY_LABELS = re.compile(r"(?:lots|a lot|many|plenty|tons|loads|thousands|a large amount)", re.IGNORECASE)
_FEW_LABELS = re.compile(
    r"(?:few|a few|some|little|very few|not many|not much|limited|scarce)", re.IGNORECASE
)


def typed_labels_answer(answer: str) -> str | None:
    """A typed answer to the labels question as a sentence the interpreter reads, or None when it
    has none of the usual shapes (a count, a share, none, lots, few)."""
    said = answer.strip().rstrip(".!")
    if _NO_LABELS.fullmatch(said.replace("’", "'")):
        return "I have no labels."
    if re.fullmatch(r"\d[\d,.]*\s*k?", said, re.IGNORECASE):
        return f"I have {said} labelled samples."
    if (count := _COUNT_OF.fullmatch(said)) and count.group(1).lower() not in _NOT_LABELLED_THINGS:
        number = said[: count.start(1)].strip()
        return f"I have {number} labelled {count.group(1)}."
    if labelling := _LABELLING.fullmatch(said):
        # 'what if we label 200 fields?': as many labelled as it says ('2k labels': labelled samples).
        things = labelling.group(2)
        things = "samples" if things.lower() in {"label", "labels"} else things
        if things.lower() not in _NOT_LABELLED_THINGS:
            return f"I have {labelling.group(1).strip()} labelled {things}."
    if re.fullmatch(r"\d+(?:\.\d+)?\s*%", said):
        return f"{said} of the labels are available."
    if _MANY_LABELS.fullmatch(said):
        return "I have plenty of labels."
    if _FEW_LABELS.fullmatch(said):
        return "I have few labels."
    return None
