"""A pretraining method is asked for when it is named as a way of pretraining, not when a checkpoint
trained with it is what the user runs or ran."""

import pytest

from agent.interpreter import interpret


@pytest.mark.parametrize(
    "text",
    [
        "Tree crowns from 5 cm orthophotos; I tried STEGO on DINO features and the crowns came out as blobs.",
        "A DINOv2 prototype-based detector gets me started on solar panels in 0.5 m RGB.",
        "With a DINOv2 remote-sensing checkpoint and a k-NN gallery I get 79% on warship crops.",
    ],
)
def test_a_dino_checkpoint_in_use_asks_for_no_pretraining_method(text):
    assert interpret(text).query.pretext == []


@pytest.mark.parametrize(
    "text",
    [
        "Segment from self-supervised features, e.g. a DINO-style backbone with an unsupervised head.",
        "DINO pretraining on our archive of 0.3 m aerial tiles is the plan.",
        "A self-supervised method like DINOv2 for Sentinel-2 scenes.",
    ],
)
def test_dino_as_a_way_of_pretraining_is_asked_for(text):
    assert interpret(text).query.pretext == ["self-distillation"]
