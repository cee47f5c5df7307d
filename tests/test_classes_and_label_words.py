"""Images sorted or tagged into categories are classified one label each: with no application named,
the application guessed by similarity is one that classifies; zero-shot, or with classes given as text
and a few labels, it is classification from class names, not a chat about the images. A class called
'no data' says nothing of labels."""

from agent.api import select_models
from agent.interpreter import interpret
from agent.reading import read


def test_tiles_sorted_into_invented_categories_zero_shot_are_classified() -> None:
    text = (
        "Our city's GIS office sits on roughly 60,000 aerial and satellite tiles (0.3-2 m RGB) that "
        "nobody has ever labelled, and colleagues want to sort them into categories they invent as they "
        "go: 'quarry', 'solar farm', 'construction site'. I came across RSCLIP, the one trained on "
        "synthetic captions, in a foundation-model list, but I can't find weights for it anywhere. Which "
        "vision-language models with downloadable checkpoints can I run zero-shot, with text prompts "
        "only, on one RTX 3090?"
    )
    selection = select_models(text, k=3, clarify=False)
    assert selection.query.task_type == "zero-shot classification"
    assert selection.query.application != "visual question answering"


def test_chips_tagged_from_class_name_prompts_with_a_few_labels_are_classified_from_names() -> None:
    text = (
        "We want to tag incoming aerial chips into about 12 site categories (quarries, solar farms, "
        "landfills) with just 4-16 examples per class, starting from class-name prompts and then a "
        "linear probe. Which remote-sensing vision-language model behaves best in this few-shot regime?"
    )
    query = select_models(text, k=3, clarify=False).query
    assert query.task_type == "zero-shot classification"
    assert query.application != "visual question answering"


def test_a_class_named_no_data_says_nothing_of_labels() -> None:
    text = (
        "Our nnU-Net jointly predicts zones (glacier, ocean, rock, no data) and the calving front from "
        "Sentinel-1 and TerraSAR-X. We train on the CaFFe benchmark plus our own labels on one A100. "
        "Which pretrained SAR-capable encoders help?"
    )
    assert select_models(text, k=3, clarify=False).query.data_regime != "zero-shot"


def test_zero_polygons_produced_says_nothing_of_labels() -> None:
    text = (
        "Thresholding the red-edge bands produced zero polygons on our WorldView-3 scenes. I have about "
        "2,000 hand-drawn tree crowns. Which pretrained models should I fine-tune for instance masks?"
    )
    assert select_models(text, k=3, clarify=False).query.data_regime != "zero-shot"


def test_no_polygons_produced_or_a_mask_ruled_out_says_nothing_of_labels() -> None:
    text = (
        "Stacking duplicated bands into the crown-delineation U-Net gave me no polygons at all. I have "
        "about 2,000 hand-digitised crowns on one RTX 3090, and a canopy mask won't do: I need clean "
        "boundaries for each tree. Which pretrained backbone should I fine-tune?"
    )
    assert select_models(text, k=3, clarify=False).query.data_regime == "few-shot"


def test_having_no_masks_is_having_no_labels() -> None:
    text = "We have no masks for the landslide scars. Which Sentinel-2 models can map them?"
    assert select_models(text, k=3, clarify=False).query.data_regime == "zero-shot"


def test_no_labels_for_the_new_year_is_transfer_not_zero_shot():
    text = (
        "We classify a dozen tree species from airborne hyperspectral imagery. Labels come from one flight "
        "campaign; applied to a flight two years later, the trained network loses ten points. We have no "
        "labels for the new year. Which pretrained hyperspectral models are robust to this spectral shift?"
    )
    query = interpret(read(text).required_text).query
    assert query.data_regime != "zero-shot"
    assert query.task_type != "zero-shot classification"
    # (a guard: with no labels at all, the task is still zero-shot)
    none = interpret("Tree species from hyperspectral imagery; we have no labels at all.").query
    assert none.data_regime == "zero-shot"


def test_the_data_after_the_classes_are_the_input() -> None:
    query = interpret(
        read(
            "We classify individual trees into nine species in southern Finland from multispectral airborne "
            "laser scanning: point clouds of over 1000 pts/m2 with intensity at three wavelengths."
        ).required_text
    ).query
    assert query.region == ["Finland"]
    parcels = interpret(
        read(
            "We classify parcels from the land-parcel register into about 12 cultivation types using one "
            "season of Sentinel-2 L2A."
        ).required_text
    ).query
    assert "Sentinel-2" in parcels.sensor
