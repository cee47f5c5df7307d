"""Derivation of num_parameters and supported_sensors (`infer-fields`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.cli import main
from rsfmd.backbones import MatchStatus, get_backbone, get_backbone_table, match_backbone
from rsfmd.infer_fields import plan_file
from rsfmd.inference import PARAMETERS_CONFIDENCE, SENSORS_CONFIDENCE, dataset_name_candidates
from rsfmd.schema import ModelRecord
from rsfmd.vocab import UnknownTermError

PAPER = "https://arxiv.org/abs/0000.00001"


def _record(model_id: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "model_id": model_id,
        "model_name": model_id.upper(),
        "short_description": "A test foundation model for remote sensing.",
        "paper_link": PAPER,
        "category": "vision",
        "modalities": ["RGB"],
        "sources": [{"url": PAPER, "fields": ["model_name"]}],
    }
    return {**base, **fields}


def _bench(dataset: str) -> dict[str, Any]:
    return {
        "task_type": "classification",
        "dataset": dataset,
        "metrics": ["OA"],
        "metrics_value": [90.0],
        "source_url": PAPER,
    }


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _read(path: Path) -> dict[str, dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {row["model_id"]: row for row in rows}


# Backbone table and matching.


def test_backbone_table_rows_are_sourced_and_positive() -> None:
    for backbone in get_backbone_table().values():
        assert backbone.params_m > 0, backbone.name
        assert backbone.source_url.startswith("https://"), backbone.name


def test_get_backbone_by_synonym_and_unknown() -> None:
    assert get_backbone("ResNet50").params_m == 25.6
    with pytest.raises(UnknownTermError, match="backbones"):
        get_backbone("NoSuchNet-7")


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("ViT-B/16", "ViT-B", 86),
        ("vit-large", "ViT-L", 307),
        ("ResNet50", "ResNet-50", 25.6),
        ("Swin Transformer V2-B", "SwinV2-B", 88),
        ("Long-CLIP ViT-B/16", "CLIP ViT-B/16", 86.19),  # the longer spelling wins over ViT-B/16
        ("CLIP ViT-L/14", "CLIP ViT-L/14", 303.97),
        ("LLaVA-1.5-7B (Vicuna)", "7B LLM", 7000),
    ],
)
def test_match_backbone_exact(text: str, name: str, params: float) -> None:
    found = match_backbone(text)
    assert found.status is MatchStatus.matched
    assert found.backbone is not None
    assert (found.backbone.name, found.backbone.params_m) == (name, params)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("ViT", MatchStatus.no_match),
        ("Swin Transformer", MatchStatus.no_match),
        ("HiViT-B", MatchStatus.no_match),  # ViT-B inside a longer token is not ViT-B
        ("ResNet-50x4", MatchStatus.no_match),
        ("Qwen2.5-VL", MatchStatus.no_match),
        ("ViT-B / ViT-L", MatchStatus.ambiguous),
        ("CLIP ViT-B/32 + GPT-2 language decoder", MatchStatus.composite),
        ("SatMAE ViT-B image encoder with CLAP-based audio and text encoders", MatchStatus.composite),
    ],
)
def test_match_backbone_refuses_unclear_text(text: str, status: MatchStatus) -> None:
    found = match_backbone(text)
    assert found.status is status
    assert found.backbone is None


def test_dataset_name_candidates() -> None:
    assert dataset_name_candidates("MillionAID (MAE, ViT variants)") == ["MillionAID"]
    assert dataset_name_candidates("NWPU-RESISC45 + DOTA (v1.0)") == ["NWPU-RESISC45", "DOTA"]


# Derivation on records.


def test_parameters_written_with_confidence_source_and_note(tmp_path: Path) -> None:
    path = _write(tmp_path / "m.jsonl", [_record("alpha", backbone="ViT-B/16", notes="Curated.")])
    plan = plan_file(str(path), path.read_text(encoding="utf-8"))
    row = json.loads(plan.new_text)
    assert row["num_parameters"] == 86
    assert row["confidence"] == {"num_parameters": PARAMETERS_CONFIDENCE}
    source = row["sources"][-1]
    assert source["url"] == "https://arxiv.org/abs/2010.11929"
    assert source["fields"] == ["num_parameters"]
    assert "derived, not stated by the model authors" in source["note"]
    assert row["notes"].startswith("Curated. ") and "ViT-B" in row["notes"]
    assert list(row).index("num_parameters") == list(row).index("backbone") + 1
    ModelRecord.model_validate(row)


def test_variant_sizes_written_from_their_backbones_so_a_small_checkpoint_counts(tmp_path: Path) -> None:
    variants = [
        {"name": "M ViT-H/14", "backbone": "ViT-H/14", "num_parameters": 632},
        {"name": "M RN18", "backbone": "ResNet-18"},
        {"name": "M ViT-S/16", "backbone": "ViT-S/16"},
        {"name": "M ViT-B (not public)", "backbone": "ViT-B/16", "released": False},
    ]
    path = _write(tmp_path / "m.jsonl", [_record("alpha", num_parameters=632, variants=variants)])
    assert ModelRecord.model_validate(_read(path)["alpha"]).smallest_parameters == 632
    plan = plan_file(str(path), path.read_text(encoding="utf-8"))
    row = json.loads(plan.new_text)
    sizes = {v["name"]: v.get("num_parameters") for v in row["variants"]}
    assert sizes == {"M ViT-H/14": 632, "M RN18": 11.7, "M ViT-S/16": 22, "M ViT-B (not public)": None}
    assert row["confidence"] == {"variants": PARAMETERS_CONFIDENCE}
    derived = [s for s in row["sources"] if s["fields"] == ["variants"]]
    assert {s["url"] for s in derived} == {
        "https://pytorch.org/vision/stable/models.html",
        "https://arxiv.org/abs/2012.12877",
    }
    assert all("derived, not stated by the model authors" in s["note"] for s in derived)
    assert ModelRecord.model_validate(row).smallest_parameters == 11.7


def test_sensors_from_pretraining_and_benchmarks(tmp_path: Path) -> None:
    record = _record(
        "beta",
        pretraining_phases=[{"dataset": "MillionAID (subset)"}],
        benchmarks=[_bench("UCM (8:2)"), _bench("EuroSAT")],
    )
    path = _write(tmp_path / "m.jsonl", [record])
    plan = plan_file(str(path), path.read_text(encoding="utf-8"))
    row = json.loads(plan.new_text)
    assert row["supported_sensors"] == ["Google Earth", "Aerial"]
    assert row["confidence"] == {"supported_sensors": SENSORS_CONFIDENCE}
    assert row["sources"][-1]["url"] == PAPER
    assert row["sources"][-1]["note"] == (
        "derived from the sensors of its pretraining/evaluation datasets (MillionAID, UC Merced)"
    )
    # EuroSAT is Sentinel-2 multispectral; the record is RGB only, so it is reported, not written.
    proposal = plan.proposals[0]
    assert proposal.sensors is not None
    assert [e.sensor for e in proposal.sensors.contradicting] == ["Sentinel-2"]
    assert "Held back" in row["notes"]


def test_sensors_from_results_kept_in_attachment_files(tmp_path: Path) -> None:
    """Datasets of attached results count as evaluation datasets; broken attachments block."""
    (tmp_path / "benchmarks").mkdir()
    path = _write(tmp_path / "m.jsonl", [_record("delta")])
    attachment = tmp_path / "benchmarks" / "t.jsonl"
    line = json.dumps({"model_id": "delta", "benchmark": _bench("UCM")})
    attachment.write_text(line + "\n", encoding="utf-8")
    assert main(["db", "infer-fields", "--apply", "--path", str(tmp_path)]) == 0
    row = _read(path)["delta"]
    assert row["supported_sensors"] == ["Aerial"]
    assert row["confidence"]["supported_sensors"] == SENSORS_CONFIDENCE

    other = _write(tmp_path / "m.jsonl", [_record("epsilon")])
    before = other.read_bytes()
    attachment.write_text(json.dumps({"model_id": "epsilon", "benchmark": {"dataset": "AID"}}) + "\n")
    assert main(["db", "infer-fields", "--apply", "--path", str(tmp_path)]) == 1
    assert other.read_bytes() == before


def test_contradicting_sensors_written_on_request(tmp_path: Path) -> None:
    path = _write(tmp_path / "m.jsonl", [_record("gamma", benchmarks=[_bench("EuroSAT")])])
    text = path.read_text(encoding="utf-8")
    assert plan_file(str(path), text).new_text == text
    row = json.loads(plan_file(str(path), text, keep_contradicting=True).new_text)
    assert row["supported_sensors"] == ["Sentinel-2"]


def test_records_with_the_field_are_left_alone(tmp_path: Path) -> None:
    records = [
        _record("has-params", backbone="ViT-L", num_parameters=300, supported_sensors=["NAIP"]),
        _record(
            "variant-params",
            backbone="ViT-B",
            variants=[{"name": "small", "num_parameters": 22}],
            supported_sensors=["Sentinel-2"],
            modalities=["Multispectral"],
            benchmarks=[_bench("AID")],
        ),
        _record("ambiguous", backbone="ViT"),
    ]
    path = _write(tmp_path / "m.jsonl", records)
    text = path.read_text(encoding="utf-8")
    plan = plan_file(str(path), text)
    assert plan.new_text == text
    assert not any(p.changes for p in plan.proposals)


def test_invalid_line_blocks_the_file(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(_record("ok", backbone="ViT-B")) + "\n{not json\n", encoding="utf-8")
    plan = plan_file(str(path), path.read_text(encoding="utf-8"))
    assert plan.errors and plan.new_text == ""
    assert main(["db", "infer-fields", "--apply", "--path", str(path)]) == 1


# The command.


def test_dry_run_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "m.jsonl", [_record("alpha", backbone="Swin-T")])
    before = path.read_bytes()
    assert main(["db", "infer-fields", "--path", str(path)]) == 0
    assert path.read_bytes() == before
    out = capsys.readouterr().out
    assert "alpha" in out and "num_parameters" in out and "dry run" in out


def test_apply_is_idempotent_and_keeps_order(tmp_path: Path) -> None:
    records = [
        _record("first", backbone="ResNet-18"),
        _record("second", supported_sensors=["NAIP"]),
        _record("third", benchmarks=[_bench("DIOR")]),
    ]
    path = _write(tmp_path / "m.jsonl", records)
    second_line = path.read_text(encoding="utf-8").splitlines()[1]
    assert main(["db", "infer-fields", "--apply", "--path", str(path)]) == 0
    once = path.read_text(encoding="utf-8")
    assert [json.loads(line)["model_id"] for line in once.splitlines()] == ["first", "second", "third"]
    assert once.splitlines()[1] == second_line
    rows = _read(path)
    assert rows["first"]["num_parameters"] == 11.7
    assert rows["third"]["supported_sensors"] == ["Google Earth"]
    assert main(["db", "infer-fields", "--apply", "--path", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == once
