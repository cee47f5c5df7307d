"""How a model ran as it comes ('out of the box') says nothing of the user's labels when the user
trains a model of their own; said of what the user wants, it still reads as use without labels."""

import pytest

from agent.api import select_models


@pytest.mark.parametrize(
    "text",
    [
        "The released ship-detection checkpoints gave rubbish on our TerraSAR-X scenes out of the box, "
        "so we'll fine-tune properly on our own boxes. Which SAR-pretrained backbone drops into "
        "MMDetection?",
        "A general captioner works out of the box but knows nothing about aerial scenes; later we "
        "fine-tune on our own question-answer pairs. Which remote-sensing vision-language model?",
        "Out of the box, the released checkpoints produced garbage on our scenes, so we're going to "
        "fine-tune properly. Which SAR-pretrained backbone should we train?",
        "Out of the box, our Faster R-CNN reaches 0.4 mAP on Sentinel-1 harbours. We train oriented "
        "ship detectors on our scenes and need a stronger SAR-pretrained backbone.",
    ],
)
def test_a_model_tried_out_of_the_box_is_no_regime_when_the_user_trains(text: str) -> None:
    assert select_models(text, k=3, clarify=False).query.data_regime != "zero-shot"


@pytest.mark.parametrize(
    "text",
    [
        "We do not want to train anything: which models caption these aerial tiles out of the box?",
        "I can't fine-tune anything here; I need a Sentinel-2 flood model that works out of the box.",
    ],
)
def test_out_of_the_box_asked_for_stays_use_without_labels(text: str) -> None:
    assert select_models(text, k=3, clarify=False).query.data_regime == "zero-shot"
