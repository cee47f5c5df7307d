"""Pretraining further on an archive of image series asks for a model of series that can be run;
precomputed embeddings with no released encoder serve no one who runs a model; class names the
user would type are text the model must read."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.interpreter import interpret
from rsfmd.loader import load_records
from tools.filtering import violations

ARCHIVE = (
    "We have several terabytes of unlabelled Sentinel-1 and Sentinel-2 time series over East Africa "
    "(monthly composites, 2019-2024) on our cluster. I want to continue self-supervised pretraining on "
    "our own archive before fine-tuning on a few thousand field polygons. Several GPUs are available."
)


def test_pretraining_further_on_image_series_keeps_models_of_series() -> None:
    selection = select_models(ARCHIVE, k=3, clarify=False)
    assert selection.query.pretrain_further and selection.query.series_model
    assert any("Pretraining further on your image series" in note for note in selection.assumptions)
    records = {r.model_id: r for r in load_records()}
    for model in selection.models[:3]:
        assert "series" not in violations(records[model.model_id], selection.query)


def test_pretraining_further_on_single_images_asks_for_no_series() -> None:
    query = select_models(
        "We have 200k unlabelled 0.5 m aerial RGB tiles and want to continue self-supervised pretraining "
        "on them before fine-tuning a building segmenter. Several GPUs.",
        k=3,
        clarify=False,
    ).query
    assert query.pretrain_further and not query.series_model


def test_precomputed_embeddings_cannot_be_pretrained_further() -> None:
    records = {r.model_id: r for r in load_records()}
    query = select_models(ARCHIVE, k=3, clarify=False).query
    assert "encoder" in violations(records["alphaearth-foundations"], query)


@pytest.mark.parametrize(
    "text",
    [
        'Is there a model where I type "solar panel" and get boxes over our 7.5 cm orthophotos, without '
        "training anything first? One RTX 3060.",
        "No labels at all: ideally we could type the class names (quarry, solar farm, golf course) and get "
        "a map from our aerial RGB tiles.",
    ],
)
def test_class_names_typed_in_are_text_the_model_reads(text: str) -> None:
    query = select_models(text, k=3, clarify=False).query
    assert "Text" in query.modality


def test_a_task_type_is_no_typed_text() -> None:
    text = "Crop type mapping from Sentinel-2 time series, 300 labelled fields."
    assert "Text" not in select_models(text, k=3, clarify=False).query.modality


def test_embeddings_with_no_released_encoder_do_not_serve_a_model_to_run() -> None:
    records = {r.model_id: r for r in load_records()}
    own = select_models(
        "Weekly soil-moisture features from our own Sentinel-1 and Sentinel-2 time series over Spain; "
        "about 200 labelled probes, and everything runs on a laptop CPU.",
        k=3,
        clarify=False,
    ).query
    assert "encoder" in violations(records["alphaearth-foundations"], own)
    assert "encoder" not in violations(records["copernicus-embed"], own)  # its encoder is released
    asked = select_models(
        "Which precomputed embeddings could I use for crop type mapping with 300 labelled fields?",
        k=3,
        clarify=False,
    ).query
    assert "encoder" not in violations(records["alphaearth-foundations"], asked)


def test_questions_asked_of_a_vision_language_model_are_visual_question_answering() -> None:
    text = (
        "Our analysts ask a VLM questions about 0.3 to 1 m satellite scenes, such as 'is there an aircraft "
        "on the apron?'. One 48 GB A6000; the weights must be downloadable."
    )
    query = select_models(text, k=3, clarify=False).query
    assert (query.application, query.task_type) == ("visual question answering", "vqa")


def test_openly_available_embeddings_are_precomputed_embeddings_asked_for() -> None:
    text = (
        "A search tool over Sentinel-2 on my laptop: which openly available embeddings, or encoders small "
        "enough to run on CPU, would you use for query-by-example retrieval?"
    )
    assert interpret(text).query.precomputed_embeddings
    assert not interpret(
        "Which encoders give the best embeddings for retrieval over Sentinel-2?"
    ).query.precomputed_embeddings
