"""Words the vocabularies do not hold: misspelt words and task descriptions in another language.

Both readings lean on word frequencies (the ``wordfreq`` package, offline):

- a word the large English word list does not know, close to a word of a vocabulary phrase ('buidlings',
  'segmentaton'), is read as that word;
- a text whose words are far more common in French, German, Spanish, Italian, Portuguese or Dutch
  than in English is named as such, so the answer can say that the offline rules read English.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache

from wordfreq import zipf_frequency

from rsfmd.datasets import get_dataset_table
from rsfmd.vocab import Vocabulary, get_vocabulary, list_vocabularies

OTHER_LANGUAGES = {
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
}
_LETTERS = re.compile(r"[^\W\d_]+")
_SCRIPT_RUNS = re.compile(r"[a-z\u00c0-\u024f]+|[^a-z\u00c0-\u024f]+")
_ASCII_WORD = re.compile(r"[a-z]+")
_ET_AL = re.compile(r"\bet al\b")
# A word is foreign when another language uses it this much more (zipf units: log10 per billion
# words) and at least this often; 'per', 'de' and 'con' are English too, so one word never decides.
_FOREIGN_MARGIN = 1.5
_FOREIGN_FLOOR = 2.5
_ENGLISH_MARGIN = 0.5
# Misspellings: only words English does not use, close to a vocabulary word.
_KNOWN_ZIPF = 1.0
_SLIP_MIN_LENGTH = 6
_SLIP_VOCABULARIES = ("applications", "task_types", "modalities", "sensors", "regions")


def _zipf(word: str, language: str) -> float:
    return zipf_frequency(word, language, wordlist="small")


def query_language(text: str) -> str | None:
    """The language a task description is written in when it is not English, else None.

    Returns a language name ('French') or 'a non-Latin script'; None for English, for text too
    short to tell, and for mixed text where English words hold their own.
    """
    # Runs of one script: '用sentinel' is the Chinese '用' and the sensor name 'sentinel'.
    words = [run for w in _LETTERS.findall(_ET_AL.sub(" ", text.lower())) for run in _SCRIPT_RUNS.findall(w)]
    known = _vocabulary_words()[0]  # sensor and dataset names are written in no script in particular
    letters = [c for w in words if w not in known for c in w]
    latin = sum(1 for c in letters if unicodedata.name(c, "").startswith("LATIN"))
    if len(letters) - latin >= 2 and latin < len(letters) / 2:
        return "a non-Latin script"
    foreign: Counter[str] = Counter()
    english = 0
    for word in words:
        if len(word) < 2:
            continue
        en = _zipf(word, "en")
        other, language = max((_zipf(word, code), code) for code in OTHER_LANGUAGES)
        if other >= _FOREIGN_FLOOR and other >= en + _FOREIGN_MARGIN:
            foreign[language] += 1
        elif en >= _FOREIGN_FLOOR and en >= other + _ENGLISH_MARGIN:
            english += 1
    total = sum(foreign.values())
    if (total >= 3 or (total == 2 and not english)) and total > 2 * english:
        return OTHER_LANGUAGES[foreign.most_common(1)[0][0]]
    return None


_FUNCTION_WORD_ZIPF = 6.0  # 'in' 7.3, 'with' 6.9, 'these' 6.2; 'mapping' 4.1, 'flood' 4.3


@cache
def _vocabulary_words() -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """(every word of every vocabulary, slip targets by first two letters)."""
    known: set[str] = set()
    targets: set[str] = set()
    tables: list[tuple[str, Vocabulary]] = [(name, get_vocabulary(name)) for name in list_vocabularies()]
    tables.append(("datasets", get_dataset_table()))
    for name, vocab in tables:
        for canonical in vocab.names:
            for phrase in vocab.terms(canonical):
                # Function words inside a phrase ('described in words') are English, not names.
                words = [
                    w for w in _ASCII_WORD.findall(phrase.lower()) if _zipf(w, "en") < _FUNCTION_WORD_ZIPF
                ]
                known.update(words)
                if name in _SLIP_VOCABULARIES:
                    targets.update(w for w in words if len(w) >= _SLIP_MIN_LENGTH)
    by_prefix: dict[str, list[str]] = {}
    for word in sorted(targets):
        by_prefix.setdefault(word[:2], []).append(word)
    return frozenset(known), {k: tuple(v) for k, v in by_prefix.items()}


def read_slips(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with misspelt vocabulary words mended, and the (written, read) pairs.

    A word of six letters or more is mended only when English does not use it, no vocabulary
    holds it, and exactly one vocabulary word with the same first two letters is one typing slip
    away (a letter added, dropped, changed, or two swapped). From ten letters on two slips are
    allowed, unless both fall in the last three letters, where words change form ('temporally',
    'cryospheric'). Lower-case text is expected.
    """
    known, by_prefix = _vocabulary_words()
    mended: list[tuple[str, str]] = []

    def mend(match: re.Match[str]) -> str:
        word = match.group(0)
        if len(word) < _SLIP_MIN_LENGTH or word in known or zipf_frequency(word, "en") >= _KNOWN_ZIPF:
            return word
        found: dict[int, set[str]] = {}
        for target in by_prefix.get(word[:2], ()):
            # A plural is read against the singular word ('buidlings' as 'buildings').
            plural = word.endswith("s") and not target.endswith("s")
            stem = word[:-1] if plural else word
            if abs(len(target) - len(stem)) > 2:
                continue
            distance = _edits(stem, target)
            if distance == 1 or (distance == 2 and len(stem) >= 10 and not _tail_only(stem, target)):
                found.setdefault(distance, set()).add(target + "s" if plural else target)
        closest = found[min(found)] if found else set()
        if len(closest) != 1 or (read := closest.pop()) == word:
            return word
        mended.append((word, read))
        return read

    return _ASCII_WORD.sub(mend, text), mended


def _edits(a: str, b: str) -> int:
    """Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current.append(value)
        previous2, previous = previous, current
    return previous[-1]


def _tail_only(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ only in their last three letters (a change of form)."""
    shared = 0
    for ca, cb in zip(a, b, strict=False):
        if ca != cb:
            break
        shared += 1
    return shared >= min(len(a), len(b)) - 3


def with_article(phrase: str) -> str:
    """``phrase`` after 'a' or 'an' as it is said: 'an Apache-2.0 licence', 'an MIT licence',
    'a CNN backbone', 'a BSD licence'."""
    word = re.split(r"[\s/-]", phrase.strip(), maxsplit=1)[0]
    letters = re.sub(r"[^A-Za-z]", "", word)
    acronym = len(letters) > 1 and letters.isupper()
    first = letters[:1]
    vowel_sound = first in "AEFHILMNORSX" if acronym else first.lower() in "aeiou"
    return f"{'an' if first and vowel_sound else 'a'} {phrase}"
