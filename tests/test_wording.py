"""Misspelt words and task descriptions in other languages."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.ask_cli import render_text
from agent.interpreter import interpret
from agent.settings import Settings
from agent.wording import query_language, read_slips
from benchmark_queries.generate import load_queries
from rsfmd.loader import load_records


def _settings() -> Settings:
    return Settings(memory={"enabled": False})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("segmentaton of buidlings", "segmentation of buildings"),
        ("wildfre mapping", "wildfire mapping"),
        ("deforstation alerts", "deforestation alerts"),
        ("crop type clasificaton", "crop type classification"),  # two slips in a long word
    ],
)
def test_misspelt_vocabulary_words_are_mended(text: str, read: str) -> None:
    mended, pairs = read_slips(text)
    assert mended == read
    assert pairs


@pytest.mark.parametrize(
    "text",
    [
        "terramind for burn scars",  # a model name one word away from 'terrain' stays itself
        "harmonize the tiles",  # English words are never mended
        "temporally dense cryospheric populating",  # changes of form at the end are no slips
        "theis caron",  # words under six letters are left alone
    ],
)
def test_words_that_are_not_slips_stay(text: str) -> None:
    assert read_slips(text) == (text, [])


def test_no_model_name_or_alias_in_the_database_is_mended() -> None:
    names = [n for r in load_records() for n in (r.model_name, *r.aliases)]
    assert len(names) > 224
    assert [(n, read_slips(n.lower())[1]) for n in names if read_slips(n.lower())[1]] == []


def test_no_benchmark_query_is_mended_or_taken_for_another_language() -> None:
    queries = load_queries()
    assert len(queries) == 75
    for query in queries:
        assert read_slips(query.text.lower())[1] == [], query.id
        assert query_language(query.text) is None, query.id


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Cartographie des inondations avec Sentinel-1", "French"),
        ("Kartierung von Überschwemmungen mit Sentinel-1", "German"),
        ("mapeo de inundaciones con imágenes Sentinel-1", "Spanish"),
        ("mappatura delle alluvioni con Sentinel-1", "Italian"),
        ("detecção de navios em imagens SAR", "Portuguese"),
        ("洪水制图 Sentinel-1", "a non-Latin script"),
        ("Карта наводнений по Sentinel-1", "a non-Latin script"),
        ("用Sentinel-2做土地覆盖分类", "a non-Latin script"),  # a sensor name inside the Chinese text
        ("flood mapping in 北京 with Sentinel-1", None),
        ("flood mapping in the Po valley with Sentinel-1", None),
        ("per-pixel land cover de la Amazonia region with Landsat", None),
        ("Sentinel-2", None),
    ],
)
def test_the_language_of_a_task_is_named(text: str, language: str | None) -> None:
    assert query_language(text) == language


def test_interpreter_reads_the_mended_words_and_says_so() -> None:
    result = interpret("segmentaton of buidlings in aerial images")
    assert result.query.task_type == "segmentation"
    assert "read 'segmentaton' as 'segmentation'" in result.notes
    assert "read 'buidlings' as 'buildings'" in result.notes
    # An exact reading needs no mending and gets no note.
    assert interpret("segmentation of buildings in aerial images").notes == []


def test_a_task_in_another_language_is_answered_with_what_to_do() -> None:
    selection = select_models("Cartographie des inondations avec Sentinel-1", settings=_settings())
    note = next(a for a in selection.assumptions if "written in French" in a)
    assert "describe the task in English" in note
    text = render_text(selection)
    assert f"Noted: {note}" in text
    assert "Understood: SAR; Sentinel-1" in text
    english = select_models("flood mapping with Sentinel-1", settings=_settings())
    assert not any("written in" in a for a in english.assumptions)


@pytest.mark.parametrize(
    ("phrase", "said"),
    [
        ("Apache-2.0 licence", "an Apache-2.0 licence"),
        ("MIT licence", "an MIT licence"),
        ("BSD licence", "a BSD licence"),
        ("CNN backbone", "a CNN backbone"),
        ("transformer backbone", "a transformer backbone"),
    ],
)
def test_the_article_follows_how_a_phrase_is_said(phrase: str, said: str) -> None:
    from agent.wording import with_article

    assert with_article(phrase) == said
