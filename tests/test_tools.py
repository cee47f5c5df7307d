"""Pure rules of the filtering and ranking tools on hand-made records."""

from __future__ import annotations

from typing import Any

from agent.query import ComputeBudget, Exclusions, MinPerformance, StructuredQuery
from agent.query_phrases import summary
from rsfmd.datasets import bench_application
from rsfmd.schema import Alignment, Benchmark, ModelRecord
from tests.records import make_record
from tools.candidate import Candidate, Prediction
from tools.closest import filter_candidates
from tools.criteria import modality_fit, modality_rarity
from tools.evidence import EvidenceIndex, other_imagery
from tools.explanation import explain
from tools.filtering import violations
from tools.fit import efficiency_fit, imagery_fit
from tools.ranking import DESCRIPTION_WEIGHT, query_weights, score_candidates
from tools.region_fit import generalizability_fit
from tools.result_credit import LEVEL_CREDIT, regime_fit


def record(model_id: str, **fields: Any) -> ModelRecord:
    return make_record(
        model_id,
        short_description=f"Test model {model_id} for the rules.",
        sources=[{"url": "https://example.org/" + model_id}],
        **fields,
    )


def bench(
    dataset: str, metric: str, value: float, task: str = "segmentation", app: str | None = None
) -> dict[str, Any]:
    return {
        "task_type": task,
        "dataset": dataset,
        "metrics": [metric],
        "metrics_value": [value],
        "application": app,
        "source_url": "https://example.org/results",
    }


SAR = record("sar", modalities=["SAR"], supported_sensors=["Sentinel-1"], num_parameters=86)
OPTICAL = record("optical", modalities=["Multispectral"], supported_sensors=["Sentinel-2"], num_parameters=22)
HUGE_SAR = record("huge-sar", modalities=["SAR"], supported_sensors=["Sentinel-1"], num_parameters=600)
AGNOSTIC = record(
    "agnostic", modalities=["Multispectral", "SAR"], spectral_alignment="full", num_parameters=86
)


def test_sar_query_rejects_optical_only() -> None:
    query = StructuredQuery(modality=["SAR"])
    assert "modality" in violations(OPTICAL, query)
    assert violations(SAR, query) == {}


def test_landsat_family_and_wavelength_aware_models_pass_sensor_rule() -> None:
    landsat9 = record("l9", modalities=["Multispectral"], supported_sensors=["Landsat-9"])
    query = StructuredQuery(modality=["Multispectral"], sensor=["Landsat-8"])
    assert "sensor" not in violations(landsat9, query)
    assert "sensor" not in violations(AGNOSTIC, StructuredQuery(sensor=["EnMAP"]))
    assert "sensor" in violations(OPTICAL, query)


def test_device_budget_is_soft_but_stated_limit_is_exact() -> None:
    cpu = StructuredQuery(compute=ComputeBudget(device_class="cpu"))  # 120M budget, 25% tolerance
    assert "compute" not in violations(record("m140", num_parameters=140), cpu)
    assert "compute" in violations(record("m160", num_parameters=160), cpu)
    stated = StructuredQuery(compute=ComputeBudget(max_parameters_m=100))
    assert "compute" in violations(record("m101", num_parameters=101), stated)
    assert "compute" in violations(record("unknown"), stated)  # cannot confirm it fits


def test_smallest_variant_counts_for_the_budget() -> None:
    family = record("family", num_parameters=300, variants=[{"name": "S", "num_parameters": 22}])
    assert violations(family, StructuredQuery(compute=ComputeBudget(device_class="edge"))) == {}


def test_min_performance_needs_evidence_to_reject() -> None:
    weak = record("weak", benchmarks=[bench("Sen1Floods11", "mIoU", 70.0)])
    query = StructuredQuery(
        task_type="segmentation", min_performance=MinPerformance(metric=["mIoU"], value=[80])
    )
    assert "min_performance" in violations(weak, query)
    assert "min_performance" not in violations(SAR, query)  # no evidence: kept, not rejected


def test_exclusion_of_a_modality_only_removes_models_that_need_it() -> None:
    query = StructuredQuery(exclusions=Exclusions(modalities=["SAR"]))
    assert "exclusions" in violations(SAR, query)
    assert "exclusions" not in violations(AGNOSTIC, query)


def test_closest_match_relaxes_compute_but_never_modality() -> None:
    query = StructuredQuery(modality=["SAR"], compute=ComputeBudget(max_parameters_m=10))
    outcome = filter_candidates([SAR, OPTICAL, HUGE_SAR], query, minimum=2)
    assert [r.model_id for r in outcome.survivors] == ["sar", "huge-sar"]
    assert outcome.relaxed == {"sar": ["compute"], "huge-sar": ["compute"]}
    assert "optical" in outcome.rejected


def test_weights_follow_priorities() -> None:
    base = query_weights(StructuredQuery())
    assert abs(sum(base.values()) - 1.0) < 1e-9
    # The paper's expert weights keep their proportions; availability of the weights is added.
    assert abs(base["application"] / base["recency"] - 5.0) < 1e-9 and base["availability"] > 0
    fast = query_weights(StructuredQuery(priorities=["speed"]))
    assert fast["efficiency"] > base["efficiency"]
    zero = query_weights(StructuredQuery(data_regime="zero-shot"))
    assert zero["data_regime"] > query_weights(StructuredQuery(data_regime="few-shot"))["data_regime"]
    # Named hardware: the user runs the model, so weights that cannot be downloaded weigh more.
    runs_it = query_weights(StructuredQuery(compute={"device_class": "edge"}))  # type: ignore[arg-type]
    assert runs_it["availability"] > base["availability"]


def test_a_record_that_reads_like_the_task_gains_a_fixed_share() -> None:
    described = query_weights(StructuredQuery(), described=True)
    assert abs(sum(described.values()) - 1.0) < 1e-9 and described["description"] == DESCRIPTION_WEIGHT
    assert "description" not in query_weights(StructuredQuery())
    # Two models equal on everything else: the one whose record is closer to the task text leads.
    near = record("near", modalities=["SAR"], task_types=["segmentation"])
    far = record("far", modalities=["SAR"], task_types=["segmentation"])
    query = StructuredQuery(task_type="segmentation", modality=["SAR"])
    ranked = score_candidates(
        [Candidate(far, similarity=0.2), Candidate(near, similarity=0.6)], query, EvidenceIndex([near, far])
    )
    assert [c.record.model_id for c in ranked] == ["near", "far"]
    assert [c.criteria["description"].score for c in ranked] == [1.0, 0.0]
    assert ranked[0].score - ranked[1].score == round(100 * DESCRIPTION_WEIGHT, 1)
    # Without text similarities (nothing to search on) the criterion is left out.
    plain = score_candidates([Candidate(near), Candidate(far)], query, EvidenceIndex([near, far]))
    assert all("description" not in c.criteria for c in plain)


def test_reported_standing_decides_between_equal_models() -> None:
    good = record(
        "good", modalities=["SAR"], benchmarks=[bench("Sen1Floods11", "mIoU", 90.0, app="flood mapping")]
    )
    bad = record(
        "bad", modalities=["SAR"], benchmarks=[bench("Sen1Floods11", "mIoU", 80.0, app="flood mapping")]
    )
    query = StructuredQuery(application="flood mapping", task_type="segmentation", modality=["SAR"])
    ranked = score_candidates([Candidate(bad), Candidate(good)], query, EvidenceIndex([good, bad]))
    assert [c.record.model_id for c in ranked] == ["good", "bad"]
    models = explain(ranked, query)
    assert any("mIoU 90 on Sen1Floods11" in reason for reason in models[0].reasons)


def test_explanation_names_variants_and_weak_sizes_plainly() -> None:
    two_sizes = record(
        "two",
        modalities=["SAR"],
        num_parameters=0.5,
        confidence={"num_parameters": 0.6},
        pretraining_phases=[
            {"dataset": "A", "regions_coverage": ["Global"]},
            {"dataset": "B", "regions_coverage": ["global"]},
        ],
        benchmarks=[
            {**bench("Sen1Floods11", "mIoU", 80.0, app="flood mapping"), "variant": "Base"},
            {**bench("Sen1Floods11", "mIoU", 82.0, app="flood mapping"), "variant": "Large"},
        ],
    )
    one_size = record(
        "one",
        modalities=["SAR"],
        num_parameters=86,
        benchmarks=[{**bench("Sen1Floods11", "mIoU", 70.0, app="flood mapping"), "variant": "ViT-B"}],
    )
    query = StructuredQuery(application="flood mapping", task_type="segmentation", modality=["SAR"])
    ranked = score_candidates(
        [Candidate(two_sizes), Candidate(one_size)], query, EvidenceIndex([two_sizes, one_size])
    )
    reasons = {m.model_id: " | ".join(m.reasons + m.trade_offs) for m in explain(ranked, query)}
    # Results of two variants on one dataset say which variant each is.
    assert "mIoU 80 on Sen1Floods11 (Base; fine-tune" in reasons["two"]
    assert "mIoU 82 on Sen1Floods11 (Large; fine-tune" in reasons["two"]
    assert "mIoU 70 on Sen1Floods11 (fine-tune" in reasons["one"]  # a single variant is not named
    assert "not stated by the authors: derived or secondary, confidence 0.6" in reasons["two"]
    # Two phases both global: said once.
    assert generalizability_fit(Candidate(two_sizes)).evidence == ["pretrained on data covering Global"]
    long_regions = record(
        "long",
        pretraining_phases=[
            {"dataset": "A", "regions_coverage": ["France", "global"]},
            {
                "dataset": "B",
                "regions_coverage": ["global (1.2M locations)", "land surface and near-land ocean"],
            },
        ],
    )
    text = generalizability_fit(Candidate(long_regions)).evidence[0]
    assert text == "pretrained on data covering France, global (1.2M locations), land surface and near-land…"


def test_prediction_is_used_without_a_direct_result_and_labelled() -> None:
    a = record("a", modalities=["SAR"], task_types=["segmentation"])
    b = record("b", modalities=["SAR"], task_types=["segmentation"])
    query = StructuredQuery(application="flood mapping", task_type="segmentation", modality=["SAR"])

    def predict(r: ModelRecord, q: StructuredQuery) -> Prediction | None:
        if r.model_id == "b":
            return Prediction(
                score=0.9, uncertainty=0.1, summary="predicted gap 0.10 ± 0.10 on datasets like X"
            )
        return None

    ranked = score_candidates([Candidate(a), Candidate(b)], query, EvidenceIndex([a, b]), predict)
    assert ranked[0].record.model_id == "b"
    assert any("predicted gap 0.10 ± 0.10" in reason for reason in explain(ranked, query)[0].reasons)


def test_output_tasks_need_a_model_that_produces_them() -> None:
    clip = record(
        "clip",
        category="vision-language",
        modalities=["RGB", "Text"],
        task_types=["retrieval"],
        num_parameters=86,
    )
    captioner = record(
        "captioner",
        category="vision-language",
        modalities=["RGB", "Text"],
        task_types=["captioning"],
        num_parameters=7000,
        weights_available=True,
    )
    query = StructuredQuery(task_type="captioning", compute=ComputeBudget(device_class="cpu"))
    assert "task" in violations(clip, query)
    outcome = filter_candidates([clip, captioner], query, minimum=1)
    # The budget is relaxed before the task: the user gets a real captioner, flagged as too big.
    assert [r.model_id for r in outcome.survivors] == ["captioner"]
    assert outcome.relaxed == {"captioner": ["compute"]}


def test_results_on_other_imagery_count_less_than_results_on_the_users_imagery() -> None:
    optical_result = record(
        "optical-result",
        modalities=["SAR", "RGB"],
        benchmarks=[bench("DOTA", "mAP", 80.0, task="detection")],
    )
    sar_result = record(
        "sar-result",
        modalities=["SAR"],
        benchmarks=[bench("Sen1Floods11", "mIoU", 60.0, app="flood mapping")],
    )
    index = EvidenceIndex([optical_result, sar_result])
    sar_query = StructuredQuery(task_type="detection", modality=["SAR"])
    assert [i.relevance for i in index.relevant(optical_result, sar_query)] == ["related"]
    rgb_query = StructuredQuery(task_type="detection", modality=["RGB"])
    assert [i.relevance for i in index.relevant(optical_result, rgb_query)] == ["task"]
    flood = StructuredQuery(application="flood mapping", task_type="segmentation", modality=["SAR"])
    assert [i.relevance for i in index.relevant(sar_result, flood)] == ["application"]


def test_application_shown_only_on_other_imagery_fits_less() -> None:
    sar_only = record(
        "sar-aircraft",
        modalities=["SAR", "RGB"],
        benchmarks=[bench("SAR-AIRcraft-1.0", "mAP", 80.0, task="detection", app="aircraft detection")],
    )
    rgb = record(
        "rgb-aircraft",
        modalities=["RGB"],
        benchmarks=[bench("DIOR", "mAP", 70.0, task="detection", app="aircraft detection")],
    )
    query = StructuredQuery(application="aircraft detection", task_type="detection", modality=["RGB"])
    ranked = score_candidates([Candidate(sar_only), Candidate(rgb)], query, EvidenceIndex([sar_only, rgb]))
    fits = {c.record.model_id: c.criteria["application"].score for c in ranked}
    assert fits["rgb-aircraft"] > fits["sar-aircraft"] > 0.8
    explained = {m.model_id: " | ".join(m.reasons) for m in explain(ranked, query)}
    text = explained["sar-aircraft"]
    assert "aircraft detection, but on other imagery" in text


def test_one_result_from_two_sources_is_one_piece_of_evidence() -> None:
    twice = record(
        "twice",
        modalities=["RGB"],
        benchmarks=[
            {**bench("UC Merced (8:2 split)", "OA", 99.5, task="classification"), "variant": "Swin-B"},
            {**bench("UC Merced", "OA", 99.5, task="classification"), "variant": "TWICE Swin-B"},
            {**bench("UC Merced", "OA", 98.0, task="classification"), "variant": "ResNet-50"},
        ],
    )
    query = StructuredQuery(task_type="classification", modality=["RGB"])
    items = EvidenceIndex([twice]).relevant(twice, query)
    assert sorted(i.value for i in items) == [98.0, 99.5]
    assert [i.dataset for i in items if i.value == 99.5] == ["UC Merced (8:2 split)"]  # the first kept


def test_a_datasets_usual_application_is_not_given_to_other_kinds_of_output() -> None:

    def row(task: str, application: str | None = None) -> Benchmark:
        return Benchmark.model_validate({**bench("fMoW", "OA", 50.0, task=task), "application": application})

    assert bench_application(row("classification")) == "land cover classification"
    assert bench_application(row("zero-shot classification")) == "land cover classification"
    assert bench_application(row("generation", "metadata-conditioned image generation")) is None
    assert bench_application(row("vqa")) is None
    # ... nor is a captioning set's application given to classes of its images.
    captions = {**bench("RSICD", "OA", 88.3, task="zero-shot classification"), "application": None}
    assert bench_application(Benchmark.model_validate(captions)) is None
    captioned = {**bench("RSICD", "CIDEr", 290.0, task="captioning"), "application": None}
    assert bench_application(Benchmark.model_validate(captioned)) == "image captioning"


def test_unlabeled_data_prefers_self_supervised_or_ready_made_models() -> None:
    query = StructuredQuery(application="road extraction", task_type="segmentation", data_regime="unlabeled")
    ssl = record("ssl", pretext_training_type="masked autoencoder")
    labelled = record("labelled", pretext_training_type="supervised multi-task pretraining on labels")
    untrained = record("untrained", pretext_training_type="none (fine-tunes SAM)")
    ready = record(
        "ready",
        pretext_training_type="none (fine-tunes SAM)",
        weights_available=True,
        benchmarks=[bench("City-Scale", "F1", 77.0, app="road extraction")],
    )
    scores = {r.model_id: regime_fit(Candidate(r), query) for r in (ssl, labelled, untrained, ready)}
    assert scores["ready"].score > scores["ssl"].score > scores["labelled"].score
    assert scores["untrained"].score == scores["labelled"].score
    assert scores["ready"].evidence == ["released weights already trained for road extraction"]
    assert scores["labelled"].evidence[0].startswith("pretrained with labels, not self-supervised")


def test_a_task_model_released_trained_for_the_application_needs_no_labels() -> None:
    app = "canopy height estimation"
    query = StructuredQuery(application=app, task_type="regression", data_regime="zero-shot")
    heights = [bench("NEON canopy height", "RMSE", 3.0, task="regression", app="canopy height estimation")]
    ready = record("ready", category="task-specific", weights_available=True, benchmarks=heights)
    # A pretrained encoder evaluated on the task releases no trained head.
    encoder = record("encoder", weights_available=True, benchmarks=heights)
    fits = {r.model_id: regime_fit(Candidate(r), query) for r in (ready, encoder)}
    assert fits["ready"].score == 0.9 and fits["encoder"].score == 0.25
    assert fits["ready"].evidence == ["released already trained for canopy height estimation"]


def test_an_open_vocabulary_segmenter_comes_closest_for_instances_without_labels() -> None:
    # Crowns to delineate with no labels: text-prompted masks split into crowns need no training,
    # which an encoder needing a head does; boxes for masks count alike, captions do not.
    query = StructuredQuery(
        application="forest mapping", task_type="instance segmentation", data_regime="zero-shot"
    )
    masks = [bench("UAVid", "mIoU", 42.5)]
    masks[0]["setting"] = "zero-shot"
    ovss = record("ovss", category="vision-language", task_types=["segmentation"], benchmarks=masks)
    captioner = record("captioner", category="vision-language", task_types=["captioning"])
    encoder = record("encoder", task_types=["segmentation"])
    fits = {r.model_id: regime_fit(Candidate(r), query) for r in (ovss, captioner, encoder)}
    assert fits["ovss"].score == 0.8 and fits["ovss"].evidence == [
        "does segmentation from text prompts, without training"
    ]
    assert fits["captioner"].score == 0.45 and fits["encoder"].score == 0.25


def test_results_on_the_users_imagery_come_first_and_others_say_their_imagery() -> None:
    both = record(
        "both",
        modalities=["Multispectral", "Hyperspectral"],
        benchmarks=[
            bench("SpaceNet 7", "mIoU", 62.0),
            bench("Indian Pines", "OA", 70.0, task="classification"),
        ],
    )
    rival = record("rival", modalities=["Multispectral"], benchmarks=[bench("SpaceNet 7", "mIoU", 50.0)])
    index = EvidenceIndex([both, rival])
    items = index.relevant(both, StructuredQuery(modality=["Hyperspectral"]))
    # Both are related evidence when no task is named; the one on the imagery asked for leads
    # although the other stands higher in its column.
    assert [i.dataset for i in items] == ["Indian Pines", "SpaceNet 7"]
    assert [i.relevance for i in items] == ["related", "related"]
    assert "imagery" not in items[0].describe()
    assert items[1].describe().startswith("mIoU 62 on SpaceNet 7 (Multispectral imagery; fine-tune")
    # Without imagery asked for, nothing is other imagery and the standing decides.
    plain = index.relevant(both, StructuredQuery())
    assert plain[0].dataset == "SpaceNet 7" and not any(i.other_imagery for i in plain)


def test_coordinates_alone_are_met_by_a_location_encoder_more_than_by_location_metadata() -> None:
    encoder = record("encoder", modalities=["Location", "RGB"], category="vision-location")
    metadata = record("metadata", modalities=["Multispectral", "Location"], category="vision")
    alone = StructuredQuery(application="species distribution modelling", modality=["Location"])
    assert modality_fit(Candidate(encoder), alone).score == 1.0
    beside = modality_fit(Candidate(metadata), alone)
    assert beside.score == 0.5 and beside.evidence == [
        "takes Location, but beside imagery (not a location encoder)"
    ]
    # With imagery asked for too, location metadata beside it is what the user has.
    both = StructuredQuery(
        application="species distribution modelling", modality=["Location", "Multispectral"]
    )
    assert modality_fit(Candidate(metadata), both).score == 1.0


def test_a_time_series_request_does_not_make_every_result_other_imagery() -> None:
    s2 = record(
        "s2", modalities=["Multispectral"], benchmarks=[bench("EuroSAT", "OA", 98.0, task="classification")]
    )
    query = StructuredQuery(task_type="classification", modality=["Multi-temporal"])
    assert [i.relevance for i in EvidenceIndex([s2]).relevant(s2, query)] == ["task"]


def test_results_on_another_application_say_what_they_are_about() -> None:
    model = record(
        "crops",
        modalities=["SAR"],
        benchmarks=[bench("PASTIS", "mIoU", 40.0, app="crop type mapping")],
    )
    oil = StructuredQuery(application="oil spill detection", task_type="segmentation", modality=["SAR"])
    ranked = score_candidates([Candidate(record=model, similarity=0.5)], oil, EvidenceIndex([model]), None)
    performance = ranked[0].criteria["performance"].evidence[0]
    assert performance.startswith("mIoU 40 on PASTIS, a crop type mapping benchmark (")
    crops = StructuredQuery(application="crop type mapping", task_type="segmentation", modality=["SAR"])
    ranked = score_candidates([Candidate(record=model, similarity=0.5)], crops, EvidenceIndex([model]), None)
    assert ranked[0].criteria["performance"].evidence[0].startswith("mIoU 40 on PASTIS (")


def test_an_application_with_a_protocol_in_brackets_is_its_application() -> None:
    def row(application: str) -> Benchmark:
        return Benchmark.model_validate(
            {**bench("CVUSA", "OA", 50.0, task="geolocalization"), "application": application}
        )

    assert bench_application(row("cross-view geo-localization (image retrieval)")) == "geolocalization"
    assert bench_application(row("SAR ship detection")) == "ship detection"


def test_the_benchmark_application_takes_the_right_article() -> None:
    model = record(
        "cd", modalities=["RGB"], benchmarks=[bench("LEVIR-CD", "F1", 90.0, task="change detection")]
    )
    query = StructuredQuery(application="building damage assessment", task_type="change detection")
    ranked = score_candidates([Candidate(record=model, similarity=0.5)], query, EvidenceIndex([model]), None)
    assert ", an urban change detection benchmark (" in ranked[0].criteria["performance"].evidence[0]


def test_one_result_with_two_sources_numbers_is_one_reason_line() -> None:
    model = record(
        "two",
        modalities=["Multispectral"],
        benchmarks=[
            bench("DynamicEarthNet", "mIoU", 43.5, app="land cover mapping"),
            {
                **bench("DynamicEarthNet", "mIoU", 31.9, app="land cover mapping"),
                "source_url": "https://example.org/b",
            },
            bench("PASTIS", "mIoU", 40.0, app="land cover mapping"),
        ],
    )
    query = StructuredQuery(application="land cover mapping", task_type="segmentation")
    ranked = score_candidates([Candidate(record=model, similarity=0.5)], query, EvidenceIndex([model]), None)
    lines = ranked[0].criteria["performance"].evidence
    assert [line.split(" (")[0] for line in lines] == ["mIoU 43.5 on DynamicEarthNet", "mIoU 40 on PASTIS"]
    assert len(ranked[0].evidence_items) == 3  # both numbers stay in the evidence table


def test_last_of_a_close_column_keeps_part_of_its_standing() -> None:
    ship = "ship detection"
    best, close, far = (
        record(m, modalities=["SAR"], benchmarks=[bench("SSDD", "mAP", v, "detection", ship)])
        for m, v in (("best", 73.0), ("close", 69.35), ("far", 40.0))
    )
    index = EvidenceIndex([best, close, far])
    query = StructuredQuery(application=ship, task_type="detection", modality=["SAR"])
    (item,) = index.relevant(close, query)
    # Beats one of two others (0.5); 5% behind the best keeps closeness 0.75, half of which is 0.375.
    assert item.standing == 0.5 and item.rank == 2
    only_close = EvidenceIndex([best, close])
    (item,) = only_close.relevant(close, query)
    assert item.rank == 2 and abs(item.standing - 0.375) < 1e-9
    assert "#2 of 2 models reporting it" in item.describe()
    (item,) = index.relevant(far, query)
    assert item.standing == 0.0 and item.rank == 3
    assert "#3 of 3 models reporting it" in item.describe()


def test_prediction_on_other_imagery_weighs_as_related_evidence() -> None:
    sar = record("sar-model", modalities=["SAR"], task_types=["detection"])
    query = StructuredQuery(application="ship detection", task_type="detection", modality=["SAR"])
    scores = {}
    for other in (False, True):

        def predict(r: ModelRecord, q: StructuredQuery, other: bool = other) -> Prediction | None:
            return Prediction(score=0.8, uncertainty=0.0, summary="predicted", other_imagery=other)

        (ranked,) = score_candidates([Candidate(sar)], query, EvidenceIndex([sar]), predict)
        scores[other] = ranked.criteria["performance"].score
    assert abs(scores[False] - LEVEL_CREDIT["task"] * 0.8) < 1e-9
    assert abs(scores[True] - LEVEL_CREDIT["related"] * 0.8) < 1e-9


def test_other_imagery_needs_every_dataset_known_and_different() -> None:
    assert other_imagery(["DIOR", "DOTA"], ["SAR"])
    assert not other_imagery(["DIOR", "DOTA"], ["RGB"])
    assert not other_imagery(["DIOR", "a dataset nobody catalogued"], ["SAR"])
    assert not other_imagery(["DIOR"], [])


def test_precomputed_embeddings_need_an_embedding_product_whatever_its_encoder_size() -> None:
    product = record(
        "product",
        category="embedding-product",
        modalities=["Multispectral"],
        num_parameters=480,
        weights_available=True,
    )
    model = record("model", modalities=["Multispectral"], num_parameters=22)
    wanted = StructuredQuery(precomputed_embeddings=True, compute=ComputeBudget(device_class="cpu"))
    assert violations(product, wanted) == {}
    assert set(violations(model, wanted)) == {"precomputed_embeddings"}
    # Reading embeddings costs no compute: the product's encoder size is not held against it.
    cpu = StructuredQuery(compute=ComputeBudget(device_class="cpu"))
    assert violations(product, cpu) == {}
    (ranked,) = score_candidates([Candidate(product)], cpu, EvidenceIndex([product]))
    assert ranked.criteria["efficiency"].score == 1.0
    # Embeddings whose encoder is not known to be released leave nothing to run on the CPU.
    closed = product.model_copy(update={"weights_available": None})
    assert set(violations(closed, cpu)) == {"encoder"}


def test_a_result_on_the_application_shows_the_model_produces_its_output() -> None:
    shown = record(
        "shown",
        modalities=["SAR", "Multispectral"],
        task_types=["classification"],
        benchmarks=[bench("SEN12MS-CR", "PSNR", 28.0, "regression", "cloud removal")],
    )
    unshown = record("unshown", modalities=["SAR", "Multispectral"], task_types=["classification"])
    query = StructuredQuery(application="cloud removal", task_type="generation", modality=["SAR"])
    assert "task" not in violations(shown, query)
    assert violations(unshown, query)["task"] == "does not do generation"


def test_a_named_benchmark_ranks_its_results_above_other_results_on_the_application() -> None:
    app = "land cover classification"
    on_named = record("named", benchmarks=[bench("EuroSAT", "OA", 98.0, "classification", app)])
    on_other = record("other", benchmarks=[bench("UC Merced", "OA", 99.0, "classification", app)])
    index = EvidenceIndex([on_named, on_other])
    query = StructuredQuery(application=app, task_type="classification", datasets=["EuroSAT"])
    assert [i.relevance for i in index.relevant(on_named, query)] == ["application"]
    assert [i.relevance for i in index.relevant(on_other, query)] == ["task"]
    ranked = score_candidates([Candidate(on_other), Candidate(on_named)], query, index)
    assert [c.record.model_id for c in ranked] == ["named", "other"]
    assert ranked[1].criteria["application"].evidence == [f"evaluated on {app}, not on EuroSAT"]


def test_asking_for_the_latest_models_ranks_by_release_date() -> None:
    older = record("older", modalities=["SAR"], release_date="2025-01-10")
    newer = record("newer", modalities=["SAR"], release_date="2025-11-20")
    year_only = record("year-only", modalities=["SAR"], release_year=2024)
    index = EvidenceIndex([older, newer, year_only])
    plain = StructuredQuery(modality=["SAR"])
    latest = StructuredQuery(modality=["SAR"], priorities=["recency"])
    same = score_candidates([Candidate(older), Candidate(newer)], plain, index)
    assert same[0].criteria["recency"].score == same[1].criteria["recency"].score == 1.0  # rubric: 2025+
    ranked = score_candidates([Candidate(older), Candidate(year_only), Candidate(newer)], latest, index)
    assert [c.record.model_id for c in ranked] == ["newer", "older", "year-only"]
    assert ranked[0].criteria["recency"].evidence == ["released 2025-11-20"]
    assert ranked[2].criteria["recency"].evidence == ["released 2024"]
    assert query_weights(latest)["recency"] > query_weights(plain)["recency"]


def test_an_embedding_product_is_judged_on_its_fixed_grid() -> None:
    coarse = record(
        "coarse",
        category="embedding-product",
        modalities=["Multispectral"],
        spatial_resolution="0.25 degree grid",
    )
    fine = record(
        "fine", category="embedding-product", modalities=["Multispectral"], spatial_resolution="10 m"
    )
    query = StructuredQuery(
        modality=["Multispectral"], spatial_resolution_m=10.0, precomputed_embeddings=True
    )
    ranked = score_candidates([Candidate(coarse), Candidate(fine)], query, EvidenceIndex([coarse, fine]))
    assert [c.record.model_id for c in ranked] == ["fine", "coarse"]
    assert "embeddings at 0.25 degree grid, coarser than your 10 m" in ranked[1].criteria["modality"].evidence
    trade_offs = explain(ranked, query)[1].trade_offs
    assert any(t.startswith("Embeddings are precomputed at 0.25 degree grid") for t in trade_offs)
    assert not any("weights" in t for t in trade_offs)  # an encoder's weights are beside the point


def test_retrieval_of_sounds_is_a_vision_audio_task() -> None:
    audio = record("audio", category="vision-audio", modalities=["RGB", "Audio"], task_types=["retrieval"])
    plain = record("plain", modalities=["RGB"], task_types=["classification"])
    sounds = StructuredQuery(application="soundscape mapping", task_type="retrieval", modality=["Audio"])
    ranked = score_candidates([Candidate(plain), Candidate(audio)], sounds, EvidenceIndex([audio, plain]))
    assert ranked[0].record.model_id == "audio"
    assert ranked[0].criteria["application"].score == 0.75
    assert ranked[1].criteria["application"].evidence == ["retrieval needs a vision-language model"]
    captions = StructuredQuery(application="image captioning", task_type="captioning", modality=["RGB"])
    (scored,) = score_candidates([Candidate(audio)], captions, EvidenceIndex([audio]))
    assert scored.criteria["application"].score == 0.1


def test_pretraining_and_evaluation_regions_weigh_against_the_users_region() -> None:
    kwargs: dict[str, Any] = {"modalities": ["Multispectral"], "num_parameters": 86}
    worldwide = record("worldwide", pretraining_phases=[{"regions_coverage": ["global"]}], **kwargs)
    french = record("french", pretraining_phases=[{"regions_coverage": ["France"]}], **kwargs)
    unstated = record("unstated", **kwargs)
    # Benin is in Africa: the dataset table places 'm-cashew-plantation' there.
    tested = record(
        "tested", benchmarks=[bench("m-cashew-plantation", "mIoU", 50.0, app="crop type mapping")], **kwargs
    )
    kenya = StructuredQuery(application="crop type mapping", modality=["Multispectral"], region=["Africa"])
    fit = {
        r.model_id: generalizability_fit(Candidate(r), kenya) for r in (worldwide, french, unstated, tested)
    }
    assert fit["worldwide"].score > fit["unstated"].score > fit["french"].score
    assert fit["tested"].score > fit["unstated"].score
    assert "pretraining data covers Africa (global)" in fit["worldwide"].evidence
    assert any(
        e.startswith("evaluated on data from Benin: m-cashew-plantation") for e in fit["tested"].evidence
    )
    # Without a region, France-only pretraining is not held against the model.
    no_region = StructuredQuery(application="crop type mapping")
    assert (
        generalizability_fit(Candidate(french), no_region).score
        == generalizability_fit(Candidate(french)).score
    )
    ranked = score_candidates([Candidate(french)], kenya, EvidenceIndex([french]))
    trade_offs = explain(ranked, kenya)[0].trade_offs
    said = [t for t in trade_offs if "pretrained only on data from france, not africa" in t.lower()]
    assert len(said) == 1, trade_offs


def test_data_taken_only_through_a_related_input_is_always_said() -> None:
    dem = record("dem-model", modalities=["DEM", "Multispectral"], num_parameters=86)
    lidar = StructuredQuery(task_type="segmentation", modality=["LiDAR"])
    ranked = score_candidates([Candidate(dem)], lidar, EvidenceIndex([dem]))
    assert "Data fit: LiDAR only through related input (DEM)" in explain(ranked, lidar)[0].trade_offs


def test_vision_language_results_count_for_the_format_they_are_asked_in() -> None:
    def app(label: str, task: str) -> str | None:
        return bench_application(
            Benchmark.model_validate(bench("Some-VLM-Bench", "OA", 50.0, task=task, app=label))
        )

    assert app("VQA, quantity questions", "vqa") == "visual question answering"
    assert app("large remote sensing image VQA", "vqa") == "visual question answering"
    assert app("region captioning", "captioning") == "image captioning"
    assert (
        app("few-shot referring expression comprehension (FS-REC)", "visual grounding") == "visual grounding"
    )
    # Multiple-choice sets are not free-form answers: contrastive models answer them by matching.
    assert app("ship classification (MCQ)", "vqa") is None
    assert app("VQA, quantity questions", "classification") is None  # the label and the task disagree


def test_a_low_label_result_counts_by_how_the_model_did_and_on_what() -> None:
    def few(dataset: str, value: float, app: str) -> dict[str, Any]:
        return {**bench(dataset, "mIoU", value, app=app), "setting": "few-shot", "sampling_percentage": 10.0}

    best = record("best", modalities=["SAR"], benchmarks=[few("Sen1Floods11", 80.0, "flood mapping")])
    worst = record("worst", modalities=["SAR"], benchmarks=[few("Sen1Floods11", 50.0, "flood mapping")])
    elsewhere = record("elsewhere", modalities=["SAR"], benchmarks=[few("PASTIS", 30.0, "crop type mapping")])
    query = StructuredQuery(
        application="flood mapping", task_type="segmentation", modality=["SAR"], data_regime="few-shot"
    )
    index = EvidenceIndex([best, worst, elsewhere])
    ranked = score_candidates([Candidate(r) for r in (best, worst, elsewhere)], query, index)
    fit = {c.record.model_id: c.criteria["data_regime"] for c in ranked}
    assert fit["best"].score > fit["worst"].score > fit["elsewhere"].score
    assert all(f.evidence[0].startswith("low-label result:") for f in fit.values())


def test_asked_for_efficiency_under_a_loose_budget_smaller_still_counts() -> None:
    tiny = Candidate(record("tiny", num_parameters=4))
    mid = Candidate(record("mid", num_parameters=100))
    gpu = ComputeBudget(device_class="single-gpu")
    loose = StructuredQuery(task_type="segmentation", compute=gpu)
    assert efficiency_fit(tiny, loose).score == efficiency_fit(mid, loose).score == 1.0
    efficient = StructuredQuery(task_type="segmentation", compute=gpu, priorities=["efficiency"])
    assert efficiency_fit(tiny, efficient).score > efficiency_fit(mid, efficient).score


def test_on_a_cpu_what_a_cpu_trains_sets_the_scale() -> None:
    small = Candidate(record("small", num_parameters=5))
    base = Candidate(record("base", num_parameters=86))
    cpu = StructuredQuery(task_type="segmentation", compute=ComputeBudget(device_class="cpu"))
    assert efficiency_fit(small, cpu).score == 1.0
    assert efficiency_fit(base, cpu).score < 0.5  # a ViT-B takes days to train on a CPU
    assert "a CPU trains up to about 30M" in efficiency_fit(base, cpu).evidence[0]
    # A limit the user states is theirs, and a model only run is held to what a CPU runs.
    stated = StructuredQuery(compute=ComputeBudget(device_class="cpu", max_parameters_m=350.0))
    assert efficiency_fit(base, stated).score > 0.8


def test_over_the_budget_a_model_loses_more_than_one_under_it_gains() -> None:
    budget = StructuredQuery(compute=ComputeBudget(device_class="cpu", max_parameters_m=40.0))
    at = efficiency_fit(Candidate(record("at", num_parameters=40)), budget).score
    under = efficiency_fit(Candidate(record("under", num_parameters=16)), budget).score
    over = efficiency_fit(Candidate(record("over", num_parameters=100)), budget).score
    far = efficiency_fit(Candidate(record("far", num_parameters=400)), budget).score
    assert at - over > under - at > 0.0
    assert over < 0.45 and far < 0.05


def test_on_several_gpus_size_costs_little_below_a_billion_parameters() -> None:
    base = Candidate(record("base", num_parameters=86))
    large = Candidate(record("large", num_parameters=300))
    huge = Candidate(record("huge", num_parameters=3000))
    cluster = StructuredQuery(task_type="segmentation", compute=ComputeBudget(device_class="multi-gpu"))
    assert efficiency_fit(base, cluster).score == efficiency_fit(large, cluster).score == 1.0
    assert efficiency_fit(huge, cluster).score < 1.0
    # Without a device, a ViT-L already costs more than a ViT-B.
    anywhere = StructuredQuery(task_type="segmentation")
    assert efficiency_fit(large, anywhere).score < efficiency_fit(base, anywhere).score


def test_a_record_without_pretraining_regions_is_read_through_its_pretraining_datasets() -> None:
    kwargs: dict[str, Any] = {"modalities": ["Multispectral"], "num_parameters": 86}
    corpus = record("corpus", pretraining_phases=[{"dataset": "SSL4EO-S12 + GeoNRW RGB"}], **kwargs)
    european = record("european", pretraining_phases=[{"dataset": "BigEarthNet"}], **kwargs)
    kenya = StructuredQuery(application="crop type mapping", modality=["Multispectral"], region=["Kenya"])
    covered = generalizability_fit(Candidate(corpus), kenya)
    assert "pretraining data covers Kenya (global, after its pretraining data SSL4EO-S12, GeoNRW RGB)" in (
        covered.evidence
    )
    elsewhere = generalizability_fit(Candidate(european), kenya)
    assert elsewhere.score < covered.score
    assert "pretrained only on data from Europe, after its pretraining data BigEarthNet, not Kenya" in (
        elsewhere.evidence
    )


def test_only_independent_evaluations_count_towards_popularity() -> None:
    from tools.criteria import popularity_fit

    def row(url: str) -> dict[str, Any]:
        return {**bench("EuroSAT", "OA", 90.0, task="classification"), "source_url": url}

    own = make_record(
        "own",
        repository="https://github.com/lab/own",
        sources=[
            {"url": "https://example.org/own", "fields": ["paper_link"]},
            {"url": "https://lab.github.io/own/results.html", "fields": ["benchmarks"]},
        ],
        benchmarks=[
            row("https://github.com/lab/own/blob/abc/README.md"),  # its repository
            row("https://lab.github.io/own/results.html"),  # a page its record cites
            row("https://example.org/own"),  # its paper
        ],
    )
    assert popularity_fit(Candidate(record=own)).score == 0.3
    compared = own.model_copy(
        update={"benchmarks": [*own.benchmarks, Benchmark.model_validate(row("https://example.org/survey"))]}
    )
    assert popularity_fit(Candidate(record=compared)).score == 0.5


def _bench_in(setting: str, value: float, dataset: str = "EuroSAT") -> dict[str, Any]:
    row = bench(dataset, "OA", value, task="classification", app="land cover classification")
    return {**row, "setting": setting}


def test_a_frozen_encoder_prefers_models_shown_frozen() -> None:
    # Equal but for the protocol of their results: with a frozen encoder the linear-probe result
    # is the evidence that counts, and a fine-tuned one says less.
    probed = record("probed", modalities=["Multispectral"], benchmarks=[_bench_in("linear probe", 90.0)])
    tuned = record("tuned", modalities=["Multispectral"], benchmarks=[_bench_in("fine-tune", 90.0)])
    generator = record("generator", category="generative", modalities=["Multispectral"])
    query = StructuredQuery(
        application="land cover classification", task_type="classification", frozen_encoder=True
    )
    ranked = score_candidates(
        [Candidate(tuned), Candidate(generator), Candidate(probed)], query, EvidenceIndex([probed, tuned])
    )
    assert [c.record.model_id for c in ranked] == ["probed", "tuned", "generator"]
    fit = {c.record.model_id: c.criteria["frozen_encoder"] for c in ranked}
    assert fit["probed"].score > fit["tuned"].score > fit["generator"].score
    assert "frozen" in fit["probed"].evidence[0] and not fit["tuned"].known
    reasons = explain(ranked, query)[0].reasons
    # The frozen-encoder result is the reported performance here: said once.
    assert sum("OA 90 on EuroSAT" in r for r in reasons) == 1
    # Without a frozen encoder the criterion is not there, and the two tie on their evidence.
    plain = score_candidates(
        [Candidate(tuned), Candidate(probed)],
        StructuredQuery(application="land cover classification", task_type="classification"),
        EvidenceIndex([probed, tuned]),
    )
    assert "frozen_encoder" not in plain[0].criteria
    assert plain[0].score == plain[1].score


def test_a_named_benchmark_counts_more_than_results_elsewhere_on_its_application() -> None:
    there = record(
        "there", modalities=["RGB"], benchmarks=[bench("LoveDA", "mIoU", 50.0, app="land cover mapping")]
    )
    elsewhere = record(
        "elsewhere", modalities=["RGB"], benchmarks=[bench("Potsdam", "mIoU", 50.0, app="land cover mapping")]
    )
    query = StructuredQuery(application="land cover mapping", task_type="segmentation", datasets=["LoveDA"])
    ranked = score_candidates(
        [Candidate(elsewhere), Candidate(there)], query, EvidenceIndex([there, elsewhere])
    )
    fit = {c.record.model_id: c.criteria["application"] for c in ranked}
    assert (fit["there"].score, fit["elsewhere"].score) == (1.0, 0.8)
    assert fit["elsewhere"].evidence == ["evaluated on land cover mapping, not on LoveDA"]


def test_release_years_rule_out_other_years_and_an_unknown_year_is_unconfirmed() -> None:
    new = record("new", release_year=2025)
    old = record("old", release_date="2022-05-01")
    unknown = record("unknown")
    query = StructuredQuery(min_release_year=2024)
    assert violations(new, query) == {}
    assert violations(old, query) == {"release_year": "released in 2022, before 2024"}
    assert violations(unknown, query) == {}
    assert "released in 2025, after 2023" in violations(new, StructuredQuery(max_release_year=2023)).values()
    ranked = score_candidates([Candidate(unknown), Candidate(new)], query, EvidenceIndex([new, unknown]))
    assert ranked[0].record.model_id == "new"  # the unknown year costs a little
    offs = {m.model_id: m.trade_offs for m in explain(ranked, query)}
    assert "Release year unknown: confirm it was released 2024 or later" in offs["unknown"]
    # Nothing from those years: the closest matches say which year they are from.
    outcome = filter_candidates([old], query)
    assert outcome.relaxed == {"old": ["release_year"]}
    closest = explain(
        score_candidates([Candidate(old, relaxed=["release_year"])], query, EvidenceIndex([old])), query
    )
    assert "Released in 2022, not released 2024 or later (closest match)" in closest[0].trade_offs


def test_a_model_to_chat_with_must_write_free_text() -> None:
    clip = record("clip", category="vision-language", backbone="CLIP ViT-B/16", modalities=["RGB", "Text"])
    mllm = record(
        "mllm", category="vision-language", backbone="CLIP ViT-L/14 + Vicuna-7B", modalities=["RGB", "Text"]
    )
    captioner = record("captioner", category="vision-language", task_types=["captioning"])
    encoder_llm = record(
        "aligned", category="vision-language", backbone="DINOv3 ViT-L + LLM2Vec Llama-3-8B text encoder"
    )
    assert [r.writes_text for r in (clip, mllm, captioner, encoder_llm)] == [False, True, True, False]
    # The CLIP-style model reports the better VQA result, but answers only by picking among options.
    vqa = [bench("RSVQA-HR", "OA", 80.0, task="vqa", app="visual question answering")]
    clip_vqa = record("clip-vqa", category="vision-language", backbone="CLIP ViT-B/16", benchmarks=vqa)
    mllm = mllm.model_copy(
        update={"benchmarks": [Benchmark.model_validate({**vqa[0], "metrics_value": [70.0]})]}
    )
    query = StructuredQuery(application="visual question answering", task_type="vqa", conversational=True)
    ranked = score_candidates([Candidate(clip_vqa), Candidate(mllm)], query, EvidenceIndex([clip_vqa, mllm]))
    fit = {c.record.model_id: c.criteria["application"] for c in ranked}
    assert fit["clip-vqa"].score == 0.2 and "writes no free text" in fit["clip-vqa"].evidence[0]
    assert ranked[0].record.model_id == "mllm"


def test_questions_answered_need_a_model_that_writes_its_answers() -> None:
    # Asked for VQA without saying 'chat': a CLIP-style model still only picks among given answers.
    vqa = [bench("RSVQA-HR", "OA", 80.0, task="vqa", app="visual question answering")]
    clip_vqa = record("clip-vqa", category="vision-language", backbone="CLIP ViT-B/16", benchmarks=vqa)
    mllm = record(
        "mllm",
        category="vision-language",
        backbone="CLIP ViT-L/14 + Vicuna-7B",
        modalities=["RGB", "Text"],
        benchmarks=[Benchmark.model_validate({**vqa[0], "metrics_value": [70.0]})],
    )
    query = StructuredQuery(application="visual question answering", task_type="vqa")
    ranked = score_candidates([Candidate(clip_vqa), Candidate(mllm)], query, EvidenceIndex([clip_vqa, mllm]))
    assert ranked[0].record.model_id == "mllm"


def test_a_chat_model_not_shown_making_maps_fits_a_mapping_task_little() -> None:
    chat = record(
        "chat",
        category="vision-language",
        backbone="InternVL2 with a Phi-3-mini LLM",
        task_types=["detection", "vqa", "captioning"],
    )
    segmenter = record("segmenter", category="vision-language", task_types=["segmentation", "vqa"])
    query = StructuredQuery(task_type="segmentation")
    index = EvidenceIndex([chat, segmenter])
    ranked = score_candidates([Candidate(chat), Candidate(segmenter)], query, index)
    fit = {c.record.model_id: c.criteria["application"] for c in ranked}
    assert fit["chat"].score == 0.3 and "writes text" in fit["chat"].evidence[0]
    assert fit["segmenter"].score > fit["chat"].score


def test_a_floor_on_a_named_benchmark_is_checked_on_its_results() -> None:
    # 95 elsewhere does not lift a result of 85 on the benchmark the user named.
    named_low = record(
        "named-low",
        benchmarks=[
            bench("Sen1Floods11", "mIoU", 85.0, app="flood mapping"),
            bench("Potsdam", "mIoU", 95.0, app="land cover mapping"),
        ],
    )
    elsewhere_only = record(
        "elsewhere", benchmarks=[bench("Potsdam", "mIoU", 95.0, app="land cover mapping")]
    )
    query = StructuredQuery(
        task_type="segmentation",
        datasets=["Sen1Floods11"],
        min_performance=MinPerformance(metric=["mIoU"], value=[90.0]),
    )
    assert violations(named_low, query) == {
        "min_performance": "best reported mIoU is 85, below the required 90"
    }
    assert violations(elsewhere_only, query) == {}  # no result on it: the task's results decide
    assert violations(named_low, query.model_copy(update={"datasets": []})) == {}


def test_a_coarse_embedding_grid_costs_data_fit_even_without_a_modality() -> None:
    coarse = record("coarse", category="embedding-product", spatial_resolution="0.25 degree grid")
    fine = record("fine", category="embedding-product", spatial_resolution="10 m")
    query = StructuredQuery(spatial_resolution_m=10.0)
    fits = {r.model_id: modality_fit(Candidate(r), query) for r in (coarse, fine)}
    assert fits["fine"].score == 0.6
    assert fits["coarse"].score == 0.3
    assert "coarser than your 10 m" in fits["coarse"].evidence[-1]


def test_imagery_options_put_the_applications_usual_inputs_first() -> None:
    from tools.clarification import MODALITY_OPTIONS, questions_for

    def options(application: str | None) -> list[str]:
        query = StructuredQuery(application=application) if application else StructuredQuery()
        return next(q.options for q in questions_for(query, "missing", set()) if q.field == "modality")

    assert options("flood mapping")[0].startswith("SAR")
    assert options("building segmentation")[0].startswith("RGB")
    assert options(None) == MODALITY_OPTIONS
    assert sorted(options("flood mapping")) == sorted(MODALITY_OPTIONS)


def test_either_modality_is_met_in_full_by_a_model_for_one_of_them() -> None:
    rgb = record("rgb", modalities=["RGB"])
    ms = record("ms", modalities=["Multispectral"])
    both = record("both", modalities=["RGB", "Multispectral"])
    sar = record("sar", modalities=["SAR"])
    hyper = record("hyper", modalities=["Hyperspectral"])
    either = StructuredQuery(
        application="land cover mapping", modality=["Multispectral", "RGB"], either_modality=True
    )
    scores = {r.model_id: modality_fit(Candidate(r), either).score for r in (rgb, ms, both, hyper)}
    assert scores["rgb"] == scores["ms"] == scores["both"] == 1.0
    assert scores["hyper"] == 0.5  # only through related input
    # Without 'either', both are wanted: a model for one of them half meets the other. Each
    # modality counts by its rarity in RS-FMD (the rarer one is what makes the task specific).
    w = modality_rarity()
    joint = either.model_copy(update={"either_modality": False})
    half = (w("RGB") + 0.5 * w("Multispectral")) / (w("RGB") + w("Multispectral"))
    assert abs(modality_fit(Candidate(rgb), joint).score - half) < 1e-9
    assert modality_fit(Candidate(both), joint).score == 1.0
    # Another modality asked beside them still counts on its own ('optical and SAR').
    fused = either.model_copy(update={"modality": ["Multispectral", "RGB", "SAR"]})
    # (RGB meets the 'either' wish in full; SAR counts on its own)
    assert abs(modality_fit(Candidate(rgb), fused).score - w("RGB") / (w("RGB") + w("SAR"))) < 1e-9
    sar_share = w("SAR") / (w("SAR") + w("Multispectral"))  # the wish kept: the first by name
    assert abs(modality_fit(Candidate(sar), fused).score - sar_share) < 1e-9
    assert summary(either)[1] == "RGB or Multispectral"


def test_a_result_on_a_variant_of_the_named_dataset_counts_as_a_result_on_it() -> None:
    from tools.criteria import application_fit

    query = StructuredQuery(application="crop type mapping", task_type="segmentation", datasets=["PASTIS"])
    exact = record("exact", benchmarks=[bench("PASTIS", "mIoU", 40.0, app="crop type mapping")])
    variant = record("variant", benchmarks=[bench("PASTIS-HD", "mIoU", 68.0, app="crop type mapping")])
    other = bench("Sen4Map crop type", "OA", 80.0, task="classification")
    elsewhere = record("elsewhere", benchmarks=[other])
    fits = {r.model_id: application_fit(Candidate(r), query) for r in (exact, variant, elsewhere)}
    assert fits["exact"].score > fits["variant"].score > fits["elsewhere"].score
    assert fits["variant"].evidence == ["evaluated on PASTIS-HD, a variant of PASTIS"]
    # As evidence, a variant's result is one on the task: its numbers are not on the named protocol.
    index = EvidenceIndex([exact, variant, elsewhere])
    assert [i.relevance for i in index.relevant(exact, query)] == ["application"]
    assert [i.relevance for i in index.relevant(variant, query)] == ["task"]


def test_semantic_results_on_the_application_fit_an_instance_task_less() -> None:
    from tools.criteria import application_fit

    instances = StructuredQuery(application="building segmentation", task_type="instance segmentation")
    masks = bench("WHU Building", "IoU", 90.0, app="building segmentation")
    semantic = record("semantic", task_types=["segmentation"], benchmarks=[masks])
    both = record("both", task_types=["segmentation", "instance segmentation"], benchmarks=[masks])
    fit = application_fit(Candidate(semantic), instances)
    assert (fit.score, fit.evidence) == (
        0.8,
        ["evaluated on building segmentation as segmentation, not instance segmentation"],
    )
    assert application_fit(Candidate(both), instances).score == 1.0
    as_usual = instances.model_copy(update={"task_type": "segmentation"})
    assert application_fit(Candidate(semantic), as_usual).score == 1.0


def test_a_task_specific_model_built_for_the_application_fits_it_without_results() -> None:
    from rsfmd.schema import Category
    from tools.criteria import application_fit

    query = StructuredQuery(application="building segmentation", task_type="segmentation")
    text = "Adapts SAM to polygonal building extraction from aerial imagery."
    built = make_record(
        "built",
        short_description=text,
        category=Category.task_specific,
        task_types=["instance segmentation"],
        sources=[{"url": "https://example.org/built"}],
    )
    general = make_record(
        "general",
        short_description=text,
        task_types=["instance segmentation"],
        sources=[{"url": "https://example.org/general"}],
    )
    fit = application_fit(Candidate(built), query)
    said = "described as a model for building segmentation, no result recorded"
    assert (fit.score, fit.evidence) == (0.9, [said])
    # A general model that names the application only in passing waits for a result on it.
    assert application_fit(Candidate(general), query).score < 0.9


def test_a_pixel_time_series_classifier_makes_a_map_from_a_series() -> None:
    from tools.criteria import application_fit

    pixels = record(
        "pixels", task_types=["time-series classification"], modalities=["Multispectral", "Multi-temporal"]
    )
    series = StructuredQuery(application="land cover mapping", task_type="segmentation", multi_temporal=True)
    single = StructuredQuery(application="land cover mapping", task_type="segmentation")
    fit = application_fit(Candidate(pixels), series)
    assert (fit.score, fit.evidence) == (0.75, ["maps by classifying each pixel's time series"])
    # From single images a map needs a dense decoder such an encoder lacks: only related.
    assert application_fit(Candidate(pixels), single).score < 0.75


def test_the_input_few_models_take_ranks_its_takers_first() -> None:
    from tools.ranking import distinctive_modalities

    both = StructuredQuery(task_type="segmentation", modality=["Multispectral", "DEM"])
    assert distinctive_modalities(both) == {"DEM"}
    assert distinctive_modalities(StructuredQuery(modality=["SAR", "Multispectral"])) == frozenset()
    assert distinctive_modalities(StructuredQuery(modality=["Thermal"])) == frozenset()
    strong = record(
        "strong",
        modalities=["Multispectral"],
        task_types=["segmentation"],
        weights_available=True,
        benchmarks=[bench("Sen1Floods11", "mIoU", 95.0)],
    )
    dem = record("dem", modalities=["DEM"], num_parameters=2000.0)  # little else for it
    ranked = score_candidates([Candidate(strong), Candidate(dem)], both, EvidenceIndex([strong, dem]))
    assert [c.record.model_id for c in ranked] == ["dem", "strong"]
    assert ranked[1].score > ranked[0].score  # the tier, not the score, puts it first


def test_hyperspectral_imagery_alone_prefers_a_model_built_for_it_alone() -> None:
    fields: dict[str, Any] = {"task_types": ["classification"], "weights_available": True}
    specialist = record("specialist", modalities=["Hyperspectral"], **fields)
    generalist = record("generalist", modalities=["Hyperspectral", "Multispectral", "SAR"], **fields)
    index = EvidenceIndex([specialist, generalist])
    alone = StructuredQuery(task_type="classification", modality=["Hyperspectral"])
    ranked = score_candidates([Candidate(generalist), Candidate(specialist)], alone, index)
    assert [c.record.model_id for c in ranked] == ["specialist", "generalist"]
    assert ranked[0].criteria["focus"].evidence == ["built for hyperspectral imagery alone"]
    # Beside other imagery, or for imagery of a common kind, no criterion weighs it.
    beside = StructuredQuery(task_type="classification", modality=["Hyperspectral", "SAR"])
    common = StructuredQuery(task_type="classification", modality=["SAR"])
    for query in (beside, common):
        scored = score_candidates([Candidate(generalist), Candidate(specialist)], query, index)
        assert all("focus" not in c.criteria for c in scored)


def test_a_question_about_image_pairs_ranks_models_taking_pairs_first() -> None:
    from tools.ranking import distinctive_modalities

    change = StructuredQuery(task_type="vqa", modality=["Multi-temporal", "RGB"], multi_temporal=True)
    assert distinctive_modalities(change) == {"Multi-temporal"}
    single = record("single", modalities=["RGB", "Text"], task_types=["vqa"], weights_available=True)
    pairs = record("pairs", modalities=["RGB", "Text", "Multi-temporal"], num_parameters=20000.0)
    ranked = score_candidates([Candidate(single), Candidate(pairs)], change, EvidenceIndex([single, pairs]))
    assert [c.record.model_id for c in ranked] == ["pairs", "single"]
    assert distinctive_modalities(change.model_copy(update={"task_type": "segmentation"})) == frozenset()
    # Change captioning takes pairs by what it is, whether or not the task said 'pairs'.
    captions = StructuredQuery(application="change captioning", task_type="captioning", modality=["RGB"])
    assert distinctive_modalities(captions) == {"Multi-temporal"}


def test_too_few_models_taking_the_rare_input_bring_in_those_for_another_sensor() -> None:
    query = StructuredQuery(task_type="segmentation", modality=["Thermal", "Multispectral"], sensor=["MODIS"])
    modis = record("modis", modalities=["Multispectral"], supported_sensors=["MODIS"])
    landsat = record("landsat", modalities=["Multispectral", "Thermal"], supported_sensors=["Landsat-8"])
    radar = record("radar", modalities=["SAR"], supported_sensors=["Sentinel-1"])
    outcome = filter_candidates([modis, landsat, radar], query, minimum=1)
    assert [r.model_id for r in outcome.survivors] == ["modis", "landsat"]
    assert outcome.relaxed == {"landsat": ["sensor"]}
    cands = [Candidate(r, relaxed=outcome.relaxed.get(r.model_id, [])) for r in outcome.survivors]
    ranked = score_candidates(cands, query, EvidenceIndex([modis, landsat]))
    assert [c.record.model_id for c in ranked] == ["landsat", "modis"]  # thermal first, said relaxed
    # Without a rare input, a sensor mismatch stays out while enough models meet every constraint.
    plain = StructuredQuery(task_type="segmentation", modality=["Multispectral"], sensor=["MODIS"])
    assert [r.model_id for r in filter_candidates([modis, landsat], plain).survivors] == ["modis"]


def test_a_rare_input_taker_over_the_devices_budget_beats_one_without_the_input() -> None:
    edge = StructuredQuery(
        task_type="segmentation", modality=["Thermal", "RGB"], compute=ComputeBudget(device_class="edge")
    )
    rgb = record("rgb", modalities=["RGB"], num_parameters=20, weights_available=True)
    thermal = record("thermal", modalities=["RGB", "Thermal"], num_parameters=86, weights_available=True)
    outcome = filter_candidates([rgb, thermal], edge, minimum=1)
    assert outcome.relaxed == {"thermal": ["compute"]}
    cands = [Candidate(r, relaxed=outcome.relaxed.get(r.model_id, [])) for r in outcome.survivors]
    ranked = score_candidates(cands, edge, EvidenceIndex([rgb, thermal]))
    assert [c.record.model_id for c in ranked] == ["thermal", "rgb"]
    # A budget the user stated is not bent for it.
    stated = edge.model_copy(update={"compute": ComputeBudget(device_class="edge", max_parameters_m=30)})
    assert [r.model_id for r in filter_candidates([rgb, thermal], stated).survivors] == ["rgb"]


def test_a_rare_input_taker_far_over_the_devices_budget_is_not_brought_in() -> None:
    edge = StructuredQuery(
        task_type="segmentation", modality=["Thermal", "RGB"], compute=ComputeBudget(device_class="edge")
    )
    rgb = record("rgb", modalities=["RGB"], num_parameters=20, weights_available=True)
    chat = record("chat", modalities=["RGB", "Thermal", "Text"], num_parameters=4000, weights_available=True)
    # A 4B model does not run on a Jetson however rare its input: the budget bends, within bounds.
    assert [r.model_id for r in filter_candidates([rgb, chat], edge, minimum=1).survivors] == ["rgb"]


def test_a_rare_input_taker_beats_a_wavelength_aware_model_without_the_input() -> None:
    # 'a model that takes a non-standard channel set, thermal and elevation included'
    query = StructuredQuery(
        task_type="segmentation", modality=["Thermal", "DEM", "Multispectral"], any_bands=True
    )
    aware = record("aware", modalities=["Multispectral", "SAR"], spectral_alignment=Alignment.full)
    thermal = record("thermal", modalities=["Multispectral", "Thermal"])
    outcome = filter_candidates([aware, thermal], query, minimum=2)
    assert outcome.relaxed == {"thermal": ["band_flexibility"]}
    cands = [Candidate(r, relaxed=outcome.relaxed.get(r.model_id, [])) for r in outcome.survivors]
    ranked = score_candidates(cands, query, EvidenceIndex([aware, thermal]))
    assert [c.record.model_id for c in ranked] == ["thermal", "aware"]


def test_fine_pixels_of_another_modality_do_not_make_coarse_sar_fine() -> None:
    # Pretrained on 10 m Sentinel-1 SAR and 0.6 m NAIP RGB, and evaluated on 10 m flood imagery:
    # for 1 m ICEYE SAR floods, neither its pretraining nor its flood result is on the user's pixels.
    both = record(
        "s1-naip",
        modalities=["SAR", "RGB"],
        supported_sensors=["Sentinel-1", "NAIP"],
        benchmarks=[bench("Sen1Floods11", "mIoU", 90.0, app="flood mapping")],
    )
    fine_sar = record("fine-sar", modalities=["SAR"], supported_sensors=["Capella", "Gaofen-3"])
    sar = StructuredQuery(
        application="flood mapping",
        task_type="segmentation",
        modality=["SAR"],
        sensor=["ICEYE"],
        spatial_resolution_m=1.0,
    )
    ranked = score_candidates([Candidate(both), Candidate(fine_sar)], sar, EvidenceIndex([both, fine_sar]))
    crit = {c.record.model_id: c.criteria for c in ranked}
    assert crit["s1-naip"]["imagery"].score < crit["fine-sar"]["imagery"].score
    assert any("10 m or coarser" in e for e in crit["s1-naip"]["imagery"].evidence)
    assert crit["s1-naip"]["application"].score == 0.9  # shown on flood mapping, but on other imagery
    # For 1 m RGB the NAIP pretraining is on the user's pixels.
    rgb = sar.model_copy(update={"modality": ["RGB"], "sensor": []})
    ranked = score_candidates([Candidate(both)], rgb, EvidenceIndex([both]))
    assert not any("coarser" in e for e in ranked[0].criteria["imagery"].evidence)


def test_the_size_that_counts_is_that_of_the_variant_for_the_users_data() -> None:
    from tools.filtering import size_for_user

    per_sensor = record(
        "per-sensor",
        modalities=["Multispectral", "SAR"],
        supported_sensors=["Sentinel-2", "Sentinel-1"],
        num_parameters=88,
        variants=[
            {"name": "Sentinel2_Resnet50_SI_MS", "backbone": "ResNet-50", "num_parameters": 24},
            {"name": "Sentinel1_SwinB_SI", "backbone": "Swin-v2-Base"},
        ],
    )
    s1 = StructuredQuery(modality=["SAR"], sensor=["Sentinel-1"], compute=ComputeBudget(max_parameters_m=30))
    s2 = StructuredQuery(
        modality=["Multispectral"], sensor=["Sentinel-2"], compute=ComputeBudget(max_parameters_m=30)
    )
    assert size_for_user(per_sensor, s1) == 88  # the Sentinel-1 checkpoint is a Swin-v2-Base
    assert size_for_user(per_sensor, s2) == 24
    assert "variant for your data has 88M" in violations(per_sensor, s1)["compute"]
    assert not violations(per_sensor, s2)
    assert "smallest variant for your data 88M" in efficiency_fit(Candidate(per_sensor), s1).evidence[0]
    # A derived backbone size never makes a model smaller than its smallest stated size.
    small_derived = record(
        "small-derived",
        modalities=["Multispectral", "SAR"],
        num_parameters=86,
        variants=[
            {"name": "ViT-B/14 MS", "num_parameters": 86},
            {"name": "ViT-S/14 MS", "backbone": "ViT-S/14"},
            {"name": "ViT-B/14 SAR", "num_parameters": 86},
        ],
    )
    assert size_for_user(small_derived, s2) == 86


def test_pretraining_on_the_users_kind_of_imagery_alone_fits_better_than_beside_others() -> None:
    sar_only = record("sar-only", modalities=["SAR"], supported_sensors=["Sentinel-1"])
    mixed = record(
        "mixed", modalities=["SAR", "Multispectral"], supported_sensors=["Sentinel-1", "Sentinel-2"]
    )
    query = StructuredQuery(task_type="segmentation", modality=["SAR"], sensor=["Sentinel-1"])
    ranked = score_candidates(
        [Candidate(mixed), Candidate(sar_only)], query, EvidenceIndex([mixed, sar_only])
    )
    imagery = {c.record.model_id: c.criteria["imagery"] for c in ranked}
    assert imagery["sar-only"].score == 1.0 > imagery["mixed"].score
    assert "beside Multispectral" in imagery["mixed"].evidence[0]
    # Both kinds asked for: neither is shared with imagery the user does not have.
    both = query.model_copy(
        update={"modality": ["SAR", "Multispectral"], "sensor": ["Sentinel-1", "Sentinel-2"]}
    )
    ranked = score_candidates([Candidate(mixed)], both, EvidenceIndex([mixed]))
    assert ranked[0].criteria["imagery"].score == 1.0


def test_a_released_checkpoint_for_the_users_kind_of_imagery_alone_is_not_shared_capacity() -> None:
    per_kind = record(
        "per-kind",
        modalities=["SAR", "Multispectral"],
        supported_sensors=["Sentinel-1", "Sentinel-2"],
        variants=[{"name": "RN50 MS", "num_parameters": 25}, {"name": "RN50 SAR", "num_parameters": 25}],
    )
    joint = record(
        "joint",
        modalities=["SAR", "Multispectral"],
        supported_sensors=["Sentinel-1", "Sentinel-2"],
        variants=[{"name": "RN50 SAR/MS", "num_parameters": 25}],
    )
    query = StructuredQuery(task_type="segmentation", modality=["SAR"], sensor=["Sentinel-1"])
    ranked = score_candidates(
        [Candidate(joint), Candidate(per_kind)], query, EvidenceIndex([joint, per_kind])
    )
    imagery = {c.record.model_id: c.criteria["imagery"] for c in ranked}
    assert imagery["per-kind"].score == 1.0 > imagery["joint"].score
    assert "checkpoint RN50 SAR for that imagery alone" in imagery["per-kind"].evidence
    # For Sentinel-2 users, the multispectral checkpoint is the one for their imagery.
    s2 = query.model_copy(update={"modality": ["Multispectral"], "sensor": ["Sentinel-2"]})
    ranked = score_candidates([Candidate(per_kind)], s2, EvidenceIndex([per_kind]))
    assert "checkpoint RN50 MS for that imagery alone" in ranked[0].criteria["imagery"].evidence


def test_a_model_for_another_sensor_competes_on_its_score_and_other_closest_matches_come_last() -> None:
    query = StructuredQuery(task_type="detection", modality=["Multispectral"], sensor=["SkySat"])
    hyper = record("hyper", modalities=["Hyperspectral"], spectral_alignment="full", num_parameters=6)
    optical = record(
        "optical",
        modalities=["Multispectral"],
        supported_sensors=["WorldView"],
        task_types=["detection"],
        benchmarks=[bench("DIOR", "mAP", 80.0, task="detection")],
        num_parameters=20,
    )
    heavy = record(
        "heavy", modalities=["Multispectral"], supported_sensors=["SkySat"], task_types=["detection"]
    )
    cands = [Candidate(hyper), Candidate(optical, relaxed=["sensor"]), Candidate(heavy, relaxed=["compute"])]
    ranked = score_candidates(cands, query, EvidenceIndex([hyper, optical, heavy]))
    scores = {c.record.model_id: c.score for c in ranked}
    assert scores["optical"] > scores["hyper"]
    assert [c.record.model_id for c in ranked] == ["optical", "hyper", "heavy"]
    # A model for another sensor that takes the imagery only through a stand-in (RGB for
    # multispectral bands) does not compete on its score: it comes with the other closest matches.
    rgb = record(
        "rgb",
        modalities=["RGB"],
        supported_sensors=["WorldView"],
        task_types=["detection"],
        benchmarks=[bench("DIOR", "mAP", 90.0, task="detection")],
        num_parameters=20,
    )
    ranked = score_candidates(
        [Candidate(hyper), Candidate(rgb, relaxed=["sensor"])], query, EvidenceIndex([rgb])
    )
    assert [c.record.model_id for c in ranked] == ["hyper", "rgb"]


def test_every_input_in_one_model_rules_out_a_model_for_one_of_them() -> None:
    fused = StructuredQuery(
        task_type="segmentation",
        modality=["SAR", "Multispectral", "RGB"],
        either_modality=True,
        all_inputs=True,
    )
    optical = record("optical", modalities=["Multispectral"])
    both = record("both", modalities=["Multispectral", "SAR"])
    assert violations(optical, fused) == {"all_inputs": "does not take SAR beside the other inputs"}
    assert not violations(both, fused)
    assert not violations(optical, fused.model_copy(update={"all_inputs": False}))
    # 'Takes both sensors as time series': the series is an input too.
    series = fused.model_copy(update={"series_model": True})
    assert violations(both, series) == {"series": "takes single images, not time series"}
    over_time = record("over-time", modalities=["Multispectral", "SAR", "Multi-temporal"])
    assert not violations(over_time, series)
    # 'A time-series encoder': the model must take series, whatever the imagery.
    encoder = StructuredQuery(task_type="segmentation", modality=["Multispectral"], series_model=True)
    assert violations(optical, encoder) == {"series": "takes single images, not time series"}
    assert not violations(over_time, encoder)


def test_precomputed_embeddings_do_not_serve_a_user_running_an_encoder_on_new_imagery() -> None:
    product = record("product", modalities=["Multispectral"], category="embedding-product")
    onboard = StructuredQuery(task_type="segmentation", modality=["Multispectral"])
    onboard.compute.device_class = "edge"
    assert violations(product, onboard) == {
        "encoder": "precomputed embeddings: no encoder to run on the device"
    }
    backbone = StructuredQuery(task_type="segmentation", modality=["Multispectral"], architectures=["CNN"])
    assert violations(product, backbone) == {"encoder": "precomputed embeddings, not a backbone to run"}
    assert not violations(product, StructuredQuery(task_type="segmentation", modality=["Multispectral"]))


def test_with_weights_needed_unconfirmed_weights_come_after_confirmed_ones() -> None:
    query = StructuredQuery(
        application="flood mapping", task_type="segmentation", modality=["SAR"], open_weights=True
    )
    known = record("known", modalities=["SAR"], task_types=["segmentation"], weights_available=True)
    unconfirmed = record(
        "unconfirmed",
        modalities=["SAR"],
        task_types=["segmentation"],
        benchmarks=[bench("Sen1Floods11", "mIoU", 95.0, app="flood mapping")],
    )
    ranked = score_candidates([Candidate(unconfirmed), Candidate(known)], query, EvidenceIndex([unconfirmed]))
    assert ranked[0].score < ranked[1].score  # the better score, but weights no source confirms
    assert [c.record.model_id for c in ranked] == ["known", "unconfirmed"]
    # Not asked for, but the model is to run on the user's machine or learn from their labels:
    # the weights are needed all the same.
    for needs in (
        {"compute": query.compute.model_copy(update={"device_class": "single-gpu"})},
        {"data_regime": "few-shot"},
    ):
        running = query.model_copy(update={"open_weights": False, **needs})
        ranked = score_candidates(
            [Candidate(unconfirmed), Candidate(known)], running, EvidenceIndex([unconfirmed])
        )
        assert [c.record.model_id for c in ranked] == ["known", "unconfirmed"]
    # Neither asked for nor to be run (a survey of what exists): the score decides.
    anyone = query.model_copy(update={"open_weights": False})
    ranked = score_candidates(
        [Candidate(known), Candidate(unconfirmed)], anyone, EvidenceIndex([unconfirmed])
    )
    assert ranked[0].record.model_id == "unconfirmed"


def test_text_beside_imagery_is_not_enough_a_model_must_take_the_imagery() -> None:
    sar_chat = StructuredQuery(task_type="vqa", modality=["SAR", "Text"])
    optical_chat = record("optical-chat", modalities=["RGB", "Text"], task_types=["vqa"])
    sar_vlm = record("sar-vlm", modalities=["SAR", "Text"], task_types=["vqa"])
    assert violations(optical_chat, sar_chat) == {"modality": "takes RGB, Text, not SAR"}
    assert not violations(sar_vlm, sar_chat)
    # A DEM or LiDAR heights beside the imagery: a model taking only the elevation does not serve.
    fusion = StructuredQuery(task_type="segmentation", modality=["Hyperspectral", "DEM"])
    dem_only = record("dem-only", modalities=["Multispectral", "DEM"], task_types=["segmentation"])
    assert violations(dem_only, fusion) == {"modality": "takes Multispectral, DEM, not Hyperspectral"}
    # Text alone asked for: any model reading text passes.
    assert not violations(optical_chat, StructuredQuery(task_type="retrieval", modality=["Text"]))


def test_a_result_on_the_benchmark_the_user_named_shows_the_model_takes_its_imagery() -> None:
    query = StructuredQuery(task_type="segmentation", modality=["Multispectral"], datasets=["Potsdam"])
    shown = record("shown", modalities=["RGB"], benchmarks=[bench("Potsdam", "mIoU", 90.0)])
    unshown = record("unshown", modalities=["RGB"])
    ranked = score_candidates([Candidate(unshown), Candidate(shown)], query, EvidenceIndex([shown]))
    fit = {c.record.model_id: c.criteria["modality"] for c in ranked}
    assert fit["shown"].score == 1.0 > fit["unshown"].score
    assert "takes the imagery of Potsdam, on which it reports results" in fit["shown"].evidence


def test_a_model_that_models_time_only_in_part_fits_a_time_series_less() -> None:
    query = StructuredQuery(task_type="segmentation", modality=["Multispectral"], multi_temporal=True)
    full = record("full", modalities=["Multispectral", "Multi-temporal"], temporal_alignment="full")
    pooled = record("pooled", modalities=["Multispectral", "Multi-temporal"], temporal_alignment="partial")
    single = record("single", modalities=["Multispectral"])
    ranked = score_candidates([Candidate(m) for m in (single, pooled, full)], query, EvidenceIndex([]))
    fit = {c.record.model_id: c.criteria["modality"] for c in ranked}
    assert fit["full"].score > fit["pooled"].score > fit["single"].score
    assert "models time series only in part" in fit["pooled"].evidence


def test_a_model_pretrained_on_another_planet_is_no_match_for_earth_imagery() -> None:
    mars = make_record("mars-fm", modalities=["RGB", "Thermal"], supported_sensors=["HiRISE", "THEMIS"])
    earth = make_record("earth-fm", modalities=["Thermal"], supported_sensors=["Landsat-8"])
    landsat = StructuredQuery(modality=["Thermal"], sensor=["Landsat-8"])
    assert "pretrained on imagery of Mars only" in violations(mars, landsat)["modality"]
    assert "modality" not in violations(earth, landsat)
    # Asked for with the planet's own sensors, it is the match; with no sensor named, Earth is meant.
    assert "modality" not in violations(mars, StructuredQuery(modality=["Thermal"], sensor=["THEMIS"]))
    assert "modality" in violations(mars, StructuredQuery(modality=["Thermal"]))
    outcome = filter_candidates([mars, earth], landsat, minimum=2)
    assert [r.model_id for r in outcome.survivors] == ["earth-fm"]


def test_a_model_pretrained_on_earth_fits_another_worlds_imagery_less() -> None:
    # For Mars imagery an Earth model may still transfer, but it has seen none of that world.
    mars = make_record("mars-fm", modalities=["RGB"], supported_sensors=["CTX", "HiRISE"])
    earth = make_record("earth-fm", modalities=["RGB"], supported_sensors=["WorldView-3"])
    ctx = StructuredQuery(modality=["RGB"], sensor=["CTX"])
    mars_fit, earth_fit = imagery_fit(mars, ctx), imagery_fit(earth, ctx)
    assert mars_fit is not None and earth_fit is not None
    assert earth_fit[0] < 0.3 < mars_fit[0]
    assert "not pretrained on imagery of Mars" in earth_fit[1]


def test_the_kind_of_model_asked_for_is_a_hard_input() -> None:
    both = StructuredQuery(
        modality=["Hyperspectral", "LiDAR", "Multispectral"], model_kinds=["Hyperspectral"]
    )
    multispectral = make_record("ms", modalities=["Multispectral", "LiDAR"])
    cubes = make_record("hs", modalities=["Hyperspectral"])
    assert "not the Hyperspectral model asked for" in violations(multispectral, both)["modality"]
    assert "modality" not in violations(cubes, both)


def test_too_few_models_taking_a_rare_input_is_said_so_the_whole_database_is_checked() -> None:
    query = StructuredQuery(modality=["Thermal", "RGB"], sensor=["UAV"])
    drone = [make_record(f"rgb-{i}", modalities=["RGB"], supported_sensors=["UAV"]) for i in range(3)]
    assert filter_candidates(drone, query, minimum=3).rare_short
    thermal = [make_record(f"tir-{i}", modalities=["Thermal"], supported_sensors=["UAV"]) for i in range(3)]
    assert not filter_candidates(drone + thermal, query, minimum=3).rare_short
    assert not filter_candidates(drone, StructuredQuery(modality=["RGB"]), minimum=3).rare_short


def test_a_multiple_choice_question_about_a_task_is_no_result_on_the_task() -> None:
    def bench(application: str) -> Benchmark:
        return Benchmark(
            task_type="change detection",
            application=application,
            dataset="CHOICE (change detection, L-3)",
            metrics=["OA"],
            metrics_value=[57.0],
            source_url="https://github.com/ShawnAn-WHU/CHOICE",
        )

    assert bench_application(bench("change detection (bi-temporal MCQ)")) is None
    assert bench_application(bench("change detection (multiple-choice)")) is None
    assert bench_application(bench("change detection (bi-temporal)")) == "change detection"


def test_a_model_for_other_optical_imagery_does_not_take_the_users_as_input() -> None:
    # A model for RGB alone does not take multispectral bands, nor a Sentinel-2 model RGB
    # photographs: each breaks the input constraint, though each still fits the other in part (a
    # closest match may bend it); a SAR model takes nothing related (never bent).
    rgb = record("rgb", modalities=["RGB"])
    ms = record("ms", modalities=["Multispectral"])
    both = record("both", modalities=["RGB", "Multispectral"])
    sar = record("sar", modalities=["SAR"])
    bands = StructuredQuery(application="land cover mapping", modality=["Multispectral"])
    photos = StructuredQuery(application="land cover mapping", modality=["RGB"])
    assert set(violations(rgb, bands)) == {"imagery"} and set(violations(ms, photos)) == {"imagery"}
    assert not violations(ms, bands) and not violations(rgb, photos)
    assert not violations(both, bands) and not violations(both, photos)
    assert set(violations(sar, bands)) == {"modality"}
    either = StructuredQuery(modality=["Multispectral", "RGB"], either_modality=True)
    assert not violations(rgb, either) and not violations(ms, either)
    assert 0.0 < modality_fit(Candidate(rgb), bands).score < 1.0


def test_a_text_task_bends_the_kind_of_imagery_before_reading_text() -> None:
    # Questions about Sentinel-2 patches: with too few vision-language models for multispectral
    # bands, one for their RGB bands comes as a closest match, not an encoder that reads no text.
    query = StructuredQuery(
        application="visual question answering", task_type="vqa", modality=["Text", "Multispectral"]
    )
    vlm = {"task_types": ["vqa"], "weights_available": True, "category": "vision-language"}
    records = [
        make_record("ms-vlm", modalities=["Multispectral", "Text"], **vlm),
        make_record("rgb-vlm", modalities=["RGB", "Text"], **vlm),
        make_record(
            "ms-encoder", modalities=["Multispectral"], task_types=["classification"], weights_available=True
        ),
    ]
    outcome = filter_candidates(records, query, minimum=2)
    assert [r.model_id for r in outcome.survivors] == ["ms-vlm", "rgb-vlm"]
    assert outcome.relaxed == {"rgb-vlm": ["imagery"]}


def test_closest_matches_come_in_the_order_their_constraints_are_relaxed() -> None:
    query = StructuredQuery(task_type="vqa", modality=["RGB", "SAR", "Text"], all_inputs=True)
    one = make_record("one", modalities=["RGB", "Text"], task_types=["vqa"], weights_available=True)
    two = make_record("two", modalities=["SAR", "Text"], task_types=["vqa"], weights_available=True)
    three = make_record(
        "three", modalities=["SAR", "RGB", "Text"], task_types=["vqa"], weights_available=True
    )
    candidates = [
        Candidate(one, relaxed=["all_inputs"]),  # leaves out the SAR the user has
        Candidate(three, relaxed=["compute"]),
        Candidate(two, relaxed=["series"]),  # single images, not the pair asked about
    ]
    ranked = score_candidates(candidates, query, EvidenceIndex([]))
    assert [c.record.model_id for c in ranked] == ["two", "one", "three"]


def test_a_model_writing_no_text_never_fills_an_answer_asked_in_text() -> None:
    query = StructuredQuery(
        application="visual question answering", task_type="vqa", modality=["RGB", "Text"]
    )
    vlm = record("vlm", category="vision-language", modalities=["RGB", "Text"], task_types=["vqa"])
    captioner = record(
        "captioner", category="vision-language", modalities=["RGB", "Text"], task_types=["captioning"]
    )
    clip = record("clip", category="vision-language", modalities=["RGB", "Text"], task_types=["retrieval"])
    encoder = record("encoder", modalities=["RGB", "Text"], task_types=["segmentation"])
    kept = filter_candidates([vlm, captioner, clip, encoder], query, minimum=3).survivors
    # (a captioner writes text: the closest a question-answerer can come; a CLIP model writes none)
    assert [r.model_id for r in kept] == ["vlm", "captioner"]
