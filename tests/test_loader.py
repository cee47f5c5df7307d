"""Loader and validator: every bad line is reported with file, line and field; writes are atomic."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rsfmd.loader import (
    DatabaseError,
    atomic_write_text,
    content_hash,
    load_database,
    load_records,
    write_records,
)
from rsfmd.vocab import get_vocabulary


@pytest.fixture
def broken(fixtures_dir: Path) -> list[str]:
    result = load_database(fixtures_dir / "broken.jsonl", strict=False)
    return [str(e) for e in result.errors]


@pytest.mark.parametrize(
    ("line", "field", "reason"),
    [
        (2, "", "invalid JSON"),
        (3, "sources", "Field required"),
        (4, "paper_link", "not a valid http(s) URL"),
        (5, "num_parameters", "greater than or equal to 0"),
        (6, "benchmarks[0]", "outside [0, 100]"),
        (7, "supported_sensors", "unknown sensor 'Hubble'"),
        (8, "model_id", "duplicate id 'good-model'"),
        (9, "", "one JSON object"),
        (10, "benchmarks[0]", "one value per metric"),
        (11, "model_id", "should match pattern"),
        (12, "release_date", "valid date"),
    ],
)
def test_each_broken_line_is_named(broken: list[str], line: int, field: str, reason: str) -> None:
    prefix = f"broken.jsonl:{line}: " + (f"{field}" if field else "")
    matches = [e for e in broken if prefix in e and reason in e]
    assert matches, f"no error for line {line} field {field!r} containing {reason!r}; got:\n" + "\n".join(
        broken
    )


def test_valid_line_survives_next_to_broken_ones(fixtures_dir: Path) -> None:
    result = load_database(fixtures_dir / "broken.jsonl", strict=False)
    assert result.records[0].model_id == "good-model"


def test_strict_load_raises_with_every_error(fixtures_dir: Path) -> None:
    with pytest.raises(DatabaseError) as err:
        load_records(fixtures_dir / "broken.jsonl")
    assert len(err.value.errors) >= 11
    assert "remsa db validate" in str(err.value)


def test_missing_path_says_what_to_give(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"give a \.jsonl file or a folder"):
        load_records(tmp_path / "nope.jsonl")


def test_module_command_reports_a_missing_path_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rsfmd.__main__ import main

    assert main([str(tmp_path / "nope.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no RS-FMD data at ") and "Traceback" not in err


def test_module_command_counts_errors_per_file(
    fixtures_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rsfmd.__main__ import main

    assert main([str(fixtures_dir / "broken.jsonl")]) == 1
    assert "broken.jsonl:" in capsys.readouterr().out


def test_shipped_database_is_valid() -> None:
    result = load_database(strict=False)
    assert result.errors == []
    assert result.records


def test_every_record_value_is_in_the_vocabulary() -> None:
    sensors = set(get_vocabulary("sensors").names)
    modalities = set(get_vocabulary("modalities").names)
    task_types = set(get_vocabulary("task_types").names)
    metrics = set(get_vocabulary("metrics").names)
    for record in load_records():
        assert set(record.supported_sensors) <= sensors, record.model_id
        assert set(record.modalities) <= modalities, record.model_id
        assert set(record.all_task_types) <= task_types, record.model_id
        for bench in record.benchmarks:
            assert set(bench.metrics) <= metrics, record.model_id
            assert set(bench.sensor) <= sensors, record.model_id


def test_every_record_has_a_source() -> None:
    for record in load_records():
        assert record.sources and all(s.url.startswith("http") for s in record.sources), record.model_id


def test_no_result_is_recorded_twice_for_a_model() -> None:
    """The same result from two sources (e.g. a README and a reading note) is kept once."""
    for record in load_records():
        seen: dict[tuple[object, ...], str] = {}
        for bench in record.benchmarks:
            key = (
                bench.dataset,
                bench.task_type,
                tuple(bench.metrics),
                tuple(bench.metrics_value),
                bench.setting,
                bench.sampling_percentage,
                bench.variant,
            )
            assert key not in seen, f"{record.model_id}: {key} from {seen.get(key)} and {bench.source_url}"
            seen[key] = bench.source_url


def test_attachment_for_unknown_model_is_an_error(tmp_path: Path, fixtures_dir: Path) -> None:
    data = tmp_path / "data"
    (data / "benchmarks").mkdir(parents=True)
    good = (fixtures_dir / "broken.jsonl").read_text().splitlines()[0]
    (data / "models.jsonl").write_text(good + "\n")
    bench = {
        "task_type": "classification",
        "dataset": "EuroSAT",
        "metrics": ["OA"],
        "metrics_value": [97.0],
        "source_url": "https://example.org/t",
    }
    lines = [
        json.dumps({"model_id": "good-model", "benchmark": bench}),
        json.dumps({"model_id": "ghost", "benchmark": bench}),
    ]
    (data / "benchmarks" / "extra.jsonl").write_text("\n".join(lines) + "\n")
    result = load_database(data, strict=False)
    assert len(result.records[0].benchmarks) == 1
    assert any("extra.jsonl:2: model_id: no record with id 'ghost'" in str(e) for e in result.errors)


def test_content_hash_changes_with_content(tmp_path: Path, fixtures_dir: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    good = (fixtures_dir / "broken.jsonl").read_text().splitlines()[0]
    (data / "models.jsonl").write_text(good + "\n")
    first = content_hash(data)
    assert first == content_hash(data)
    (data / "models.jsonl").write_text(good.replace("Good Model", "Good Model 2") + "\n")
    assert content_hash(data) != first


def test_atomic_write_leaves_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "models.jsonl"
    target.write_text("old\n")

    with pytest.raises(TypeError):
        atomic_write_text(target, 12345)  # type: ignore[arg-type]
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["models.jsonl"]


def test_write_records_refuses_duplicates(tmp_path: Path) -> None:
    records = load_records()
    target = tmp_path / "out.jsonl"
    with pytest.raises(DatabaseError, match="duplicate id"):
        write_records(target, [records[0], records[0]])
    assert not target.exists()
    write_records(target, records[:3])
    assert [r.model_id for r in load_records(target)] == sorted(r.model_id for r in records[:3])


def test_copying_the_database_keeps_it_valid(tmp_path: Path) -> None:
    from rsfmd.loader import default_data_dir

    copy = tmp_path / "copy"
    shutil.copytree(default_data_dir(), copy)
    assert len(load_records(copy)) == len(load_records())
