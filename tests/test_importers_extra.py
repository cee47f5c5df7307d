"""The torchgeo weight-table importer: confirmed columns only, variants, duplicates, idempotence."""

from __future__ import annotations

import json
from pathlib import Path

from rsfmd.importers_extra import (
    TORCHGEO_URL,
    check_protocols,
    import_torchgeo_tables,
    protocol_for,
    weight_variant,
)
from rsfmd.schema import ModelRecord

FIXTURES = Path(__file__).parent / "fixtures" / "torchgeo_small"


def _record(model_id: str, name: str, benchmarks: list[dict[str, object]] | None = None) -> ModelRecord:
    return ModelRecord.model_validate(
        {
            "model_id": model_id,
            "model_name": name,
            "short_description": f"{name}, a test record.",
            "category": "vision",
            "benchmarks": benchmarks or [],
            "sources": [{"url": "https://example.org/paper"}],
        }
    )


OWN_RESULT = {  # the paper's own EuroSAT number for the MoCo ResNet-50, already in the record
    "task_type": "classification",
    "dataset": "EuroSAT",
    "metrics": ["OA"],
    "metrics_value": [99.1],
    "variant": "MoCo ResNet-50 (S2-L1C 13 bands)",
    "source_url": "https://github.com/zhu-xlab/SSL4EO-S12",
}
OTHER_VARIANT = {**OWN_RESULT, "variant": "data2vec ViT-S/16 (S2-L1C 13 bands)", "metrics_value": [98.6]}
RECORDS = [
    _record("ssl4eo-s12", "SSL4EO-S12", [OWN_RESULT, OTHER_VARIANT]),
    _record("seco", "SeCo"),
    _record("ssl4eo-l", "SSL4EO-L"),
    _record("dofa", "DOFA"),
]


def _rows(path: Path) -> list[tuple[str, dict[str, object]]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [(str(line["model_id"]), line["benchmark"]) for line in lines]


def test_protocols_use_controlled_terms() -> None:
    check_protocols()


def test_protocol_is_per_weight_not_per_column() -> None:
    assert protocol_for("sentinel2.csv", "EuroSAT", "ResNet50_Weights.SENTINEL2_ALL_MOCO") is not None
    seco = protocol_for("sentinel2.csv", "EuroSAT", "ResNet18_Weights.SENTINEL2_RGB_SECO")
    assert seco is not None and seco.setting == "linear probe"
    assert protocol_for("sentinel2.csv", "BigEarthNet", "ResNet18_Weights.SENTINEL2_RGB_SECO") is None
    assert protocol_for("agnostic.csv", "m-eurosat", "DOFABase16_Weights.DOFA_MAE") is None


def test_weight_variant_names() -> None:
    assert weight_variant("ResNet50_Weights.SENTINEL2_ALL_MOCO", "13") == "ResNet50 MoCo (13 bands)"
    assert weight_variant("ResNet18_Weights.SENTINEL2_RGB_SECO", " 3") == "ResNet18 SeCo (RGB)"
    assert (
        weight_variant("ViTSmall16_Weights.LANDSAT_TM_TOA_SIMCLR", "7", "TM TOA")
        == "ViT-S/16 SimCLR (Landsat TM TOA, 7 bands)"
    )


def test_import_writes_confirmed_cells_with_units_and_sources(tmp_path: Path) -> None:
    out = tmp_path / "torchgeo_tables.jsonl"
    report = import_torchgeo_tables(FIXTURES, RECORDS, output=out)
    rows = _rows(out)
    by_key = {(m, b["dataset"], b["metrics"][0], b["variant"]): b for m, b in rows}  # type: ignore[index]
    ben = by_key[("ssl4eo-s12", "BigEarthNet", "mAP", "ResNet50 MoCo (13 bands)")]
    assert ben["metrics_value"] == [91.8] and ben["setting"] == "fine-tune" and ben["num_classes"] == 19
    assert ben["source_url"] == TORCHGEO_URL + "sentinel2.csv"
    assert "ResNet50_Weights.SENTINEL2_ALL_MOCO" in str(ben["source_note"])
    oscd = by_key[("seco", "OSCD", "F1", "ResNet18 SeCo (RGB)")]
    assert oscd["metrics_value"] == [46.94] and oscd["task_type"] == "change detection"
    nlcd = by_key[("ssl4eo-l", "SSL4EO-L NLCD", "mIoU", "ResNet18 MoCo (Landsat TM TOA, 7 bands)")]
    assert nlcd["metrics_value"] == [51.11] and nlcd["sensor"] == ["Landsat-4/5"]
    assert "sampling_percentage" not in nlcd
    assert report.written == {"torchgeo sentinel2.csv": 7, "torchgeo landsat.csv": 4}


def test_import_skips_unconfirmed_columns_duplicates_and_unknown_weights(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    report = import_torchgeo_tables(FIXTURES, RECORDS, output=out)
    rows = _rows(out)
    # No GEO-Bench (agnostic) cell and no SeCo BigEarthNet cell: their protocol is not confirmed.
    assert not any(m == "dofa" for m, _ in rows)
    assert sum(report.unconfirmed.values()) == 12 + 1
    # The record's own 99.1 for the same variant is not repeated; another variant's value does not count.
    assert report.duplicates == {"ssl4eo-s12 EuroSAT (in https://github.com/zhu-xlab/SSL4EO-S12)": 1}
    vits = [b for m, b in rows if b["dataset"] == "EuroSAT" and b["variant"] == "ViT-S/16 MoCo (13 bands)"]
    assert [b["metrics_value"] for b in vits] == [[98.6]]
    assert sum(report.baselines.values()) == 1  # FTW U-Net: not a foundation model
    assert sum(report.not_in_crosswalk.values()) == 4  # OLI SR weight missing from the crosswalk


def test_import_is_idempotent_and_dry_run_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "torchgeo_tables.jsonl"
    import_torchgeo_tables(FIXTURES, RECORDS, output=out)
    first = out.read_bytes()
    import_torchgeo_tables(FIXTURES, list(reversed(RECORDS)), output=out)
    assert out.read_bytes() == first
    dry = tmp_path / "dry.jsonl"
    report = import_torchgeo_tables(FIXTURES, RECORDS, output=dry, dry_run=True)
    assert not dry.exists() and report.output is None and len(report.lines) == len(first.splitlines())
