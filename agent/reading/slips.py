"""Slips and shorthand in what the user wrote: the text mended ('sentinal-2', 'S1/S2', 'ship det',
'few lables', 'a billion'), and vocabulary terms found though written with a slip ('flod mapping').

The words mended are in ``shorthand.csv``; every mend is said in the notes.
"""

from __future__ import annotations

import difflib
import re
from functools import cache

from wordfreq import zipf_frequency

from agent.reading.tables import table_rows
from agent.reading.terms import WORD, unsafe_in_text
from rsfmd.vocab import get_vocabulary


@cache
def _fuzzy_phrases(vocabulary: str) -> list[tuple[str, str, int]]:
    """(phrase as space-joined words, canonical, word count) for phrases long enough to match fuzzily."""
    vocab = get_vocabulary(vocabulary)
    out: list[tuple[str, str, int]] = []
    for canonical in vocab.names:
        for synonym in set(vocab.terms(canonical)):
            words = WORD.findall(synonym.lower())
            key = " ".join(words)
            if synonym.strip().lower() in unsafe_in_text() or len(key.replace(" ", "")) < 8:
                continue
            out.append((key, canonical, len(words)))
    return out


_COMMON_ENGLISH_ZIPF = 2.0  # 'deformation' 3.2; slips such as 'sentinal' 1.2, 'mappin' 1.6, 'flod' 0


def find_terms_fuzzy(text: str, vocabulary: str, cutoff: float = 0.9) -> list[tuple[str, str]]:
    """Vocabulary terms written with a slip ('flod mapping', 'sentinal-1'): (canonical, text as written).

    A window of as many words as the phrase must be at least ``cutoff`` similar to it; short
    phrases never match, so ordinary words are not taken for terms.
    """
    words = [(m.group(0), m.start(), m.end()) for m in WORD.finditer(text)]
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


def _mend_words(written: str, pattern: re.Pattern[str], words: dict[str, str], notes: list[str]) -> str:
    """``written`` with each word ``pattern`` finds put as ``words`` has it, saying so in ``notes``."""
    for found in dict.fromkeys(m.group(0) for m in pattern.finditer(written)):
        notes.append(f"read '{found}' as {words[found.lower()]}")
    return pattern.sub(lambda m: words[m.group(0).lower()], written)


_NUMBER_VALUES = {"a": "1", "one": "1", "half a": "0.5", "two": "2", "three": "3", "five": "5", "ten": "10"}
_NUMBER_WORDS = re.compile(r"\b(half a|a|one|two|three|five|ten)\s+(?=(?:billion|million)\b)", re.IGNORECASE)
# 'in the tens of millions of parameters', 'a few hundred million params': a size given as an order
# of magnitude is almost always a limit, so it reads as the order's upper edge.
_ORDERS = re.compile(
    r"\b(a few|several|tens of|dozens of|hundreds of|a few hundred|several hundred)\s+"
    r"(million|billion)s?\b(?:\s+of\b)?\s*(?=param)",
    re.IGNORECASE,
)
# 'A few' is up to five, 'several' up to nine.
_ORDER_EDGE = {"a few": "5", "several": "9", "tens of": "99", "dozens of": "99", "hundreds of": "999"}


def _order_value(match: re.Match[str]) -> str:
    """'tens of millions of' -> '99 million'; 'a few hundred million' -> '500 million'."""
    amount = match.group(1).lower()
    if amount.endswith(" hundred"):
        return f"{_ORDER_EDGE[amount.removesuffix(' hundred')]}00 {match.group(2).lower()}"
    return f"{_ORDER_EDGE[amount]} {match.group(2).lower()}"


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


@cache
def _shorthand(kind: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """The words of one kind in ``shorthand.csv`` ('label_slip': 'lables'; 'task_shorthand': 'det'),
    a pattern finding them, and what each reads as."""
    words = {r["written"]: r["read"] for r in table_rows("shorthand.csv") if r["kind"] == kind}
    edge = (r"\b", r"\b") if kind == "label_slip" else (r"(?<![\w'-])", r"(?![\w'-])")
    return re.compile(rf"{edge[0]}(?:{'|'.join(words)}){edge[1]}", re.IGNORECASE), words


def mend(text: str, notes: list[str]) -> str:
    """``text`` in one spacing with its slips and shorthand mended, saying so in ``notes``; acronyms
    and proper names keep their case."""
    written = " ".join(text.split())
    for slip in dict.fromkeys(m.group(0) for m in _SENTINEL_SLIP.finditer(written)):
        # 'sentinal2', 'sentenel 1 and 2': the commonest slips of the commonest sensor name.
        notes.append(f"read '{slip}' as Sentinel-{slip[-1]}")
    written = _expand_sensor_shorthand(_SENTINEL_SLIP.sub(r"sentinel-\1", written))
    written = written.replace("≤", "<=").replace("≥", ">=")
    # 'under a billion parameters', 'half a million samples': number words as the numbers they are.
    written = _NUMBER_WORDS.sub(lambda m: _NUMBER_VALUES[m.group(1).lower()] + " ", written)
    for order in _ORDERS.finditer(written):
        notes.append(f"read '{order.group(0).strip().removesuffix(' of')}' as up to {_order_value(order)}")
    written = _ORDERS.sub(lambda m: _order_value(m) + " ", written)
    written = _mend_words(written, *_shorthand("label_slip"), notes)
    # 'ship det', 'scene clf', 'building seg': the task words practitioners shorten.
    return _mend_words(written, *_shorthand("task_shorthand"), notes)
