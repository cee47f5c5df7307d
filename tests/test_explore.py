"""The Explore tab's pure parts: text search over every field a user looks for, and the record view."""

from __future__ import annotations

import re

import pytest

from rsfmd.loader import load_records
from rsfmd.schema import ModelRecord
from ui.explore import RecordFilter, apply_filter, matches_text, search_text
from ui.record_view import record_detail_html, rows_table


@pytest.fixture(scope="module")
def records() -> list[ModelRecord]:
    """The shipped RS-FMD."""
    return load_records(None)


def _names(found: list[ModelRecord]) -> set[str]:
    return {r.model_name for r in found}


def _in_name_or_description(record: ModelRecord, text: str) -> bool:
    text = text.lower()
    return any(text in t.lower() for t in (record.model_name, record.short_description, *record.aliases))


def test_search_finds_a_sensor_named_only_in_the_sensor_list(records: list[ModelRecord]) -> None:
    found = apply_filter(records, RecordFilter(text="Sentinel-1"))
    listed = [r for r in records if "Sentinel-1" in r.supported_sensors]
    assert _names(listed) <= _names(found)
    assert any(not _in_name_or_description(r, "Sentinel-1") for r in listed)  # the old search missed these


def test_a_sensor_synonym_finds_the_sensor_as_a_word(records: list[ModelRecord]) -> None:
    by_synonym = _names(apply_filter(records, RecordFilter(text="S1")))
    assert _names([r for r in records if "Sentinel-1" in r.supported_sensors]) <= by_synonym
    for record in records:
        if record.model_name in by_synonym:
            text = search_text(record)
            assert "sentinel-1" in text or re.search(r"(?<![a-z0-9])s1(?![a-z0-9])", text), record.model_name


def test_search_finds_benchmark_and_pretraining_datasets(records: list[ModelRecord]) -> None:
    kuro = _names(apply_filter(records, RecordFilter(text="kuro siwo")))
    assert kuro == {
        r.model_name for r in records if any("kuro siwo" in b.dataset.lower() for b in r.benchmarks)
    }
    assert kuro and not any(_in_name_or_description(r, "kuro siwo") for r in records if r.model_name in kuro)
    ssl4eo = [r for r in records if any("SSL4EO-S12" in (p.dataset or "") for p in r.pretraining_phases)]
    assert ssl4eo and _names(ssl4eo) <= _names(apply_filter(records, RecordFilter(text="SSL4EO-S12")))


def test_search_finds_applications_and_needs_every_word(records: list[ModelRecord]) -> None:
    tagged = [r for r in records if any(b.application == "flood mapping" for b in r.benchmarks)]
    assert tagged and _names(tagged) <= _names(apply_filter(records, RecordFilter(text="flood mapping")))
    both = apply_filter(records, RecordFilter(text="EuroSAT Sentinel-1"))
    assert both and all(matches_text(r, "EuroSAT") and matches_text(r, "Sentinel-1") for r in both)
    assert len(both) < len(apply_filter(records, RecordFilter(text="EuroSAT")))
    assert apply_filter(records, RecordFilter(text="no such words anywhere")) == []


def test_no_filter_keeps_every_record(records: list[ModelRecord]) -> None:
    assert len(apply_filter(records, RecordFilter())) == len(records)
    assert len(apply_filter(records, RecordFilter(text="   "))) == len(records)


def test_record_view_tabulates_variants_phases_benchmarks_and_sources(records: list[ModelRecord]) -> None:
    record = next(r for r in records if len(r.variants) > 1 and r.pretraining_phases and r.benchmarks)
    html = record_detail_html(record)
    variants = re.search(r'<table class="remsa-table remsa-variants">(.*?)</table>', html)
    assert variants and variants.group(1).count("<tr>") == len(record.variants) + 1
    assert all(v.name in variants.group(1) for v in record.variants)
    phases = re.search(r'<table class="remsa-table remsa-phases">(.*?)</table>', html)
    assert phases and phases.group(1).count("<tr>") == len(record.pretraining_phases) + 1
    assert "{'" not in html and "[{" not in html  # no Python reprs of nested fields
    sources = re.search(r'<table class="remsa-table remsa-sources">(.*?)</table>', html)
    assert sources and all(f'href="{s.url}"' in sources.group(1) for s in record.sources)
    assert f'href="{record.benchmarks[0].source_url}"' in html


def test_record_view_escapes_text_and_links_only_web_addresses(records: list[ModelRecord]) -> None:
    record = next(r for r in records if r.variants)
    hostile = record.model_copy(
        update={
            "short_description": "fine <script>alert(1)</script> model",
            "variants": [record.variants[0].model_copy(update={"name": "big <b>x</b>"})],
        }
    )
    html = record_detail_html(hostile)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<b>x</b>" not in html and "big &lt;b&gt;x&lt;/b&gt;" in html
    table = rows_table([{"page": "javascript:alert(1)", "url": "https://example.org/a?b=1&c=2"}])
    assert 'href="javascript' not in table and "javascript:alert(1)" in table
    assert 'href="https://example.org/a?b=1&amp;c=2"' in table
