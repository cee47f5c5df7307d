"""What a question about RS-FMD itself asks, read from its text: the smallest or largest model, the
most modalities or sensors, the oldest, who reports results on a benchmark, the best results there,
or which models take some imagery. Such questions are answered as asked, with no questions back."""

from __future__ import annotations

import re
from typing import Literal

from agent.query import StructuredQuery
from rsfmd.datasets import dataset_identities

# 'Which models take EnMAP?', 'list models released in 2026', 'a model that takes any band set'.
_CATALOGUE_QUESTION = re.compile(
    r"\b(?:which|what|list|show(?:\s+me)?|are\s+there|is\s+there|all|how\s+many)\b[^.?!]{0,60}\b(?:models?|rsfms?)\b|"
    r"\b(?:models?|rsfms?)\s+(?:that|which|trained|released|published|supporting|taking)\b",
    re.IGNORECASE,
)

# Asking for advice ('which model should I use with Sentinel-2?') is a task to clarify, not a
# question about the catalogue.
_ADVICE = re.compile(
    r"\b(?:should|recommend\w*|suggest\w*|advi[cs]e|best|good|right|suitable|help\s+me|need|want)\b",
    re.IGNORECASE,
)


# 'the smallest model that takes Sentinel-1 and Sentinel-2': answered by size, after the ranking.
_SIZE_NOUNS = r"(?:models?|ones?|networks?|backbones?|variants?|encoders?|options?|rsfms?|vlms?|mllms?)"
# 'the largest remote sensing foundation model', 'the largest vision-language model': only such
# words between the size and the model.
_SIZE_FILLER = (
    r"(?:[\s-]+(?:possible|available|open|openly|public|publicly|released|downloadable|pretrained|remote|"
    r"sensing|foundation|earth|observation|eo|rs|"
    r"geospatial|vision|language|multimodal|multi-modal|sar|optical|multispectral|hyperspectral|thermal|"
    r"lidar))*"
)
# After an answer, 'which one is smallest?', 'which of these is the lightest', 'and the largest?'.
_WHICH_IS = r"\bwhich(?:\s+(?:one|model|of\s+(?:these|them|those|the\s+\w+)))?\s+(?:is|are|has)\s+(?:the\s+)?"
# ... or a sentence of its own: 'and the largest?', 'smallest?'
_ONLY_SUPERLATIVE = (
    r"(?:^|(?<=[.?!;]))\s*(?:and\s+|so\s+)?(?:(?:what(?:'s|\s+is|\s+about)|how\s+about)\s+)?(?:the\s+)?"
)
# ... ending the sentence, perhaps with its noun: 'the smallest one?'
_SUPERLATIVE_END = r"(?:\s+(?:one|model|option)s?)?\s*(?:[.?!;]|$)"


_SMALLEST = r"(?:smallest|tiniest|lightest)"
_LARGEST = r"(?:largest|biggest|heaviest)"
_FEWEST, _MOST = r"\b(?:fewest|least)", r"\bmost"  # '... parameters'


def _size_question_pattern(words: str, count: str) -> re.Pattern[str]:
    return re.compile(
        rf"\b{words}{_SIZE_FILLER}\s+{_SIZE_NOUNS}\b|{count}\s+parameters\b"
        rf"|{_WHICH_IS}{words}\b|{_ONLY_SUPERLATIVE}{words}{_SUPERLATIVE_END}",
        re.IGNORECASE,
    )


_SMALLEST_QUESTION = _size_question_pattern(_SMALLEST, _FEWEST)
_LARGEST_QUESTION = _size_question_pattern(_LARGEST, _MOST)
# What ``without_size_question`` takes out: a question of its own ('which one is smallest?') whole,
# and in 'the smallest model that takes Sentinel-1' only the word, so the rest of the task stays.
_SIZE_SENTENCE = re.compile(
    rf"{_WHICH_IS}(?:{_SMALLEST}|{_LARGEST})\b[^.?!;]*[.?!;]?|{_ONLY_SUPERLATIVE}(?:{_SMALLEST}|{_LARGEST})"
    rf"{_SUPERLATIVE_END}",
    re.IGNORECASE,
)
_SIZE_WORD = re.compile(
    rf"\b(?:{_SMALLEST}|{_LARGEST})\b(?={_SIZE_FILLER}\s+{_SIZE_NOUNS}\b)|(?:{_FEWEST}|{_MOST})\b(?=\s+parameters\b)",
    re.IGNORECASE,
)

# 'which model handles the most modalities?', 'the widest range of sensors': a question about the
# catalogue, answered by counting what each model takes.
_BREADTH_QUESTION = re.compile(
    r"\b(?:most|(?:widest|broadest|largest|greatest|highest)\s+(?:range|number|variety|set)\s+of)\s+"
    r"(?:(?:different|distinct|input|data|kinds?\s+of|types?\s+of)\s+)*"
    r"(?:(modalit(?:y|ies)|data\s+(?:types|sources))|(sensors?|satellites?))\b",
    re.IGNORECASE,
)
# 'what is the oldest foundation model?', 'the earliest RSFM': by release date.
_EARLIEST_QUESTION = re.compile(
    rf"\b(?:oldest|earliest)(?:[\s-]+released)?{_SIZE_FILLER}\s+{_SIZE_NOUNS}\b|"
    rf"{_WHICH_IS}(?:oldest|earliest)\b|{_ONLY_SUPERLATIVE}(?:oldest|earliest){_SUPERLATIVE_END}",
    re.IGNORECASE,
)
# 'which models were evaluated on BigEarthNet?', 'what models report results on PASTIS?'
_EVALUATED_QUESTION = re.compile(
    r"\b(?:evaluated|tested|benchmarked|validated|assessed|results?|reports?|reported|scores?)\b",
    re.IGNORECASE,
)
# 'which model has the highest mIoU on Sen1Floods11?', 'the state of the art on SSDD': the best
# results reported on a benchmark named.
_LEADERBOARD_QUESTION = re.compile(
    r"\b(?:highest|best|top|strongest|leading|state[\s-]of[\s-]the[\s-]art|sota|leaderboard)\b", re.IGNORECASE
)
# ... asked as a question about results, not for advice ('which model is best on EuroSAT?').
_RESULT_WORDS = re.compile(
    r"\b(?:scores?|results?|accuracy|performance|leaderboard|sota|state[\s-]of[\s-]the[\s-]art)\b",
    re.IGNORECASE,
)


def without_size_question(text: str) -> str:
    """``text`` without its size questions: a later one ('and the largest?') replaces them."""
    return " ".join(_SIZE_WORD.sub(" ", _SIZE_SENTENCE.sub(" ", text)).split())


# A superlative that is not asked for: refused or outdone ('not the biggest model around', 'rather
# than the biggest one', 'a mid-size model beats the biggest one', 'we don't need the largest model'),
# or said of what the user has ('a small ResNet is about the largest model I can afford').
_NOT_ASKED_BEFORE = re.compile(
    r"(?:\b(?:not|no|never|rather\s+than|instead\s+of|than|beats?|outperforms?)|n't)\s+(?:\w+\s+){0,2}$"
    r"|(?<!\bwhat\s)(?<!\bwhich\s)\b(?:is|are)\s+(?:about\s+|roughly\s+|already\s+|probably\s+)?the\s+$",
    re.IGNORECASE,
)


def _asked(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` finds a size superlative in ``text`` that the user asks for."""
    before = (text[max(0, m.start() - 40) : m.start()] for m in pattern.finditer(text))
    return any(not _NOT_ASKED_BEFORE.search(lead) for lead in before)


def size_question(text: str) -> Literal["smallest", "largest"] | None:
    """Which end of the size range the task asks for ('the smallest model that ...'), if any."""
    if _asked(_SMALLEST_QUESTION, text):
        return "smallest"
    if _asked(_LARGEST_QUESTION, text):
        return "largest"
    return None


def catalogue_superlative(text: str) -> Literal["modalities", "sensors", "earliest"] | None:
    """What a question about the catalogue's extremes counts ('the most modalities', 'the most
    sensors', 'the oldest model'), if it is one."""
    if match := _BREADTH_QUESTION.search(text):
        return "modalities" if match.group(1) else "sensors"
    if _EARLIEST_QUESTION.search(text):
        return "earliest"
    return None


def asks_leaderboard(text: str, query: StructuredQuery) -> bool:
    """Whether the task asks for the best results reported on the one benchmark it names (the
    results of a suite's several datasets are not comparable with each other)."""
    return len(dataset_identities(query.datasets)) == 1 and bool(_LEADERBOARD_QUESTION.search(text))


def about_results(text: str, query: StructuredQuery) -> bool:
    """Whether the task asks about results ('the highest mIoU', 'the best scores'), not for advice."""
    return bool(_RESULT_WORDS.search(text) or query.priority_metrics)


def asks_who_reports(text: str, query: StructuredQuery) -> bool:
    """Whether the task asks which models report results on the benchmarks it names ('which models
    were evaluated on BigEarthNet?')."""
    return bool(
        query.datasets
        and _CATALOGUE_QUESTION.search(text)
        and _EVALUATED_QUESTION.search(text)
        and not _ADVICE.search(text)
    )


def asks_which_models(text: str, query: StructuredQuery) -> bool:
    """Whether the text asks which models of the catalogue have what it names ('which models take
    EnMAP?'), with something to search on and no task."""
    return bool(
        not (query.application or query.task_type)
        and _catalogue_terms(query)
        and _CATALOGUE_QUESTION.search(text)
    )


def asks_the_catalogue(text: str, query: StructuredQuery) -> bool:
    """Whether the task is a question about RS-FMD itself ('which models take EnMAP?', 'the
    smallest model that takes Sentinel-1', 'which models were evaluated on BigEarthNet?'), with
    something to answer it on: no questions back."""
    if asks_who_reports(text, query) or (asks_leaderboard(text, query) and about_results(text, query)):
        return True
    terms = _catalogue_terms(query)
    if size_question(text) or catalogue_superlative(text):
        # 'the largest remote sensing foundation model?': with no task either, a size question
        # about the whole catalogue.
        return terms or not (query.application or query.task_type)
    if not terms:
        return False
    return bool(_CATALOGUE_QUESTION.search(text)) and not _ADVICE.search(text)


def _catalogue_terms(query: StructuredQuery) -> bool:
    """Whether the task names something RS-FMD can be searched on without a task: imagery, a sensor,
    release years, a need for any band set, or a licence ('list all models with an Apache-2.0
    licence')."""
    return bool(
        query.modality
        or query.licenses
        or query.open_weights
        or query.sensor
        or query.min_release_year
        or query.max_release_year
        or query.any_bands
        or query.pretrained_on
        or query.pretext
        or query.backbones
    )
