"""The 75 benchmark queries: committed, deterministic, covering every template, coherent slots."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from benchmark_queries.generate import (
    DEFAULT_COUNT,
    generate_queries,
    load_queries,
    load_slot_vocabulary,
    load_templates,
    main,
    queries_to_jsonl,
    select_queries,
)
from rsfmd.vocab import application_task_type, get_vocabulary, sensor_modality


def test_committed_queries_equal_a_fresh_generation() -> None:
    committed = load_queries()
    assert committed == generate_queries()
    assert main(["--check"]) == 0


def test_generation_is_deterministic_and_seeded() -> None:
    assert queries_to_jsonl(generate_queries(seed=7)) == queries_to_jsonl(generate_queries(seed=7))
    assert generate_queries(seed=7) != generate_queries(seed=8)


def test_seventy_five_queries_cover_all_sixteen_templates() -> None:
    queries = load_queries()
    templates = [t.id for t in load_templates()]
    assert len(queries) == DEFAULT_COUNT == 75
    assert len(templates) == 16
    counts = Counter(q.template for q in queries)
    assert set(counts) == set(templates)
    assert min(counts.values()) >= 4
    assert len({q.id for q in queries}) == 75
    assert len({q.text for q in queries}) == 75


def test_slots_fill_the_template_and_are_vocabulary_terms() -> None:
    templates = {t.id: t for t in load_templates()}
    for query in load_queries():
        template = templates[query.template]
        assert "{" not in query.text and "}" not in query.text
        for name in template.placeholders:
            assert name in query.slots, (query.id, name)
        for key, value in template.implied.items():
            assert query.slots[key] == value
        if "application" in query.slots:
            assert (
                get_vocabulary("applications").get(query.slots["application"]) == query.slots["application"]
            )
            assert query.slots["application"] in query.text
        if "sensor" in query.slots:
            assert get_vocabulary("sensors").get(query.slots["sensor"]) == query.slots["sensor"]
        if "modality" in query.slots:
            assert get_vocabulary("modalities").get(query.slots["modality"]) == query.slots["modality"]
        if "region" in query.slots:
            assert query.slots["region"] in query.text


def test_slots_are_coherent() -> None:
    vocab = load_slot_vocabulary()
    templates = {t.id: t for t in load_templates()}
    for query in load_queries():
        slots = query.slots
        if "sensor" in slots:
            assert sensor_modality(slots["sensor"]) == slots["modality"], query.id
        if "application" in slots and "modality" in slots:
            assert slots["modality"] in vocab.application_modalities(slots["application"]), query.id
        allowed = templates[query.template].task_types
        if allowed is not None and "application" in slots:
            assert application_task_type(slots["application"]) in allowed, query.id
        if "region" in slots and "application" in slots:
            assert slots["region"] in vocab.application_regions(slots["application"]), query.id


def test_queries_vary_in_task_sensor_and_region() -> None:
    queries = load_queries()
    applications = {q.slots["application"] for q in queries if "application" in q.slots}
    task_types = {application_task_type(a) for a in applications}
    sensors = [q.slots["sensor"] for q in queries if "sensor" in q.slots]
    regions = [q.slots["region"] for q in queries if "region" in q.slots]
    modalities = {q.slots["modality"] for q in queries if "modality" in q.slots}
    assert len(applications) >= 30
    assert len(task_types) >= 6
    assert len(set(sensors)) >= 0.8 * len(sensors)
    assert len(set(regions)) == len(regions)
    assert {"RGB", "Multispectral", "SAR", "Hyperspectral"} <= modalities


def test_sensor_example_sentinel1_is_sar() -> None:
    assert sensor_modality("Sentinel-1") == "SAR"


def test_select_queries_by_id_and_template() -> None:
    queries = load_queries()
    assert [q.id for q in select_queries(queries, "q01, q02")] == ["q01", "q02"]
    assert {q.template for q in select_queries(queries, "B1")} == {"B1"}
    assert select_queries(queries, "") == queries
    with pytest.raises(ValueError, match="q99"):
        select_queries(queries, "q99")


def test_bad_query_line_names_file_and_line(tmp_path: Path) -> None:
    good = json.dumps(load_queries()[0].model_dump())
    path = tmp_path / "queries.jsonl"
    path.write_text(good + "\n" + '{"id": "q02"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"queries\.jsonl:2"):
        load_queries(path)


def test_check_reports_a_stale_file(tmp_path: Path) -> None:
    stale = tmp_path / "queries.jsonl"
    stale.write_text("", encoding="utf-8")
    assert main(["--check", "--out", str(stale)]) == 1
    assert main(["--out", str(stale)]) == 0
    assert main(["--check", "--out", str(stale)]) == 0
