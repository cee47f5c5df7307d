"""Offline interpreter: free text to StructuredQuery by vocabulary and rules.

Sensors imply modalities; numbers become parameter limits and performance floors; devices become
compute budgets. Applications the rules do not name are matched by sentence-embedding similarity
when an encoder is given. The LLM interpreter (agent/llm_steps.py) fills the same model and lets
these rules fill what it missed.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

import numpy as np
from wordfreq import zipf_frequency

from agent.mentions import LIST_GAP, NOT, PRETRAINED_ON
from agent.query import EITHER_MODALITIES, ComputeBudget, Exclusions, MinPerformance, StructuredQuery
from agent.wording import query_language, read_slips
from rsfmd.backbones import NAMEABLE_FAMILIES, get_backbone_table, spelling_pattern
from rsfmd.datasets import find_dataset, get_dataset_table, get_suite_table, suite_datasets
from rsfmd.licenses import LICENSE_FAMILIES, license_family
from rsfmd.pretext import pretext_methods
from rsfmd.regions import region_ancestors
from rsfmd.vocab import (
    get_vocabulary,
    list_vocabularies,
    metric_info,
    sensor_modality,
    term_key,
    typical_modalities,
)

Encode = Callable[[Sequence[str]], np.ndarray]
"""Encodes texts to L2-normalised row vectors."""

# Synonyms too short or too common to match safely inside free text (with those of _CASED_FORMS,
# which match only in their written case).
_UNSAFE_WORDS = frozenset(
    {
        "u.s.",
        "ms",
        "cd",
        "tm",
        "pan",
        "ap",
        "map",
        "sea",
        "city",
        "iou",
        "acc",
        "mr",
        "mae",
        "epoch",
        "dove",
        "edge",
        "temporal",
        "height",
        "mapping",
        "estimation",
        "grounding",
        "terrain",
        "language",
        "text",
        "location",
        "radar",
        "sound",
        "audio",
    }
)
# The written forms in which an unsafe synonym is still safe: an acronym in capitals ('EMIT',
# 'US'), a company or country with its capital ('Planet', 'Turkey'). Matched case-sensitively.
_CASED_FORMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("regions", "us"): ("US", "U.S."),
    ("regions", "turkey"): ("Turkey",),
    ("regions", "chad"): ("Chad",),
    ("regions", "jordan"): ("Jordan",),
    ("regions", "guinea"): ("Guinea",),
    ("regions", "niger"): ("Niger",),
    ("regions", "mali"): ("Mali",),
    ("regions", "togo"): ("Togo",),
    ("regions", "lima"): ("Lima",),
    ("regions", "wellington"): ("Wellington",),
    ("sensors", "planet"): ("Planet",),
    ("sensors", "emit"): ("EMIT",),
    ("sensors", "spot"): ("SPOT",),
    ("sensors", "oli"): ("OLI",),
    ("sensors", "abi"): ("ABI",),
    ("sensors", "ahi"): ("AHI",),
    ("sensors", "msi"): ("MSI",),
    ("sensors", "als"): ("ALS",),
    ("modalities", "msi"): ("MSI",),
    ("modalities", "als"): ("ALS",),
    ("modalities", "dem"): ("DEM",),
}
_UNSAFE_IN_TEXT = _UNSAFE_WORDS | {synonym for _, synonym in _CASED_FORMS}
_SEP = r"[\s\-_./]*"


@dataclass
class Interpretation:
    """The parsed query and what the interpreter noticed on the way (shown as assumptions)."""

    query: StructuredQuery
    notes: list[str] = field(default_factory=list)
    language: str | None = None  # set when the text reads as another language than English


def _phrase_pattern(phrase: str, *, plural: bool = False) -> str:
    """A pattern for ``phrase`` in any spacing; with ``plural``, its last word may take an 's'
    ('calving fronts' for 'calving front')."""
    parts = [re.escape(p) for p in re.split(r"[\s\-_./]+", phrase.lower()) if p]
    last = parts[-1]
    ending = "(?:e?s)?" if plural and len(last) > 2 and last.isalpha() and not last.endswith("s") else ""
    # A term followed by '.<digit>' is part of a version ('Prithvi-EO-1.0' does not name EO-1).
    return r"(?<![a-z0-9])" + _SEP.join(parts) + ending + r"(?![a-z0-9]|\.\d)"


# An application named by its verb: 'map floods' is flood mapping, 'detect ships' ship detection.
_VERB_FORMS = {
    "mapping": "map|maps|mapping|mapped",
    "detection": "detect|detects|detecting|detected|locate|locates|locating|find|finds|finding|spot|spotting",
    "segmentation": "segment|segments|segmenting|segmented",
    "classification": "classify|classifies|classifying|classified",
    "estimation": "estimate|estimates|estimating|estimated",
    "extraction": "extract|extracts|extracting|extracted",
    "monitoring": "monitor|monitors|monitoring|monitored",
    "counting": "count|counts|counting|counted",
}


def fold_accents(text: str) -> str:
    """``text`` without accents ('São Paulo' -> 'Sao Paulo', 'İstanbul' -> 'Istanbul'), of the same
    length; unchanged when dropping them would change its length."""
    folded = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return folded if len(folded) == len(text) else text


def _probe(phrase: str) -> str:
    """A piece of ``phrase`` any match must contain (its longest word): patterns whose probe is not
    in the text are skipped without running them."""
    return max(re.split(r"[\s\-_./]+", phrase), key=len)


def _verb_pattern(phrase: str) -> str | None:
    """'flood mapping' -> a pattern for 'map floods', 'mapping the flood'; None for other phrases."""
    *head, noun = phrase.split()
    if not head or noun not in _VERB_FORMS:
        return None
    obj = _SEP.join(re.escape(p) for p in re.split(r"[\s\-_./]+", " ".join(head)) if p)
    return rf"(?<![a-z0-9])(?:{_VERB_FORMS[noun]})\s+(?:the\s+|all\s+|any\s+)?{obj}(?:s|es)?(?![a-z0-9])"


class _Term(NamedTuple):
    """A term: its pattern's source, what it reads as, its length (longest first), a probe word any
    match contains, and whether the pattern runs on the lower-cased text or on the text as written.

    The pattern is compiled the first time a text contains its probe (see ``_regex``): most of the
    several thousand vocabulary patterns are never needed by a session, and compiling them all
    up front was most of the first request's time.
    """

    pattern: str
    canonical: str
    length: int
    probe: str
    on_lowered: bool


def _phrase_term(phrase: str, canonical: str, *, plural: bool = False) -> _Term:
    """A term matching ``phrase`` in any case and spacing, on the lower-cased text."""
    return _Term(_phrase_pattern(phrase, plural=plural), canonical, len(phrase), _probe(phrase.lower()), True)


@cache
def _matcher(vocabulary: str) -> list[_Term]:
    """A term for every synonym, longest first.

    Patterns are in lower case and run on the lower-cased text, except those of the written forms
    in ``_CASED_FORMS``, which run on the text as written.
    """
    vocab = get_vocabulary(vocabulary)
    out: list[_Term] = []
    for canonical in vocab.names:
        # In table order, so that equally long terms keep one order whatever the hash seed.
        for synonym in dict.fromkeys(
            form for s in vocab.terms(canonical) for form in (s.lower(), fold_accents(s.lower()))
        ):
            for form in _CASED_FORMS.get((vocabulary, synonym), ()):
                # A capitalised word opening a sentence may be the plain word ('Planet-wide').
                opening = form.istitle() and vocabulary == "sensors"
                before = r"(?:(?<=[^.!?\s]\s)|(?<=[(/'\"]))" if opening else r"(?<![A-Za-z0-9])"
                pattern = before + re.escape(form) + r"(?![A-Za-z0-9]|\.\d)"
                out.append(_Term(pattern, canonical, len(form), form.lower(), False))
            if synonym in _UNSAFE_IN_TEXT or len(synonym) < 2:
                continue
            # Tasks are often written in the plural ('mapping calving fronts').
            out.append(_phrase_term(synonym, canonical, plural=vocabulary == "applications"))
            if vocabulary == "applications" and (verb := _verb_pattern(synonym)):
                # The object keeps its longest word unless that word was the noun ('mapping').
                head = synonym.rsplit(" ", 1)[0]
                out.append(_Term(verb, canonical, len(synonym), _probe(head), True))
    out.sort(key=lambda item: -item.length)
    return out


_WORD = re.compile(r"[a-z0-9]+")


@cache
def _suite_matcher() -> list[_Term]:
    """Patterns for benchmark suite names ('PANGAEA', 'GEO-Bench-2'), longest first, any case."""
    table = get_suite_table()
    out = [
        _phrase_term(name, canonical)
        for canonical in table.names
        for name in dict.fromkeys(table.terms(canonical))
    ]
    return sorted(out, key=lambda term: -term.length)


@cache
def _dataset_matcher(corpora: bool = False) -> list[_Term]:
    """Patterns for benchmark dataset names (with ``corpora``, pretraining corpora too), longest first.

    A name that is short or made of everyday words ('AID', 'FLAIR', 'BEN') must be written as the table
    writes it; other names match in any case ('eurosat', 'BigEarthNet-S2').
    """
    table = get_dataset_table()
    apps = get_vocabulary("applications")
    # Application terms as words, and in the singular: (as written, singular).
    app_terms = [
        (key, _singular(key))
        for c in apps.names
        for t in apps.terms(c)
        if (key := " ".join(_WORD.findall(t.lower())))
    ]
    # All of them in one text, to rule out most names with one search (lines never join words).
    all_singular = "\n".join(singular for _, singular in app_terms)
    out: list[_Term] = []
    for canonical in table.names:
        if not corpora and not table.column(canonical, "task_type"):
            continue  # a pretraining corpus (SeCo, SSL4EO-S12) is no benchmark; its name is the model's
        for name in dict.fromkeys([canonical, *table.terms(canonical)[1:]]):
            words = _WORD.findall(name.lower())
            if not words:
                continue
            plain = len(name) <= 4 or all(zipf_frequency(w, "en") >= _DATASET_WORD_ZIPF for w in words)
            if plain:
                # 'brick kiln' (m-brick-kiln) inside 'brick kiln detection' names the task, not the dataset.
                key = " ".join(words)
                inside = re.compile(rf"(?<![a-z0-9]){re.escape(_singular(key))}(?![a-z0-9])")
                if inside.search(all_singular) and any(
                    t != key and inside.search(singular) for t, singular in app_terms
                ):
                    continue
                # Exactly as written: 'burn_scars' is the dataset, 'burn scars' the task.
                pattern = r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])"
                out.append(_Term(pattern, canonical, len(name), _probe(name.lower()), False))
            else:
                out.append(_phrase_term(name, canonical))
    out.sort(key=lambda item: -item.length)
    return out


def _pretraining_spans(plain: str) -> list[tuple[str, int, int]]:
    """Datasets named as pretraining data: 'pretrained on SSL4EO-S12', 'trained on MillionAID or
    fMoW'."""
    out: list[tuple[str, int, int]] = []
    if not re.search(r"train|learn", plain, re.IGNORECASE):
        return out  # (the scan of every dataset name is the costly part)
    explicit = False
    for name, start, end in _scan(plain, _dataset_matcher(corpora=True)):
        before = plain[max(0, start - 80) : start]
        listed = bool(out) and LIST_GAP.match(plain[out[-1][2] : start])
        if not listed:
            if not PRETRAINED_ON.search(before):
                continue
            explicit = bool(re.search(r"\bpre-?train", before[-40:], re.IGNORECASE))
        # 'a model trained on EuroSAT' is one fine-tuned there, a benchmark; 'trained on SeCo' (a
        # corpus) or 'pretrained on MillionAID' is pretraining data.
        info = find_dataset(name)
        if explicit or info is None or not info.task_type:
            out.append((name, start, end))
    return out


def _singular(phrase: str) -> str:
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in phrase.split())


_DATASET_WORD_ZIPF = 3.0  # 'aid' 4.6, 'flair' 3.3: everyday words; 'eurosat', 'pastis' are not


def find_datasets(text: str) -> list[str]:
    """Benchmark datasets named in ``text`` (as written, not lowered), in order, longest match first."""
    return list(dict.fromkeys(name for name, _, _ in _scan(text, _dataset_matcher())))


def _overlaps(start: int, end: int, ranges: Sequence[tuple[int, int]]) -> bool:
    """Whether the span ``start:end`` overlaps any of ``ranges``."""
    return any(start < e and s < end for s, e in ranges)


@cache
def _regex(source: str) -> re.Pattern[str]:
    """``source`` compiled, once per process (``re``'s own cache holds too few for the vocabularies)."""
    return re.compile(source)


def compile_patterns() -> int:
    """Compiles every vocabulary, benchmark-dataset and suite pattern now, and says how many: a
    long-running app does so while it starts, so that no request pays for a first use."""
    matchers = [_matcher(name) for name in list_vocabularies()]
    matchers += [_dataset_matcher(), _dataset_matcher(corpora=True), _suite_matcher()]
    sources = {term.pattern for terms in matchers for term in terms}
    for source in sources:
        _regex(source)
    return len(sources)


def _scan(text: str, patterns: Sequence[_Term]) -> list[tuple[str, int, int]]:
    """(canonical, start, end) of every match in ``text``, in order; patterns come longest first
    and a match overlapping an earlier one is dropped. A pattern whose probe is not in the text is
    not run."""
    taken: list[tuple[int, int]] = []
    found: list[tuple[str, int, int]] = []
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer: spans must agree
        text = lowered
    for pattern, canonical, _, probe, on_lowered in patterns:
        if probe not in lowered:
            continue
        for match in _regex(pattern).finditer(lowered if on_lowered else text):
            start, end = match.span()
            if _overlaps(start, end, taken):
                continue
            taken.append((start, end))
            found.append((canonical, start, end))
    found.sort(key=lambda item: item[1])
    return found


@cache
def _fuzzy_phrases(vocabulary: str) -> list[tuple[str, str, int]]:
    """(phrase as space-joined words, canonical, word count) for phrases long enough to match fuzzily."""
    vocab = get_vocabulary(vocabulary)
    out: list[tuple[str, str, int]] = []
    for canonical in vocab.names:
        for synonym in set(vocab.terms(canonical)):
            words = _WORD.findall(synonym.lower())
            key = " ".join(words)
            if synonym.strip().lower() in _UNSAFE_IN_TEXT or len(key.replace(" ", "")) < 8:
                continue
            out.append((key, canonical, len(words)))
    return out


_COMMON_ENGLISH_ZIPF = 2.0  # 'deformation' 3.2; slips such as 'sentinal' 1.2, 'mappin' 1.6, 'flod' 0


def find_terms_fuzzy(text: str, vocabulary: str, cutoff: float = 0.9) -> list[tuple[str, str]]:
    """Vocabulary terms written with a slip ('flod mapping', 'sentinal-1'): (canonical, text as written).

    A window of as many words as the phrase must be at least ``cutoff`` similar to it; short
    phrases never match, so ordinary words are not taken for terms.
    """
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]
    starts: dict[str, list[int]] = {}
    for i, (word, _, _) in enumerate(words):
        # A slip keeps the first two letters, or swaps a pair among the first three ('lnad').
        for start in dict.fromkeys((word[:2], word[1::-1], word[0] + word[2:3])):
            starts.setdefault(start, []).append(i)
    best: dict[str, tuple[float, str]] = {}
    for key, canonical, n in _fuzzy_phrases(vocabulary):
        for i in starts.get(key[:2], ()):  # a slip keeps the first two letters (see _same_shape)
            if i + n > len(words):
                continue
            window = " ".join(w for w, _, _ in words[i : i + n])
            if window == key or abs(len(window) - len(key)) > 2 or not _same_shape(window, key):
                continue
            matcher = difflib.SequenceMatcher(None, window, key)
            if matcher.quick_ratio() < cutoff or (ratio := matcher.ratio()) < cutoff:
                continue
            if ratio > best.get(canonical, (0.0, ""))[0]:
                best[canonical] = (ratio, text[words[i][1] : words[i + n - 1][2]])
    return [(c, written) for c, (_, written) in sorted(best.items(), key=lambda kv: -kv[1][0])]


def _swapped(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with two neighbouring letters swapped ('tpye' for 'type')."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _same_shape(window: str, phrase: str) -> bool:
    """Same numbers (Sentinel-1 is not Sentinel-2), each word starting with the same two letters,
    and at least one differing word that English does not commonly use: 'deformation monitoring'
    is a task of its own, not a slip for 'deforestation monitoring'."""
    if re.findall(r"\d+", window) != re.findall(r"\d+", phrase):
        return False
    pairs = list(zip(window.split(), phrase.split(), strict=False))
    if not all(a[:2] == b[:2] or _swapped(a, b) for a, b in pairs):
        return False
    return any(a != b and zipf_frequency(a, "en") < _COMMON_ENGLISH_ZIPF for a, b in pairs)


@cache
def _closest_for(application: str) -> tuple[frozenset[str], tuple[re.Pattern[str], ...]]:
    """The application's closest_for terms (as keys), and their verb forms ('detect wildfires')."""
    terms = [t.strip() for t in get_vocabulary("applications").column(application, "closest_for").split("|")]
    verbs = (re.compile(v) for t in terms if t and (v := _verb_pattern(t.lower())))
    return frozenset(term_key(t) for t in terms if t), tuple(verbs)


def _is_closest_for(application: str | None, written: str) -> bool:
    """True when ``written`` names a task the vocabulary reads as ``application`` for want of its own."""
    if application is None:
        return False
    keys, verbs = _closest_for(application)
    return term_key(written) in keys or any(v.fullmatch(written.lower()) for v in verbs)


def find_terms(text: str, vocabulary: str) -> list[tuple[str, int, int]]:
    """Canonical terms of a vocabulary found in ``text``, longest match first, no overlaps."""
    return _scan(text, _matcher(vocabulary))


# '(visual grounding)', 'i.e. visual grounding', 'known as change detection': the task's name.
_NAMING = re.compile(r"(?:\(|\bi\.?e\.?,?|\bnamely|\bcalled|\bknown as|\bso-called)\s*$")

_CLASSIFY_WHOLE = re.compile(
    r"\bclassify(?:ing)?\b[^.]{0,40}?\b(?:patch(?:es)?|scenes?|images?|tiles?|chips?|photos?)\b"
)
# 'few lables', 'labled data': the commonest slips of 'label'.
_LABEL_SLIP_WORDS = {
    "lable": "label",
    "lables": "labels",
    "labled": "labeled",
    "lablled": "labelled",
    "lablel": "label",
    "lablels": "labels",
}
_LABEL_SLIP = re.compile(rf"\b(?:{'|'.join(_LABEL_SLIP_WORDS)})\b", re.IGNORECASE)
_SHORT_TASK_WORDS = {
    "det": "detection",
    "seg": "segmentation",
    "segm": "segmentation",
    "clf": "classification",
    "cls": "classification",
    "classif": "classification",
    "obj": "object",
}
_TASK_SHORTHAND = re.compile(rf"(?<![\w'-])(?:{'|'.join(_SHORT_TASK_WORDS)})(?![\w'-])", re.IGNORECASE)


def _mend_words(written: str, pattern: re.Pattern[str], words: dict[str, str], notes: list[str]) -> str:
    """``written`` with each word ``pattern`` finds put as ``words`` has it, saying so in ``notes``."""
    for found in dict.fromkeys(m.group(0) for m in pattern.finditer(written)):
        notes.append(f"read '{found}' as {words[found.lower()]}")
    return pattern.sub(lambda m: words[m.group(0).lower()], written)


_NUMBER_VALUES = {"a": "1", "one": "1", "half a": "0.5", "two": "2", "three": "3", "five": "5", "ten": "10"}
_NUMBER_WORDS = re.compile(r"\b(half a|a|one|two|three|five|ten)\s+(?=(?:billion|million)\b)", re.IGNORECASE)
_SENTINEL_SLIP = re.compile(r"\bsent(?!inel)[ei]n[ae]l[\s-]*([1-6])(?!\d)", re.IGNORECASE)


def _expand_sensor_shorthand(text: str) -> str:
    """'S1/S2' -> 'sentinel-1 and sentinel-2' (any case in, the expansions in lower case)."""
    i = re.IGNORECASE
    text = re.sub(
        r"sentinel[\s-]*([1-5])\s*(?:and|&|/|,|\+)\s*(?:sentinel)?[\s-]*([1-5])\b",
        r"sentinel-\1 and sentinel-\2",
        text,
        flags=i,
    )
    text = re.sub(r"\bs([12])\s*(?:and|&|/|\+)\s*s?([12])\b", r"sentinel-\1 and sentinel-\2", text, flags=i)
    text = re.sub(
        r"landsat[\s-]*([4-9])\s*(?:and|&|/|,)\s*-?\s*([4-9])\b",
        r"landsat-\1 and landsat-\2",
        text,
        flags=i,
    )
    return re.sub(r"\bs1\b", "sentinel-1", re.sub(r"\bs2\b", "sentinel-2", text, flags=i), flags=i)


# 'without retraining' with two sensors or more: one model across them, not use without labels.
_WITHOUT_RETRAINING = re.compile(
    r"without (?:any )?re-?training|no re-?training|without training (?:it )?again"
)

_REGIMES: tuple[tuple[str, str], ...] = (
    (
        "zero-shot",
        r"zero[\s-]?shot|out[\s-]of[\s-]the[\s-]box|no (?:labell?ed |training |annotated )?(?:training )?"
        r"(?:data|labels|samples|examples|annotations)|without (?:any )?(?:labels|labell?ed|training data|"
        r"annotations|fine[\s-]?tuning|training)|"
        # 'I don't have labelled data', 'we have no labels' (but 'not many labels' is few)
        r"(?:don'?t|do not|doesn'?t|does not|haven'?t|have not|never) (?:have |got )?(?:any )?"
        r"(?:labell?ed|annotated|training data|labels|annotations|ground truth)|"
        r"have no (?:labell?ed |annotated )?(?:data|labels|annotations|ground truth)|"
        r"no fine[\s-]?tuning|"
        r"without retraining|directly (?:use|apply)|use (?:pre-?trained models? )?directly",
    ),
    (
        "few-shot",
        r"few[\s-]?shot|(?:a )?few (?:labell?ed|annotated)|few labels|small (?:set|number|amount) of "
        r"(?:labell?ed|annotated|labels)|handful of|limited (?:labels|labell?ed|annotations)|scarce labels|"
        r"label[\s-]scarce|low[\s-]data|sparse labels|"
        # 'labels are scarce', 'not many labels', "we don't have much labelled data"
        r"\b(?:labels|annotations|labell?ed data|training data) (?:are |is )?(?:scarce|limited|sparse|rare)|"
        r"\bnot (?:many|much|a lot of|enough) (?:labell?ed |annotated )?(?:labels|data|samples|annotations)|"
        r"(?:don'?t|do not|haven'?t) (?:have |got )?(?:many|much|a lot of|enough) "
        r"(?:labell?ed|annotated|labels|training)|"
        r"(?:fewer|less|little) (?:labels|labell?ed|annotat|training (?:data|samples))|"
        r"\black(?:ing|s)? (?:of )?(?:labels|labell?ed|annotat)|"
        # 'a few hundred labels', 'several dozen annotated images'
        r"\b(?:few|couple of|several) (?:hundred|dozen) (?:labell?ed |annotated )?"
        r"(?:labels|samples|images|examples|polygons|points|tiles|patches|annotations|fields)\b|"
        r"small labell?ed (?:data|set|training)|"
        # '1% labels', '10 % of the training data': a label fraction up to 10%.
        r"(?<![\d.])(?:10|[1-9](?:\.\d+)?|0?\.\d+)\s*%\s*(?:of\s+(?:the\s+)?)?(?:labels|labell?ed|training|annotat)",
    ),
    (
        "full-labels",
        r"well[\s-]labell?ed|fully labell?ed|large labell?ed|lots of labels|plenty of label|enough label|"
        r"sufficient label|abundant label|many labell?ed|fully fine[\s-]?tune|full fine[\s-]?tuning|"
        r"large annotated|thousands of labell?ed|train from scratch|"
        # 'with a labelled dataset', 'we have labelled training data'
        # ('a labelled dataset of 200 images' is read by its count)
        r"\b(?:a|our|my) labell?ed (?:dataset|data set|training set)(?!\s+of\s+(?:about\s+)?\d)|"
        r"(?:we|i) have (?:labell?ed|annotated) "
        r"(?:training )?(?:data|dataset|images)|labell?ed (?:training )?data(?:set)? (?:is |are )?available|"
        # 'one GPU, labelled data': labels named without a number or a lack of them
        r"(?:^|[,;]\s*|\b(?:with|and|have|got)\s+)labell?ed (?:training )?data\b(?!\s*(?:of|for)\b)",
    ),
    ("unlabeled", r"unlabell?ed|self[\s-]supervised|unsupervised|no annotations"),
)
# Data-centre and workstation GPUs named by model ('one A100', 'a T4').
_GPU_MODELS = r"a100|h100|h200|v100|a6000|a40|l40s?|t4"
_DEVICES: tuple[tuple[str, str], ...] = (
    (
        "edge",
        r"jetson|edge device|edge deploy|on[\s-]?board|raspberry|mobile|embedded|microcontroller|fpga|"
        r"smartphone|(?<![\w-])edge(?![\w-])|low[\s-]power|satellite hardware|cubesat|"
        r"in (?:the|a) (?:web )?browser|webgpu|client[\s-]side",
    ),
    (
        "cpu",
        # 'a laptop', but not 'a laptop GPU' or 'a laptop with an RTX 4060'.
        r"cpu[\s-]only|no gpu|without (?:a |any )?gpu|"
        r"laptop(?!\s+(?:gpu|rtx|graphics)|"
        r"\s+with\s+(?:a\s+|an\s+)?(?:\w+\s+){0,2}(?:gpu|rtx|geforce|graphics card))|"
        r"\bcpus?\b|no graphics card|macbook|apple silicon|mac mini|"
        # 'an office PC', 'a normal computer': no GPU to count on
        r"\boffice (?:pc|computer|desktop|machine)s?\b|"
        r"\b(?:normal|regular|ordinary|standard|basic|plain) (?:office )?(?:pc|computer|desktop)s?\b",
    ),
    (
        "multi-gpu",
        # 'a cluster', 'GPU cluster'; not 'to cluster land use' or 'clustering'.
        r"(?:gpu|compute|computing|hpc|slurm|university|our|a|the|large)\s+cluster\b|cluster of gpus|"
        r"multiple gpus|multi[\s-]gpu|cloud gpus|gpu cloud|a100s|h100s|\bhpc\b|supercomputer|"
        r"many gpus|can afford large|large compute|high[\s-]end compute|plenty of compute|"
        # 'two RTX 4090s', '4 GPUs', 'eight A100s'
        r"\b(?:two|three|four|six|eight|several|[2-9]|\d{2})\s+(?:[\w-]+\s+){0,2}"
        r"(?:gpus|(?:rtx\s?)?\d{4}s|[avh]100s|a6000s|l40s)\b",
    ),
    (
        "single-gpu",
        r"single gpu|one gpu|a gpu|\b1\s?x?\s?gpu\b|laptop gpu|desktop|workstation|rtx|consumer gpu|\bgpu\b|"
        r"\d+\s?gb (?:of )?(?:gpu|vram)|moderate (?:compute|resources)|"
        rf"\b(?:{_GPU_MODELS}|gtx|colab)\b",
    ),
)
_PRIORITIES: tuple[tuple[str, str], ...] = (
    (
        "accuracy",
        r"highest (?:overall )?accuracy|most accurate|best (?:possible )?(?:accuracy|performance)|"
        r"accuracy (?:is|are) (?:most |very )?important|maximi[sz]e accuracy|state[\s-]of[\s-]the[\s-]art|"
        r"most powerful|accuracy and spatial detail|top performance|accuracy-focused|more accurate|"
        r"(?:higher|better) accuracy|(?:bigger|larger) (?:models?|ones|backbones?|variants?)",
    ),
    (
        "speed",
        r"\bfast(?:er|est)?\b|real[\s-]time|low[\s-]latency|quick|speed|throughput|near real|"
        r"\b(?:under|below|within|less than|<)\s*\d+\s?(?:ms|milliseconds?)\b|\bfps\b|frames per second",
    ),
    (
        "efficiency",
        r"efficien|small model|compact|lightweight|light[\s-]weight|limited compute|limited resources|"
        r"cheap|small enough|low memory|\blighter\b|"
        # 'a model that uses less memory', 'low inference cost', 'what about cost?'
        r"(?:less|little|least|lower|minimal) (?:gpu |vram )?memory|memory[\s-](?:efficient|friendly)|"
        r"(?:low|lower|minimal|reduced) (?:inference |compute |computational |running )?costs?|"
        r"(?:what|how) about (?:the )?(?:compute |computational |running )?costs?\b|"
        r"(?:smaller|tinier) (?:models?|ones|networks?|backbones?|variants?)|something (?:smaller|tinier)|"
        # 'the smallest model that ...', not 'the smallest objects'.
        r"(?:smallest|tiniest|lightest)(?: possible)? "
        r"(?:models?|ones?|networks?|backbones?|variants?|encoders?|options?|footprint)|"
        r"(?:fewest|least) parameters",
    ),
    (
        "precision",
        r"minimal false|few false|false detections|clean (?:and accurate )?outputs|clear boundaries|"
        r"precise|precision|sharp edges|reliable predictions",
    ),
    (
        "recall",
        r"all target|capture (?:all|every)|completeness|miss nothing|\brecall\b|false alarms|don'?t miss",
    ),
    (
        "generalization",
        r"generali[sz]|different regions|domain shift|domain adaptation|be adapted|robust|"
        # 'trained on the largest dataset': the breadth of its pretraining data.
        r"(?:largest|biggest|most diverse|broadest) (?:pre-?training )?(?:data(?:set)?|corpus)|"
        r"trained on the most (?:data|images)",
    ),
    ("recency", r"most recent|\blatest\b|\bnewest\b|recently released|up[\s-]to[\s-]date|newer models?\b"),
    (
        "adoption",
        r"\b(?:most|widely|commonly|more)\s+(?:popular|used|adopted|cited|established)\b|\bpopular\b|"
        r"well[\s-](?:established|known|tested|adopted)|battle[\s-]tested|tried and tested|\bde facto\b|"
        r"(?:standard|go-to|mainstream)\s+(?:choice|model|baseline)",
    ),
)
_EXCLUDE = re.compile(
    # ('why not Sentinel-2?' asks about it; it does not rule it out)
    rf"(?:\bno\b|\bwithout\b|{NOT}\b|\bexclude\b|\bexcluding\b|\bexcept\b|\bavoid\b|"
    r"don'?t have|do not have|other than|rather than|instead of)\s+((?:any\s+)?[a-z0-9][a-z0-9\s\-+/]{0,24})"
)
# A size: '100M parameters', '1.5 billion params' (number, unit when written, the word).
_SIZE_NUMBER = r"(\d+(?:\.\d+)?)\s*(k|m|million|b|billion)?"
_PARAM_WORD = r"(?:param|parameters|params)"
_PARAMS = re.compile(
    r"(?:under|below|less than|fewer than|at most|max(?:imum)?|<=?|up to|no more than|smaller than|within)\s*"
    rf"{_SIZE_NUMBER}\s*{_PARAM_WORD}"
)
_PARAMS_UNIT_FIRST = re.compile(
    r"(?:under|below|less than|at most|<=?|up to)\s*(\d+(?:\.\d+)?)\s*(m|b)\b(?!\s*(?:gsd|res))"
)
# '20 million parameters at most', '50M params max', '100M parameters or less'.
_PARAMS_BOUND_AFTER = re.compile(
    rf"\b{_SIZE_NUMBER}\s*{_PARAM_WORD}\s*(?:at most|max(?:imum)?\b|or (?:less|fewer|smaller|below)|tops\b)"
)
# 'over 1B parameters', 'at least 300M params', 'billion-parameter models', '1B+ models'.
_PARAMS_FLOOR = re.compile(
    r"(?:(?<!no )(?<!not )(?:over|above|more than|larger than|bigger than|greater than|exceeding)|at least|"
    r"no (?:fewer|less|smaller) than|min(?:imum)?(?: of)?|>=?)\s*"
    rf"{_SIZE_NUMBER}\+?[\s-]*{_PARAM_WORD}\b"
)
_PARAMS_FLOOR_PLUS = re.compile(rf"\b(\d+(?:\.\d+)?)\s*(m|b)\+[\s-]*(?:{_PARAM_WORD}|models?)\b")
_PARAMS_BILLION_SCALE = re.compile(r"\bbillion[\s-](?:param|parameters?|params|scale)\b")
_PARAMS_BETWEEN = re.compile(rf"between\s*{_SIZE_NUMBER}\s*(?:and|to|-)\s*{_SIZE_NUMBER}\s*{_PARAM_WORD}\b")
_FLOOR = re.compile(
    r"(?:at least|minimum(?: of)?|min\.?|above|over|more than|>=?|no less than|exceed(?:ing|s)?|higher than|"
    r"better than|reach(?:es|ing)?|achiev(?:e|es|ing))\s*(?:an?\s+|the\s+)?"
    r"(?:([a-z][a-z0-9@\- ]{1,24}?)\s+(?:of\s+)?)?"
    r"(\d+(?:\.\d+)?)\s*(%|percent)?"
    r"(?:\s*(?:in\s+|on\s+)?([a-z][a-z0-9@\-]{0,20}(?:\s[a-z]+)?))?"
)
# A metric right before a comparator: 'mIoU above', 'F1 score of at least', 'accuracy is >'.
_METRIC_LEAD = re.compile(
    r"([a-z][a-z0-9@\-]*(?:\s+[a-z0-9@\-]+)?)\s+(?:(?:of|is|score|must\s+be|should\s+be)\s+)*$"
)
_GSD = re.compile(
    r"(\d+(?:\.\d+)?)[\s-]*(cm|m|meters?|metres?)\b(?!\s*(?:param|million|illion))(?=[^.]{0,25}(?:resolution|gsd|pixel)|"
    r"\s*(?:gsd|resolution|pixels?|spatial))"
)
_GSD_BEFORE = re.compile(
    r"(?:resolution|gsd)\s*(?:of|is|:|=)?\s*(\d+(?:\.\d+)?)[\s-]*(cm|m|km|meters?|metres?)\b"
)
# '50 cm Pleiades imagery', '10 m Sentinel-2 data': a length right before the imagery it describes.
_GSD_IMAGERY = re.compile(
    r"\b(\d+(?:\.\d+)?)[\s-]*(cm|m|km|meters?|metres?)\s+"
    r"(?:(?!(?:in|of|for|on|at|from|with|and|or|to)\b)[\w-]+\s+){0,2}?"
    r"(?:imagery|images?|data|orthophotos?|ortho-?imagery|photos?|tiles|scenes|mosaics?|embeddings?|"
    # '10 m Sentinel-2', '50 cm WorldView-3': a length right before a sensor is its resolution.
    r"sentinel|landsat|planet(?:scope)?|worldview|pl[eé]iades|spot|naip|gaofen|modis|skysat)\b"
)
# 'ICEYE SAR (~1 m)', 'orthophotos (10 cm)': a length in brackets right after the imagery it describes.
_GSD_BRACKETED = re.compile(
    r"\(\s*(?:~|about|approx\.?|ca\.?)?\s*(\d+(?:\.\d+)?)\s*(cm|m)\s*(?:gsd|resolution)?\s*\)"
)
# 'canopy height at 10 m' (not 'at 3 m depth' or 'at 100 m altitude').
_GSD_AT = re.compile(
    r"\bat\s+(?:~\s*|about\s+|around\s+|approximately\s+|roughly\s+)?(\d+(?:\.\d+)?)\s*(cm|m|km|meters?|metres?)\b"
    r"(?!\s*(?:depth|deep|height|high|tall|elevation|altitude|above|below|under|wide|long|distance))"
)


_NOT_COMMERCIAL = re.compile(r"non[\s-]?commercial|not (?:for )?commercial|no commercial|research[\s-]only")
# 'I can't use anything non-commercial', 'no CC-BY-NC weights': non-commercial ruled out, so
# commercial use is asked for.
_NO_NON_COMMERCIAL = re.compile(
    r"\b(?:can'?t|cannot|can not|won'?t|must ?n[o']t|mustn'?t|not allowed to|no|not|avoid|exclude|excluding|"
    r"without|nothing|never|rule out)\s+(?:(?:use|using|accept|take|touch|any|anything|a|the|models?|"
    r"weights|with|under|that is|that are|which is|which are|licensed)\s+){0,4}"
    r"(?:non[\s-]?commercial|research[\s-]only|cc[\s-]by[\s-]nc[\w.-]*|nc)\b"
)
_COMMERCIAL = re.compile(
    r"\bcommercial|for (?:a|our|my) (?:company|startup|business|client|product)|business use|"
    r"permissive licen[cs]e|sell (?:the|a|our) (?:product|service)"
)


def _licence_spans(lowered: str) -> list[tuple[int, int]]:
    """Where the text speaks of licences, commercial use or open weights."""
    patterns = (_OPEN_WEIGHTS, _COMMERCIAL, _NOT_COMMERCIAL, _NO_NON_COMMERCIAL, _PERMISSIVE_NAMED)
    return [m.span() for pattern in patterns for m in pattern.finditer(lowered)]


def _asks_commercial_use(lowered: str, permissive: bool) -> bool:
    """Commercial use asked for, and not undone by a non-commercial wish ('non-commercial research
    is fine'); 'nothing non-commercial' asks for it."""
    if _NO_NON_COMMERCIAL.search(lowered):
        return True
    return bool(_COMMERCIAL.search(lowered) or permissive) and not _NOT_COMMERCIAL.search(lowered)


# 'Apache-2.0 or MIT only', 'BSD-licensed': a named permissive licence.
_CC = r"cc[\s-]?by(?![\s-]*(?:nc|sa|nd)\b)(?:[\s-]*4(?:\.0)?)?|cc[\s-]?0"
_LICENCE_NAME = rf"(?:apache(?:[\s-]*2(?:\.0)?)?|mit|bsd(?:[\s-]*[23](?:[\s-]clause)?)?|{_CC})\b"
_PERMISSIVE_NAMED = re.compile(
    # 'CC-BY-4.0', 'CC0': a Creative Commons name is a licence on its own.
    rf"\b(?:{_CC})\b|"
    rf"\b{_LICENCE_NAME}"
    r"(?=[^.]{0,40}\blicen[cs](?:e|ed|ing)\b|\s*(?:or|/|,)\s*(?:apache|mit|bsd|cc)\b|[\s-]licen[cs]ed\b"
    r"|\s*or\s+(?:anything\s+|something\s+)?(?:more\s+permissive|less\s+restrictive)\b)"
    r"|\blicen[cs]ed? (?:under )?(?:apache|mit|bsd)\b|\bapache[\s-]2(?:\.0)?\b"
    # 'SAR ship detection, under 30M params, Apache': a bare licence name closing a list of constraints.
    rf"|(?:(?<=,)|(?<=;))\s*{_LICENCE_NAME}(?=\s*(?:only)?\s*(?:$|[.;!?)]))"
)
_MORE_PERMISSIVE = re.compile(
    r"\bor\s+(?:anything\s+|something\s+)?(?:more\s+permissive|less\s+restrictive)\b"
)
_LICENCE_RUN = re.compile(rf"(?:[\s-]*2(?:\.0)?\b)?(?:\s*(?:,|/|or|and)\s*{_LICENCE_NAME})*")
_LICENCE_LIST = re.compile(rf"\b{_LICENCE_NAME}")
_OPEN_WEIGHTS = re.compile(
    r"open[\s-]?weights?|open[\s-]source (?:[\w-]+\s+){0,3}?(?:models?|weights|checkpoints?)\b|"
    r"downloadable (?:weights|checkpoints?)|"
    r"(?:weights|checkpoints?) (?:must|need to|should|have to) be (?:publicly )?"
    r"(?:available|downloadable|released|public|open)|"
    r"(?:publicly )?(?:available|released|public) (?:pretrained )?(?:weights|checkpoints?)|"
    r"pretrained (?:weights|checkpoints?) (?:available|released|i can download)|"
    # 'ViT-L models with weights', 'ones that have released checkpoints'; not 'with weights frozen'
    r"\b(?:with|have|has|having)\s+(?:pretrained\s+|released\s+|public\s+|downloadable\s+)?"
    r"(?:weights|checkpoints)\b(?!\s+(?:frozen|fixed|locked|kept))|"
    # 'weights on Hugging Face', 'checkpoints released on GitHub'
    r"(?:weights|checkpoints?|models?)\s+(?:\w+\s+){0,2}?on\s+(?:hugging\s?face|the\s+hf\s+hub|hf|github|zenodo)\b"
)

# Imagery named without its kind ('satellite images'), and the inputs that are not imagery.
_GENERIC_IMAGERY = re.compile(
    r"\b(?:satellite|aerial|overhead|remote[\s-]sensing|earth observation|eo)\s+"
    r"(?:images?|imagery|data|photos?|tiles?|scenes?|patches)\b"
)
_NOT_IMAGERY = frozenset({"Text", "Location", "Audio", "Vector map"})

# A model for any band set: 'arbitrary spectral bands', 'wavelength-aware', 'sensor-agnostic'.
_ANY_BANDS = re.compile(
    r"\b(?:arbitrary|any|flexible|variable|varying|custom)\s+(?:number\s+of\s+)?(?:spectral\s+)?"
    r"(?:bands?|channels?|band\s+(?:sets?|combinations?|configurations?))\b|"
    r"\bany\s+(?:combination|set|subset)\s+of\s+(?:spectral\s+)?(?:bands|channels)\b|"
    r"wavelength[\s-](?:aware|agnostic|conditioned)|\b(?:band|channel|sensor|spectral(?:ly)?)[\s-]"
    r"(?:agnostic|flexible)\b|"
    # 'a custom multispectral sensor': no standard band set to match.
    r"\b(?:custom|non[\s-]standard|unusual)\s+(?:multispectral\s+|hyperspectral\s+|spectral\s+)?"
    r"(?:sensors?|cameras?|band\s+sets?)\b"
)

# Embeddings someone already computed and published, to download instead of running a model.
_PRECOMPUTED_EMBEDDINGS = re.compile(
    r"\b(?:pre[\s-]?computed|pre[\s-]?calculated|pre[\s-]?generated|ready[\s-]?made|"
    r"off[\s-]the[\s-]shelf|published|downloadable|existing)\s+(?:[a-z0-9-]+\s+){0,3}?embeddings?\b|"
    r"\bembedding\s+(?:products?|datasets?|maps?|layers?|fields?)\b|"
    r"\bembeddings?\s+(?:that\s+|which\s+)?(?:i|we)\s+(?:can|could)\s+download\b|"
    r"\bdownload\s+(?:the\s+)?embeddings?\b"
)


# The encoder used frozen: a linear probe or k-NN on its features, or its embeddings as they are.
_SIMILARITY_SEARCH = re.compile(
    r"\bsimilarity search|\b(?:find|finding|search(?:ing)?(?:\s+for)?|retriev\w*|look(?:ing)?\s+for)\s+"
    r"(?:the\s+)?(?:most\s+)?similar\s+(?:images|tiles|patches|scenes|places|locations|areas|fields|sites)\b"
)
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

# OpenStreetMap named as the map that falls short, the map to complete or the labels' source, not
# as an input: 'roads where OSM is incomplete', 'labels from OpenStreetMap', 'update OSM'.
_OSM = r"(?:openstreetmap|open\s+street\s+map|osm)"
_OSM_NOT_INPUT = re.compile(
    rf"\b{_OSM}(?:\s+[\w-]+){{0,3}}?\s+(?:is|are|remains?|stays?|looks?|seems?)\s+(?:\w+\s+)?"
    r"(?:incomplete|missing|outdated|out\s+of\s+date|sparse|poor|patchy|lacking|absent|wrong|unreliable|"
    r"empty|not\s+available|unavailable)\b"
    rf"|\b(?:incomplete|missing|outdated|sparse|patchy|poor|unreliable)\s+{_OSM}\b"
    r"|\b(?:labels?|annotations?|ground[\s-]truth|training\s+data|masks?|footprints?|polygons?|references?)"
    rf"\s+(?:come\s+|taken\s+|derived\s+)?(?:from|of|in|out\s+of)\s+(?:the\s+)?{_OSM}\b"
    rf"|\b{_OSM}\s+(?:as\s+)?(?:labels?|annotations?|ground[\s-]truth|training\s+labels|reference\s+data)\b"
    r"|\b(?:update|updating|complete|completing|improve|improving|fill(?:ing)?\s+gaps\s+in|add(?:ing)?\s+to|"
    rf"contribut(?:e|ing)\s+to|enrich(?:ing)?)\s+(?:the\s+)?{_OSM}\b"
    rf"|\bnot\s+(?:yet\s+)?(?:in|on|mapped\s+(?:in|on))\s+{_OSM}\b"
)
_OSM_LABELS = re.compile(r"label|annotation|ground[\s-]truth|training|mask|footprint|polygon|reference")

# Backbone families a task asks for or rules out: 'CNN only', 'a ViT backbone', 'no transformers'.
# A bare 'transformer' counts only with a qualifier or a negation (a power transformer is no backbone).
_ARCHITECTURE_WORDS: tuple[tuple[str, str], ...] = (
    (
        "CNN",
        r"cnns?|convnets?|convolutional(?:\s+neural)?(?:\s+networks?)?|resnets?(?:[\s-]?\d+)?|"
        r"convnext|efficientnets?|mobilenets?",
    ),
    (
        "transformer",
        r"vision\s+transformers?|transformer[\s-]+(?:based|backbones?|models?|architectures?|encoders?)|"
        r"vits?(?:[\s-][a-z]\b)?|swin(?:[\s-]transformers?)?|(?<=no )transformers?|(?<=not a )transformer|"
        r"(?<=without )transformers?|(?<=not )transformers?|(?<=non[\s-])transformers?",
    ),
    ("Mamba", r"v?mamba|state[\s-]space\s+models?"),
)
_ARCHITECTURE_NEGATION = re.compile(
    rf"(?:{NOT}|\bno|\bnon-?|\bwithout|\bavoid(?:ing)?|\bexcept|\brather\s+than|\binstead\s+of|\bnothing)"
    r"(?:\s+(?:with|using|use|based\s+on))?(?:\s+(?:an?|any))?\s*$"
)


# A model to talk with: it must write free text, as a multimodal LLM does.
_CONVERSATIONAL = re.compile(
    r"\bchat(?:s|ting|bot|bots)?\b|\bconversation(?:al|s)?\b|\bmultimodal\s+(?:llm|large\s+language\s+model)s?\b|"
    r"\bmllms?\b|\b(?:vision[\s-]language|visual|ai)\s+assistants?\b|\bdialog(?:ue)?s?\b|"
    r"\btalk\s+(?:to|with|about)\b|\bfree[\s-]text\s+answers?\b"
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


_CLUSTERING = re.compile(
    r"\bclustering\b|\bto cluster\b|"
    r"\bcluster (?:them|the|my|our|these|land|pixels|images|tiles|scenes|patches)\b"
)
_COUNT = r"(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|m|million)?"
_LABELLED = r"(?:hand[\s-]|manually\s+)?(?:labell?ed|annotated|ground[\s-]truth(?:ed)?)"
# '500 labelled tiles', 'we annotated 12,000 patches', 'a labelled dataset of 15k images'.
_LABEL_COUNTS = (
    re.compile(rf"\b{_COUNT}\s+{_LABELLED}\s+([a-z]+)(\s+per\s+class)?"),
    re.compile(rf"\b(?:labell?ed|annotated)\s+{_COUNT}\s+([a-z]+)(\s+per\s+class)?"),
    re.compile(rf"\b{_LABELLED}\s+(?:dataset|set|data)\s+of\s+{_COUNT}\s+([a-z]+)(\s+per\s+class)?"),
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
        not_samples = _NOT_SAMPLES - _POINT_LABELS if i < 3 else _NOT_SAMPLES
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
    spans = [m.span() for _, pattern in _REGIMES for m in re.finditer(pattern, lowered)]
    return spans + [m.span() for pattern in _LABEL_COUNTS for m in pattern.finditer(lowered)]


def device_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names the hardware the model will run on ('a laptop', 'one A100')."""
    lowered = text.lower()
    return [m.span() for _, pattern in _DEVICES for m in re.finditer(pattern, lowered)]


def _first(patterns: tuple[tuple[str, str], ...], text: str) -> str | None:
    for label, pattern in patterns:
        if re.search(pattern, text):
            return label
    return None


def _metric_in(fragment: str | None) -> str | None:
    if not fragment:
        return None
    terms = find_terms(fragment, "metrics")
    return terms[0][0] if terms else None


def _performance_floor(text: str) -> MinPerformance | None:
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


# GPU memory ("a 24GB GPU", "16 GB of VRAM"): weights take 2 bytes a parameter in 16-bit, with a
# fifth kept for activations (400M parameters a GB); fine-tuning with Adam takes about 16 bytes a
# parameter (62.5M a GB). Vision-language tasks and zero-shot use are read as inference.
_GPU_MEMORY = re.compile(
    r"(\d+(?:\.\d+)?)\s*gb\b(?:\s+of)?\s*(?:vram|gpu|graphics|video memory|memory|ram)\b"
)
_GPU_MEMORY_AFTER = re.compile(
    # 'a GPU with 24 GB', 'an A100 80GB', 'RTX 4090 (24 GB)'
    rf"(?:gpu|vram|\b(?:{_GPU_MODELS})|rtx\s?\w+)\s+(?:with\s+)?\(?(\d+(?:\.\d+)?)\s*gb\b"
)
# GPUs named by model, and the memory of their smallest configuration (GB), from the makers' sheets.
_GPU_CARD_MEMORY = {
    "a100": 40.0,
    "h100": 80.0,
    "h200": 141.0,
    "v100": 16.0,
    "a6000": 48.0,
    "a40": 48.0,
    "l40": 48.0,
    "l40s": 48.0,
    "t4": 16.0,
    "rtx4090": 24.0,
    "rtx3090": 24.0,
    "rtx4080": 16.0,
    "rtx3080": 10.0,
    "rtx4060": 8.0,
}
_GPU_CARD = re.compile(rf"\b({_GPU_MODELS}|rtx[\s-]?(?:4090|3090|4080|3080|4060))\b(?!\s*(?:s\b|gpus))")
# Google Colab's free tier: one T4 with 16 GB.
_COLAB_FREE = re.compile(
    r"\bcolab(?:'s)?\s+(?:\(\s*)?free\b|\bfree\s+(?:tier\s+(?:of|on)\s+|version\s+of\s+)?(?:google\s+)?colab\b"
)
_INFERENCE_TASKS = frozenset(
    {"captioning", "vqa", "visual grounding", "retrieval", "zero-shot classification"}
)


_PARAMETER_UNITS = {"k": 0.001, "m": 1.0, "million": 1.0, "b": 1000.0, "billion": 1000.0}


def _millions(value: str, unit: str | None) -> float:
    return float(value) * _PARAMETER_UNITS[(unit or "m").lower()]


def _parameter_limit(text: str) -> float | None:
    if between := _PARAMS_BETWEEN.search(text):
        # 'between 100M and 1B parameters': an unstated first unit is the second one's.
        return _millions(between.group(3), between.group(4))
    match = _PARAMS.search(text) or _PARAMS_UNIT_FIRST.search(text) or _PARAMS_BOUND_AFTER.search(text)
    if not match:
        return None
    return _millions(match.group(1), match.group(2))


def _parameter_floor(text: str) -> float | None:
    """The smallest size asked for ('over 1B parameters', 'billion-parameter models'), in millions."""
    if between := _PARAMS_BETWEEN.search(text):
        return _millions(between.group(1), between.group(2) or between.group(4))
    if match := _PARAMS_FLOOR.search(text) or _PARAMS_FLOOR_PLUS.search(text):
        return _millions(match.group(1), match.group(2))
    return 1000.0 if _PARAMS_BILLION_SCALE.search(text) else None


# 'a ViT-L or larger', 'at most Swin-B': a size bound given as a standard backbone's size. The
# bound is loose by a tenth, as the same backbone is counted a little differently across records.
_BACKBONE_BOUND_SLACK = 0.1
_BOUND_AFTER = re.compile(
    r"\s*(?:-?sized?\s+|size\s+|class\s+)?(?:models?\s+)?(?:or|and)\s+"
    r"(?:(larger|bigger|above|more|heavier)|(smaller|below|less|lighter))\b"
)
_BOUND_BEFORE = re.compile(
    r"(?:(at least|no smaller than|not smaller than|minimum of)|"
    r"(at most|no (?:larger|bigger|heavier) than|nothing (?:larger|bigger|heavier) than|"
    r"not (?:larger|bigger|heavier) than|up to))\s+(?:an?\s+|the\s+)?$"
)
_SIZED_AS = re.compile(r"[\s-]*(?:sized|size|scale|class)\b(?!\s+(?:or|and)\b)")
_BOUND_FAMILIES = ("ViT-", "Swin", "ResNet-", "WRN-", "ConvNeXt-")


@cache
def _bound_backbones() -> tuple[tuple[re.Pattern[str], str, float], ...]:
    """(pattern, name, size in millions) of the generic backbones a size can be given as."""
    out = []
    for backbone in get_backbone_table().values():
        if backbone.name.startswith(_BOUND_FAMILIES):
            for spelling in (backbone.name, *backbone.synonyms):
                # Not inside a longer spelling: 'ViT-L' is not the start of 'ViT-L/16'.
                pattern = re.compile(spelling_pattern(spelling) + r"(?!/)", re.IGNORECASE)
                out.append((pattern, backbone.name, backbone.params_m))
    return tuple(out)


def _backbone_bound(lowered: str, written: str) -> tuple[float | None, float | None, str] | None:
    """(limit, floor, note) from a size given as a standard backbone's ('ViT-L or larger')."""
    for pattern, name, size in _bound_backbones():
        for match in pattern.finditer(lowered):
            after = _BOUND_AFTER.match(lowered, match.end())
            before = _BOUND_BEFORE.search(lowered, max(0, match.start() - 24), match.start())
            bound = after or before
            if bound is None:
                if sized := _SIZED_AS.match(lowered, match.end()):
                    # 'a ViT-B sized model': about that size, read as no larger.
                    said = written[match.start() : sized.end()]
                    value = size * (1 + _BACKBONE_BOUND_SLACK)
                    value = round(value) if value >= 10 else round(value, 1)
                    return (
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
            return (None, value, note) if larger else (value, None, note)
    return None


# 'a Swin backbone', 'ResNet-50-based', 'models that use ConvNeXt': a backbone named as a wish.
_FAMILY_SPELLINGS = (
    ("Swin", r"swin(?:[\s-]?v2|[\s-]transformers?)?"),
    ("ResNet", r"resnets?"),
    ("ConvNeXt", r"convnext(?:[\s-]?v2)?"),
    ("ViT", r"vits?"),
)
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
        for name, spelled in _FAMILY_SPELLINGS
    ]
    return (*rows, *families)


def _backbones_asked(lowered: str) -> list[str]:
    """Backbones the task asks for by name ('a Swin backbone', 'built on ResNet-50'); not those
    ruled out ('no ResNet') or given as a size ('ViT-L or larger')."""
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    if not re.search(r"vit|swin|resnet|wrn|convnext|deit", lowered):
        return []
    for pattern, name in _nameable_backbones():
        for match in pattern.finditer(lowered):
            start, end = match.span()
            if _overlaps(start, end, taken):
                continue
            taken.append((start, end))
            before = lowered[max(0, start - 30) : start]
            wished = _AS_BACKBONE_AFTER.match(lowered, end) or _AS_BACKBONE_BEFORE.search(before)
            sized = _BOUND_AFTER.match(lowered, end) or _BOUND_BEFORE.search(before)
            if wished and not sized and not _ARCHITECTURE_NEGATION.search(before):
                found.append((start, name))
    return list(dict.fromkeys(name for _, name in sorted(found)))


_OUTPUT_RESOLUTION = re.compile(
    r"\b(?:to|into|reach(?:ing)?|target(?:ing)?|output(?:s| at)?)\s+(?:an?\s+|the\s+)?"
    r"\d+(?:\.\d+)?[\s-]*(?:cm|m|meters?|metres?)\b(?:\s*(?:gsd|resolution|pixels?))?"
)


_LANGUAGES = (
    "english|chinese|french|german|spanish|portuguese|italian|japanese|korean|arabic|russian|hindi|"
    "dutch|turkish|polish|greek|swedish|vietnamese|thai|indonesian|persian|bengali|urdu"
)
_LANGUAGE_AFTER = re.compile(
    rf"\s*(?:$|[.,;:!?)]|(?:and|or)\s+(?:{_LANGUAGES})\b\s*(?:$|[.,;:!?)])|languages?\b|text\b|speakers?\b|"
    r"(?:please|only|too|also|as\s+well)\b)",
    re.IGNORECASE,
)


def _names_a_language(text: str, start: int, end: int) -> bool:
    """'captions in Portuguese and English': the word names a language, not where the data is."""
    word = text[start:end].lower()
    if not re.fullmatch(_LANGUAGES, word):
        return False
    # 'in English or French': the languages listed after 'in' are languages too.
    before = rf"\b(?:in|into|to)\s+(?:(?:{_LANGUAGES})\s*(?:,|and|or)\s+)*$"
    return bool(re.search(before, text[:start], re.IGNORECASE)) and bool(_LANGUAGE_AFTER.match(text, end))


def _resolution(text: str) -> tuple[str | None, float | None]:
    match = (
        _GSD.search(text)
        or _GSD_BEFORE.search(text)
        or _GSD_IMAGERY.search(text)
        or _GSD_AT.search(text)
        or _GSD_BRACKETED.search(text)
    )
    if match:
        value = float(match.group(1)) * {"cm": 0.01, "km": 1000.0}.get(match.group(2), 1.0)
        return (f"{value / 1000:g} km" if value >= 1000 else f"{value:g} m"), value
    res = r"[\s-]res(?:olution)?\b"
    if re.search(rf"very[\s-]high{res}|\bvhr\b|sub[\s-]?met(?:er|re)|centimet(?:er|re)", text):
        return "very high (sub-metre)", 0.5
    if re.search(rf"\bhigh{res}|\bhi{res}|fine[\s-]resolution|high spatial resolution", text):
        return "high", None
    if re.search(rf"medium{res}|moderate{res}", text):
        return "medium (10-30 m)", 20.0
    if re.search(rf"\blow{res}|coarse[\s-]resolution", text):
        return "low (coarser than 30 m)", None
    return None, None


# Words that end what a negation rules out: 'except Europe with Sentinel-1' excludes Europe only.
_EXCLUSION_END = re.compile(r"\b(?:with|using|via|from|for|in|on|at|to|but|that|which|because|since)\b")


def _exclusions(text: str) -> Exclusions:
    modalities: list[str] = []
    sensors: list[str] = []
    regions: list[str] = []
    for match in _EXCLUDE.finditer(text):
        fragment = match.group(1)
        # 'not trained on Chinese data': the words after the verb are what is ruled out.
        fragment = re.sub(
            r"^(?:(?:pre)?trained|tuned|built|made|developed|based)\s+(?:on|in|with)\s+", "", fragment
        )
        fragment = _EXCLUSION_END.split(fragment, maxsplit=1)[0]
        for canonical, _, _ in find_terms(fragment, "sensors"):
            sensors.append(canonical)
        for canonical, _, _ in find_terms(fragment, "modalities"):
            modalities.append(canonical)
        for canonical, _, _ in find_terms(fragment, "regions"):
            regions.append(canonical)
        if re.match(r"(?:any\s+)?(?:sar|radar)\b", fragment):
            modalities.append("SAR")
        if re.match(r"(?:any\s+)?optical\b", fragment):
            modalities.extend(["RGB", "Multispectral", "Hyperspectral"])
    return Exclusions(
        modalities=list(dict.fromkeys(modalities)),
        sensors=list(dict.fromkeys(sensors)),
        regions=list(dict.fromkeys(regions)),
    )


@cache
def _application_texts() -> tuple[list[str], list[str]]:
    vocab = get_vocabulary("applications")
    names = vocab.names
    # What each application is: its name and synonyms. Its closest_for terms (tasks with no entry
    # of their own, read as it by the rules) would blur that.
    texts = [f"{n}: {', '.join(vocab.synonyms(n))}" for n in names]
    return names, texts


# Application-table embeddings per encoder (bound methods of one encoder compare equal).
_APPLICATION_VECTORS: dict[Encode, np.ndarray] = {}


# Words that say nothing of the application: a text made only of these and of sensor, modality
# or region names ("SAR", "Sentinel-2 imagery") gets no application guessed by similarity.
_GENERIC = (
    "a an and any best data for from good i image images imagery in is me model models my need of on "
    "please remote satellite sensing some suggest the to use want what which with "
    # Asking which models exist for some data names no task either ('which foundation models
    # support EnMAP data?').
    "accept accepts all are available can compatible could does foundation handle handles input "
    "inputs list recommend should support supported supports take takes that there work works "
    "how many exist exists show "
    # Nor does asking for the size, or for imagery taken together ('the smallest model for optical
    # and SAR data together').
    "smallest largest biggest lightest tiniest optical both together jointly "
    # Nor the kind of model, its size, age or licence ('which vision-language models are under 1B
    # parameters?', 'list all models with an Apache licence').
    "vision language multimodal under below less than fewer parameters params released newest latest "
    "recent open weights licence license licensed "
    # Nor how it was pretrained ('MAE-based models for hyperspectral', 'contrastive SAR models').
    "based style trained pretrained pretraining learning contrastive masked autoencoder autoencoders "
    "autoencoding modelling modeling mae mim distillation self dino dinov2 simclr moco byol ibot"
)
_GENERIC_WORDS = frozenset(_GENERIC.split())


def blank_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with every character inside one of ``spans`` replaced by a space (same length)."""
    return "".join(" " if any(s <= i < e for s, e in spans) else ch for i, ch in enumerate(text))


def _says_more_than_its_data(text: str) -> bool:
    spans = [(s, e) for name in ("sensors", "modalities", "regions") for _, s, e in find_terms(text, name)]
    return any(w not in _GENERIC_WORDS for w in re.findall(r"[a-z]{3,}", blank_spans(text, spans)))


def _application_table(encode: Encode) -> tuple[list[str], np.ndarray]:
    """The application names and their entries' embeddings (computed once per encoder)."""
    names, texts = _application_texts()
    table = _APPLICATION_VECTORS.get(encode)
    if table is None:
        table = _APPLICATION_VECTORS[encode] = encode(texts)
    return names, table


def _application_score(text: str, application: str, encode: Encode) -> float:
    """The similarity of ``text`` to one application's entry."""
    names, table = _application_table(encode)
    return float(table[names.index(application)] @ encode([text])[0])


def _similar_application(
    text: str, encode: Encode, threshold: float, task_type: str | None = None
) -> tuple[str, float] | None:
    names, table = _application_table(encode)
    scores = table @ encode([text])[0]
    if task_type is not None:
        vocab = get_vocabulary("applications")
        allowed = np.array([vocab.column(n, "task_type") == task_type for n in names])
        if allowed.any():
            scores = np.where(allowed, scores, -np.inf)
    best = int(np.argmax(scores))
    score = float(scores[best])
    return (names[best], score) if score >= threshold else None


_TASK_WORDS = re.compile(
    r"\b(?:mapp?(?:ing|s)?|segment\w*|classif\w*|detect\w*|estimat\w*|monitor\w*|extract\w*|"
    r"recogni\w*|count\w*|retriev\w*|caption\w*)\b"
)


def _sibling_application(
    application: str, task_type: str, found: tuple[str, int, int], text: str
) -> str | None:
    """The one application of ``application``'s domain for ``task_type``, when the text named the
    domain without a task word ('land cover', not 'land cover mapping')."""
    if _TASK_WORDS.search(text[found[1] : found[2]]):
        return None
    table = get_vocabulary("applications")
    domain = table.column(application, "domain")
    siblings = [
        name
        for name in table.names
        if name != application
        and table.column(name, "domain") == domain
        and table.column(name, "task_type") == task_type
    ]
    return siblings[0] if len(siblings) == 1 else None


def _architectures(lowered: str) -> list[str]:
    """Backbone families the task accepts: those it asks for, else all those it does not rule out;
    empty when it names none."""
    wanted: list[str] = []
    excluded: list[str] = []
    for family, words in _ARCHITECTURE_WORDS:
        # Not inside a longer name ('hi-vit'), but after 'non-' ('a non-transformer model').
        for match in re.finditer(rf"(?:(?<=non-)|(?<![a-z0-9-]))(?:{words})(?![a-z0-9])", lowered):
            before = lowered[max(0, match.start() - 30) : match.start()]
            (excluded if _ARCHITECTURE_NEGATION.search(before) else wanted).append(family)
    if wanted:
        return [f for f in dict.fromkeys(wanted) if f not in excluded]
    if excluded:
        return [f for f, _ in _ARCHITECTURE_WORDS if f not in excluded]
    return []


# 'GEDI labels', 'GEDI footprints as labels', 'labels from GEDI': a sensor named as the labels'
# source ('Sentinel-2 as reference' stays an input).
_LABEL_WORDS = (
    r"(?:labels?|annotations?|ground[\s-]truth|training\s+(?:labels|targets|data)|targets?|"
    r"reference\s+(?:data|heights?|values|measurements))"
)
_LABELS_AFTER = re.compile(
    rf"(?:\s+(?:lidar|footprints?|heights?|data))?\s+(?:as\s+(?:the\s+)?)?{_LABEL_WORDS}\b"
)
_LABELS_BEFORE = re.compile(
    rf"\b{_LABEL_WORDS}\s+(?:come\s+|taken\s+|derived\s+|are\s+)?(?:from|of)\s+(?:the\s+)?$"
)
# Spaceborne LiDAR whose footprints are the usual reference, not the input, for these applications.
_REFERENCE_SENSORS = frozenset({"GEDI", "ICESat-2"})
_REFERENCE_APPLICATIONS = frozenset({"canopy height estimation", "biomass estimation"})
_AS_INPUT = re.compile(r"\s+(?:\w+\s+){0,2}?as\s+(?:an?\s+)?(?:inputs?|features?|predictors?)\b")


def _label_sources(written: str, terms: Sequence[tuple[str, int, int]]) -> dict[str, str]:
    """Sensors the task names as the source of its labels, not of its input: {sensor: phrase}."""
    lowered = written.lower()
    out: dict[str, str] = {}
    for sensor, start, end in terms:
        if after := _LABELS_AFTER.match(lowered, end):
            out[sensor] = written[start : after.end()]
        elif before := _LABELS_BEFORE.search(lowered[max(0, start - 40) : start]):
            out[sensor] = written[start - len(before.group(0)) : end]
    return out


def _osm_not_input(written: str, lowered: str, spans: Sequence[tuple[int, int]]) -> list[str]:
    """The phrases that name OpenStreetMap as no input ('where OSM is incomplete'), when every
    vector-map term of the task (at ``spans``) is OpenStreetMap named that way; else nothing."""
    contexts = [m.span() for m in _OSM_NOT_INPUT.finditer(lowered)]
    if not spans or not all(
        re.fullmatch(_OSM, lowered[s:e]) and any(a <= s and e <= b for a, b in contexts) for s, e in spans
    ):
        return []
    return [written[a:b] for a, b in contexts]


# Platform words read as their true-colour camera, and what they may carry instead.
_PLATFORM_CAMERAS = frozenset({"Aerial", "UAV"})
_OTHER_PAYLOAD = re.compile(
    r"[\s-]*(?:\(\s*)?(?:lidar|laser scann|als\b|sar\b|radar|hyperspectral|thermal|point[\s-]clouds?)"
)
INFRARED_ADVICE = "say 'NIR' or 'multispectral' for near-infrared bands, or 'thermal' for thermal infrared"
# 'Infrared' with nothing to say which: near-infrared or thermal.
_INFRARED_ALONE = re.compile(r"(?<!near[\s-])(?<!short[\s-]wave\s)(?<!thermal\s)\binfra[\s-]?red\b")
# 'Optical' qualifying hyperspectral imagery rather than listed beside it.
_OPTICAL_HYPERSPECTRAL = re.compile(r"\boptical[\s-]+(?:\(\s*)?hyperspectral|\bhyperspectral[\s-]+optical\b")
# Words that ask for bands beyond true colour: with these, a VHR sensor is multispectral imagery.
_NAMES_BANDS = re.compile(
    r"\b(?:nir|near[\s-]infrared|swir|short[\s-]wave infrared|red[\s-]edge|coastal band|"
    r"yellow band|[4-9][\s-]?bands?|eight[\s-]bands?|four[\s-]bands?|rgbi|rgbn|ndvi|"
    r"spectral|pan[\s-]?chromatic)"
)


def _vhr_multispectral(sensor: str) -> bool:
    """A satellite sensor of multispectral imagery finer than 2 m (WorldView, Pleiades, SkySat)."""
    vocab = get_vocabulary("sensors")
    gsd = vocab.column(sensor, "gsd_m")
    return (
        sensor_modality(sensor) == "Multispectral"
        and vocab.column(sensor, "platform") == "satellite"
        and bool(gsd)
        and float(gsd) < 2
    )


def interpret(
    text: str, encode: Encode | None = None, *, similarity_threshold: float = 0.45
) -> Interpretation:
    """Parse a free-text task into a StructuredQuery with rules (and embeddings for applications)."""
    # As written (acronyms and proper names keep their case), and in lower case for the rules.
    written = " ".join(text.split())
    notes: list[str] = []
    for slip in dict.fromkeys(m.group(0) for m in _SENTINEL_SLIP.finditer(written)):
        # 'sentinal2', 'sentenel 1 and 2': the commonest slips of the commonest sensor name.
        notes.append(f"read '{slip}' as Sentinel-{slip[-1]}")
    written = _expand_sensor_shorthand(_SENTINEL_SLIP.sub(r"sentinel-\1", written))
    written = written.replace("≤", "<=").replace("≥", ">=")
    # 'under a billion parameters', 'half a million samples': number words as the numbers they are.
    written = _NUMBER_WORDS.sub(lambda m: _NUMBER_VALUES[m.group(1).lower()] + " ", written)
    written = _mend_words(written, _LABEL_SLIP, _LABEL_SLIP_WORDS, notes)
    # 'ship det', 'scene clf', 'building seg': the task words practitioners shorten.
    written = _mend_words(written, _TASK_SHORTHAND, _SHORT_TASK_WORDS, notes)
    lowered = written.lower()
    exclusions = _exclusions(lowered)

    sensor_terms = find_terms(written, "sensors")
    labelled = _label_sources(written, sensor_terms)
    for phrase in labelled.values():
        notes.append(f"'{phrase}' read as the source of the labels, not as an input")
    apps = find_terms(lowered, "applications")
    imaging = {s for s, _, _ in sensor_terms if sensor_modality(s) != "LiDAR"}
    for sensor, start, end in sensor_terms:
        if (
            sensor in _REFERENCE_SENSORS
            and sensor not in labelled
            and imaging
            and apps
            and apps[0][0] in _REFERENCE_APPLICATIONS
            and not _AS_INPUT.match(lowered, end)
        ):
            # 'canopy height from GEDI and Sentinel-2': GEDI footprints are the usual reference
            # heights, and the imagery the input.
            labelled[sensor] = written[start:end]
            notes.append(
                f"'{written[start:end]}' read as the source of the labels (the usual reference for "
                f"{apps[0][0]}), not as an input; say '{written[start:end]} as input' to use it as one"
            )
    sensors = [
        s
        for s, _, end in sensor_terms
        if s not in exclusions.sensors
        and s not in labelled
        # 'aerial LiDAR', 'drone SAR': the platform carries the sensor named next, not a camera
        and not (s in _PLATFORM_CAMERAS and _OTHER_PAYLOAD.match(lowered, end))
    ]
    if not sensors:
        for sensor, slip in find_terms_fuzzy(lowered, "sensors"):
            if sensor not in exclusions.sensors:
                sensors.append(sensor)
                notes.append(f"read '{slip}' as {sensor}")
    # A modality word inside an application's name is no input modality ('local climate zone'),
    # unless the application works on that modality ('hyperspectral image classification').
    modality_terms = find_terms(written, "modalities")
    modalities = [
        m
        for m, s, e in modality_terms
        if not any(a <= s and e <= b and m not in typical_modalities(app) for app, a, b in apps)
    ]
    vector_spans = [(s, e) for m, s, e in modality_terms if m == "Vector map"]
    if "Vector map" in modalities and (spans := _osm_not_input(written, lowered, vector_spans)):
        modalities.remove("Vector map")
        role = "the source of the labels" if _OSM_LABELS.search(spans[0].lower()) else "the map to complete"
        notes.append(f"'{spans[0]}' read as {role}, not as an input")
    if re.search(r"\bsar\b|\bradar\b|\binsar\b", lowered):
        modalities.append("SAR")
    either = False  # RGB or multispectral, either serving ('optical')
    by_platform = False
    if (
        re.search(r"\boptical\b", lowered)
        and not set(modalities) & {"RGB", "Multispectral"}
        # 'optical hyperspectral imagery' is hyperspectral; 'SAR, optical and hyperspectral' lists three
        and ("Hyperspectral" not in modalities or not _OPTICAL_HYPERSPECTRAL.search(lowered))
        and "Multispectral" not in exclusions.modalities
    ):
        modalities.extend(["Multispectral", "RGB"])
        either = True
        notes.append("'optical' read as multispectral or RGB imagery")
    if (
        re.search(r"\baerial\b|\bdrone\b|\buav\b|\bvhr\b|very high[\s-]resolution", lowered)
        and not modalities
    ):
        modalities.append("RGB")
        by_platform = True  # 'aerial', 'VHR': true colour, unless a sensor says more
    vhr = [s for s in sensors if _vhr_multispectral(s)]
    if (
        vhr
        and (not modalities or by_platform)
        and not _NAMES_BANDS.search(lowered)
        and not EITHER_MODALITIES & set(exclusions.modalities)
    ):
        # 'Maxar imagery': a very-high-resolution product comes as pan-sharpened true colour as
        # often as with all its bands, so models for either serve it.
        modalities.extend(["Multispectral", "RGB"])
        either = True
        as_written = dict.fromkeys(written[a:b] for s, a, b in sensor_terms if s in vhr) or dict.fromkeys(vhr)
        notes.append(
            f"{' and '.join(repr(n) for n in as_written)} imagery read as RGB or multispectral (its "
            "products come as pan-sharpened true colour or with all bands); say 'multispectral' or "
            "name the bands to require them"
        )
    # 'NAIP 4 band', 'RGBI aerial orthophotos', 'multispectral drone imagery': bands named beyond
    # true colour make an RGB platform's imagery multispectral.
    bands_named = "Multispectral" in modalities and not either
    for sensor in list(sensors):
        implied = sensor_modality(sensor)
        if implied == "RGB" and bands_named and "RGB" not in modalities:
            continue
        if implied in exclusions.modalities:
            # 'Sentinel-1 but no SAR': the task contradicts itself; the exclusion stands, and says so.
            sensors.remove(sensor)
            notes.append(f"{sensor} is {implied} imagery, which the task rules out: {sensor} set aside")
        elif implied not in modalities and not (
            # 'RGB Maxar imagery': the true-colour product of a VHR sensor, not its other bands.
            "RGB" in modalities and sensor in vhr and not _NAMES_BANDS.search(lowered)
        ):
            modalities.append(implied)
    modalities = [m for m in dict.fromkeys(modalities) if m not in exclusions.modalities]
    multi_temporal = "Multi-temporal" in modalities
    if _INFRARED_ALONE.search(lowered) and not set(modalities) & {
        "Thermal",
        "Multispectral",
        "Hyperspectral",
    }:
        # 'infrared imagery': near-infrared bands or thermal infrared, which take different models.
        notes.append(f"'infrared' is read as no imagery kind: {INFRARED_ADVICE}")

    language = None if apps else query_language(text)
    task_text, similar_text = lowered, text
    if len(text) == len(lowered):
        # Licence and weights wishes say nothing of the application: 'an open-source model for
        # semantic segmentation' is not open-vocabulary segmentation.
        similar_text = blank_spans(text, _licence_spans(lowered))
    mended: list[tuple[str, str]] = []
    if not apps and language is None:
        mended_text, mended = read_slips(lowered)
        if mended and (find_terms(mended_text, "applications") or find_terms(mended_text, "task_types")):
            task_text = similar_text = mended_text
            apps = find_terms(mended_text, "applications")
        else:
            mended = []
    table = get_vocabulary("applications")
    if len(apps) > 1 and table.get(task_text[apps[0][1] : apps[0][2]]) is None:
        # 'locate objects described in text (visual grounding)': an application the task names
        # as the name of what it describes outweighs one read from a verb ('locate objects').
        called = [
            a
            for a in apps[1:]
            if a[0] != apps[0][0]
            and table.get(task_text[a[1] : a[2]])
            and _NAMING.search(task_text[max(0, a[1] - 12) : a[1]])
        ]
        if called:
            apps = [called[0], *(a for a in apps if a is not called[0])]
    application = apps[0][0] if apps else None
    if apps and _is_closest_for(application, task_text[apps[0][1] : apps[0][2]]):
        notes.append(
            f"'{task_text[apps[0][1] : apps[0][2]]}' has no application of its own in RS-FMD: "
            f"read as the closest one, '{application}'"
        )
    if application is None and (slips := find_terms_fuzzy(lowered, "applications")):
        application, phrase = slips[0]
        notes.append(f"read '{phrase}' as '{application}'")
        mended = [(written, read) for written, read in mended if written not in phrase]
    notes.extend(f"read '{written}' as '{read}'" for written, read in mended)
    plain = fold_accents(" ".join(text.split()))
    pretraining = _pretraining_spans(plain)
    pretraining_ranges = [(s, e) for _, s, e in pretraining]
    # A dataset named as pretraining data is no benchmark to rank on: 'pretrained on BigEarthNet'.
    dataset_spans = [
        span
        for span in _scan(plain, _dataset_matcher())
        if not _overlaps(span[1], span[2], pretraining_ranges)
    ]
    datasets = list(dict.fromkeys(name for name, _, _ in dataset_spans))
    dataset_ranges = [(s, e) for _, s, e in dataset_spans]
    if application is None and datasets:
        # 'the best model on EuroSAT': the named benchmark says what the task is.
        benchmark = find_dataset(datasets[0])
        if benchmark is not None and benchmark.application:
            application = benchmark.application
            notes.append(
                f"application read from the dataset named: {benchmark.name} is a {application} benchmark"
            )
    suite_spans = [
        (suite, start, end)
        for suite, start, end in _scan(plain, _suite_matcher())
        if not _overlaps(start, end, dataset_ranges)
    ]
    for suite, start, end in suite_spans:
        # 'the best model on PANGAEA': results on the suite's datasets count first.
        members = suite_datasets(suite)
        datasets = list(dict.fromkeys([*datasets, *members]))
        notes.append(f"'{plain[start:end]}' read as its {len(members)} datasets: {', '.join(members)}")
    task_terms = find_terms(task_text, "task_types")
    if application is None and encode is not None and not suite_spans and _says_more_than_its_data(task_text):
        # A task named in the text ('retrieval') limits the guess to applications of that task.
        named = task_terms[0][0] if task_terms else None
        similar = _similar_application(similar_text, encode, similarity_threshold, named)
        named_for = {m for m, _, _ in find_terms(similar[0], "modalities")} if similar else set()
        if similar and named_for & {"SAR", "Hyperspectral", "Multispectral", "RGB", "LiDAR"}:
            # An application named for a kind of data ('SAR target recognition') must be guessed
            # from the task's words too, not from its data alone: 'SAR-optical image matching' is not one.
            data = [
                (s, e) for name in ("sensors", "modalities") for _, s, e in find_terms(similar_text, name)
            ]
            data += [m.span() for m in re.finditer(r"\boptical\b", similar_text, re.IGNORECASE)]
            words = " ".join(blank_spans(similar_text, data).split())
            if _application_score(words, similar[0], encode) < similarity_threshold:
                similar = None
        if similar:
            application = similar[0]
            notes.append(f"application read as '{similar[0]}' by text similarity ({similar[1]:.2f})")
    task_type = None
    app_vocab = get_vocabulary("applications")
    if application:
        task_type = app_vocab.column(application, "task_type")
        generic = _GENERIC_IMAGERY.search(lowered)
        # (not for generation, where the imagery named is the output)
        inputs = task_type != "generation"
        if generic and inputs and modalities and set(modalities) <= _NOT_IMAGERY | {"Multi-temporal"}:
            # 'species occurrence from location and satellite images': imagery is an input too,
            # of a kind not named; the application's usual imagery stands for it.
            usual = [m for m in typical_modalities(application) if m not in _NOT_IMAGERY]
            if usual:
                modalities.extend(m for m in usual if m not in exclusions.modalities)
                notes.append(
                    f"'{generic.group(0)}' read as the usual imagery for {application} ({', '.join(usual)})"
                )
    # A task named inside the application's own name ('image classification' in 'hyperspectral
    # image classification', a per-pixel task) is the application's, not a task of its own.
    app_spans = [(a, b) for app, a, b in apps if app == application]
    explicit_tasks = [
        t
        for t, s, e in task_terms
        if (e - s > 12 or not application) and not any(a <= s and e <= b for a, b in app_spans)
    ]
    if not explicit_tasks and _CLASSIFY_WHOLE.search(task_text) and "pixel" not in task_text:
        # 'classify Sentinel-2 patches into land cover classes': one label per patch.
        explicit_tasks = ["classification"]
    if explicit_tasks and explicit_tasks[0] != task_type:
        task_type = explicit_tasks[0]
        if (
            application
            and apps
            and (sibling := _sibling_application(application, task_type, apps[0], task_text))
        ):
            # 'classification of patches into land cover classes': the domain named bare, with the
            # task said apart, is the domain's application for that task.
            notes.append(f"'{task_text[apps[0][1] : apps[0][2]]}' with {task_type} read as '{sibling}'")
            application = sibling
    if task_type in {"detection", "classification"} and re.search(r"\bsegment(?:s|ing|ed)?\b", task_text):
        # 'segment solar farms': the user wants masks, whatever the application's usual output.
        task_type = "segmentation"
    if (
        application is None
        and task_type is None
        and re.search(r"pixel[\s-]level|per[\s-]pixel|\bsegment(?:s|ing|ed)?\b", lowered)
    ):
        task_type = "segmentation"
    if re.search(r"multi[\s-]?label", lowered) and task_type == "classification":
        task_type = "multi-label classification"

    conversational = bool(_CONVERSATIONAL.search(lowered))
    if conversational and application is None and task_type is None:
        application, task_type = "visual question answering", "vqa"
        notes.append(
            "a model to chat with read as visual question answering, by a model that writes free text"
        )
    regime = _first(_REGIMES, lowered)
    frozen = bool(_FROZEN.search(lowered))
    if (
        frozen
        and regime == "zero-shot"
        and _first(_REGIMES, blank_spans(lowered, [m.span() for m in _NO_FINE_TUNING.finditer(lowered)]))
        != "zero-shot"
    ):
        regime = None
        notes.append(
            "'no fine-tuning' with a frozen encoder read as a light head on its features, not zero-shot"
        )
    if (_CLUSTERING.search(lowered) or _SIMILARITY_SEARCH.search(lowered)) and regime in {None, "zero-shot"}:
        # Grouping or searching embeddings without labels is unsupervised use of an encoder, not
        # zero-shot prompting.
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
    device = _first(_DEVICES, lowered)
    limit = _parameter_limit(lowered)
    floor = _parameter_floor(lowered)
    if floor is not None and limit is not None and floor >= limit:
        floor = None  # 'fewer than 1B parameters, not over 1B' reads as the limit alone
    bound = _backbone_bound(lowered, written)
    if bound and ((limit is None and bound[0]) or (floor is None and bound[1])):
        # 'a ViT-L or larger, under 500M parameters': the backbone gives the side the numbers do not.
        limit, floor = limit or bound[0], floor or bound[1]
        notes.append(bound[2])
        if floor is not None and limit is not None and floor >= limit:
            floor = None
    # ('a laptop with 16 GB RAM': on a CPU or an edge device, compute binds before memory does)
    memory = (
        None
        if device in {"cpu", "edge"}
        else _GPU_MEMORY.search(lowered) or _GPU_MEMORY_AFTER.search(lowered)
    )
    colab = memory is None and _COLAB_FREE.search(lowered)
    # 'one A100', 'an RTX 4090': a GPU named without its memory has the memory of its smallest model.
    card = _GPU_CARD.search(lowered) if memory is None and not colab and device == "single-gpu" else None
    if limit is None and (memory or colab or card):
        if memory:
            gigabytes = float(memory.group(1))
        elif card:
            gigabytes = _GPU_CARD_MEMORY[re.sub(r"\W", "", card.group(1))]
            notes.append(
                f"'{written[card.start() : card.end()]}' read as one GPU with {gigabytes:g} GB "
                "(its smallest memory)"
            )
        else:
            gigabytes = 16.0
            notes.append("Google Colab's free tier read as one T4 GPU with 16 GB")
        inference = regime == "zero-shot" or task_type in _INFERENCE_TASKS
        limit = gigabytes * (400.0 if inference else 62.5)
        device = device or "single-gpu"
        use = "running it in 16-bit" if inference else "fine-tuning it (about 16 bytes a parameter)"
        notes.append(
            f"{gigabytes:g} GB of GPU memory read as room for about {limit:,.0f}M parameters when {use}"
        )
    priorities = [label for label, pattern in _PRIORITIES if re.search(pattern, lowered)]
    if "adoption" in priorities:
        adoption = re.search(dict(_PRIORITIES)["adoption"], lowered)
        assert adoption is not None
        notes.append(
            f"'{adoption.group(0)}' read as adoption: RS-FMD records no citation or star counts, so it "
            "counts the independent evaluations (benchmarks by others) that include each model"
        )
    earliest, latest, said = _release_years(lowered)
    architectures = _architectures(lowered)
    backbones = _backbones_asked(lowered)
    if said is not None:
        notes.append(f"'{said}' read as the model's release year")
    if device in {"edge", "cpu"} and "efficiency" not in priorities:
        priorities.append("efficiency")
    if transfer and "generalization" not in priorities:
        priorities.append("generalization")
    targets = (
        list(_OUTPUT_RESOLUTION.finditer(lowered)) if "super-resolution" in (application, task_type) else []
    )
    # 'super-resolve Sentinel-2 to 2.5 m': the resolution after 'to' is the output's, not the data's.
    notes.extend(f"'{t.group(0).strip()}' read as the output resolution, not the input's" for t in targets)
    resolution, resolution_m = _resolution(blank_spans(lowered, [t.span() for t in targets]))
    licence_at: dict[int, str] = {}  # start -> licence as written
    for match in _PERMISSIVE_NAMED.finditer(lowered):
        # 'apache-2.0 or mit only': the licences listed after a named one are named too.
        run = _LICENCE_RUN.match(lowered, match.end())  # matches, if only the empty string
        end = run.end() if run else match.end()
        licence_at.update(
            (m.start(), m.group(0)) for m in _LICENCE_LIST.finditer(lowered, match.start(), end)
        )
    named_licences = list(dict.fromkeys(licence_at[k] for k in sorted(licence_at)))
    permissive = bool(named_licences)
    licences = list(dict.fromkeys(f for m in named_licences if (f := license_family(m))))
    more = _MORE_PERMISSIVE.search(lowered) if licences else None
    if more:
        # 'CC-BY-4.0 or more permissive': that licence and the others asking attribution at most.
        licences = list(dict.fromkeys([*licences, *(name for name, _ in LICENSE_FAMILIES)]))
    if licences:
        named = ", ".join(repr(m) for m in named_licences) + (f" {more.group(0)}" if more else "")
        notes.append(
            f"{named} read as: only models licensed {' or '.join(licences)}, which allow commercial use"
        )
    found = list(
        dict.fromkeys(
            r
            for r, start, end in find_terms(plain, "regions")
            # 'Indian Pines' and 'California Housing' are datasets, not places of the user's data.
            if not _overlaps(start, end, dataset_ranges)
            and not _names_a_language(plain, start, end)
            # 'the Global South' is no global scope.
            and not (r == "Global" and re.match(r"\s+(?:south|north)\b", plain[end:], re.IGNORECASE))
        )
    )
    if hemisphere := re.search(r"\bglobal\s+(?:south|north)\b", plain, re.IGNORECASE):
        notes.append(
            f"'{hemisphere.group(0)}' is no region RS-FMD places: models are not weighed by region for it"
        )
    languages = list(
        dict.fromkeys(
            m.group(0).capitalize()
            for m in re.finditer(rf"\b(?:{_LANGUAGES})\b", plain, re.IGNORECASE)
            if _names_a_language(plain, m.start(), m.end())
        )
    )
    if languages and languages != ["English"]:
        named = " and ".join(languages)
        kind = "languages" if len(languages) > 1 else "a language"
        notes.append(
            f"{named} named as {kind}: RS-FMD does not record which languages a model reads or writes, "
            "so this is not checked"
        )
    # 'the U.S. Midwest' is the Midwest: a region that contains another one named is dropped.
    found = [r for r in found if r not in exclusions.regions]  # 'anywhere except Europe'
    regions = [r for r in found if not any(o != r and r in region_ancestors(o) for o in found)]
    domain = [app_vocab.column(application, "domain")] if application else []
    bands = [
        b
        for b in ("nir", "swir", "red edge", "thermal", "rgb", "vv", "vh")
        if re.search(rf"\b{b}\b", lowered)
    ]

    query = StructuredQuery(
        application=application,
        modality=modalities,
        either_modality=either and set(modalities) >= EITHER_MODALITIES,
        sensor=list(dict.fromkeys(sensors)),
        spatial_resolution=resolution,
        spatial_resolution_m=resolution_m,
        temporal_resolution="time series" if multi_temporal else None,
        bands=[b.upper() if len(b) <= 4 else b for b in bands],
        available_data=regime,
        deployment_device=device,
        priority_metrics=[m for m, _, _ in find_terms(lowered, "metrics")][:3],
        min_performance=_performance_floor(lowered),
        region=regions,
        datasets=datasets,
        pretrained_on=list(dict.fromkeys(name for name, _, _ in pretraining)),
        pretext=pretext_methods(written),
        backbones=backbones,
        suites=list(dict.fromkeys(suite for suite, _, _ in suite_spans)),
        domain_keywords=[d for d in domain if d],
        task_type=task_type,
        data_regime=regime,
        compute=ComputeBudget(device_class=device, max_parameters_m=limit, min_parameters_m=floor),
        priorities=priorities,
        exclusions=exclusions,
        multi_temporal=multi_temporal,
        commercial_use=_asks_commercial_use(lowered, permissive),
        licenses=licences,
        open_weights=bool(_OPEN_WEIGHTS.search(lowered)),
        precomputed_embeddings=bool(_PRECOMPUTED_EMBEDDINGS.search(lowered)),
        frozen_encoder=frozen,
        conversational=conversational,
        architectures=architectures,
        any_bands=bool(_ANY_BANDS.search(lowered)),
        min_release_year=earliest,
        max_release_year=latest,
    )
    return Interpretation(query=query, notes=notes, language=language)
