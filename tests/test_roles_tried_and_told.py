"""What was tried, found disappointing or only handled by another tool, a baseline's score and a
comparison are no requirement; a change told in text needs image pairs; embeddings coarser than the
user's grid are not their per-pixel embeddings."""

import pytest

from agent.api import select_models
from agent.dialogue.counts import requested_count
from agent.interpreter import interpret
from agent.query import StructuredQuery
from agent.reading import read
from agent.reading.terms import find_terms


def _query(text: str) -> StructuredQuery:
    """The task as the offline engine reads it: role spans first, then the rules."""
    return interpret(read(text).required_text).query


def test_a_sensor_first_tried_is_not_the_users_data():
    query = _query(
        "I first tried DeepForest on Sentinel-2, which was hopeless at 10 m, so I bought Pleiades 0.5 m "
        "pan-sharpened imagery; now I have the image but only about 150 hand-marked olive crowns."
    )
    assert query.sensor == ["Pleiades"]
    assert "RGB" in query.modality


def test_a_baselines_score_is_no_floor_and_top_1_is_a_metric_not_a_count():
    text = (
        "The classes are long-tailed, and my ShuffleNet baseline with super-resolved inputs reaches only "
        "about 60% top-1. Which pretrained satellite encoder is best for building-function classification?"
    )
    query = _query(text)
    assert query.min_performance is None
    assert query.task_type != "super-resolution"
    assert requested_count(text, None, 3) is None
    assert requested_count("show me the top 5", None, 3) == 5


def test_an_approach_weighed_or_tried_is_no_architecture_asked_for():
    assert (
        _query(
            "We monitor chlorophyll-a from Sentinel-3 OLCI; with 150 match-ups, training a CNN from "
            "scratch is shaky. I would like a pretrained encoder to fine-tune."
        ).architectures
        == []
    )
    assert (
        _query(
            "Sentinel-2 seasonal composites; a fine-tuned EfficientNet with an LSTM on top overfits badly."
        ).architectures
        == []
    )
    assert _query("Sentinel-2 patches; we need a CNN backbone.").architectures == ["CNN"]


def test_the_sensor_a_comparison_is_made_against_is_not_the_users():
    query = _query(
        "Forest-type map from PRISMA hyperspectral cubes (230 bands, 30 m); our separability tests already "
        "show PRISMA beats Sentinel-2 as the classes get finer."
    )
    assert query.sensor == ["PRISMA"]
    assert query.modality == ["Hyperspectral"]
    assert query.application == "forest mapping"


def test_a_very_high_resolution_sensor_beside_text_or_near_infrared_reads_as_either_imagery():
    told = _query("Pleiades images (0.5 m pan-sharpened); vision-language models that answer in text.")
    assert {"RGB", "Multispectral"} <= set(told.modality) and told.either_modality
    four = _query("Several hundred TB of Gaofen-2 and Jilin-1 pansharpened imagery (0.75-1 m, RGB+NIR).")
    assert {"RGB", "Multispectral"} <= set(four.modality) and four.either_modality


def test_a_change_told_in_text_is_change_captioning_on_models_that_take_pairs():
    selection = select_models(
        "We update the building layer from pairs of Pleiades ortho-images (0.5 m, 2019 vs 2023). Operators "
        "want a short statement of what changed for each flagged tile. I'm considering vision-language "
        "models that read both dates and answer in text. We have one 24 GB GPU.",
        k=3,
        clarify=False,
    )
    assert selection.query.application == "change captioning"
    assert selection.query.series_model
    assert all("Multi-temporal" in m.modalities or m.temporal_alignment for m in selection.models)
    # Damage told in text stays the damage task.
    damage = _query(
        "Pre- and post-event image pairs of the town; analysts ask in plain language which buildings "
        "collapsed and want answers in text. Building damage assessment."
    )
    assert damage.application != "change captioning"


def test_per_pixel_embeddings_are_not_met_by_a_product_on_a_kilometre_grid():
    selection = select_models(
        "We map tree species in Trentino with a few hundred field plots, so we'd rather train a random "
        "forest on ready-made per-pixel embeddings at 10 m than run a deep model. Laptop, no GPU. Which "
        "precomputed embedding products work for this? Patch embeddings kilometres wide are too coarse.",
        k=3,
        clarify=False,
    )
    shown = [m.model_id for m in selection.models]
    assert "clay-embeddings" not in shown and "major-tom-embeddings" not in shown


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Our project maps mangroves and ships a segmentation toolbox to partners.", False),
        ("We detect ships in the harbour from SkySat.", True),
        ("Small vessels a few pixels wide in Sentinel-2.", True),
    ],
)
def test_a_plural_before_a_determiner_is_a_verb(text, found):
    assert any(t[0] == "ship detection" for t in find_terms(text, "applications")) is found


def test_a_gpu_cluster_is_compute_and_clustering_features_is_unlabelled_use():
    assert _query(
        "2,500 inventory plots as labels and an A100 cluster, so compute isn't the limit."
    ).data_regime != ("unlabeled")
    unlabelled = _query(
        "No ground truth at all. I'd use a hyperspectral model as a feature extractor (cluster or unmix in "
        "its feature space) without collecting labels first."
    )
    assert unlabelled.data_regime == "unlabeled"


def test_what_others_point_to_is_not_the_users_sensor():
    query = _query(
        "A land-cover map from Landsat 8/9 surface reflectance. Most people point me to Sentinel-2 models, "
        "but our archive goes back to Landsat 5, so I'd rather use something pretrained on Landsat."
    )
    assert "Sentinel-2" not in query.sensor and "Landsat-8" in query.sensor


def test_content_based_image_retrieval_is_not_retrieval_by_text():
    query = _query(
        "Content-based image retrieval over a Sentinel-2 archive: compressed embeddings, queries answered "
        "in milliseconds, scenes grouped semantically without fine-tuning."
    )
    assert query.application == "content-based image retrieval"
    assert "Text" not in query.modality
    said = "Embeddings to search our SAR archive for scenes that look like a given rain cell, no labels."
    assert _query(said).application == "content-based image retrieval"


def test_what_another_tool_only_handles_is_not_the_users_data():
    query = _query(
        "I have PlanetScope SuperDove scenes (8 bands, 3 m). CoastSat's classifier only handles Landsat "
        "and Sentinel-2, so I want a pretrained encoder that accepts all eight bands."
    )
    assert query.sensor == ["PlanetScope"]
    # The user's own pipeline is their constraint.
    assert _query("Our pipeline only supports RGB GeoTIFFs, and we want building detection.").modality == [
        "RGB"
    ]


def test_features_found_disappointing_are_no_pretext_asked_for():
    query = _query(
        "Off-the-shelf DINOv2 features were disappointing on SAR. Which SAR-pretrained backbones are robust?"
    )
    assert query.pretext == []
    assert query.modality == ["SAR"]


def test_a_clip_asked_for_takes_text_and_one_tried_or_compared_does_not():
    asked = _query(
        "I like the idea of a remote-sensing CLIP where the class names act as a prior, for 0.5 m "
        "aerial tiles with 8 labels per class, on a 6 GB laptop GPU."
    )
    assert "Text" in asked.modality
    promising = _query(
        "A distilled CLIP idea looked promising, but I'd rather start from a small backbone for "
        "Sentinel-2 cloud masks on a Jetson."
    )
    compared = _query(
        "We compared CLIP-style embeddings against purely visual features as class prototypes. We need "
        "few-shot segmentation of aerial RGB on one GPU."
    )
    assert "Text" not in promising.modality and "Text" not in compared.modality


@pytest.mark.parametrize(
    ("said", "left_out"),
    [
        ("Prithvi-EO-2.0 gave poor results on our scenes.", True),
        ("Prithvi-EO-2.0 performed poorly for us, so we need something else.", True),
        ("Did Prithvi-EO-2.0 do badly because of our band order?", False),
        ("Prithvi-EO-2.0 fails to load on my machine.", False),
    ],
)
def test_a_model_stated_to_have_done_poorly_was_tried(said: str, left_out: bool) -> None:
    text = f"Flood mapping from Sentinel-2 on one GPU. {said} Which models should we try?"
    selection = select_models(text, k=5, clarify=False)
    assert ("prithvi-eo-2.0" in selection.query.exclusions.models) is left_out


@pytest.mark.parametrize(
    "text",
    [
        "Optical self-supervised recipes have behaved poorly on our speckled Sentinel-1 data; which "
        "SAR-pretrained models should we start from for sea ice mapping?",
        "Zero-shot text-prompted segmenters we tried on the thermal frames were poor; we need a model "
        "for thermal land cover mapping.",
    ],
)
def test_what_did_poorly_on_the_users_data_or_was_tried_is_no_requirement(text: str) -> None:
    query = _query(text)
    assert not {"RGB", "Multispectral", "Text"} & set(query.modality), query.modality


def test_models_put_to_a_test_were_tried_not_asked_for():
    query = _query(
        "We screen sub-metre satellite tiles for wastewater plants with no annotation budget. A test with "
        "general chat models (Qwen2.5-VL, Gemma 3) already finds many plants zero-shot, but they confuse "
        "settling tanks with swimming pools. Which remote-sensing open-vocabulary models could we run "
        "as they are, with text prompts?"
    )
    assert not query.conversational


def test_a_backbone_started_with_is_tried_not_asked_for():
    query = _query(
        "I started with a Swin-L encoder pretrained on RGB and it struggles: the NIR band is where the "
        "bloom signal is, in our 4-band PlanetScope tiles."
    )
    assert query.backbones == []
    assert "RGB" not in query.model_kinds


@pytest.mark.parametrize(
    "text",
    [
        "A recent paper says a 600M satellite-pretrained ViT transfers better between flood events - what "
        "should I shortlist for our drone RGB tiles?",
        "Vendors keep pitching custom tiny CNNs, but I'd rather start from a pretrained multispectral "
        "encoder.",
    ],
)
def test_a_model_others_say_or_pitch_is_no_architecture_asked_for(text):
    assert _query(text).architectures == []


@pytest.mark.parametrize(
    "text",
    [
        "Sentinel-1 ship chips; a big ViT is out of the question.",
        "Sentinel-2 patches, 30M parameters at most. The big ViT-L models are out for this.",
        "I'd like a small, fast backbone in the ResNet-50 / ViT-S range for Sentinel-2 tiles.",
    ],
)
def test_a_size_ruled_out_or_given_is_no_family(text):
    query = _query(text)
    assert query.architectures == []
    assert query.backbones == []


def test_a_family_ruled_out_is_still_ruled_out():
    assert "transformer" not in _query("Sentinel-1 ship chips; no ViT at all, please.").architectures


def test_pretraining_further_on_before_and_after_pairs_asks_for_no_series_model():
    query = interpret(
        read(
            "Unsupervised change detection from 15 m ASTER VNIR scenes before and after the tsunami, with "
            "no change labels; which pretrained features would you use, possibly after self-supervised "
            "adaptation on my unlabelled scenes?"
        ).required_text
    ).query
    assert query.task_type == "change detection" and not query.series_model
