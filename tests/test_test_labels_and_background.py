"""Labels kept to test a model with, a benchmark's baselines, a model judged a poor fit, and a map
clicked to find similar places: what each says of the user's task, and what it does not."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.query import StructuredQuery
from agent.reading.labels import read_regime


def _query(text: str) -> StructuredQuery:
    return select_models(text, k=3, clarify=False).query


def _regime(text: str) -> str | None:
    return read_regime(text.lower(), [], None, []).data


@pytest.mark.parametrize(
    "text",
    [
        "I have hand-labelled 40 tiles, which I'd keep for testing.",
        "There are 60 annotated images, only for evaluation.",
        "We labelled 120 chips and set them aside as a test set.",
    ],
)
def test_labels_kept_for_testing_are_no_training_budget(text: str) -> None:
    assert _regime(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "We have 500 labelled tiles for training and keep 100 for testing.",
        "We have 500 labelled tiles and keep 100 of them for validation.",
        "I have 300 labelled tiles.",
    ],
)
def test_labels_to_train_on_still_count_beside_a_test_split(text: str) -> None:
    assert _regime(text) == "few-shot"


def test_a_class_list_pointed_at_own_orthophotos_asks_for_open_vocabulary_segmentation() -> None:
    query = _query(
        "I have drone orthophotos of two villages at 3 cm and want six classes: roof, road, tree, grass, "
        "water and car. I labelled 30 tiles, which I'll keep for testing. Is there a pretrained model I "
        "can point at my orthophotos with just a class list?"
    )
    assert (query.application, query.task_type) == ("open-vocabulary segmentation", "segmentation")
    assert query.data_regime != "few-shot"


def test_a_benchmarks_baselines_are_no_architecture_asked_for() -> None:
    query = _query(
        "I want to predict land surface temperature from Landsat 8 with its thermal bands, like a "
        "benchmark whose baselines are a CNN+LSTM and a U-Net trained from scratch. Which pretrained "
        "encoders take thermal bands?"
    )
    assert query.architectures == []
    assert "Thermal" in query.modality


@pytest.mark.parametrize(
    ("text", "not_data"),
    [
        (
            "We count seals in aerial survey RGB photos at 2 cm. I tried a small encoder, but a backbone "
            "pretrained on 10 m Sentinel-2 seems a poor fit for centimetre-scale photos. What should I "
            "fine-tune?",
            "Sentinel-2",
        ),
        (
            "Clay was my first idea, but it is built around Sentinel/Landsat-style inputs. I have 0.3 m "
            "aerial RGB orthophotos and 260 labelled tiles for land-cover segmentation.",
            "Landsat",
        ),
    ],
)
def test_what_a_model_is_judged_or_built_around_is_not_the_users_data(text: str, not_data: str) -> None:
    query = _query(text)
    assert not_data not in query.sensor
    assert query.modality == ["RGB"]
    assert query.spatial_resolution_m is None or query.spatial_resolution_m < 1


def test_clicking_known_sites_to_find_similar_ones_is_search_not_promptable_segmentation() -> None:
    query = _query(
        "In a notebook I want to click on a handful of known sites and highlight every similar patch "
        "across the country, querying published Sentinel-2 embeddings with cosine similarity."
    )
    assert query.application != "promptable segmentation"
    assert query.data_regime == "unlabeled"


def test_clicking_a_feature_for_its_mask_stays_promptable_segmentation() -> None:
    query = _query("Analysts should click on a feature in our 3 cm drone mosaics and get its mask instantly.")
    assert query.application == "promptable segmentation"


def test_no_reference_labels_and_embedding_each_composite_is_unlabelled_use() -> None:
    query = _query(
        "We want the years in which each forest stand was disturbed. We have no reference labels at all, "
        "just annual Landsat composites; could we embed each composite with a pretrained model and flag "
        "the years where a pixel's representation jumps?"
    )
    assert query.data_regime == "unlabeled"
    assert query.application == "deforestation monitoring"


@pytest.mark.parametrize(
    ("text", "recency"),
    [
        ("Which is the latest foundation model for flood mapping from Sentinel-1?", True),
        ("We want every disturbance, not only the most recent event, from Landsat composites.", False),
        ("We map crops from the latest Sentinel-2 imagery.", False),
    ],
)
def test_recency_is_asked_of_models_not_of_events_or_imagery(text: str, recency: bool) -> None:
    assert ("recency" in _query(text).priorities) is recency


def test_neighbourhood_median_income_is_a_socioeconomic_estimate() -> None:
    query = _query("We predict median income of census block groups from satellite embeddings.")
    assert (query.application, query.task_type) == ("poverty mapping", "regression")


@pytest.mark.parametrize(
    "text",
    [
        "We have ICEYE spotlight scenes but no SAR analyst to label any aircraft.",
        "SAR experts to annotate are out of reach, so labels come from optical pairs over Capella scenes.",
    ],
)
def test_a_kind_of_imagery_said_of_people_rules_nothing_out(text: str) -> None:
    query = _query(text)
    assert "SAR" not in query.exclusions.modalities
    assert "SAR" in query.modality


def test_radar_expertise_lacking_is_no_radar_input() -> None:
    query = _query("We have no radar expertise in house, so we map crops from Sentinel-2 time series.")
    assert "SAR" not in query.modality
    assert "SAR" not in query.exclusions.modalities


def test_parked_aircraft_flagged_in_radar_scenes_is_aircraft_detection() -> None:
    query = _query("We want to count parked aircraft in our ICEYE spotlight scenes, with no labels.")
    assert (query.application, query.task_type) == ("aircraft detection", "detection")


def test_a_faster_r_cnn_is_a_model_not_a_wish_for_speed() -> None:
    query = _query(
        "A Faster R-CNN started from ImageNet finds the common tree species in our 10 cm aerial photos; "
        "which backbone should we start from for crown delineation of rarer species?"
    )
    assert "speed" not in query.priorities
    assert query.application == "forest mapping"


def test_questions_answered_in_plain_english_are_visual_question_answering() -> None:
    query = _query(
        "I'd like something I can question in plain English about our drone mosaics that returns the "
        "answer together with boxes around the buildings it means."
    )
    assert (query.application, query.task_type) == ("visual question answering", "vqa")


def test_a_gpu_named_beside_labels_for_checking_stays_the_users_machine() -> None:
    query = _query(
        "We map flood damage from 2 cm drone mosaics. We have a 24 GB RTX 4090 and about 100 annotated "
        "tiles for checking."
    )
    assert query.compute.device_class == "single-gpu"


def test_holding_up_under_changes_of_sensor_asks_for_generalisation() -> None:
    query = _query(
        "Our kelp segmentation runs on drone RGB mosaics from several cameras. I want a backbone "
        "documented to hold up under changes of sensor, scale and region."
    )
    assert "generalization" in query.priorities


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Loading fails on size mismatches in the patch-embedding layers of the checkpoint.", False),
        ("The input embedding layer expects 12 bands.", False),
        ("We want embedding layers we can add to Earth Engine for Kenya.", True),
    ],
)
def test_a_networks_embedding_layers_are_no_wish_for_precomputed_embeddings(text: str, wanted: bool) -> None:
    assert _query(text).precomputed_embeddings is wanted


@pytest.mark.parametrize(
    ("text", "ruled_out"),
    [
        ("Which encoder can ingest all eight SuperDove bands, not just RGB+NIR?", []),
        ("Which backbones really use all the Sentinel-2 bands (not just RGB)?", ["RGB"]),
    ],
)
def test_not_just_some_bands_asks_for_more_and_rules_out_only_rgb_alone(
    text: str, ruled_out: list[str]
) -> None:
    query = _query(text)
    assert query.exclusions.modalities == ruled_out
    assert "Multispectral" in query.modality


@pytest.mark.parametrize(
    "text",
    [
        "A ResNet-18 trained from scratch on 8-band chips and an XGBoost on per-footprint spectra both give "
        "poor F1. Which pretrained encoder should I fine-tune on PlanetScope?",
        "My inputs are annual Landsat composites; a ResNet50 + ConvLSTM baseline reaches IoU 0.33. Which "
        "pretrained model takes Landsat time series?",
    ],
)
def test_a_tried_network_or_baseline_is_no_architecture_asked_for(text: str) -> None:
    assert _query(text).architectures == []


def test_labels_transferred_from_another_sensors_classifier_are_not_its_data() -> None:
    query = _query(
        "We have 10 cm RGB orthomosaics and 2,000 labelled crowns, plus noisy species labels transferred "
        "from a hyperspectral classifier. Which backbone separates 20 tree species?"
    )
    assert query.modality == ["RGB"]


@pytest.mark.parametrize(
    "text",
    [
        "Our labelled data are UAV hyperspectral cubes with nine crop classes, but what we need to map "
        "is the same region in Gaofen-5 scenes, which carry no labels.",
        "My annotated tiles are all from Bavaria; the Austrian scenes we must map have no labels.",
    ],
)
def test_labels_of_the_users_own_from_other_imagery_make_no_zero_shot_task(text: str) -> None:
    assert _regime(text) != "zero-shot"


@pytest.mark.parametrize(
    "text",
    [
        "I have no labelled pixels; which models can label Sentinel-2 patches?",
        "Which models can label Sentinel-2 patches from class names alone?",
        "Our radar lab has a few hundred thousand SAR acquisitions and not a single annotation.",
        "We fly a thermal camera at night and have zero hand-labelled thermal frames.",
    ],
)
def test_no_labelled_samples_of_any_kind_or_class_names_alone_is_zero_shot(text: str) -> None:
    assert _regime(text) == "zero-shot"


def test_labels_propagated_from_a_point_cloud_are_no_lidar_input() -> None:
    text = (
        "We have 15,000 aligned RGB-thermal drone pairs with dense pseudo-labels propagated from a "
        "semantic 3D point cloud, and need RGB-thermal semantic segmentation."
    )
    assert "LiDAR" not in _query(text).modality


def test_learning_a_feature_extractor_on_ones_own_archive_is_use_of_unlabelled_data() -> None:
    text = (
        "We have SAR scenes and not a single annotation; the plan is to learn one general SAR feature "
        "extractor on our HPC cluster and only later plug it into few-shot target classification."
    )
    assert _regime(text) == "unlabeled"
