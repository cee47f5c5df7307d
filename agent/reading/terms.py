"""Vocabulary terms, benchmark datasets and suites named in free text, found by their patterns.

Every synonym of the RS-FMD vocabularies becomes a pattern (any case and spacing; a task also in
the plural and by its verb, 'map floods'); a short or common synonym counts only in a written form
of ``cased_forms.csv``. Patterns are compiled the first time a text holds their probe word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from wordfreq import zipf_frequency

from agent.reading.probes import Probed
from agent.reading.tables import table_rows, word_list
from agent.reading.task_forms import (
    SEP,
    agent_nouns,
    binary_pattern,
    shared_noun_pattern,
    task_nouns,
    task_qualifier,
    verb_forms,
    verb_pattern,
)
from rsfmd.datasets import get_dataset_table, get_suite_table
from rsfmd.vocab import Vocabulary, get_vocabulary, list_vocabularies, term_key

TermSpan = tuple[str, int, int]
"""A vocabulary term found in a text: (canonical, start, end)."""


@cache
def _cased_forms() -> dict[tuple[str, str], tuple[str, ...]]:
    """The written forms in which an unsafe synonym is still safe: an acronym in capitals ('EMIT',
    'US'), a company or country with its capital ('Planet', 'Turkey'). Matched case-sensitively."""
    return {
        (r["vocabulary"], r["synonym"]): tuple(r["forms"].split("|")) for r in table_rows("cased_forms.csv")
    }


@cache
def unsafe_in_text() -> frozenset[str]:
    """Synonyms too short or too common to match safely inside free text (but in a cased form)."""
    return frozenset(word_list("unsafe_words.txt")) | {synonym for _, synonym in _cased_forms()}


def _phrase_pattern(phrase: str, *, plural: bool = False) -> str:
    """A pattern for ``phrase`` in any spacing; with ``plural``, its last word may take an 's'
    ('calving fronts' for 'calving front'). A task noun ending a phrase of several words may
    follow a qualifier of the task ('crop type semantic segmentation')."""
    parts = [re.escape(p) for p in re.split(r"[\s\-_./]+", phrase.lower()) if p]
    last = parts[-1]
    ending = "(?:e?s)?" if plural and len(last) > 2 and last.isalpha() and not last.endswith("s") else ""
    joined = SEP.join(parts)
    if plural and len(parts) == 2 and parts[0].endswith("ed"):
        # 'collapsed or damaged buildings': another participle may join the first word.
        joined = parts[0] + r"(?:\s+(?:or|and|&)\s+[a-z]+ed)?" + SEP + last
    if len(parts) > 1 and last in task_nouns():
        joined = SEP.join(parts[:-1]) + f"(?:{SEP}(?:{task_qualifier()}))?" + SEP + last
    # A term followed by '.<digit>' is part of a version ('Prithvi-EO-1.0' does not name EO-1); a
    # short code after a hyphen is part of a product name ('ESP32-S3' does not name Sentinel-3).
    code = r"(?<![a-z0-9]-)" if len(phrase) <= 3 and any(c.isdigit() for c in phrase) else ""
    return r"(?<![a-z0-9])" + code + joined + ending + r"(?![a-z0-9]|\.\d)"


def fold_accents(text: str) -> str:
    """``text`` without accents ('São Paulo' -> 'Sao Paulo', 'İstanbul' -> 'Istanbul'), of the same
    length; unchanged when dropping them would change its length."""
    folded = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return folded if len(folded) == len(text) else text


def _probe(phrase: str) -> str:
    """A piece of ``phrase`` any match must contain (its longest word): patterns whose probe is not
    in the text are skipped without running them."""
    return max(re.split(r"[\s\-_./]+", phrase), key=len)


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


Terms = Probed[_Term]
"""Terms, longest first, run only on a text holding their probe word."""


def _terms(terms: list[_Term]) -> Terms:
    # A stable sort: equally long terms keep the order they were made in.
    return Probed(sorted(terms, key=lambda term: -term.length), lambda term: term.probe)


def _phrase_term(phrase: str, canonical: str, *, plural: bool = False) -> _Term:
    """A term matching ``phrase`` in any case and spacing, on the lower-cased text."""
    return _Term(_phrase_pattern(phrase, plural=plural), canonical, len(phrase), _probe(phrase.lower()), True)


@cache
def _matcher(vocabulary: str) -> Terms:
    """A term for every synonym, longest first.

    Patterns are in lower case and run on the lower-cased text, except those of the written forms
    in ``cased_forms.csv``, which run on the text as written.
    """
    vocab = get_vocabulary(vocabulary)
    unsafe = unsafe_in_text()
    out: list[_Term] = []
    for canonical in vocab.names:
        # In table order, so that equally long terms keep one order whatever the hash seed.
        for synonym in dict.fromkeys(
            form for s in vocab.terms(canonical) for form in (s.lower(), fold_accents(s.lower()))
        ):
            for form in _cased_forms().get((vocabulary, synonym), ()):
                # A capitalised word opening a sentence may be the plain word ('Planet-wide').
                opening = form.istitle() and vocabulary == "sensors"
                before = r"(?:(?<=[^.!?\s]\s)|(?<=[(/'\"]))" if opening else r"(?<![A-Za-z0-9])"
                pattern = before + re.escape(form) + r"(?![A-Za-z0-9]|\.\d)"
                out.append(_Term(pattern, canonical, len(form), form.lower(), False))
            if synonym in unsafe or len(synonym) < 2:
                continue
            # Tasks and sensors are often written in the plural ('mapping calving fronts', 'orthophotos').
            out.append(_phrase_term(synonym, canonical, plural=vocabulary in {"applications", "sensors"}))
            if vocabulary != "applications":
                continue
            # A task's verb, its 'X / non-X' and its noun shared with another object: the object
            # keeps its longest word unless that word was the noun ('mapping').
            head_probe = _probe(synonym.rsplit(" ", 1)[0])
            if verb := verb_pattern(synonym):
                out.append(_Term(verb, canonical, len(synonym), head_probe, True))
            if binary := binary_pattern(synonym):
                out.append(_Term(binary, canonical, len(synonym), head_probe, True))
            if shared := shared_noun_pattern(synonym):
                out.append(_Term(shared, canonical, len(synonym) - 1, head_probe, True))
    if vocabulary == "applications":
        out.extend(_other_task_nouns(vocab, unsafe))
    return _terms(out)


def _other_task_nouns(vocab: Vocabulary, unsafe: frozenset[str]) -> list[_Term]:
    """An application named with another task noun ('forest type mapping' for 'forest type
    classification') or by what does it ('vessel detector'): terms for such forms that name no
    application themselves and follow from one application only, each a character shorter than
    its written length, so that a synonym matching the same words comes first."""
    nouns = list(verb_forms())  # in table order, so that terms keep one order whatever the hash seed
    agents = agent_nouns()
    written = {term_key(t) for name in vocab.names for t in vocab.terms(name)}
    forms: dict[str, list[str]] = {}
    for canonical in vocab.names:
        for synonym in vocab.terms(canonical):
            *head, noun = synonym.lower().split()
            if not head or noun not in nouns or synonym.lower() in unsafe:
                continue
            for other in [*nouns, *agents[noun]]:
                form = " ".join([*head, other])
                if other != noun and term_key(form) not in written:
                    forms.setdefault(form, []).append(canonical)
    return [
        _phrase_term(form, names[0], plural=True)._replace(length=len(form) - 1)
        for form, names in forms.items()
        if len(set(names)) == 1
    ]


WORD = re.compile(r"[a-z0-9]+")


@cache
def suite_terms() -> Terms:
    """Patterns for benchmark suite names ('PANGAEA', 'GEO-Bench-2'), longest first, any case."""
    table = get_suite_table()
    return _terms(
        [
            _phrase_term(name, canonical)
            for canonical in table.names
            for name in dict.fromkeys(table.terms(canonical))
        ]
    )


@cache
def dataset_terms(corpora: bool = False) -> Terms:
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
        if (key := " ".join(WORD.findall(t.lower())))
    ]
    # All of them in one text, to rule out most names with one search (lines never join words).
    all_singular = "\n".join(singular for _, singular in app_terms)
    out: list[_Term] = []
    for canonical in table.names:
        if not corpora and not table.column(canonical, "task_type"):
            continue  # a pretraining corpus (SeCo, SSL4EO-S12) is no benchmark; its name is the model's
        for name in dict.fromkeys([canonical, *table.terms(canonical)[1:]]):
            words = WORD.findall(name.lower())
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
    return _terms(out)


def _singular(phrase: str) -> str:
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in phrase.split())


_DATASET_WORD_ZIPF = 3.0  # 'aid' 4.6, 'flair' 3.3: everyday words; 'eurosat', 'pastis' are not


def overlaps(start: int, end: int, ranges: Sequence[tuple[int, int]]) -> bool:
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
    matchers += [dataset_terms(), dataset_terms(corpora=True), suite_terms()]
    sources = {term.pattern for terms in matchers for term in terms}
    for source in sources:
        _regex(source)
    return len(sources)


# A plural noun right before a determiner is a verb ('the project ships a toolbox', 'she maps the
# delta'): no mention of the thing.
_AS_VERB = re.compile(
    r"\s+(?:a(?!\s+(?:few|couple|lot|bit|little|dozen)\b)|an|the|its|our|their|his|her|my|your|this|these|those)\b"
)


def _verb_use(text: str, start: int, end: int) -> bool:
    word = text[start:end]
    return (
        word.isalpha() and word.endswith("s") and not word.endswith("ss") and bool(_AS_VERB.match(text, end))
    )


def scan_terms(text: str, patterns: Terms) -> list[tuple[str, int, int]]:
    """(canonical, start, end) of every match in ``text``, in order; patterns run longest first
    and a match overlapping an earlier one is dropped. A pattern whose probe is not in the text is
    not run."""
    taken: list[tuple[int, int]] = []
    found: list[tuple[str, int, int]] = []
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer: spans must agree
        text = lowered
    for pattern, canonical, _, _, on_lowered in patterns.candidates(lowered):
        regex = _regex(pattern)
        # (a verb pattern whose object may be the last of a short list: see verb_pattern)
        coordinated = "first" in regex.groupindex
        for match in regex.finditer(lowered if on_lowered else text):
            start, end = match.span()
            if coordinated and match.group("first"):
                # 'map floods and land cover': the second object is read from where it starts, so
                # the first keeps its own reading ('map floods').
                start = match.end("first")
            if overlaps(start, end, taken) or _verb_use(lowered, start, end):
                continue
            taken.append((start, end))
            found.append((canonical, start, end))
    found.sort(key=lambda item: item[1])
    return found


def find_terms(text: str, vocabulary: str) -> list[TermSpan]:
    """Canonical terms of a vocabulary found in ``text``, longest match first, no overlaps."""
    return scan_terms(text, _matcher(vocabulary))


def blank_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with every character inside one of ``spans`` replaced by a space (same length)."""
    return "".join(" " if any(s <= i < e for s, e in spans) else ch for i, ch in enumerate(text))
