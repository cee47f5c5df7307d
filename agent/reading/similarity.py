"""An application the rules do not name, guessed by the similarity of the task's words to each
application's entry (with a sentence encoder, when one is given). Words that say nothing of the
application are in ``generic_words.txt``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from agent.reading.tables import word_list
from agent.reading.terms import blank_spans, find_terms
from rsfmd.vocab import get_vocabulary

Encode = Callable[[Sequence[str]], np.ndarray]
"""Encodes texts to L2-normalised row vectors."""


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


@cache
def _generic_words() -> frozenset[str]:
    """Words that say nothing of the application: a text made only of these and of sensor, modality
    or region names ("SAR", "Sentinel-2 imagery") gets no application guessed by similarity."""
    return frozenset(word_list("generic_words.txt"))


def _says_more_than_its_data(text: str) -> bool:
    spans = [(s, e) for name in ("sensors", "modalities", "regions") for _, s, e in find_terms(text, name)]
    return any(w not in _generic_words() for w in re.findall(r"[a-z]{3,}", blank_spans(text, spans)))


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


def guess_application(
    task_text: str,
    similar_text: str,
    task_terms: list[tuple[str, int, int]],
    encode: Encode,
    similarity_threshold: float,
    notes: list[str],
) -> str | None:
    """The application most similar to the task, when its words say more than its data and the
    similarity reaches ``similarity_threshold``; ``notes`` says how it was read."""
    if not _says_more_than_its_data(task_text):
        return None
    # A task named in the text ('retrieval') limits the guess to applications of that task.
    named = task_terms[0][0] if task_terms else None
    similar = _similar_application(similar_text, encode, similarity_threshold, named)
    named_for = {m for m, _, _ in find_terms(similar[0], "modalities")} if similar else set()
    if similar and named_for & {"SAR", "Hyperspectral", "Multispectral", "RGB", "LiDAR"}:
        # An application named for a kind of data ('SAR target recognition') must be guessed
        # from the task's words too, not from its data alone: 'SAR-optical image matching' is not one.
        data = [(s, e) for name in ("sensors", "modalities") for _, s, e in find_terms(similar_text, name)]
        data += [m.span() for m in re.finditer(r"\boptical\b", similar_text, re.IGNORECASE)]
        words = " ".join(blank_spans(similar_text, data).split())
        if _application_score(words, similar[0], encode) < similarity_threshold:
            similar = None
    if similar:
        notes.append(f"application read as '{similar[0]}' by text similarity ({similar[1]:.2f})")
        return similar[0]
    return None
