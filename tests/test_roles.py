"""The role each mention plays, asserted on the structured query: what a practitioner means by
background statements, platforms and devices, labels' sources, text prompts, questions about images,
text beside imagery, models tried, options ruled out and the scope of a negation.

Expectations say what the user means; where today's reading differs, the test is a strict xfail
that says how it differs.
"""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.interpreter import interpret
from agent.query import StructuredQuery
from agent.reading import read
from agent.selection import Selection
from rsfmd.loader import load_records


def _select(text: str) -> Selection:
    return select_models(text, k=3, clarify=False)


def _query(text: str) -> StructuredQuery:
    return _select(text).query


# Background: said of other models or of the world, not of the user's data.


def test_most_models_are_rgb_is_background() -> None:
    text = "Most models are RGB; we need flood mapping from Sentinel-1 SAR"
    query = _query(text)
    assert query.modality == ["SAR"] and query.sensor == ["Sentinel-1"]
    assert query.application == "flood mapping"
    assert read(text).set_aside["background"] == ("RGB",)


def test_models_ive_seen_dont_support_sar_is_background_not_an_exclusion() -> None:
    text = "Models I've seen don't support SAR; we have Sentinel-1 GRD for oil spill detection"
    query = _query(text)
    assert query.modality == ["SAR"] and query.sensor == ["Sentinel-1"]
    assert query.exclusions.modalities == [] and query.exclusions.sensors == []
    assert read(text).set_aside["background"] == ("SAR",)


_UNLIKE_PRITHVI = (
    "Unlike Prithvi, which only takes optical bands, we need a model for Sentinel-1 SAR flood mapping"
)


def test_unlike_a_named_model_what_is_said_of_it_is_background() -> None:
    query = _query(_UNLIKE_PRITHVI)
    assert query.modality == ["SAR"] and query.sensor == ["Sentinel-1"]


def test_unlike_a_named_model_it_is_not_offered() -> None:
    selection = _select(_UNLIKE_PRITHVI)
    assert not any(m.model_id.startswith("prithvi") for m in selection.models)
    assert any(a.startswith("Read as said of other models") for a in selection.assumptions)


# Platform versus device: the drone carries the camera; the Jetson runs the model.


def test_a_drone_carrying_a_camera_is_the_platform_not_the_device() -> None:
    query = _query("A drone carrying a multispectral camera over vineyards; disease detection; one GPU")
    assert query.sensor == ["UAV"] and query.modality == ["Multispectral"]
    assert query.deployment_device == "single-gpu"


@pytest.mark.parametrize(
    ("text", "modality"),
    [
        ("Vineyard disease detection from drone RGB; the model runs on a Jetson", ["RGB"]),
        (
            "Weed detection from a multispectral drone; the model must run onboard the drone",
            ["Multispectral"],
        ),
    ],
)
def test_the_device_the_model_runs_on_is_the_edge(text: str, modality: list[str]) -> None:
    query = _query(text)
    assert query.deployment_device == "edge" and query.compute.device_class == "edge"
    assert query.sensor == ["UAV"] and query.modality == modality


# Labels from another sensor or a map are no input.


def test_labels_from_another_sensor_are_not_an_input() -> None:
    text = "Building footprint segmentation on Sentinel-2; our labels come from WorldView-3 footprints"
    query = _query(text)
    assert query.sensor == ["Sentinel-2"] and query.modality == ["Multispectral"]
    assert read(text).set_aside["labels_source"] == ("WorldView-3",)


def test_labels_from_a_map_are_not_an_input() -> None:
    landsat = _query("Land cover segmentation from Sentinel-2; labels from an old Landsat land-cover map")
    assert landsat.sensor == ["Sentinel-2"] and landsat.application == "land cover mapping"
    osm = _query("Road extraction from aerial RGB; labels from OpenStreetMap")
    assert "Vector map" not in osm.modality and osm.modality == ["RGB"]
    assert osm.application == "road extraction"


def test_a_map_used_as_labels_is_not_the_task() -> None:
    crops = _query(
        "We use the ESA WorldCover land cover map as labels to train a crop type classifier on Sentinel-2"
    )
    assert crops.application == "crop type mapping"
    truth = _query("We use the national land cover map as ground truth for a crop type mapping model")
    assert truth.application == "crop type mapping"
    kenya = _query("We want land cover mapping in Kenya; we will use the ESA WorldCover map as labels")
    assert kenya.application == "land cover mapping"


def test_data_from_an_earlier_project_is_not_an_input() -> None:
    text = (
        "Road extraction from 40 cm WorldView-3 RGB; we have 6k labelled tiles from an earlier "
        "OSM-correction project, so labels aren't the bottleneck"
    )
    query = _query(text)
    assert "Vector map" not in query.modality and query.modality == ["RGB"]
    assert query.application == "road extraction"


def test_what_the_user_worked_on_until_now_is_a_reference() -> None:
    text = (
        "Airborne hyperspectral semantic segmentation with 138 classes on our new benchmark; until now "
        "we mostly worked on the small classic scenes (Indian Pines, Pavia)"
    )
    assert "Indian Pines" not in _query(text).datasets


def test_a_first_attempt_is_a_reference() -> None:
    query = _query(
        "Land-cover segmentation for Sentinel-2 with 200,000 labelled tiles. My first attempt used DINOv3's "
        "satellite ViT-L as a frozen encoder with a linear classifier. Which backbone should I fine-tune?"
    )
    assert not query.frozen_encoder and not query.architectures


def test_what_was_slow_or_keeps_failing_is_a_reference() -> None:
    slow = _query(
        "Crop type mapping from Sentinel-2 time series on a laptop. A ResNet-18 with Sentinel-2 RGB MoCo "
        "weights, encoder frozen, still took minutes per epoch, so I need something light."
    )
    assert "RGB" not in slow.modality and not slow.architectures and not slow.pretext
    failing = _query(
        "Open-water mask for mangrove mapping: the Sentinel-2 MNDWI version keeps failing under cloud, "
        "so I want to build it from Sentinel-1 GRD"
    )
    assert failing.sensor == ["Sentinel-1"]


def test_a_resolution_ruled_out_is_none_asked_for() -> None:
    query = _query("Crop type mapping in Slovakia with Sentinel-2. No VHR or SAR involved.")
    assert query.spatial_resolution is None and query.exclusions.modalities == ["SAR"]


def test_labels_as_a_verb_say_nothing_of_the_label_budget() -> None:
    query = _query(
        "A water mask from Sentinel-1 that never labels mangrove as water; we label a few hundred chips"
    )
    assert query.data_regime != "zero-shot"


# Text prompts name the classes of a zero-shot task; they are not the task.


def test_text_prompts_for_zero_shot_labels() -> None:
    text = (
        "Classify Sentinel-2 patches into classes we only describe with text prompts such as "
        "'solar farm' or 'quarry'; no labelled data"
    )
    query = _query(text)
    assert query.task_type == "zero-shot classification" and query.data_regime == "zero-shot"
    assert "Text" in query.modality and query.sensor == ["Sentinel-2"]
    assert query.application is None  # 'solar farm' is a class name, not solar panel detection
    assert {s.role for s in read(text).spans} == {"quoted"}


# Questions about images.


@pytest.mark.parametrize(
    "text",
    [
        "Instance segmentation of exactly the object a phrase describes ('the white van on the left') "
        "in 20 cm aerial imagery, from a model that handles referring expressions",
        "Semantic segmentation masks of what referring expressions describe in 20 cm aerial imagery",
    ],
)
def test_masks_of_what_a_phrase_refers_to_stay_referring_segmentation(text: str) -> None:
    selection = _select(text)
    # Visual grounding is a task in its own right: masks asked for do not make it another application.
    assert selection.query.application == "visual grounding"
    assert selection.query.task_type in {"segmentation", "instance segmentation"}
    # Models that only answer with boxes or text are not offered: masks are asked for.
    records = {r.model_id: r for r in load_records()}
    assert selection.models
    assert all(any("segmentation" in t for t in records[m.model_id].all_task_types) for m in selection.models)


def test_questions_about_an_image_are_vqa() -> None:
    query = _query(
        "We want to ask questions about each aerial image, like 'how many boats are in the harbour?'"
    )
    assert query.application == "visual question answering" and query.task_type == "vqa"
    assert query.modality == ["RGB"]


def test_questions_about_an_image_pair_need_pairs() -> None:
    query = _query(
        "Given before and after Pleiades images, answer questions such as 'which buildings collapsed?'"
    )
    assert query.application == "visual question answering"
    assert "Multi-temporal" in query.modality


# Text as an input beside imagery.


def test_citizen_reports_beside_imagery_are_a_text_input() -> None:
    query = _query("Combine citizen reports with Sentinel-2 to map flood extent")
    assert query.modality == ["Text", "Multispectral"] and query.sensor == ["Sentinel-2"]


def test_tweets_beside_imagery_are_a_text_input() -> None:
    query = _query("Fuse geotagged tweets with Sentinel-1 SAR for flood mapping")
    assert "Text" in query.modality and "SAR" in query.modality


# A model tried: the task stays, the model is not offered again.

_TRIED_PRITHVI = (
    "We tried Prithvi for crop type mapping on Sentinel-2 and it was too slow; suggest something else"
)
_TRIED_SATMAE = "I tried SatMAE on our Sentinel-2 field parcels; what else could work for crop type mapping?"


def test_a_tried_model_is_set_aside_as_a_reference() -> None:
    assert {s.role for s in read(_TRIED_PRITHVI).spans} == {"reference"}
    assert _query(_TRIED_SATMAE).application == "crop type mapping"


def test_a_tried_model_keeps_the_task_said_with_it() -> None:
    query = _query(_TRIED_PRITHVI)
    assert query.application == "crop type mapping" and query.sensor == ["Sentinel-2"]


def test_what_a_tried_models_weights_expect_is_said_of_the_model() -> None:
    text = (
        "Airborne hyperspectral flight lines (about 420 bands, 1 m) for tree species maps. I tried "
        "SpectralGPT first, but its weights expect the 12 Sentinel-2 bands. One GPU."
    )
    query = _query(text)
    assert (query.modality, query.sensor) == (["Hyperspectral"], ["Airborne hyperspectral"])


def test_the_users_own_data_said_with_a_tried_model_is_kept() -> None:
    assert _query(_TRIED_SATMAE).sensor == ["Sentinel-2"]


@pytest.mark.parametrize(("text", "tried"), [(_TRIED_PRITHVI, "prithvi"), (_TRIED_SATMAE, "satmae")])
def test_a_tried_model_is_not_offered_again(text: str, tried: str) -> None:
    selection = _select(text)
    assert not any(m.model_id.startswith(tried) for m in selection.models)
    assert any(m.startswith(tried) for m in selection.query.exclusions.models)
    assert any(a.startswith("Left out as already tried") for a in selection.assumptions)


# An option ruled out: 'X is not an option'.


def test_an_option_ruled_out_is_not_required() -> None:
    text = "Crop type mapping on Sentinel-2; SAR is not an option"
    query = _query(text)
    assert "SAR" not in query.modality and query.sensor == ["Sentinel-2"]
    assert read(text).set_aside["excluded"] == ("SAR",)
    chat = _query("Change captioning on an 8 GB GPU; a 7B chat model is not an option")
    assert not chat.conversational and chat.application == "change captioning"
    assert chat.compute.device_class == "single-gpu"


@pytest.mark.parametrize(
    "text",
    [
        "During the monsoon optical imagery is useless, so this is purely Sentinel-1 GRD for flood mapping.",
        "In the wet season optical data is no use here; Sentinel-1 GRD for flood mapping.",
        "Between October and February optical scenes are almost always cloudy, so we use Sentinel-1 "
        "stacks for flood mapping.",
    ],
)
def test_imagery_ruled_out_after_a_phrase_of_time_is_ruled_out(text: str) -> None:
    query = _query(text)
    assert query.modality == ["SAR"]
    assert {"RGB", "Multispectral"} <= set(query.exclusions.modalities)


def test_no_gpu_is_an_option_means_a_cpu() -> None:
    query = _query("Flood mapping; a GPU is out of the question, and Sentinel-1 is not an option")
    assert query.deployment_device == "cpu"
    assert "Sentinel-1" not in query.sensor


# The scope of a negation ends at 'but' and at the end of the sentence.


@pytest.mark.parametrize(
    ("text", "modalities", "sensors"),
    [
        ("No SAR, but Sentinel-2 and Landsat-8 for burn scar mapping", ["SAR"], []),
        ("Not Sentinel-1, but Sentinel-2 and Landsat-8 for burn scar mapping", [], ["Sentinel-1"]),
        ("Burn scar mapping without SAR; Sentinel-2 and Landsat-8 only", ["SAR"], []),
    ],
)
def test_negation_scope(text: str, modalities: list[str], sensors: list[str]) -> None:
    query = _query(text)
    assert query.exclusions.modalities == modalities and query.exclusions.sensors == sensors
    assert query.sensor == ["Sentinel-2", "Landsat-8"] and query.modality == ["Multispectral"]
    assert query.application == "burn scar mapping"


def test_a_size_ruled_out_is_a_limit() -> None:
    query = _query(
        "Land cover from Sentinel-1; the lab laptop has an 8 GB RTX card, so anything much over "
        "~100M parameters is off the table"
    )
    assert query.compute.max_parameters_m == 100 and query.compute.min_parameters_m is None
    assert _query("no model over 300M parameters please").compute.max_parameters_m == 300
    assert _query("models over 1B parameters").compute.min_parameters_m == 1000


def test_what_other_models_were_trained_on_is_background() -> None:
    query = _query(
        "I work with AVIRIS-NG airborne data for vegetation species mapping. The big EO models are trained "
        "on Sentinel-2 or Landsat, and even the hyperspectral ones mostly use EnMAP at 30 m. Which model can "
        "be adapted to airborne imaging spectroscopy?"
    )
    assert query.sensor == ["AVIRIS"] and query.modality == ["Hyperspectral"]
    drone = _query(
        "We fly a 5-band multispectral camera on a drone over vineyards. Foundation models seem to be either "
        "RGB-only or built for 10 m satellites. Which one could be adapted?"
    )
    assert drone.modality == ["Multispectral"]
    # Asking which models were trained on a dataset is no statement about other models.
    assert read("which models were trained on SSL4EO-S12?").set_aside == {}


@pytest.mark.parametrize(
    ("text", "modalities", "aside"),
    [
        (
            "Our UAV carries a long-wave thermal camera and has to segment water vs land on a Jetson; "
            "we have 200 labelled frames, and RGB-trained water segmenters fall apart on thermal.",
            ["Thermal"],
            ("RGB",),
        ),
        (
            "Ship detection in Gaofen-3 SAR chips on one GPU; "
            "ImageNet-pretrained ResNets struggle with speckle.",
            ["SAR"],
            (),
        ),
    ],
)
def test_what_models_trained_on_other_data_fail_at_is_background(
    text: str, modalities: list[str], aside: tuple[str, ...]
) -> None:
    assert _query(text).modality == modalities
    assert read(text).set_aside.get("background", ()) == aside
    assert any(s.role == "background" for s in read(text).spans)


def test_a_model_wished_for_that_does_not_fail_keeps_what_it_was_trained_on() -> None:
    text = "I want a SAR-pretrained backbone that does not fail on small ships in Sentinel-1 scenes."
    assert read(text).spans == ()
    assert _query(text).modality == ["SAR"]


def test_a_baseline_that_plateaus_is_a_reference_not_a_required_backbone() -> None:
    text = "6,000 SAR ship chips from Gaofen-3. Our ResNet trained from ImageNet plateaus around 80% OA."
    assert _query(text).architectures == []
    assert "ResNet" not in read(text).required_text


def test_an_edge_that_is_no_device_and_a_priority_said_to_matter_less() -> None:
    query = _query(
        "Sub-metre canopy height from 30 cm aerial RGB and airborne LiDAR. Accuracy at the crown edge "
        "matters "
        "more than speed."
    )
    assert query.compute.device_class is None and "speed" not in query.priorities
    for device in ("Ship detection on the edge with Sentinel-1", "crop mapping with edge computing limits"):
        assert _query(device).compute.device_class == "edge"


def test_descriptions_written_beside_image_pairs_are_a_text_input() -> None:
    query = _query(
        "We have pre/post VHR pairs and short damage descriptions written by field teams. I want a model "
        "that takes the image pair plus that text and answers questions about the damage."
    )
    assert {"Text", "Multi-temporal"} <= set(query.modality)


def test_a_model_tried_that_ran_out_of_memory_is_judged_with_the_others() -> None:
    query = _query(
        "Building instance segmentation from 0.3 m aerial RGB. I tried RSPrompter, but training runs "
        "out of memory on our 12 GB card, so we need LoRA or a smaller setup."
    )
    assert "rsprompter" not in query.exclusions.models


def test_a_model_tried_whose_part_would_not_run_is_judged_with_the_others() -> None:
    query = _query(
        "Land cover from aerial RGB, Sentinel-1 and Sentinel-2 together. I tried SkySense++, but I "
        "couldn't get the fusion part running. What else is a sound base? One A100."
    )
    assert "skysense++" not in query.exclusions.models


def test_a_model_run_today_is_judged_when_the_user_asks_if_it_is_the_right_one() -> None:
    text = (
        "Land cover from Sentinel-2 L2A patches with a Copernicus DEM band. Right now I use a TerraMind "
        "base backbone with about 4,000 labelled patches and one A100. {ask}"
    )
    judged = _select(text.format(ask="Is that the right backbone, or do others do better?"))
    assert "terramind" in [m.model_id for m in judged.models]
    assert any("what you use today, judged with the others" in a for a in judged.assumptions)
    better = _query(text.format(ask="Which other backbone would do better?"))
    assert "terramind" in better.exclusions.models


def test_ice_on_a_lake_is_read_as_the_closest_application() -> None:
    selection = _select("Per-tile ice vs open water on Lake Ladoga from Sentinel-1 IW GRD, laptop only")
    assert selection.query.application == "sea ice mapping"
    assert any("read as the closest one, 'sea ice mapping'" in a for a in selection.assumptions)


def test_a_model_tried_but_not_yet_running_is_judged_with_the_others() -> None:
    stuck = select_models(
        "Building instance segmentation from 0.3 m aerial RGB. I tried RSPrompter's config but got a "
        "'no pos rois' error and haven't got it training yet. One RTX 3090.",
        k=3,
        clarify=False,
    )
    assert "rsprompter" not in stuck.query.exclusions.models
    assert "rsprompter" in [m.model_id for m in stuck.models]
    assert any(a.startswith("RSPrompter: tried, but not yet running") for a in stuck.assumptions)
    # A poor result said in the same sentence still leaves it out.
    poor = _query(
        "Scene classification with text prompts. I tried SkySense-CLIP, but the checkpoint doesn't load "
        "and my test came out close to random."
    )
    assert "skysense" in poor.exclusions.models
    slow = _query(
        "Building instance segmentation from 0.3 m aerial RGB. I tried RSPrompter and it was too slow."
    )
    assert "rsprompter" in slow.exclusions.models


def test_a_word_class_in_a_phrase_reads_every_phrase_of_the_class() -> None:
    vlms = _query(
        "Hundreds of Sentinel-1 GRD scenes after a cyclone; I'd sort them with free-text queries. "
        "Most VLMs I know only accept optical RGB. Does any text-capable model understand SAR?"
    )
    assert "SAR" in vlms.modality and "RGB" not in vlms.modality
    alos = _query(
        "ALOS-2 PALSAR-2 L-band HH land-use segmentation, one A6000. Every SAR model I come across "
        "is pretrained on C-band Sentinel-1 VV/VH."
    )
    assert alos.sensor == ["ALOS-2"]
    tested = _query(
        "A chat assistant for SAR analysts on Gaofen-3 chips. The chat model we tested is built on a "
        "CLIP encoder that expects three-channel optical input. 4x RTX 4090."
    )
    assert "RGB" not in tested.modality and "SAR" in tested.modality


def test_what_the_user_says_is_unusable_is_ruled_out_where_they_say_it() -> None:
    tropics = _query(
        "I'm at an agency in the tropics where optical imagery is nearly always clouded over, so our "
        "land-cover layer is built from S1 GRD; a few thousand labelled polygons, one GPU."
    )
    assert tropics.modality == ["SAR"] and tropics.sensor == ["Sentinel-1"]
    assert "Multispectral" in tropics.exclusions.modalities
    scope = _query(
        "Clear-cuts from Sentinel-2 L2A time series. SAR and VHR imagery are not part of this project."
    )
    assert "SAR" not in scope.modality and "SAR" in scope.exclusions.modalities


def test_a_size_said_to_break_the_budget_is_a_limit() -> None:
    drone = _query(
        "Fire segmentation on a Jetson Nano from drone RGB. Much over ~30M parameters will blow the "
        "frame budget."
    )
    assert drone.compute.max_parameters_m == 30 and drone.compute.min_parameters_m is None
    onboard = _query(
        "Flood flags on board a SAR smallsat: each chip has to finish well under a second, which rules "
        "out encoders bigger than roughly 25M parameters."
    )
    assert onboard.compute.max_parameters_m == 25 and onboard.compute.min_parameters_m is None


def test_software_named_after_imagery_is_a_tool_not_the_data() -> None:
    text = (
        "LULC and change maps for 2019 and 2024 from Sentinel-2; so far I've run a random forest in "
        "Google Earth Engine. One RTX 3060."
    )
    assert _query(text).sensor == ["Sentinel-2"]
    assert read(text).set_aside == {"tool": ("Google Earth",)}


def test_labels_said_to_come_from_a_source_and_imagery_said_to_come_from_a_sensor() -> None:
    labels = _query("Building footprints from aerial RGB; our labels come from WorldView-3 interpretation")
    assert "WorldView-3" not in labels.sensor
    layer = _query("Cloudy tropics, so our land-cover layer comes from Sentinel-1 GRD (VV/VH); a single GPU")
    assert layer.sensor == ["Sentinel-1"] and layer.modality == ["SAR"]


def test_rows_with_word_classes_read_the_ways_people_say_the_same_thing() -> None:
    # A tool they followed is what they tried, not what they need.
    tutorial = _query(
        "I worked through the TorchGeo tutorial that feeds Sentinel-1 pairs into the SSL4EO MoCo ResNet-50 "
        "weights; now I need something for my own area. It has to be VV/VH backscatter, 80 labelled tiles."
    )
    assert tutorial.modality == ["SAR"] and not tutorial.architectures
    # Data only for checking results, and colours the user compares in, are not inputs.
    heights = _query(
        "Canopy heights from 2023 NAIP (60 cm, RGB + NIR) without training anything; the old LiDAR only "
        "serves to sanity-check stands that haven't changed. Laptop CPU."
    )
    assert "LiDAR" not in heights.modality and heights.modality == ["Multispectral", "RGB"]
    cultivars = _query(
        "Drone hyperspectral, 270 bands; a per-pixel map of 20 cultivars, some of which are "
        "indistinguishable in RGB; 20-50 labelled pixels per class."
    )
    assert cultivars.modality == ["Hyperspectral"] and cultivars.data_regime == "few-shot"
    # Labels made by rasterising a map are where the labels come from; the basemap is the input.
    osm = _query(
        "My own segmentation set by rasterising OpenStreetMap polygons (buildings, roads, water, parks, "
        "farmland) over a Maxar WorldView basemap at about 0.5 m, RGB only; one RTX 3060."
    )
    assert osm.modality == ["RGB"] and "Vector map" not in osm.modality
    assert osm.application != "cropland mapping"


def test_what_is_said_of_a_tried_model_after_a_comma_is_said_of_it() -> None:
    landsat = _query(
        "Canopy height at 30 m from Landsat 8/9 surface reflectance. I tried Depth Any Canopy, but it was "
        "fine-tuned on 1 m aerial RGB and has never seen Landsat-scale pixels."
    )
    assert landsat.modality == ["Multispectral"] and "Aerial" not in landsat.sensor
    outdated = _query(
        "The state LiDAR canopy height model I have is from 2013 and badly outdated, so I'd like current "
        "canopy heights from the 2023 NAIP imagery."
    )
    assert "LiDAR" not in outdated.modality and outdated.sensor == ["NAIP"]
    glaciers = _query(
        "Debris-covered glaciers from Landsat 7 ETM+ with both thermal bands and SRTM slope; a backbone that "
        "only accepts RGB or the fixed Sentinel-2 band set is not much use to me."
    )
    assert "Sentinel-2" not in glaciers.sensor and "Thermal" in glaciers.modality


def test_kinds_of_model_said_not_to_work_are_ruled_out_and_a_stopgap_is_what_was_tried() -> None:
    reef = _query(
        "Reef habitats from WorldView-3 8-band VNIR; an RGB-only backbone won't work, because the "
        "coastal and yellow bands see through the water."
    )
    assert reef.modality == ["Multispectral"] and "RGB" in reef.exclusions.modalities
    laptop = _query(
        "Text search over NAIP tiles; any model above a few hundred million parameters will crawl on "
        "this laptop"
    )
    assert laptop.compute.max_parameters_m == 500 and laptop.compute.min_parameters_m is None
    search = _query(
        'Type "burnt hillside next to a town" and get ranked Sentinel-2 tiles, no labels. A colleague\'s '
        "stopgap has an LLM caption a sample of tiles. I'd prefer one model with text and imagery in one "
        "embedding space."
    )
    assert search.application != "image captioning" and search.task_type != "captioning"


def test_a_handful_of_dates_is_not_a_handful_of_labels() -> None:
    assert (
        _query(
            "LULC from Sentinel-2 seasonal composites, a handful of dates per year; one RTX 3060"
        ).data_regime
        is None
    )
    assert _query("Flood maps from Sentinel-1; we can label a handful of tiles").data_regime == "few-shot"


def test_what_a_tried_model_was_trained_on_and_what_does_not_help_are_not_requirements() -> None:
    canopy = _query(
        "Depth Any Canopy didn't work out: it was fine-tuned on 1 m aerial RGB and never saw SWIR. "
        "Canopy height from Landsat 8/9 at 30 m; training labels would be GEDI footprints."
    )
    assert "Aerial" not in canopy.sensor and "GEDI" not in canopy.sensor
    assert canopy.spatial_resolution_m == 30.0
    glaciers = _query(
        "Fifteen channels from Landsat 7 ETM+ with thermal and SRTM elevation; backbones restricted to "
        "RGB or to the fixed Sentinel-2 band set don't help me much."
    )
    assert "Sentinel-2" not in glaciers.sensor and "RGB" in glaciers.exclusions.modalities
    confirmed = _query("The problem is labels: 80 tiles confirmed via field reports. VV/VH backscatter.")
    assert confirmed.modality == ["SAR"]


@pytest.mark.parametrize(
    ("text", "modalities", "sensors", "aside"),
    [
        (
            "Sentinel-1 GRD scenes terrain-corrected with SRTM for flood mapping",
            ["SAR"],
            ["Sentinel-1"],
            ("SRTM",),
        ),
        (
            "Sentinel-1 EW scenes (HH/HV), thermal-noise corrected, for sea ice type classification",
            ["SAR"],
            ["Sentinel-1"],
            ("Thermal",),
        ),
        (
            "orthorectified with a LiDAR DTM, our 20 cm aerial RGB for building detection",
            ["RGB"],
            ["Aerial"],
            ("Airborne LiDAR", "LiDAR", "DEM"),
        ),
        (
            "Canopy height from Sentinel-2 composites, with SRTM to filter bad labels in steep terrain",
            ["Multispectral"],
            ["Sentinel-2"],
            ("SRTM",),
        ),
    ],
)
def test_data_used_in_processing_is_no_input(
    text: str, modalities: list[str], sensors: list[str], aside: tuple[str, ...]
) -> None:
    query = _query(text)
    assert (query.modality, query.sensor) == (modalities, sensors)
    assert read(text).set_aside == {"processing": aside}


@pytest.mark.parametrize(
    ("text", "modalities", "application", "aside"),
    [
        (
            "0.5 m airborne LiDAR point clouds, which we turn into a bare-earth DTM, to find burial mounds",
            ["LiDAR"],
            "archaeological prospection",
            ("DEM",),
        ),
        (
            "EnMAP cubes for mineral mapping; I don't want to squeeze them into six multispectral bands",
            ["Hyperspectral"],
            "mineral mapping",
            ("Multispectral",),
        ),
    ],
)
def test_what_the_model_should_produce_is_no_input(
    text: str, modalities: list[str], application: str | None, aside: tuple[str, ...]
) -> None:
    query = _query(text)
    assert [m for m in query.modality if m != "Multi-temporal"] == modalities
    assert query.application == application
    assert read(text).set_aside == {"output": aside}


def test_what_comes_out_keeps_its_task_and_looking_into_data_is_no_output() -> None:
    query = _query("turn 20 cm aerial orthophotos into building footprint polygons for the cadastre")
    assert query.application == "building segmentation" and query.sensor == ["Aerial"]
    assert "output" not in {s.role for s in read("We looked into SAR models for this").spans}


def test_what_a_tried_models_weights_expect_is_not_the_users_data() -> None:
    text = (
        "Airborne hyperspectral cubes, ~280 bands. I first grabbed SpectralGPT, but its weights expect "
        "Sentinel-2-like 12-band cubes, so that went nowhere."
    )
    query = _query(text)
    assert query.modality == ["Hyperspectral"] and "Sentinel-2" not in query.sensor
    assert read(text).set_aside["background"] == ("Sentinel-2",)


def test_data_that_could_give_ground_truth_is_a_source_of_labels() -> None:
    text = (
        "3,000 unlabelled Sentinel-1 EW scenes for sea ice; the airborne laser scanner flights that "
        "could give ground truth overlap only a couple dozen scenes."
    )
    assert _query(text).modality == ["SAR"]
    assert "labels_source" in read(text).set_aside


def test_the_users_own_odd_band_stack_set_against_other_models_asks_for_any_bands() -> None:
    text = (
        "A drone camera with blue, green, red, red-edge, NIR and one LWIR band. Every pretrained "
        "backbone I find wants RGB or Sentinel-2's bands, not my odd 6-channel stack."
    )
    query = _query(text)
    assert query.any_bands and "Sentinel-2" not in query.sensor
    assert not _query("an RGB model is fine, not an odd 6-channel stack").any_bands


def test_embeddings_someone_publishes_are_a_wish_for_an_embedding_product() -> None:
    text = (
        "Sentinel-2 embeddings for all of Kenya, eight years. If someone already publishes annual 10 m "
        "embeddings that cover Kenya, we'd happily use those instead of running a model."
    )
    assert _query(text).precomputed_embeddings


def test_barrows_and_celtic_fields_on_a_lidar_terrain_model_are_archaeology() -> None:
    text = "Sweep the national LiDAR DTM for barrows, Celtic fields and charcoal kilns with two GPUs"
    assert _query(text).application == "archaeological prospection"


def test_what_matters_less_than_the_users_priority_is_not_asked_for() -> None:
    text = "Field boundaries from Sentinel-2: thin lines matter more to us than overall pixel accuracy"
    assert _query(text).priority_metrics == []
    assert _query("Field boundaries from Sentinel-2, scored by overall pixel accuracy").priority_metrics


def test_a_task_ruled_out_is_not_the_task() -> None:
    text = "Ship or iceberg, per Sentinel-1 chip. No segmentation, strictly chip classification."
    assert _query(text).task_type == "classification"


def test_questions_in_plain_language_with_masks_as_a_bonus_are_question_answering() -> None:
    text = (
        "We want to ask plain-language questions of our 0.3 m aerial orthophotos on an 8 GB laptop GPU; "
        "a 7B chat model in half precision didn't fit. Segmentation maps would be a bonus."
    )
    query = _query(text)
    assert (query.application, query.task_type) == ("visual question answering", "vqa")
    assert query.priorities == [] and query.priority_metrics == []


def test_the_verb_goes_is_not_the_goes_satellite() -> None:
    assert _query("whatever goes into the detector must be small; drone RGB video").sensor == ["UAV"]
    assert _query("GOES-16 imagery for wildfire detection").sensor == ["GOES"]


def test_a_map_followed_by_a_legend_of_kinds_of_land_is_land_cover() -> None:
    text = "A land-surface map of Ukraine from Sentinel-2: cropland, grassland, forest and bare ground."
    assert _query(text).application == "land cover mapping"
    # A list of inputs after a map is no legend, and stays the user's data.
    assert _query("a map from these inputs: Sentinel-2, Sentinel-1 and the DEM").sensor == [
        "Sentinel-2",
        "Sentinel-1",
    ]


def test_what_a_tried_model_turned_out_to_be_is_not_the_users_data_nor_a_wish() -> None:
    text = (
        "Airborne hyperspectral survey, ~400 bands, 12 classes. The classic HSI CNNs I tried overfit, "
        "and SpectralGPT turned out to be for Sentinel-2, not real hyperspectral."
    )
    query = _query(text)
    assert query.modality == ["Hyperspectral"] and query.exclusions.modalities == []
    assert "Sentinel-2" not in query.sensor and query.architectures == []


def test_a_size_beyond_which_models_are_too_slow_is_a_limit() -> None:
    assert (
        _query(
            "Sentinel-2 crops on a laptop; anything beyond 30M parameters is too slow"
        ).compute.max_parameters_m
        == 30
    )
    text = "Aerial tiles on a CPU laptop. Anything past roughly 30M parameters will take days per epoch."
    assert _query(text).compute.max_parameters_m == 30


def test_what_a_task_is_not_to_be_read_from_is_ruled_out() -> None:
    query = _query("NDVI estimated from Sentinel-1 alone, not from the optical data")
    assert query.modality == ["SAR"] and "Multispectral" in query.exclusions.modalities


def test_a_vlm_that_tells_in_plain_words_what_it_sees_writes_text() -> None:
    text = "A model that looks at a drone frame and tells me in plain words which roofs are damaged. Any VLM?"
    query = _query(text)
    assert "Text" in query.modality and query.task_type == "captioning"


def test_bi_temporal_backbones_are_no_wish_for_a_time_series_model() -> None:
    text = "pre/post Maxar tiles for xBD damage grades; which bi-temporal backbones are the best start?"
    assert not _query(text).series_model
    assert _query("a temporal encoder for Sentinel-2 time series of crops").series_model


def test_an_open_vocabulary_segmenter_is_open_vocabulary_segmentation() -> None:
    text = "An open-vocabulary segmenter for 0.3 m aerial orthophotos, class names as text, no labels"
    assert _query(text).application == "open-vocabulary segmentation"


def test_what_other_models_are_said_to_be_for_is_not_the_users_data() -> None:
    quoted = "Sentinel-1 IW archive, no labels. Most 'foundation models' I find are Sentinel-2 only."
    assert _query(quoted).sensor == ["Sentinel-1"]
    wired = "3 m 4-band imagery for cloud masks. Any model that isn't hard-wired to Sentinel-2's 13 bands?"
    assert "Sentinel-2" not in _query(wired).sensor
    seen = (
        "Biomass maps from Sentinel-2 and Sentinel-1. I've seen the Meta canopy height model but "
        "that's for sub-metre Maxar imagery, not what we have."
    )
    assert _query(seen).sensor == ["Sentinel-2", "Sentinel-1"]
    # A model tried and what it missed in the user's own data: the data stays the user's.
    assert _query("I tried SatMAE but it missed small fields in our Sentinel-2 data").sensor == ["Sentinel-2"]


def test_data_a_model_is_trained_against_are_labels() -> None:
    text = "Canopy height at 10 m from Sentinel-2, trained against airborne laser scanning of 300 plots"
    assert _query(text).modality == ["Multispectral"]


def test_a_cloud_clear_mask_without_swir_is_cloud_detection_from_the_bands_named() -> None:
    query = _query("Binary cloud/clear mask for 3 m B, G, R, NIR imagery; there's no SWIR or thermal")
    assert query.application == "cloud detection" and query.bands == ["NIR"]


def test_a_map_with_a_land_legend_and_boundaries_not_needed_is_land_cover() -> None:
    text = (
        "A land-surface map of Ukraine from Sentinel-2, with cropland, grassland, forest, water and bare "
        "ground. One label per pixel is fine; crisp parcel boundaries aren't needed."
    )
    assert _query(text).application == "land cover mapping"


def test_things_sorted_into_a_list_are_classes_not_applications() -> None:
    text = (
        "Sort 0.5 m RGB chips into gas flare, refinery, steel mill, biomass fire or other. No labels at all."
    )
    query = _query(text)
    assert query.application is None and query.task_type == "zero-shot classification"


def test_what_was_done_so_far_and_what_one_would_rather_not_do_are_no_requirements() -> None:
    so_far = (
        "Mangrove canopy height from Sentinel-1/2 time series. So far I've only compared TESSERA "
        "embeddings against Google's embedding layer. Next I'd like to fine-tune an actual model."
    )
    assert not _query(so_far).precomputed_embeddings
    rather = "Drone hyperspectral cubes, 270 bands. I'd rather not squash the cube to use an RGB backbone."
    assert _query(rather).modality == ["Hyperspectral"]


def test_what_every_model_one_tries_wants_and_training_targets_are_no_inputs() -> None:
    text = "Landsat TM/OLI bands 2-7. Every pretrained model I try seems to want the 13 Sentinel-2 bands"
    assert "Sentinel-2" not in _query(text).sensor
    targets = (
        "Canopy height from NAIP (RGB plus NIR), with airborne LiDAR canopy height models as training targets"
    )
    assert "LiDAR" not in _query(targets).modality


@pytest.mark.parametrize(
    ("said", "left_out"),
    [
        ("results were disappointing", True),
        ("results were disappointing, possibly my preprocessing", False),
        ("but I got an error loading the weights", False),
    ],
)
def test_a_tried_model_is_left_out_unless_its_trouble_may_lie_in_the_setup(said: str, left_out: bool) -> None:
    text = f"NDVI from Sentinel-1 on one GPU. I tried TerraMind, {said}. Which models take SAR?"
    selection = select_models(text, k=3, clarify=False)
    assert ("terramind" in selection.query.exclusions.models) is left_out


def test_the_scene_a_tried_model_was_run_on_is_the_users() -> None:
    text = "I ran the pretrained ml4floods U-Net on a Sentinel-2 L1C scene of the flood and it failed"
    assert _query(text).sensor == ["Sentinel-2"]
    # What the tried model is built on stays said of it.
    built = "The chat model we tried is built on a CLIP encoder that expects optical images; we have SAR"
    assert "RGB" not in _query(built).modality


def test_a_dem_beside_the_imagery_stays_an_input() -> None:
    query = _query("flood mapping from Sentinel-1 and the Copernicus DEM, with a correction for terrain")
    assert "DEM" in query.modality and query.application == "flood mapping"


@pytest.mark.parametrize(
    ("text", "specialist"),
    [
        (
            "I'd like an encoder that was already pretrained on SAR and continue pretraining on our archive",
            True,
        ),
        ("a backbone pretrained on lots of SAR for our Sentinel-1 floods", True),
        ("a model pretrained on SAR and optical imagery for Sentinel-1 floods", False),
    ],
)
def test_a_model_pretrained_on_one_kind_of_imagery_is_a_specialist_wish(text: str, specialist: bool) -> None:
    assert _query(text).specialist is specialist


def test_ice_types_and_ice_charts_are_sea_ice_mapping() -> None:
    text = (
        "Sentinel-1 EW scenes over Fram Strait; we want to fine-tune for ice type later, "
        "the ice charts are too coarse"
    )
    assert _query(text).application == "sea ice mapping"


@pytest.mark.parametrize(
    "text",
    [
        "every field as its own instance and its crop type, from a full season of Sentinel-2 L2A; 4 GPUs",
        "a decade of Sentinel-2 monthly composites over the Amazon, land cover, laptop only",
        # pairs of one sensor's images, and an image during the event beside one before it
        "Is there a pretrained model that already handles SAR pairs and elevation jointly?",
        "Each chip has pre- and co-event VV/VH intensity from Sentinel-1.",
    ],
)
def test_a_season_of_images_is_a_time_series(text: str) -> None:
    assert _query(text).multi_temporal


def test_a_single_date_in_the_growing_season_is_no_time_series() -> None:
    assert not _query(
        "one Sentinel-2 scene from a single date in the growing season, land cover"
    ).multi_temporal


def test_a_size_range_ruled_out_is_a_limit_and_no_ruling_out_of_training() -> None:
    query = _query(
        "Flood mapping from Sentinel-1 with Sen1Floods11 labels. One RTX 4090 (24 GB), so fine-tuning "
        "anything in the billion-parameter range is out, but a ViT-B or ViT-L is fine."
    )
    assert (query.compute.max_parameters_m, query.compute.min_parameters_m) == (1000.0, None)
    assert query.data_regime != "zero-shot"
    assert (
        _query("a billion-parameter model for flood mapping from Sentinel-1").compute.min_parameters_m == 1000
    )


def test_a_size_ruled_out_with_its_predicate_left_unsaid_is_no_floor() -> None:
    query = _query(
        "Burned-area maps from Sentinel-2 chips. Hardware is one RTX 4090 (24 GB): fine-tuning a ViT-B "
        "or ViT-L is realistic, a multi-billion-parameter model isn't."
    )
    assert query.compute.min_parameters_m is None
    assert query.compute.max_parameters_m == 1000.0


def test_using_a_kind_of_imagery_ruled_out_rules_out_the_imagery() -> None:
    query = _query("Using SAR is not an option; flood mapping")
    assert query.exclusions.modalities == ["SAR"] and "SAR" not in query.modality


def test_height_rasters_by_their_names_are_elevation_and_one_wished_if_possible_is_optional() -> None:
    assert "DEM" in _query("building outlines from 10 cm aerial RGB and an nDSM from airborne LiDAR").modality
    hand = _query("flood mapping from sub-metre aerial RGB plus a Height Above Nearest Drainage raster")
    assert "DEM" in hand.modality
    assert (
        "DEM"
        not in _query("flood mapping from aerial RGB, plus a DEM if the architecture allows it").modality
    )


def test_not_the_optical_imagery_but_the_sar_rules_optical_out() -> None:
    query = _query(
        "We want a damage grade per building from post-event COSMO-SkyMed spotlight SAR (~1 m). "
        "Not the optical imagery - the SAR is the main signal here. Two A100s."
    )
    assert query.application == "building damage assessment"
    assert "SAR" in query.modality and "RGB" not in query.modality
    assert {"RGB", "Multispectral"} <= set(query.exclusions.modalities)


def test_several_applications_listed_ask_for_a_general_backbone() -> None:
    selection = _select(
        "We want to continue pretraining a big open backbone on HLS time series, then fine-tune it for "
        "cloud-gap filling, crop mapping and flood segmentation. 64 A100s."
    )
    assert selection.query.application is None
    assert any("several applications listed" in a for a in selection.assumptions)
    assert _query("flood mapping and burn scar mapping from Sentinel-2").application == "flood mapping"


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            "Planet 4-band cubes. Which pretrained models cope with a new sensor and odd band set like this?",
            True,
        ),
        ("we bought a new sensor last year for crop mapping from Sentinel-2", False),
    ],
)
def test_a_new_sensor_or_odd_band_set_asks_for_any_bands(text: str, wanted: bool) -> None:
    assert _query(text).any_bands is wanted


@pytest.mark.parametrize(
    "text",
    [
        "Tree crowns from 4-band (R, G, B, NIR) aerial orthophotos. The NIR band matters, so I'd rather "
        "not throw it away to fit an RGB-only backbone.",
        "Drone hyperspectral cubes, 270 bands; no RGB models.",
    ],
)
def test_a_kind_of_model_one_would_rather_not_adapt_to_is_ruled_out(text: str) -> None:
    query = _query(text)
    assert query.exclusions.modalities == ["RGB"]
    assert "RGB" not in query.modality


def test_what_a_named_model_was_trained_on_is_said_of_it_not_the_task() -> None:
    text = (
        "Colleagues want to sort 60,000 unlabelled aerial RGB tiles into categories they invent as they go. "
        "I came across RSCLIP, the one trained on synthetic captions, but found no weights. Which models can "
        "I run zero-shot, with text prompts only?"
    )
    assert _query(text).task_type == "zero-shot classification"


def test_multispectral_laser_scanning_is_lidar() -> None:
    text = "Tree species from multispectral airborne laser scanning point clouds; 6,300 labelled trees."
    assert _query(text).modality == ["LiDAR"]


@pytest.mark.parametrize(
    "text",
    [
        "Sea-ice typing in the Fram Strait from TerraSAR-X ScanSAR HH.",
        "The dominant forest type in the Alps from Sentinel-2.",
    ],
)
def test_a_type_of_class_is_no_text_typed_in(text: str) -> None:
    assert "Text" not in _query(text).modality


def test_a_sensor_named_as_the_users_own_is_not_ruled_out_by_a_cost_said_of_it() -> None:
    text = (
        "Canopy metrics wall to wall across 520,000 km2. Sentinel-1 and -2 are the only imagery I can afford "
        "at that scale; running a big encoder over six years of S1/S2 for the whole region is out."
    )
    query = _query(text)
    assert {"Sentinel-1", "Sentinel-2"} <= set(query.sensor)
    assert not query.exclusions.sensors


def test_what_a_model_is_built_around_is_said_of_it() -> None:
    text = (
        "Cropland mapping from aerial orthophotos at 0.1 m, four bands (R, G, B, NIR). I looked at AgriFM, "
        "but it's built around 10-30 m Sentinel-2/Landsat/MODIS time series. Which backbone copes?"
    )
    assert _query(text).sensor == ["Aerial"]


def test_imagery_that_shows_only_what_hides_the_target_is_ruled_out() -> None:
    text = (
        "An inventory of landslides under forest canopy, where optical images show only trees. We have an "
        "airborne LiDAR bare-earth DEM at 1 m. Which pretrained models take elevation rasters as input?"
    )
    query = _query(text)
    assert query.modality == ["DEM"]
    assert {"RGB", "Multispectral"} <= set(query.exclusions.modalities)


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        (
            "Illegal gold mining in the Amazon, where cloud cover makes optical monitoring unreliable for "
            "months; we use Sentinel-1 scenes and a few hundred labelled patches.",
            "SAR",
            "Multispectral",
        ),
        (
            "Optical imagery is unreliable here in the wet season, so we map ponds from Sentinel-1 GRD.",
            "SAR",
            "Multispectral",
        ),
        (
            "Oil spills from PlanetScope 4-band imagery, because SAR coverage of our incidents is patchy.",
            "Multispectral",
            "SAR",
        ),
    ],
)
def test_data_said_unreliable_or_patchy_is_not_the_users(text: str, kept: str, gone: str) -> None:
    modalities = interpret(read(text).required_text).query.modality
    assert kept in modalities and gone not in modalities


def test_a_series_of_patchy_dates_is_still_the_users() -> None:
    text = "Coffee from cloudy Uganda: single Sentinel-2 dates are patchy, so Sentinel-1 would help too."
    assert "Sentinel-2" in interpret(read(text).required_text).query.sensor


def test_data_there_is_no_budget_for_is_ruled_out() -> None:
    text = (
        "Building destruction in conflict zones: zero labels and no budget for commercial VHR, so everything "
        "runs on Sentinel-1 IW stacks."
    )
    query = interpret(read(text).required_text).query
    assert query.spatial_resolution is None and "Sentinel-1" in query.sensor


def test_the_input_before_and_use_is_not_the_labels_source() -> None:
    text = (
        "The plan is to train a regressor from Sentinel-1 SAR plus Landsat-8/Sentinel-2 optical and use "
        "the LiDAR CHM as the target for mangrove canopy height."
    )
    assert {"Sentinel-1", "Sentinel-2"} <= set(interpret(read(text).required_text).query.sensor)
