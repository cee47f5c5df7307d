"""`remsa db` commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent.cli import main
from rsfmd.loader import load_records


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_shipped_data_reports_zero_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "db", "validate")
    assert code == 0
    assert " 0 error(s)" in out


def test_validate_broken_fixture_names_lines(capsys: pytest.CaptureFixture[str], fixtures_dir: Path) -> None:
    code, out, _ = run(capsys, "db", "validate", str(fixtures_dir / "broken.jsonl"))
    assert code == 1
    assert "broken.jsonl:4: paper_link" in out
    assert "2 valid record(s)" in out  # the duplicate id is itself a valid record


def test_stats_json_has_count_and_coverage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "db", "stats", "--json")
    assert code == 0
    stats = json.loads(out)
    assert stats["count"] == len(load_records())
    assert set(stats["field_coverage"]) >= {"modalities", "supported_sensors", "num_parameters", "benchmarks"}
    assert all(0 <= v <= 100 for v in stats["field_coverage"].values())


def test_stats_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "db", "stats")
    assert code == 0
    assert "field coverage" in out


def test_show_by_alias_and_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    record = (
        next(r for r in load_records() if r.aliases)
        if any(r.aliases for r in load_records())
        else load_records()[0]
    )
    name = record.aliases[0] if record.aliases else record.model_name
    code, out, _ = run(capsys, "db", "show", name.upper())
    assert code == 0
    assert json.loads(out)["model_id"] == record.model_id
    code, _, err = run(capsys, "db", "show", "no-such-model-xyz")
    assert code == 1
    assert "no model named" in err


def test_list_filters_by_modality(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "db", "list", "--modality", "radar", "--json")
    assert code == 0
    rows = json.loads(out)
    assert rows and all("SAR" in row["modalities"] for row in rows)
    code, _, err = run(capsys, "db", "list", "--sensor", "Hubble")
    assert code == 2
    assert "unknown sensor" in err


def test_list_filters_by_release_year(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "db", "list", "--since", "2025", "--json")
    assert code == 0
    since = json.loads(out)
    assert since and all(row["year"] >= 2025 for row in since)
    code, out, _ = run(capsys, "db", "list", "--year", "2024", "--json")
    assert code == 0
    assert {row["year"] for row in json.loads(out)} == {2024}


def test_audit_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "db", "audit", "--sample", "3", "--seed", "7")
    _, second, _ = run(capsys, "db", "audit", "--sample", "3", "--seed", "7")
    assert first == second
    assert first.count("== ") == 3
    assert "source:" in first


def test_validate_missing_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "db", "validate", str(tmp_path / "missing"))
    assert code == 2
    assert "no RS-FMD data" in err


def test_closed_output_pipe_ends_quietly_and_writes_nothing(tmp_path: Path) -> None:
    """`remsa db infer-fields --apply | head -1`: the closed pipe stops the run before any write."""
    data = tmp_path / "m.jsonl"
    record = {
        "model_id": "alpha",
        "model_name": "Alpha",
        "short_description": "A test foundation model.",
        "category": "vision",
        "backbone": "ViT-B",
        "sources": [{"url": "https://example.org/paper"}],
    }
    data.write_text(json.dumps(record) + "\n", encoding="utf-8")
    before = data.read_bytes()
    code = (
        "import sys; from agent.cli import main; "
        f"sys.exit(main(['db', 'infer-fields', '--apply', '--path', {str(data)!r}]))"
    )
    with subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader goes away before the command prints
        stderr = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 141
    assert "Traceback" not in stderr
    assert data.read_bytes() == before


def test_list_filters_by_backbone_family(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "db", "list", "--architecture", "mamba", "--json")
    assert code == 0
    rows = json.loads(out)
    assert {row["model_id"] for row in rows} >= {"satmamba", "roma"}
    code, _, err = run(capsys, "db", "list", "--architecture", "LSTM")
    assert code == 2
    assert "unknown architecture 'LSTM': use one of CNN, transformer, Mamba" in err
