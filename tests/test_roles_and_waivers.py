"""Mentions that play another role than the user's requirement: what comes out (vector layers,
masks), what comes after (a biomass model fed by the output), what was tried (a baseline's score, a
noisy first test), the place (a flood-prone delta), and priorities said to matter less."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.query import StructuredQuery
from agent.reading.error_costs import error_priorities
from rsfmd.loader import load_records
from rsfmd.schema import Category


def _query(text: str) -> StructuredQuery:
    return select_models(text, k=3, clarify=False).query


def test_vector_maps_generated_are_the_output_not_an_input() -> None:
    query = _query(
        "I want to map buildings from aerial orthophotos. I found an older U-Net repo for vector map "
        "generation, where the author says prediction works on CPU but training needs a GPU."
    )
    assert "Vector map" not in query.modality
    assert query.application == "building segmentation"


def test_osm_named_as_an_input_stays_an_input() -> None:
    query = _query("We have OSM vector data and Sentinel-2; which model takes OSM as input?")
    assert "Vector map" in query.modality


def test_masks_out_of_class_names_ask_for_open_vocabulary_segmentation() -> None:
    query = _query(
        "I need a rough map of buildings, roads and trees from 0.3 m orthophotos. What can I point at "
        "the tiles with just the class names as text and get masks out?"
    )
    assert (query.application, query.task_type) == ("open-vocabulary segmentation", "segmentation")


@pytest.mark.parametrize(
    ("text", "priorities", "metrics"),
    [
        # 'not the fastest one' sets speed aside; 'the strongest starting point' asks for accuracy.
        (
            "Which hyperspectral model for land cover? I want the strongest pretrained starting point, "
            "not the fastest one. One GPU.",
            ["accuracy"],
            [],
        ),
        # What is said to matter more than recall leaves recall out, as priority and as metric.
        (
            "Tree crowns from 10 cm RGB. Boundary quality is the criterion here more than raw detection "
            "recall. One GPU.",
            [],
            [],
        ),
        # A floor on recall still asks for it.
        ("We need more than 90% recall on ship detection in Sentinel-1.", ["recall"], ["Recall"]),
        # 'not fast enough' complains about speed: speed matters.
        ("Our model is not fast enough for real-time ship detection in Sentinel-2.", ["speed"], []),
    ],
)
def test_priorities_said_to_matter_less_are_waived(
    text: str, priorities: list[str], metrics: list[str]
) -> None:
    query = _query(text)
    assert query.priorities == priorities
    assert query.priority_metrics == metrics


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            "So recall matters far more to us than the odd false positive, which analysts can clear.",
            ["recall"],
        ),
        ("Precision matters more than missing a few boats.", ["precision"]),
        ("Nothing is worse for us than a false alarm.", ["precision"]),
        ("Over the city, missed detections are costly.", ["recall"]),
    ],
)
def test_an_error_after_than_is_the_one_put_up_with(text: str, wanted: list[str]) -> None:
    assert error_priorities(text.lower()) == wanted


def test_kinds_joined_before_a_model_noun_all_name_the_model() -> None:
    query = _query(
        "A 144-band airborne hyperspectral cube plus a LiDAR DSM, 15 land-cover classes. Which "
        "pretrained hyperspectral or hyperspectral+LiDAR models have published results on this data?"
    )
    assert set(query.model_kinds) == {"Hyperspectral", "LiDAR"}


def test_a_model_the_output_feeds_is_not_the_task() -> None:
    query = _query(
        "DeepForest gives me boxes, but I need the actual crown outlines, because crown area and shape "
        "feed an allometric biomass model. Imagery is 10 cm RGB orthomosaics; I have about 600 crowns "
        "hand-digitised as polygons. Which pretrained model would give clean per-tree masks? One GPU."
    )
    assert (query.application, query.task_type) == ("forest mapping", "instance segmentation")


@pytest.mark.parametrize(
    ("text", "field", "absent"),
    [
        (
            "Pre- and post-event 0.5 m tiles; I'm fine training on xBD. Zero-shot change detection "
            "looked too noisy in my first tests. Which bi-temporal models are most accurate?",
            "data_regime",
            "zero-shot",
        ),
        (
            "Kiln or no kiln from Sentinel-2 L1C chips, 13 bands. A ResNet-18 from scratch gets ~90%. "
            "Which pretrained encoder does well on these chips? Single GPU.",
            "architectures",
            "CNN",
        ),
        (
            "One Hyperion scene, 150 bands, a few validated pixels per mineral. A 3D-2D CNN from scratch "
            "overfits badly. Is there a pretrained hyperspectral model that copes with so few labels?",
            "architectures",
            "CNN",
        ),
    ],
)
def test_what_was_tried_is_no_requirement(text: str, field: str, absent: str) -> None:
    value = getattr(_query(text), field)
    assert absent != value and absent not in (value or [])


def test_a_model_not_hard_wired_to_a_band_set_asks_for_any_band_set() -> None:
    query = _query(
        "Binary cloud/clear mask for 3 m 4-band imagery (B, G, R, NIR). I can label a few hundred "
        "chips, one GPU. Any pretrained model that isn't hard-wired to Sentinel-2's 13 bands?"
    )
    assert query.any_bands
    assert "Sentinel-2" not in query.sensor


def test_gps_tagged_field_points_are_labels_not_a_location_input() -> None:
    query = _query(
        "Smallholder maize from Sentinel-1 GRD time series; I have roughly 600 GPS-tagged field points "
        "from extension officers and only a laptop."
    )
    assert "Location" not in query.modality
    assert query.data_regime == "few-shot"


def test_change_captions_lacking_are_no_labels_and_contrastive_decoding_no_pretraining() -> None:
    query = _query(
        "I need plain-sentence descriptions of what changed between before/after pairs of sub-metre "
        "RGB tiles. I've been feeding both dates to LLaVA-type models with training-free tricks like "
        "visual contrastive decoding. I don't have any change captions of my own. Is there an open "
        "model trained for remote sensing change captioning I can run as it is? One 24 GB GPU."
    )
    assert query.application == "change captioning"
    assert "Text" not in query.exclusions.modalities
    assert query.pretext == []


def test_labels_derived_from_osm_make_no_vector_input() -> None:
    query = _query(
        "A map of every private swimming pool from 8 cm aerial mosaics. Mask R-CNN trained on "
        "OSM-derived labels was our first idea, but it crawls. Which detector is fast enough?"
    )
    assert "Vector map" not in query.modality


@pytest.mark.parametrize(
    ("labels", "source"),
    [
        ("a large set of LiDAR-derived weak labels", "LiDAR"),
        ("Sentinel-1-based flood masks as reference", "SAR"),
    ],
)
def test_data_a_compound_says_the_labels_come_from_is_no_input(labels: str, source: str) -> None:
    query = _query(
        "Tree crown detection on 10 cm airborne RGB orthophotos, trained on hand-annotated crowns "
        f"plus {labels}. Which backbone should we start from? We have a GPU cluster."
    )
    assert source not in query.modality
    assert "RGB" in query.modality


@pytest.mark.parametrize(
    ("board", "limit"),
    [("a Jetson AGX Orin", 350.0), ("a Jetson Nano", 50.0)],
)
def test_a_large_edge_board_runs_larger_models_than_a_small_one(board: str, limit: float) -> None:
    query = _query(f"Bird detection in drone orthomosaics; inference runs on {board} at the field station.")
    assert query.compute.device_class == "edge"
    assert (query.compute.max_parameters_m or 50.0) == limit


def test_embeddings_computed_from_time_series_ask_for_a_series_model() -> None:
    query = _query(
        "So we need to compute our own embeddings over custom 12-month windows from Sentinel-1 and "
        "Sentinel-2 time series and feed them to a downstream network. We have an HPC allocation."
    )
    assert query.series_model


# The application that is the task, whatever else the text names.
@pytest.mark.parametrize(
    ("text", "application"),
    [
        # Boxes asked for from class names stay open-vocabulary detection.
        ("Find ships with class names as text, we need boxes.", "open-vocabulary detection"),
        # Typed class names answered with masks are open-vocabulary segmentation.
        (
            "After river floods we fly DJI drones over towns (RGB, 2-5 cm). No labels. What I want is to "
            "type class names like 'flooded road', 'debris', 'car' and get segmentation masks back, "
            "zero-shot.",
            "open-vocabulary segmentation",
        ),
        # An application joined by a hyphen to a modifier is not the task.
        (
            "Multi-sensor job for a flood-prone delta: 0.5 m RGB orthophotos and Sentinel-1, one model "
            "for building footprints. About 2,500 labelled tiles, 4 GPUs.",
            "building segmentation",
        ),
        (
            "I'm trying to redo the nightlights-transfer approach to poverty mapping for other "
            "countries, from Sentinel-2 and VIIRS. Colab only.",
            "poverty mapping",
        ),
        # The animals surveyed, not the sea ice they are on.
        (
            "We run aerial seal surveys over Arctic sea ice with a colour camera and a thermal camera and "
            "have 5,000 hotspots labelled seal / not seal. One cloud V100.",
            "wildlife detection",
        ),
        # The application the user says they want, or a service has to deliver, is the task.
        (
            "I do solar nowcasting over the UK with SEVIRI data, 11 channels every 5 minutes. I want "
            "per-pixel cloud masks that also catch thin cirrus. Single 24 GB GPU.",
            "cloud detection",
        ),
        (
            "Surface urban heat island study from Landsat 8/9 with the thermal band. I need a land cover "
            "map to relate to land surface temperature; I have 400 training polygons.",
            "land cover mapping",
        ),
        (
            "For an economic-activity index we have to count every vehicle in 30 cm WorldView-3 scenes of "
            "car parks. One 16 GB GPU.",
            "vehicle detection",
        ),
        (
            "I support an emergency-mapping service that has to deliver flood-extent maps from Sentinel-1 "
            "GRD (VV/VH) within hours of a cyclone landfall. One V100.",
            "flood mapping",
        ),
        # ... but the application a question asks about stays first.
        (
            "Pre/post WorldView-2 imagery over several towns. I need building footprints plus damage "
            "grades. Which pretrained backbones are strongest on bi-temporal VHR building change?",
            "urban change detection",
        ),
        # A description answered with a box is visual grounding; with images, retrieval.
        (
            "An analyst tool where you type a description like 'the white storage tank closest to the pier' "
            "and get the exact object back as a box and ideally a mask, on 0.3-1 m satellite images.",
            "visual grounding",
        ),
        (
            "We want to type a description and get matching tiles from our aerial archive.",
            "image-text retrieval",
        ),
    ],
)
def test_the_application_read_is_the_task(text: str, application: str) -> None:
    assert _query(text).application == application


def test_imagery_said_not_to_exist_is_not_the_users() -> None:
    selection = select_models(
        "After the earthquake we have post-event SAR and optical patches over several cities and want a "
        "damaged / not-damaged call per building. Pre-event imagery doesn't exist for most sites. 4 A100s.",
        k=3,
        clarify=False,
    )
    assert "Multi-temporal" not in selection.query.modality
    assert selection.query.application == "building damage assessment"


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        (
            "Training and country-wide inference run on a CPU-only server, so the encoder has to be tiny, "
            "10M parameters is the hard ceiling.",
            10.0,
        ),
        (
            "On-board segmentation on a Jetson AGX Xavier, so roughly 40M parameters is the most I can "
            "afford.",
            40.0,
        ),
    ],
)
def test_a_limit_said_in_the_sentence_of_a_parameter_count(text: str, limit: float) -> None:
    assert _query(text).compute.max_parameters_m == limit


def test_a_parameter_count_without_a_limit_is_no_limit() -> None:
    query = _query("Prithvi-EO-2.0 has 300M parameters and we fine-tune it on one A100 for burn scars.")
    assert query.compute.max_parameters_m != 300.0


def test_a_priority_said_not_to_matter_after_it() -> None:
    query = _query(
        "Building change detection at 0.5 m; accuracy is the only thing that matters, speed and size are "
        "not concerns. One RTX 4090."
    )
    assert query.priorities == ["accuracy"]


def test_a_backbone_that_only_reached_a_score_is_no_requirement() -> None:
    query = _query(
        "Reproducing ChangeViT on LEVIR-CD with a DeiT-tiny backbone I only reach about 76% IoU. Which "
        "change-detection model gives the highest F1 on building change? One RTX 4090."
    )
    assert not query.backbones


def test_text_to_image_search_is_retrieval_not_generation() -> None:
    query = _query(
        "I'm building text-to-image search over 200,000 aerial chips: users type 'baseball field next to a "
        "river' and get the top 20 chips, on a CPU-only VM."
    )
    assert (query.application, query.task_type) == ("image-text retrieval", "retrieval")
    assert "Text" in query.modality


def test_hoping_for_pretrained_weights_asks_for_open_weights() -> None:
    query = _query(
        "Thermal drone frames have to be matched against a satellite basemap; training from scratch costs "
        "us a lot of time, so we're hoping for pretrained weights."
    )
    assert query.open_weights


def test_gpu_memory_for_a_frozen_encoder_is_sized_for_running_it() -> None:
    frozen = _query("Crop types from Sentinel-2 with a linear probe on a frozen encoder; one 24 GB GPU.")
    tuned = _query("Crop types from Sentinel-2, fine-tuning the whole encoder; one 24 GB GPU.")
    assert frozen.compute.max_parameters_m == 24 * 400.0
    assert tuned.compute.max_parameters_m == 24 * 15.625


def test_optical_said_cloudy_only_as_a_contingency_is_not_ruled_out() -> None:
    query = _query(
        "I want a flood model that fuses Sentinel-1 with Sentinel-2 so it keeps working when the "
        "post-event optical image is cloudy. About 450 labelled chips, one 24 GB GPU."
    )
    assert "Sentinel-2" in query.sensor
    assert not query.exclusions.modalities and not query.exclusions.sensors


@pytest.mark.parametrize(
    "text",
    [
        "Optical images are almost always cloudy here. I map floods from Sentinel-1.",
        "Our optical images are almost always cloudy, so I map floods from Sentinel-1 SAR only.",
    ],
)
def test_optical_said_to_be_cloudy_as_a_fact_is_still_ruled_out(text: str) -> None:
    query = _query(text)
    assert "Multispectral" in query.exclusions.modalities or "RGB" in query.exclusions.modalities


def test_an_architecture_trained_from_scratch_with_a_score_is_what_was_tried() -> None:
    query = _query(
        "A ViT-Large trained from scratch with focal loss gets me to about 70% accuracy on Sentinel-1 "
        "sea-ice charts; I'd rather start from a SAR-aware pretrained encoder. One 48 GB GPU."
    )
    assert query.architectures == []


@pytest.mark.parametrize(
    "tried",
    [
        "A tiny hand-built CNN already gets into the high 80s on our ship chips.",
        "A ResNet-50 + FPN scene classifier gets about 88% precision on the validation tiles.",
        "A small CNN trained on last year's labels works fine locally but fails elsewhere.",
        "The DeepOWT authors searched the whole archive with two cascaded CNNs.",
        "A colleague suggested the old Jean et al. trick of CNN features from daytime imagery.",
    ],
)
def test_a_cnn_tried_or_used_by_others_is_no_architecture_asked_for(tried: str) -> None:
    query = _query(f"{tried} I map Sentinel-2 tiles with about 3,000 labels on one 16 GB GPU.")
    assert query.architectures == []


def test_the_task_of_a_baseline_whose_score_is_told_is_the_users_task() -> None:
    query = _query(
        "We look for illegal waste dumps on 20 cm orthophotos and can fine-tune on about 10,000 tiles. "
        "A ResNet-50 + FPN scene classifier gets about 88% precision; I want to push precision higher."
    )
    assert query.task_type == "classification"
    assert query.architectures == []


def test_a_model_the_user_can_download_is_asked_for_with_open_weights() -> None:
    query = _query(
        "SAR target recognition on MSTAR chips; which model is strongest that I can actually download?"
    )
    assert query.open_weights


def test_a_model_wished_to_reach_a_score_is_not_a_model_tried() -> None:
    query = _query("I need a CNN backbone that gets about 90% accuracy on Sentinel-2 crop chips.")
    assert query.architectures == ["CNN"]


def test_a_large_variant_ruled_out_rules_out_a_size_not_the_family() -> None:
    query = _query(
        "A ViT-Large is out of the question on our laptops; something under 30M parameters for "
        "Sentinel-2 land cover with 2,000 labels."
    )
    assert "transformer" not in query.exclusions.models
    assert query.architectures == []
    assert query.compute.max_parameters_m == 30.0


def test_abbreviation_points_do_not_end_a_sentence() -> None:
    from agent.reading.context import sentence_spans

    text = "Jean et al. used CNN features, e.g. from daytime imagery. I want more."
    assert [text[a:b].strip() for a, b in sentence_spans(text) if text[a:b].strip()] == [
        "Jean et al. used CNN features, e.g. from daytime imagery.",
        "I want more.",
    ]


@pytest.mark.parametrize(
    ("text", "required"),
    [
        ("I map crops from Sentinel-2 series on a laptop and want precomputed embeddings to download.", True),
        (
            "Is there a Sentinel-2 time-series model light enough to fine-tune on a CPU, or ready-made "
            "embeddings we could download and feed to a classifier?",
            False,
        ),
    ],
)
def test_embeddings_offered_as_one_way_among_others_are_accepted_not_required(
    text: str, required: bool
) -> None:
    assert _query(text).precomputed_embeddings is required


def test_a_wish_continued_after_or_that_is_still_asked_for() -> None:
    query = _query(
        "Is there a backbone pretrained with RGB+NIR, or that accepts arbitrary bands, for drone "
        "detection with a few thousand boxes on one GPU?"
    )
    assert query.any_bands


@pytest.mark.parametrize(
    "said",
    [
        "Whatever I fine-tune has to hold up on islands and years I never label.",
        "It must work on regions it was not trained on.",
        "The model will be applied to unseen regions.",
    ],
)
def test_holding_up_where_no_labels_were_made_asks_for_generalisation(said: str) -> None:
    query = _query(f"I map floods from Sentinel-1 with about 200 labelled chips on one A100. {said}")
    assert "generalization" in query.priorities


def test_turning_a_pipeline_into_segmentation_of_imagery_keeps_the_imagery_an_input() -> None:
    query = _query(
        "I'm turning a building-only U-Net pipeline into multiclass segmentation of 10 cm aerial "
        "orthophotos: six classes and about 1,800 labelled tiles. One 24 GB GPU."
    )
    assert "Aerial" in query.sensor and query.spatial_resolution_m == 0.1


def test_classifying_cropped_objects_is_one_label_per_crop() -> None:
    query = _query(
        "I'm classifying warships cropped from HRSC-style imagery into nine fine-grained classes with "
        "a k-NN gallery of 70 images per class. One 24 GB GPU."
    )
    assert query.task_type == "classification"


def test_a_model_that_makes_pseudo_labels_is_a_label_source_and_pairs_take_their_resolution() -> None:
    query = _query(
        "Semi-supervised building change detection on bi-temporal 0.5 m image pairs: SemiCD-VL uses a "
        "general VLM to make pseudo-labels. My hard constraint is a 6 GB laptop GPU."
    )
    assert "Text" not in query.modality
    assert {"RGB", "Multi-temporal"} <= set(query.modality)


def test_the_users_own_score_keeps_the_users_set_up_and_labels() -> None:
    query = _query(
        "With a DINOv2 checkpoint and a k-NN gallery of about 70 images per class I get about 79.5% "
        "accuracy on warship crops. Which backbone separates the classes better? One 24 GB GPU."
    )
    assert query.data_regime == "few-shot" and query.frozen_encoder


@pytest.mark.parametrize(
    ("text", "regime"),
    [
        # How a model ran as it came is no regime when the user counts labels to be had ...
        (
            "The ArcGIS pretrained tree-detection model drew tiny boxes out of the box on our 5 cm drone "
            "orthomosaic. I can hand-label a few hundred crowns and train on an RTX 4070.",
            "few-shot",
        ),
        # ... nor is a trained model applied elsewhere 'without retraining' ...
        (
            "We have around 18,000 hand-delineated tree crowns from seven forest sites and want the model "
            "to transfer to another rainforest without retraining. A 4xA100 node is available.",
            "full-labels",
        ),
        # ... while out-of-the-box use wished, with no labels, stays zero-shot.
        (
            "I want to detect trees in 5 cm drone orthomosaics out of the box; I have no labels at all.",
            "zero-shot",
        ),
    ],
)
def test_use_as_it_comes_is_a_regime_only_without_labels_to_be_had(text: str, regime: str) -> None:
    assert _query(text).data_regime == regime


def test_an_alternative_said_to_be_also_fine_is_no_requirement() -> None:
    selection = select_models(
        "Crop types for the 2025 season around Nagpur from Sentinel-2 and Sentinel-1 time series, 300 "
        "field points and a laptop. A model on pixel time series would be ideal; precomputed embeddings "
        "are also fine.",
        k=3,
        clarify=False,
    )
    records = {r.model_id: r for r in load_records()}
    kinds = {records[m.model_id].category for m in selection.models}
    assert kinds - {Category.embedding_product}  # models to run are not ruled out
