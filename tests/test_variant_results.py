"""Results are of a variant: which one, and what that says to a user whose budget fits another."""

from __future__ import annotations

from typing import Any

from agent.query import ComputeBudget, StructuredQuery
from tests.records import make_record
from tools.candidate import Candidate
from tools.evidence import EvidenceIndex
from tools.ranking import score_candidates
from tools.result_credit import LARGER_VARIANT, NO_RESULTS
from tools.variants import result_variant_size

FAMILY = [
    {"name": "Family-1.0-tiny", "num_parameters": 5.7},
    {"name": "Family-1.0-base", "num_parameters": 100},
    {"name": "Family-1.0-large", "num_parameters": 300},
]


def _result(value: float, variant: str | None) -> dict[str, Any]:
    row = {
        "task_type": "segmentation",
        "dataset": "Sen1Floods11",
        "metrics": ["mIoU"],
        "metrics_value": [value],
        "application": "flood mapping",
        "source_url": "https://example.org/results",
    }
    return {**row, "variant": variant} if variant else row


def test_the_variant_of_a_result_is_read_from_its_name() -> None:
    family = make_record("family", modalities=["SAR"], variants=FAMILY)
    assert result_variant_size(family, "Family-V1-Large") == 300  # a size word one variant shares
    assert result_variant_size(family, "Family-B") == 100  # a letter for its word
    assert result_variant_size(family, "Family-1.0-tiny") == 5.7  # the variant's own name
    assert result_variant_size(family, "Family ViT-L") == 307  # a named backbone, by its standard size
    assert result_variant_size(family, "Family 600M TL") == 600  # a count in the name
    assert result_variant_size(family, "Family (S1+S2)") is None  # 'S1' is a sensor, not a size
    assert result_variant_size(family, "Family intra-dataset pretraining") is None


def _ranked(family: Any, budget: float | None) -> Any:
    query = StructuredQuery(
        application="flood mapping",
        task_type="segmentation",
        modality=["SAR"],
        compute=ComputeBudget(max_parameters_m=budget),
    )
    return score_candidates([Candidate(family)], query, EvidenceIndex([family]))[0].criteria["performance"]


def test_results_of_larger_variants_only_count_less_for_a_budget_the_tiny_one_fits() -> None:
    large_only = make_record(
        "family",
        modalities=["SAR"],
        variants=FAMILY,
        benchmarks=[_result(80.0, "Family-V1-Large"), _result(78.0, "Family-V1-Base")],
    )
    within = _ranked(large_only, 30)
    without = _ranked(large_only, None)
    assert within.score == min(LARGER_VARIANT * without.score, NO_RESULTS) < without.score
    assert any("the 5.7M variant that fits your budget reports none" in e for e in within.evidence)
    # A budget the evaluated variants fit: their results are the variant the user runs.
    assert _ranked(large_only, 400).score == without.score
    # A result of the tiny variant itself: the results are not all of larger ones.
    with_tiny = large_only.model_copy(
        update={
            "benchmarks": [
                *large_only.benchmarks,
                *make_record("t", benchmarks=[_result(60.0, "Family-1.0-tiny")]).benchmarks,
            ]
        }
    )
    assert not any("reports none" in e for e in _ranked(with_tiny, 30).evidence)


def test_the_answer_says_the_variant_that_fits_reports_no_results() -> None:
    from tools.explanation import explain

    family = make_record(
        "family", modalities=["SAR"], variants=FAMILY, benchmarks=[_result(80.0, "Family-V1-Large")]
    )
    query = StructuredQuery(
        application="flood mapping",
        task_type="segmentation",
        modality=["SAR"],
        compute=ComputeBudget(device_class="cpu"),
    )
    ranked = score_candidates([Candidate(family)], query, EvidenceIndex([family]))
    said = explain(ranked, query)[0].trade_offs
    assert any(
        t.startswith("Reported results of larger variants only (of 300M and more)") and "5.7M variant" in t
        for t in said
    )


def test_protocols_of_larger_variants_do_not_count_for_the_tiny_one() -> None:
    # Frozen-encoder and low-label results of the base variant say nothing of how the tiny one
    # does with its encoder frozen or with few labels.
    frozen = {**_result(80.0, "Family-V1-Base"), "setting": "frozen encoder (linear probe)"}
    few = {**_result(70.0, "Family-V1-Base"), "setting": "few-shot (1% labels)"}
    family = make_record("family", modalities=["SAR"], variants=FAMILY, benchmarks=[frozen, few])

    def criteria(budget: float | None, regime: str) -> Any:
        query = StructuredQuery(
            application="flood mapping",
            task_type="segmentation",
            modality=["SAR"],
            data_regime=regime,
            frozen_encoder=True,
            compute=ComputeBudget(max_parameters_m=budget),
        )
        return score_candidates([Candidate(family)], query, EvidenceIndex([family]))[0].criteria

    fits, gpu = criteria(30, "few-shot"), criteria(None, "few-shot")
    assert gpu["data_regime"].score > fits["data_regime"].score
    assert gpu["frozen_encoder"].score > fits["frozen_encoder"].score
    assert not fits["frozen_encoder"].known and not fits["data_regime"].known
    assert fits["frozen_encoder"].evidence == [
        "no frozen-encoder results of the variant that fits your budget"
    ]
    assert fits["data_regime"].evidence == ["no low-label results of the variant that fits your budget"]
    # A budget the base variant fits: its protocols are the user's variant's.
    assert criteria(150, "few-shot")["data_regime"].score == gpu["data_regime"].score
