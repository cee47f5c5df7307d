"""What a label is given to (a chip, a pixel), which error costs the user more, and what the
ranker weighs for a user who pretrains further on their own archive or asks for a specialist."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.query import StructuredQuery
from agent.reading.error_costs import error_priorities
from tools.fit import focus_kind, results_on_other_sensors
from tools.ranking import query_weights


def _query(text: str) -> StructuredQuery:
    return select_models(text, k=3, clarify=False).query


# Which error costs more.


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            "A missed ship is much worse for us than a false alarm, because analysts check every detection.",
            ["recall"],
        ),
        ('A false "on" is much worse for us than a missed one.', ["precision"]),
        ("I'd rather miss a borderline site than send officers to a tidy builder's yard.", ["precision"]),
        ("I'd rather review some extra detections than miss trees.", ["recall"]),
        ("I'd rather not miss a single vessel, whatever the false alarms.", ["recall"]),
        ("Missing some flooded pixels is acceptable, false alarms are not.", ["precision"]),
        ("A few spurious road fragments are fine - a missing link is not.", ["recall"]),
        (
            "Missing a fawn means it dies, so catching every one matters far more than a few false alarms.",
            ["recall"],
        ),
        ("False alarms are costly for the responders we serve.", ["precision"]),
        ("We need a segmentation model with few false alarms.", ["precision"]),
        ("Accuracy on the wires is what matters, misses are expensive.", ["recall"]),
        # Said of an old model, or both ways at once: no wish.
        ("A U-Net trained from scratch gives lots of false positives on waves.", []),
        ("It is faster but misses many small boats.", []),
        ("Missing a few tiny boats is acceptable, missing large dark vessels is not.", []),
        ("Zero-padding the missing bands feels wrong and the results matter to us.", []),
    ],
)
def test_which_error_costs_more_says_which_metric_matters(text: str, wanted: list[str]) -> None:
    assert error_priorities(text.lower()) == wanted


def test_a_false_alarm_put_up_with_is_a_wish_for_recall_not_precision() -> None:
    query = _query(
        "Burned-area mapping from Sentinel-2: the agency wants every burned patch; a few false positives "
        "are fine since a human reviews."
    )
    assert query.priorities == ["recall"]


def test_recall_given_up_for_precision_is_no_wish_for_recall() -> None:
    query = _query(
        "Illegal waste dumps on 20 cm orthophotos. I want to push precision as high as possible and I'm "
        "happy to give up some recall for it."
    )
    assert "precision" in query.priorities and "recall" not in query.priorities


# What a label is given to.


@pytest.mark.parametrize(
    "text",
    [
        "Landsat 8 chips of forest-loss events; one label per event is enough, no pixel-accurate outlines.",
        "Sentinel-2 64x64-pixel chips of land cover; one label per chip is all the project needs.",
        "Flag Sentinel-2 patches in Brazil that contain an open-pit mine or a tailings dam.",
    ],
)
def test_a_label_for_each_chip_or_event_is_classification(text: str) -> None:
    assert _query(text).task_type == "classification"


@pytest.mark.parametrize(
    "text",
    [
        "Classify an airborne hyperspectral scene with 10-20 labelled pixels per class.",
        "We want to flag vessels in Sentinel-1 IW GRD scenes for the analysts.",
    ],
)
def test_labels_for_pixels_or_objects_are_not_classification_of_scenes(text: str) -> None:
    assert _query(text).task_type != "classification"


def test_chips_labelled_with_a_land_legend_are_land_cover() -> None:
    query = _query(
        "Sentinel-2 L2A chips labelled deciduous forest, coniferous forest, raised bog, lake and settlement, "
        "about 4,000 chips. One label per chip is all we need."
    )
    assert query.application == "land cover classification"


# Roles and wishes from the table.


def test_an_analogy_with_another_model_names_no_data_of_the_user() -> None:
    query = _query(
        "We have 400,000 unlabelled Sentinel-1 GRD chips and want to build our own SAR-pretrained backbone "
        "the way RSP did for optical images with MillionAID."
    )
    assert query.modality == ["SAR"]


def test_data_said_to_be_beside_the_point_is_not_the_users_input() -> None:
    query = _query(
        "Vessel detection from Sentinel-1 IW GRD (VV+VH). We already have an optical ship detector for "
        "Sentinel-2, but that's beside the point here - this is radar only."
    )
    assert query.modality == ["SAR"] and query.sensor == ["Sentinel-1"]


def test_class_names_typed_as_text_stay_the_task_beside_a_list_of_targets() -> None:
    query = _query(
        "I've been asked to pull out swimming pools, solar panels and tree canopy from 7.5 cm orthophotos. "
        "We have zero annotated examples. Is there something where I just type the class names and get "
        "masks back?"
    )
    assert query.application == "open-vocabulary segmentation"
    assert query.data_regime == "zero-shot"


# What the ranker weighs.


def test_results_on_another_sensors_imagery_of_the_same_kind_are_named_as_such() -> None:
    landsat = StructuredQuery(application="land cover classification", sensor=["Landsat-8"])
    assert results_on_other_sensors(["EuroSAT"], landsat) == "results on Sentinel-2 imagery, not Landsat-8"
    sentinel = StructuredQuery(application="land cover classification", sensor=["Sentinel-2"])
    assert results_on_other_sensors(["EuroSAT"], sentinel) is None
    assert results_on_other_sensors(["a dataset nobody knows"], landsat) is None


def test_a_specialist_asked_for_makes_a_kind_of_imagery_alone_count() -> None:
    sar = StructuredQuery(application="ship detection", modality=["SAR"])
    assert focus_kind(sar) is None
    assert focus_kind(sar.model_copy(update={"specialist": True})) == "SAR"
    assert focus_kind(StructuredQuery(modality=["Hyperspectral"])) == "Hyperspectral"


def test_unlabelled_data_weighs_the_pretraining_imagery_over_the_application() -> None:
    labelled = StructuredQuery(application="sea ice mapping", modality=["SAR"], sensor=["Sentinel-1"])
    unlabelled = labelled.model_copy(update={"data_regime": "unlabeled"})
    before, after = query_weights(labelled), query_weights(unlabelled)
    assert after["imagery"] > before["imagery"] and after["application"] < before["application"]


def test_pretraining_further_on_ones_archive_is_read_and_needs_no_captions() -> None:
    query = _query(
        "We have 400,000 unlabelled Sentinel-1 chips and downstream small labelled sets. I'd rather "
        "continue pretraining from an existing SAR checkpoint than start from ImageNet."
    )
    assert query.pretrain_further and query.data_regime == "unlabeled"
    assert not _query("We have 300 labelled Sentinel-2 tiles for crop mapping.").pretrain_further


def test_a_model_pretrained_on_image_text_pairs_fits_pretraining_further_less() -> None:
    from rsfmd.loader import load_records
    from tools.candidate import Candidate
    from tools.result_credit import regime_fit

    records = {r.model_id: r for r in load_records()}
    query = StructuredQuery(
        application="land cover classification", modality=["RGB"], data_regime="unlabeled"
    )
    further = query.model_copy(update={"pretrain_further": True})
    clip, mae = Candidate(records["skyclip"]), Candidate(records["scale-mae"])
    assert regime_fit(clip, further).score < regime_fit(mae, further).score
    assert regime_fit(clip, further).score < regime_fit(clip, query).score


def test_what_another_product_is_built_on_is_not_the_users_data_but_a_model_wished_for_stays() -> None:
    query = _query(
        "Canopy height at 10 m from Sentinel-2 for 14 countries. The Meta 1 m canopy map is built on "
        "Maxar RGB, which we cannot license."
    )
    assert "WorldView" not in query.sensor
    wished = _query(
        "Change captions for aerial mosaics: I'd rather have something that was trained on change "
        "captions in the style of LEVIR-CC."
    )
    assert wished.application == "change captioning"


def test_what_the_rgb_camera_cannot_see_is_no_rgb_input() -> None:
    from agent.reading import read

    reading = read(
        "Spotting fawns in 640x512 thermal frames from a drone. We use only the thermal stream because "
        "fawns are invisible in tall grass in the RGB camera."
    )
    assert "RGB" in reading.set_aside["background"]


def test_what_kills_a_kind_of_imagery_rules_it_out() -> None:
    query = _query(
        "Tundra land cover around Svalbard with Sentinel-1 EW/IW, since polar night kills optical for months."
    )
    assert query.modality == ["SAR"] and "Multispectral" in query.exclusions.modalities


def test_one_polygon_per_building_asks_for_instances_and_semantic_results_show_that_less() -> None:
    from rsfmd.loader import load_records
    from tools.evidence import EvidenceIndex

    query = _query(
        "Building footprints from 5 cm drone orthomosaics: straight walls and one clean polygon per "
        "building, not blobby masks."
    )
    assert query.task_type == "instance segmentation" and query.application == "building segmentation"
    records = load_records()
    gfm = next(r for r in records if r.model_id == "gfm")
    index = EvidenceIndex(records)
    semantic = [i for i in index.relevant(gfm, query) if i.dataset == "WHU Building"]
    assert semantic and {i.relevance for i in semantic} == {"task"}
    as_usual = query.model_copy(update={"task_type": "segmentation"})
    assert {i.relevance for i in index.relevant(gfm, as_usual) if i.dataset == "WHU Building"} == {
        "application"
    }


@pytest.mark.parametrize(
    "text",
    [
        "We embed 30,000 chips on CPU laptops, so the encoder can't be bigger than about 100M parameters.",
        "On my laptop without a GPU, anything much above ~100M parameters is too slow for me.",
    ],
)
def test_a_size_not_to_be_crossed_is_a_limit(text: str) -> None:
    compute = _query(text).compute
    assert compute.max_parameters_m == 100.0 and compute.min_parameters_m is None


def test_what_a_colleague_suggested_and_what_runs_right_now_are_no_wishes() -> None:
    suggested = _query(
        "Marine debris in Sentinel-2 patches, 60 labelled. A colleague suggested a big vision-language model "
        "that can count debris, but we can't run anything like that."
    )
    assert "Text" not in suggested.modality
    baseline = _query(
        "Per-building damage from 50 cm RGB on CPU laptops. Right now we use random convolutional features "
        "(MOSAIKS); what pretrained encoder would give better embeddings?"
    )
    assert baseline.architectures == []


def test_a_model_to_take_the_time_series_and_water_against_the_rest() -> None:
    series = _query(
        "Land cover for Chile from a year of Sentinel-2 10-day composites and a DEM. Which pretrained model "
        "can take the S2 time series and elevation together?"
    )
    assert series.series_model
    water = _query("Simple binary task: water / not water from Sentinel-1 VV/VH and Sentinel-2.")
    assert water.application == "flood mapping"


def test_a_model_the_user_has_not_managed_to_train_yet_is_judged_with_the_others() -> None:
    text = (
        "Building instances from 0.3 m aerial RGB, 1,500 COCO tiles. I tried RSPrompter's anchor config, but "
        "on my own data it threw 'no pos rois' and I haven't managed to get it training yet. One RTX 3090."
    )
    assert "rsprompter" not in _query(text).exclusions.models


# One phrasing, one field of the query it sets, and the value it must read as.
@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # wishes said in everyday words
        (
            "Drone frames after the flood; the coordinators want to simply ask them things about roads.",
            "application",
            "visual question answering",
        ),
        (
            # offered as one way among others: accepted, not required
            "Biomass from Landsat; the features must be cheap to run, or already be precomputed somewhere.",
            "precomputed_embeddings",
            False,
        ),
        (
            "Biomass from Landsat; we want features already precomputed somewhere, nothing to run.",
            "precomputed_embeddings",
            True,
        ),
        (
            "Sentinel-2 time series; what matters is that the model handles temporal sequences.",
            "series_model",
            True,
        ),
        # what the task is and how the encoder is used
        (
            "Forest mask from Sentinel-2 and a DEM; any pretrained model whose features I can just put a "
            "simple classifier on?",
            "frozen_encoder",
            True,
        ),
        (
            "FLOODPY on the Thessaly floods with Sentinel-1: the statistical change detection misses water "
            "in built-up areas, so I'd like to fine-tune a SAR encoder.",
            "application",
            "flood mapping",
        ),
        (
            "Average income for all Brazilian municipalities from VIIRS night-time lights plus Sentinel-2. "
            "Which model transfers, ideally one that takes the night lights directly?",
            "application",
            "poverty mapping",
        ),
        # what is said of other models and inputs stays theirs
        (
            "Cloud masks for 3 m 4-band imagery; I want a model that is not tied to the Sentinel-2 13 bands.",
            "any_bands",
            True,
        ),
        (
            "Building footprints from 15 cm aerial orthophotos: separate instances for adjacent buildings, "
            "and straight walls.",
            "task_type",
            "instance segmentation",
        ),
        (
            "Sea-ice archive of Sentinel-1 EW HH/HV scenes. A benchmark said Prithvi was best for sea ice, "
            "but that is an optical HLS model.",
            "sensor",
            ["Sentinel-1"],
        ),
        (
            "Asset wealth per survey cluster in Africa from Sentinel-2 plus VIIRS radiance, for poverty "
            "mapping. Is anything pretrained on night lights at all?",
            "application",
            "poverty mapping",
        ),
        # band counts in words and osm polygons as labels
        (
            "MicaSense RedEdge-P on a drone over vineyards. Which model could be adapted to five-band UAV "
            "multispectral imagery?",
            "any_bands",
            True,
        ),
        (
            "My dataset is home-made: OpenStreetMap polygons (buildings, roads, water, parks, farmland) "
            "rasterised over a Maxar WorldView basemap at ~0.5 m, RGB only.",
            "application",
            "land cover mapping",
        ),
    ],
)
def test_phrasings_set_the_query_as_meant(text: str, field: str, value: object) -> None:
    assert getattr(_query(text), field) == value


def test_pretraining_breadth_weighs_less_for_a_model_trained_on_the_users_labels() -> None:
    base = {"application": "building segmentation", "modality": ["RGB"]}
    labelled = query_weights(StructuredQuery(**base, data_regime="full-labels"))
    as_is = query_weights(StructuredQuery(**base, data_regime="zero-shot"))
    spread = query_weights(StructuredQuery(**base, data_regime="full-labels", region=["Africa"]))
    assert labelled["generalizability"] < as_is["generalizability"]
    assert labelled["generalizability"] < spread["generalizability"]
