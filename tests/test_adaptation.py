"""How-to-adapt advice: rules of thumb from the table, backed by the record's own RS-FMD results."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.query import ComputeBudget, StructuredQuery
from agent.selection import Adaptation, AdaptationResult
from rsfmd.loader import load_records
from rsfmd.schema import ModelRecord
from rsfmd.shared_tables import CRYOBENCH_DATASETS, CRYOBENCH_URL
from tools.adaptation import RULES_PATH, advise, load_rules, setting_family
from ui.cards import model_card_html

RECORDS = {r.model_id: r for r in load_records()}


def _query(**fields: object) -> StructuredQuery:
    device = fields.pop("device", None)
    return StructuredQuery.model_validate({**fields, "compute": ComputeBudget(device_class=device)})


def _held(record: ModelRecord, row: AdaptationResult) -> bool:
    """The cited row is one of the record's own results, with its source."""
    return any(
        b.dataset == row.dataset
        and (b.setting or "") == row.setting
        and b.sampling_percentage == row.label_percent
        and b.values().get(row.metric) == row.value
        and b.source_url == row.source_url
        for b in record.benchmarks
    )


def _all_cited(advice: Adaptation) -> list[AdaptationResult]:
    return [*advice.evidence, *(r for c in advice.comparisons for r in c.results)]


GLACIER_SAR = {"application": "glacier mapping", "task_type": "segmentation", "modality": ["SAR"]}
GLACIER_OPTICAL = {
    "application": "glacier mapping",
    "task_type": "segmentation",
    "modality": ["Multispectral"],
}
FLOOD = {"application": "flood mapping", "task_type": "segmentation", "modality": ["SAR"]}


def test_few_labels_on_a_cpu_keep_a_100m_encoder_frozen() -> None:
    record = RECORDS["dofa"]
    assert record.smallest_parameters is not None and record.smallest_parameters > 30
    advice = advise(record, _query(**GLACIER_OPTICAL, data_regime="few-shot", device="cpu"))
    assert advice.mode == "frozen"
    assert advice.basis == "RS-FMD results"
    assert advice.evidence and {e.family for e in advice.evidence} == {"frozen"}
    # The user's application first: Cryo-Bench glacier results on optical imagery.
    assert advice.evidence[0].dataset in {"GLD", "GLID", "GSDD"}


def test_few_labels_on_a_gpu_get_few_label_adaptation() -> None:
    advice = advise(
        RECORDS["less-vit"],
        _query(task_type="multi-label classification", data_regime="few-shot", device="single-gpu"),
    )
    assert advice.mode == "light-tune"
    assert advice.basis == "RS-FMD results"
    # Results at 10% labels (the few-label threshold) are the ones cited first.
    assert advice.evidence[0].label_percent == 10.0


def test_many_labels_on_a_gpu_fine_tune_where_rsfmd_has_fine_tuned_results() -> None:
    record = RECORDS["terramind"]
    advice = advise(record, _query(**FLOOD, data_regime="full-labels", device="single-gpu"))
    assert advice.mode == "fine-tune"
    assert advice.basis == "RS-FMD results"
    assert advice.evidence and {e.family for e in advice.evidence} == {"fine-tune"}
    # Its frozen results trail fine-tuning by more than the margin, and the comparison is stated.
    compared = {r.family for c in advice.comparisons for r in c.results}
    assert {"frozen", "fine-tune"} <= compared


def test_frozen_within_a_point_of_fine_tuning_on_the_users_task_is_advised() -> None:
    # DOFA on CaFFe (calving fronts, SAR): GEO-Bench-2 reports frozen 63.88 and fine-tuned 63.83 mIoU.
    record = RECORDS["dofa"]
    advice = advise(record, _query(**GLACIER_SAR, data_regime="full-labels", device="single-gpu"))
    assert advice.mode == "frozen"
    assert advice.evidence[0].dataset == "CaFFe" and advice.evidence[0].family == "frozen"
    assert advice.basis == "RS-FMD results"
    # On optical imagery CaFFe counts less, CloudSEN12 shows fine-tuning 3 points ahead: fine-tune.
    optical = advise(record, _query(**GLACIER_OPTICAL, data_regime="full-labels", device="single-gpu"))
    assert optical.mode == "fine-tune"


@pytest.mark.parametrize(
    ("model_id", "fields"),
    [
        ("terramind", {**FLOOD, "data_regime": "full-labels", "device": "single-gpu"}),
        ("dofa", {**GLACIER_SAR, "data_regime": "few-shot", "device": "cpu"}),
        ("less-vit", {"task_type": "classification", "data_regime": "few-shot"}),
        ("thor", {"application": "burn scar mapping", "data_regime": "few-shot", "device": "cpu"}),
        ("remoteclip", {"application": "zero-shot scene classification", "data_regime": "zero-shot"}),
        ("rs-vheat", {"task_type": "classification", "data_regime": "full-labels", "device": "multi-gpu"}),
    ],
)
def test_every_cited_row_is_the_records_own_with_its_source(model_id: str, fields: dict[str, object]) -> None:
    record = RECORDS[model_id]
    advice = advise(record, _query(**fields))
    cited = _all_cited(advice)
    assert cited, f"{model_id} should have results to cite"
    for row in cited:
        assert row.source_url.startswith("https://")
        assert _held(record, row), row
    for comparison in advice.comparisons:
        # A comparison is of one dataset and metric under two or more settings or label fractions.
        assert {(r.dataset, r.metric) for r in comparison.results} == {
            (comparison.dataset, comparison.metric)
        }
        assert len({(r.family, r.label_percent) for r in comparison.results}) >= 2


def test_no_result_under_any_setting_is_said_and_labelled_a_rule_of_thumb() -> None:
    record = next(r for r in RECORDS.values() if not r.benchmarks and r.smallest_parameters is not None)
    advice = advise(record, _query(**FLOOD, data_regime="full-labels", device="single-gpu"))
    assert advice.basis == "rule of thumb"
    assert advice.evidence == [] and advice.comparisons == []
    assert "no result for it under any setting" in advice.why[-1]


def test_results_under_other_settings_only_do_not_back_the_advice() -> None:
    # CROMA's RS-FMD results are all frozen-encoder ones: fine-tuning advice rests on the rule.
    record = RECORDS["croma"]
    assert {setting_family(b) for b in record.benchmarks} - {None} == {"frozen"}
    advice = advise(record, _query(**GLACIER_OPTICAL, data_regime="full-labels", device="single-gpu"))
    assert advice.mode == "fine-tune"
    assert advice.basis == "rule of thumb"
    assert advice.evidence == []
    assert "only frozen" in advice.why[-1]


def test_label_fractions_of_one_setting_are_compared() -> None:
    advice = advise(RECORDS["rs-vheat"], _query(task_type="classification", data_regime="full-labels"))
    nwpu = [c for c in advice.comparisons if c.dataset == "NWPU-RESISC45"]
    assert nwpu and {r.label_percent for r in nwpu[0].results} == {10.0, 20.0}


def test_cryo_bench_results_are_cited_and_no_baseline_or_other_fraction_is_invented() -> None:
    record = RECORDS["dofa"]
    cryo = [b for b in record.benchmarks if b.source_url == CRYOBENCH_URL]
    assert {b.dataset for b in cryo} == set(CRYOBENCH_DATASETS)
    # RS-FMD holds Cryo-Bench's frozen-encoder table at 100% labels only (no U-Net row: baselines
    # are not records, and no 10% table): those results are cited as such, never compared.
    assert {(b.setting, b.sampling_percentage) for b in cryo} == {("frozen encoder, UPerNet decoder", 100.0)}
    advice = advise(record, _query(**GLACIER_OPTICAL, data_regime="few-shot", device="cpu"))
    assert advice.mode == "frozen"
    cited = [e for e in advice.evidence if e.source_url == CRYOBENCH_URL]
    assert cited and all(e.label_percent == 100.0 and e.family == "frozen" for e in cited)
    for comparison in advice.comparisons:
        assert comparison.dataset not in {"GLID", "GLD", "GSDD", "SICD"}
        assert "U-Net" not in comparison.statement and "UNet baseline" not in comparison.statement


def test_zero_labels_use_a_zero_shot_model_as_it_is() -> None:
    advice = advise(
        RECORDS["remoteclip"], _query(application="zero-shot scene classification", data_regime="zero-shot")
    )
    assert advice.mode == "zero-shot"
    assert advice.evidence and {e.family for e in advice.evidence} == {"zero-shot"}


def test_thresholds_come_from_the_table(tmp_path: Path) -> None:
    record = RECORDS["dofa"]
    query = _query(**FLOOD, data_regime="full-labels", device="cpu")
    assert advise(record, query).mode == "frozen"  # 86M is too much to train on a CPU
    table = RULES_PATH.read_text(encoding="utf-8").replace(
        'words = "a CPU"\nfine_tune_max_m = 30.0', 'words = "a CPU"\nfine_tune_max_m = 500.0'
    )
    path = tmp_path / "adaptation.toml"
    path.write_text(table, encoding="utf-8")
    assert advise(record, query, load_rules(path)).mode == "fine-tune"


def test_a_broken_table_names_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "adaptation.toml"
    path.write_text("[thresholds]\nfew_labels_max_percent = 10.0\n", encoding="utf-8")
    with pytest.raises(ValueError, match="restore the file"):
        load_rules(path)


@pytest.mark.parametrize(
    ("setting", "family"),
    [
        ("frozen encoder, UNet decoder", "frozen"),
        ("full fine-tuning, UNet decoder", "fine-tune"),
        ("linear probe", "frozen"),
        ("kNN", "frozen"),
        ("20 samples", "few-shot"),
        ("fine-tune (LoRA rank 64, 5 epochs on VRSBench train)", "parameter-efficient"),
        ("zero-shot (text prompts)", "zero-shot"),
        ("U-Net decoder", None),  # whether the encoder was frozen is not stated
        ("validation split", None),
    ],
)
def test_settings_are_read_through_the_table(setting: str, family: str | None) -> None:
    bench = next(b for r in RECORDS.values() for b in r.benchmarks if b.setting == setting)
    assert setting_family(bench) == family


def test_the_answer_carries_the_advice_in_json_markdown_and_card() -> None:
    from agent.ask_cli import render_text
    from remsa import select_models

    selection = select_models("Flood mapping with Sentinel-1 SAR, few labels, CPU laptop", k=3, clarify=False)
    assert selection.models
    for model in selection.models:
        advice = model.adaptation
        assert advice is not None
        assert advice.mode in {"frozen", "light-tune"}  # few labels on a CPU
        data = model.model_dump(mode="json")["adaptation"]
        assert data["mode"] == advice.mode and data["basis"] == advice.basis
        card = model_card_html(model)
        assert f'class="remsa-adapt" data-mode="{advice.mode}"' in card
        for row in advice.evidence:
            assert row.source_url in card
    markdown = selection.to_markdown()
    assert markdown.count("- Adapt: ") == len(selection.models)
    assert render_text(selection).count("- Adapt: ") == len(selection.models)  # remsa ask, one line each
