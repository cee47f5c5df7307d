"""The shared-table importer: parsing, units, name resolution, skips and idempotence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rsfmd import corrections
from rsfmd.datasets import dataset_info, get_dataset_table, normalise_dataset
from rsfmd.importers import ModelResolver, import_shared_tables, model_id_for
from rsfmd.schema import ModelRecord
from rsfmd.shared_tables import parse_setting
from rsfmd.vocab import (
    UnknownTermError,
    get_vocabulary,
    normalise_metric,
    normalise_modality,
    normalise_sensor,
    normalise_task_type,
)

FIXTURES = Path(__file__).parent / "fixtures" / "shared_small"


def _record(model_id: str, name: str, aliases: list[str] | None = None) -> ModelRecord:
    return ModelRecord.model_validate(
        {
            "model_id": model_id,
            "model_name": name,
            "aliases": aliases or [],
            "short_description": f"{name}, a test record.",
            "category": "vision",
            "sources": [{"url": "https://example.org/paper"}],
        }
    )


RECORDS = [
    _record("satmae", "SatMAE"),
    _record("seco", "SeCo", ["Seasonal Contrast"]),
    _record("terramind", "TerraMind"),
    _record("ssl4eo-s12", "SSL4EO-S12"),
]


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_dataset_table_uses_only_controlled_terms() -> None:
    for name in get_dataset_table().names:
        info = dataset_info(name)
        if info.task_type or "pretraining corpus" not in info.notes:
            # Only pretraining corpora (no benchmark task) may leave task_type blank.
            assert normalise_task_type(info.task_type) == info.task_type
        if info.application:
            assert get_vocabulary("applications").get(info.application) == info.application
        assert all(normalise_sensor(s) == s for s in info.sensors)
        assert all(normalise_modality(m) for m in info.modalities)
        if info.metric:
            assert normalise_metric(info.metric) == info.metric


def test_dataset_synonyms_cover_the_shared_sources() -> None:
    assert normalise_dataset("benv2") == "BigEarthNet v2"
    assert normalise_dataset("RESISC-45") == "NWPU-RESISC45"
    assert normalise_dataset("HLSBurnScars Prithvi") == normalise_dataset("burn_scars") == "HLS Burn Scars"
    assert dataset_info("caffe").application == "glacier mapping"
    with pytest.raises(UnknownTermError, match=r"datasets\.csv"):
        normalise_dataset("No Such Dataset")


@pytest.mark.parametrize(
    ("text", "metric", "percent", "qualifiers"),
    [
        ("test mIoU", "mIoU", None, ("test split",)),
        ("top1acc 10%", "OA", 10.0, ()),
        ("5 samples OA", "OA", None, ("5 samples",)),
        ("37,5% (50% of 75%)", None, 37.5, ()),
        ("S2 wf1 100%", "F1", 100.0, ("weighted F1", "S2 input")),
        ("AP50 700 samples", "mAP", None, ("AP50", "700 samples")),
    ],
)
def test_parse_setting(
    text: str, metric: str | None, percent: float | None, qualifiers: tuple[str, ...]
) -> None:
    parsed = parse_setting(text)
    assert (parsed.metric, parsed.sampling_percentage, parsed.qualifiers) == (metric, percent, qualifiers)


def test_model_id_rule() -> None:
    assert model_id_for("Prithvi-EO-2.0") == "prithvi-eo-2.0"
    assert model_id_for("SatMAE++ ViT-L") == "satmae++-vit-l"


def test_import_converts_units_and_resolves_names(tmp_path: Path) -> None:
    out = tmp_path / "benchmarks" / "shared_tables.jsonl"
    report = import_shared_tables(FIXTURES, RECORDS, output=out)
    lines = _lines(out)
    by_key = {
        (str(line["model_id"]), b["dataset"], b.get("setting", "")): b
        for line in lines
        for b in [line["benchmark"]]
        if isinstance(b, dict)
    }
    # RMSE keeps its unit and direction; 0-1 scores become percent.
    rmse = by_key[("terramind", "BioMassters", "full fine-tuning, UNet decoder")]
    assert rmse["metrics"] == ["RMSE"] and rmse["metrics_value"] == [0.9551]
    assert by_key[("terramind", "Kuro Siwo", "full fine-tuning, UNet decoder")]["metrics_value"] == [68.63]
    assert by_key[("terramind", "Kuro Siwo", "frozen encoder, UNet decoder")]["metrics_value"] == [51.23]
    # Variants map to the family record with the variant named.
    assert by_key[("satmae", "EuroSAT", "")]["variant"] == "SatMAE ViT-L"
    assert by_key[("ssl4eo-s12", "SICD", "frozen encoder, UPerNet decoder")]["variant"] == "S12-MoCo"
    # Unstated metric: the dataset's conventional one, with the upstream label kept in the note.
    seco = by_key[("seco", "UC Merced", "")]
    assert seco["metrics"] == ["OA"] and seco["sampling_percentage"] == 37.5
    assert "37,5% (50% of 75%)" in str(seco["source_note"])
    assert report.written == {"capabilities-encoding": 3, "GEO-Bench-2": 3, "Cryo-Bench": 5}


def test_import_skips_baselines_and_reports_missing_records(tmp_path: Path) -> None:
    report = import_shared_tables(FIXTURES, RECORDS, output=tmp_path / "out.jsonl")
    assert sum(report.baselines.values()) == 1 + 1 + 5  # ResNet50 IN, resnet50, U-Net
    assert report.no_record == {"Ghost Model (capabilities-encoding)": 1}
    assert any("HD95" in reason for reason in report.rejected)
    assert any("2ce4a907" in reason for reason in report.rejected)
    model_ids = {line["model_id"] for line in _lines(tmp_path / "out.jsonl")}
    assert model_ids == {"satmae", "seco", "terramind", "ssl4eo-s12"}


def test_import_is_idempotent_and_dry_run_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "shared_tables.jsonl"
    import_shared_tables(FIXTURES, RECORDS, output=out)
    first = out.read_bytes()
    import_shared_tables(FIXTURES, list(reversed(RECORDS)), output=out)
    assert out.read_bytes() == first
    dry = tmp_path / "dry.jsonl"
    report = import_shared_tables(FIXTURES, RECORDS, output=dry, dry_run=True)
    assert not dry.exists() and report.output is None and len(report.lines) == len(first.splitlines())


def _corrections(tmp_path: Path, *rows: str) -> Path:
    header = "table,model,column,value,action,task_type,dataset,metric,application,evidence_url,note\n"
    path = tmp_path / "corrections.csv"
    path.write_text(header + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def test_listed_upstream_rows_are_relabelled_or_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    evidence = "https://example.org/readme"
    table = "capabilities-encoding,SatMAE ViT-L"
    path = _corrections(
        tmp_path,
        f"{table},EuroSat,98.98,relabel,segmentation,LoveDA,mIoU,,{evidence},was LoveDA",
        f"{table},fMoW-S2,63.84,drop,,,,,{evidence},not SatMAE's number",
    )
    monkeypatch.setattr(corrections, "CORRECTIONS_FILE", path)
    report = import_shared_tables(FIXTURES, RECORDS, output=tmp_path / "out.jsonl")
    satmae = [line["benchmark"] for line in _lines(tmp_path / "out.jsonl") if line["model_id"] == "satmae"]
    assert len(satmae) == 1 and isinstance(satmae[0], dict)
    assert (satmae[0]["task_type"], satmae[0]["dataset"], satmae[0]["metrics"]) == (
        "segmentation",
        "LoveDA",
        ["mIoU"],
    )
    assert satmae[0]["metrics_value"] == [98.98]
    assert f"corrected: was LoveDA ({evidence})" in str(satmae[0]["source_note"])
    assert report.rejected["capabilities-encoding: dropped by rsfmd/corrections.csv"] == 1


def test_corrections_file_is_checked(tmp_path: Path) -> None:
    assert corrections.load_corrections(corrections.CORRECTIONS_FILE)  # the shipped file loads
    bad_action = _corrections(tmp_path, "capabilities-encoding,M,C,1,rename,,,,,https://example.org,x")
    with pytest.raises(ValueError, match="action must be one of relabel, drop"):
        corrections.load_corrections(bad_action)
    other_table = _corrections(tmp_path, "GEO-Bench-2,M,C,1,drop,,,,,https://example.org,x")
    with pytest.raises(ValueError, match="corrections apply to capabilities-encoding"):
        corrections.load_corrections(other_table)
    no_target = _corrections(tmp_path, "capabilities-encoding,M,C,1,relabel,,,,,https://example.org,x")
    with pytest.raises(ValueError, match="relabel needs"):
        corrections.load_corrections(no_target)


def test_crosswalk_overrides_replace_shared_rows(tmp_path: Path) -> None:
    crosswalk = FIXTURES / "model_name_crosswalk.csv"
    none = tmp_path / "none.csv"
    none.write_text("source,source_model_name,candidate_name,relation,reason\n", encoding="utf-8")
    assert (
        ModelResolver(crosswalk, RECORDS, none).resolve("geobench2", "terramind_v1_base").model_id
        == "terramind"
    )
    override = tmp_path / "overrides.csv"
    override.write_text(
        "source,source_model_name,candidate_name,relation,reason\n"
        "geobench2 leaderboard backbone key,terramind_v1_base (TerraMind-V1-Base),,baseline,a reason\n",
        encoding="utf-8",
    )
    assert (
        ModelResolver(crosswalk, RECORDS, override).resolve("geobench2", "terramind_v1_base").status
        == "baseline"
    )


def test_shipped_overrides_keep_web_pretrained_dinov3_out_of_the_satellite_record() -> None:
    shipped = Path(__file__).parents[1] / "rsfmd" / "data" / "benchmarks" / "shared_tables.jsonl"
    variants = {
        line["benchmark"].get("variant") for line in _lines(shipped) if line["model_id"] == "dinov3-sat"
    }
    assert "DinoV3-ConvNext-Large-WEB" not in variants
    assert variants  # the satellite-pretrained rows stay
