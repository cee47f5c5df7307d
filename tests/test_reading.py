"""Reading by role: what a message says of other models, tried models, labels' sources, hypotheticals
and quoted examples is set aside; the structured query holds the user's own requirements."""

from __future__ import annotations

from typing import get_args

import pytest

from agent.api import select_models
from agent.reading import not_held, on_subject, read
from agent.reading.context import Direction, Role, context_table
from agent.reading.tables import cues, first_cue
from agent.selection import Status
from rsfmd.loader import load_records
from tools.filtering import reads_no_text_for

RECORDS = {r.model_id: r for r in load_records()}


def _query(text: str):  # type: ignore[no-untyped-def]
    return select_models(text, k=3, clarify=False).query


def test_background_statements_are_not_requirements() -> None:
    landsat = _query(
        "Public backbones are mostly trained on Landsat or NAIP; "
        "can any of them take 400-band AVIRIS-NG data?"
    )
    assert landsat.sensor == ["AVIRIS"] and landsat.modality == ["Hyperspectral"]
    band_order = _query(
        "Existing models assume Sentinel-2 band order; ours is a 6-band Landsat-9 stack for cropland mapping"
    )
    assert band_order.sensor == ["Landsat-9"] and band_order.application == "cropland mapping"
    rgb = _query("Most models are RGB, but we have Sentinel-2 multispectral data for crop type mapping")
    assert "RGB" not in rgb.modality and rgb.modality == ["Multispectral"]
    seen = _query(
        "Models I've seen don't support PlanetScope's 8 bands or Sentinel-2; ours are 8-band SuperDove"
    )
    assert "Sentinel-2" not in seen.sensor
    assert "Sentinel-2" in read("Unlike Sentinel-2 models, we use PlanetScope").set_aside["background"]


def test_labels_from_another_sensor_or_map_are_not_inputs() -> None:
    query = _query(
        "Crop type segmentation on EnMAP. Labels are no problem: the CDL itself comes from Landsat "
        "classifications. Which hyperspectral model should we fine-tune?"
    )
    assert query.sensor == ["EnMAP"] and "Landsat" not in query.sensor
    assert read("our labels come from WorldView-3 interpretation").set_aside["labels_source"] == (
        "WorldView-3",
    )


def test_data_kept_to_check_results_is_not_an_input() -> None:
    query = _query(
        "I'd like canopy heights from the 2023 NAIP imagery (60 cm, RGB + NIR) without training anything; "
        "the old LiDAR is only for sanity checks on stands that haven't changed."
    )
    assert query.sensor == ["NAIP"] and "LiDAR" not in query.modality
    assert read("we validate against the national LiDAR survey").set_aside["check"]
    # The role is the data's, not the sentence's: the imagery before it is still the input.
    assert "Sentinel-2" in _query("Canopy height from Sentinel-2, checked against GEDI footprints").sensor
    judged = _query(
        "Sub-metre canopy height from satellite RGB. We are judged on RMSE and bias against held-out "
        "lidar, so which pretrained models should we fine-tune?"
    )
    assert judged.modality == ["RGB"]


def test_a_model_or_product_looked_at_is_background_not_excluded() -> None:
    query = _query(
        "Forest clearing from Sentinel-1/2 time series. We already looked at Google's precomputed "
        "satellite embedding layer, but we need to run the encoder on our own acquisitions."
    )
    assert not query.precomputed_embeddings
    looked = _query("I looked at Scale-MAE because it is scale-aware; we pretrain on aerial RGB tiles")
    assert "scale-mae" not in looked.exclusions.models  # considered, not ruled out


def test_a_list_before_a_backward_trigger_stays_in_its_scope() -> None:
    text = (
        "We monitor forest clearing in the Cerrado, and Clay's published embeddings of stacked "
        "Sentinel-2, Sentinel-1 and DEM gave us the idea. We run our own encoder on S1/S2 time series."
    )
    spans = [text[s.start : s.end] for s in read(text).spans]
    said = " and Clay's published embeddings of stacked Sentinel-2, Sentinel-1 and DEM gave us the idea"
    assert spans == [said]
    assert not _query(text).precomputed_embeddings and "DEM" not in _query(text).modality


def test_masks_asked_for_make_a_detection_application_segmentation() -> None:
    query = _query("a rooftop-solar layer from 0.3 m orthophotos: a plain two-class mask, panel or not")
    assert (query.application, query.task_type) == ("solar panel detection", "segmentation")
    assert _query("rooftop solar inventory from 0.3 m orthophotos").task_type == "detection"


def test_accuracy_said_of_outlines_is_no_metric() -> None:
    assert _query("roof instances from satellite RGB; outline accuracy matters").priority_metrics == []
    assert _query("land cover from Sentinel-2, we report overall accuracy").priority_metrics == ["OA"]


def test_a_drone_carrying_another_camera_is_a_platform_not_rgb() -> None:
    carried = _query("We flew a Headwall Nano-Hyperspec on a drone over rice; crop map, 30 labels a class")
    assert carried.modality == ["Hyperspectral"]
    assert "RGB" in _query("drone imagery and a LiDAR DSM for tree crowns").modality
    scans = _query("Airborne laser scanning point clouds and some UAV laser scans; tree segmentation")
    assert scans.modality == ["LiDAR"]
    # What looks the same in true colour is said of the world, not an input.
    alike = _query("Hyperspectral cubes from EnMAP; several cultivars look identical in RGB")
    assert alike.modality == ["Hyperspectral"]


def test_a_drone_with_only_other_data_said_carries_it_and_takes_its_airborne_sensor() -> None:
    # No pictures said: the drone's LAS files are its data, and airborne LiDAR models take them.
    las = _query("Our drone survey team produces classified LAS files; we need point classes")
    assert las.modality == ["LiDAR"] and set(las.sensor) == {"UAV", "Airborne LiDAR"}
    assert "RGB" in _query("drone photos of the site and a LiDAR DEM from the agency").modality


def test_a_cpu_that_trains_nothing_runs_a_larger_model() -> None:
    ready = _query("canopy height from NAIP without training anything; only a laptop CPU, no GPU")
    assert ready.compute.max_parameters_m == 350
    trains = _query("crop types from NAIP with 300 labels on a laptop CPU, no GPU")
    assert trains.compute.max_parameters_m is None


def test_a_band_named_coastal_is_no_coast() -> None:
    bands = "WorldView-3 with all eight bands (coastal, blue, green, yellow, red, red edge, NIR1, NIR2)"
    assert "Coastal zones" not in _query(bands).region
    assert "Coastal zones" not in _query("Landsat 8 without the coastal aerosol band").region
    assert "Coastal zones" in _query("coastal erosion, red cliffs and dunes from Sentinel-2").region


def test_quoted_text_prompts_are_examples_not_the_task() -> None:
    search = _query(
        "Analysts want to find tiles matching free-text descriptions such as 'flooded parking lot', with no "
        "labelled data"
    )
    assert search.application == "image-text retrieval" and "Text" in search.modality
    vqa = _query(
        "Operators should get answers to questions like 'how many trucks are in the yard?' "
        "from single VHR frames"
    )
    assert vqa.application == "visual question answering"


def test_example_questions_in_a_parenthesis_are_examples_not_the_task() -> None:
    query = _query(
        "Our analysts ask free-form questions about aerial scenes (how many ships are docked, where is "
        "the damaged hangar) and each answer must come with boxes pointing at the objects it talks about."
    )
    assert query.application == "visual grounding"


def test_questions_about_image_pairs_need_pairs() -> None:
    query = _query(
        "For each claim we have a pre-event and post-event VHR image and adjusters want to ask 'what changed "
        "between these two images?' in plain language"
    )
    assert query.application == "visual question answering" and "Multi-temporal" in query.modality


def test_text_beside_imagery_needs_a_model_that_reads_text() -> None:
    selection = select_models(
        "Combine short citizen reports with Sentinel-2 to map flood extent", k=3, clarify=False
    )
    assert "Text" in selection.query.modality and selection.query.application == "flood mapping"
    assert all("Text" in m.modalities for m in selection.models)
    assert reads_no_text_for(RECORDS["prithvi-eo-2.0"], selection.query)


def test_a_tried_model_and_a_ruled_out_option_are_set_aside() -> None:
    tried = read("We tried vanilla OpenAI CLIP and it mostly returns generic water")
    assert tried.spans and tried.spans[0].role == "reference"
    assert "water" not in tried.required_text
    ruled_out = _query(
        "8 GB GPU, so a 7B chat model is not realistic; I'd prefer something under a billion parameters "
        "trained on LEVIR-CC-style change captions"
    )
    assert ruled_out.compute.max_parameters_m == 1000 and ruled_out.application == "change captioning"
    assert not ruled_out.conversational


def test_negation_scope_ends_at_but() -> None:
    query = _query("No SAR, but Sentinel-2 and Landsat for burn scar mapping")
    assert query.exclusions.modalities == ["SAR"]
    assert set(query.sensor) == {"Sentinel-2", "Landsat"}


def test_a_drone_is_a_platform_and_red_edge_is_a_band() -> None:
    drone = _query("We fly a DJI Mavic 3 over banana farms; 256 px RGB tiles at ~3 cm; a laptop without GPU")
    assert drone.sensor == ["UAV"] and drone.spatial_resolution_m == 0.03
    assert drone.compute.device_class == "cpu"
    bands = _query("Sentinel-2 red-edge and SWIR bands show logging; clear-cut detection, one GPU")
    assert bands.compute.device_class != "edge"


def test_the_table_is_data_with_known_roles() -> None:
    table = context_table()
    assert len(table.triggers) >= 40 and table.terminators and table.pseudo
    # Quoted text, tools named and class lists are found by their own readers, not by triggers.
    assert {t.role for t in table.triggers} <= set(get_args(Role)) - {"quoted", "tool", "classes"}
    assert {t.direction for t in table.triggers} == set(get_args(Direction))


def test_the_cue_tables_give_each_value_its_phrasings_in_order() -> None:
    for field in ("data_regime", "device", "priority", "architecture", "backbone_family"):
        assert cues(field), field
    assert [value for value, _ in cues("data_regime")] == [
        "zero-shot",
        "few-shot",
        "full-labels",
        "unlabeled",
    ]
    # A row is a phrasing: the first value whose phrasings match wins, in table order.
    assert first_cue(cues("data_regime"), "we have no labels at all") == "zero-shot"
    assert first_cue(cues("data_regime"), "a few hundred labelled tiles") == "few-shot"
    assert first_cue(cues("priority"), "the most accurate model") == "accuracy"
    with pytest.raises(ValueError, match="no rows"):
        cues("no such field")


@pytest.mark.parametrize(
    ("text", "subject"),
    [("something with satellites", True), ("what's a good pizza recipe?", False), ("asdkjh blorp", False)],
)
def test_on_subject(text: str, subject: bool) -> None:
    assert on_subject(text) is subject


def test_data_remsa_does_not_hold_is_said_not_dropped() -> None:
    assert not_held("building heights from stereo pairs")
    selection = select_models("building heights from WorldView-3 stereo pairs, one GPU", k=3, clarify=False)
    assert any("stereo" in a for a in selection.assumptions)
    points = select_models(
        "Tree segmentation: I'd rather work on the 3D points directly than rasterise them to a CHM",
        k=3,
        clarify=False,
    )
    assert any("as 3D points" in a for a in points.assumptions)


def test_no_known_fit_is_said_first_and_caps_confidence() -> None:
    zero = select_models("out of the box crop types from hyperspectral data, no labels", k=3, clarify=False)
    assert zero.status == Status.ok and zero.answers[0].startswith("No model in RS-FMD is known to do")
    assert zero.overall_confidence <= 0.4
    rivers = select_models("river network extraction from aerial imagery", k=3, clarify=False)
    assert rivers.query.application == "river network extraction"
    assert any(a.startswith("No model shown is known to do river network extraction") for a in rivers.answers)
    floods = select_models("flood mapping with Sentinel-1", k=3, clarify=False)
    assert not floods.answers and floods.overall_confidence > 0.4


def test_quickly_asks_for_speed_only_when_it_says_how_the_work_should_go() -> None:
    trust = _query("Oriented ship detection on 0.5 m scenes; analysts lose trust quickly if boxes are loose")
    assert "speed" not in trust.priorities
    iterate = _query("Ship detection on 0.5 m scenes; I want to try things quickly on one GPU")
    assert "speed" in iterate.priorities
    assert "speed" in _query("A quick baseline for ship detection on 0.5 m scenes").priorities


def test_a_label_count_said_of_the_labels_sets_the_regime() -> None:
    assert _query("Land cover from Sentinel-2; the only labels are ~400 patches").data_regime == "few-shot"
    assert _query("Oil spills on Sentinel-1: our ground truth is about 60 polygons").data_regime == "few-shot"
    assert _query("Land cover from Sentinel-2; labels are 12,000 tiles").data_regime == "full-labels"
    assert _query("Strongest low-label Sentinel-2 land cover encoder").data_regime == "few-shot"


def test_a_large_count_of_labels_outweighs_a_word_for_them() -> None:
    sparse = "Canopy height from Sentinel-2 with GEDI footprints as sparse labels"
    assert _query(f"{sparse} (tens of millions of shots)").data_regime == "full-labels"
    assert _query(sparse).data_regime == "few-shot"
    millions = "Crop types from Sentinel-2; we have hundreds of thousands of labelled parcels"
    assert _query(millions).data_regime == "full-labels"
    assert _query("Crop types from Sentinel-2 with a million labelled points").data_regime == "full-labels"


def test_imagery_named_as_the_users_own_is_not_ruled_out_elsewhere() -> None:
    text = (
        "I want the TIRS bands B10/B11 in my Landsat 8 embeddings to find urban heat islands. Some scenes "
        "came back as OLI-only products without thermal bands. Which encoders ingest thermal channels?"
    )
    assert "Thermal" not in _query(text).exclusions.modalities
    assert "Thermal" in _query("Land cover from Landsat 8, without thermal bands").exclusions.modalities
    dtm = (
        "Sinkhole mapping; my only input is a 1 m lidar-derived DTM. Is there an encoder that ingests "
        "elevation, so I'm not forcing a DTM through an ImageNet RGB stem?"
    )
    assert "DEM" not in _query(dtm).exclusions.modalities
    era5 = (
        "Fuel moisture from Sentinel-2 with ERA5-Land temperature and precipitation; a model that can't "
        "take the ERA5 grids is a non-starter."
    )
    assert "Climate" not in _query(era5).exclusions.modalities


def test_adapting_to_a_band_count_asks_for_a_band_flexible_model() -> None:
    drone = _query("Vine vigour from a drone camera; which model could be adapted to 5-band UAV data?")
    assert drone.any_bands
    assert not _query("Vine vigour from 5-band UAV multispectral data").any_bands


def test_scarce_labels_said_with_an_intensifier_or_as_digitised_counts_are_few() -> None:
    assert _query("Sentinel-2 change detection when labels are this scarce").data_regime == "few-shot"
    assert _query("Urban change from Sentinel-2 when the labelled set is this tiny").data_regime == "few-shot"
    lagos = _query("Urban change from Sentinel-2 pairs with only about 40 hand-digitised change polygons")
    assert lagos.data_regime == "few-shot"
    assert _query("Urban change from Sentinel-2; we digitised 12,000 polygons").data_regime == "full-labels"
    tenth = _query("Sentinel-2 crop types. Our annotators labelled 10% of the fields.")
    assert tenth.data_regime == "few-shot"
    assert _query("Sentinel-2 crop types; we labelled 60% of the fields.").data_regime != "few-shot"
    few = _query("Oil slicks on Sentinel-1: which backbone would you fine-tune on so few examples?")
    assert few.data_regime == "few-shot"
    assert _query("Oil slicks on Sentinel-1, with a few examples of look-alikes below").data_regime is None


def test_pretraining_further_without_labels_is_unlabelled_use_not_zero_shot() -> None:
    own = _query("Sentinel-1 archive, no labels; I'd rather continue self-supervised pretraining on it")
    assert own.data_regime == "unlabeled"
    assert _query("Sentinel-1 ship detection with no labels at all").data_regime == "zero-shot"
    # Classes given as text prompts: used as it is, with no training.
    prompted = _query("Something that takes Sentinel-2 and lets me classify patches with text prompts")
    assert prompted.data_regime == "zero-shot"
    # The kind of model wished for names the task: a CLIP-style model classifies from class names.
    clip = _query("Is there a CLIP-style model trained on overhead imagery for 12 land-use classes?")
    assert clip.task_type == "zero-shot classification"
    assert (
        _query("VIIRS night lights, no labels; we want unsupervised change signals").data_regime
        == "unlabeled"
    )


def test_a_question_for_models_trained_on_a_dataset_asks_for_them_with_words_between() -> None:
    assert _query("Which foundation models were pretrained on SSL4EO-S12?").pretrained_on == ["SSL4EO-S12"]
    background = _query("Most public models are pretrained on Sentinel-2; we have PlanetScope imagery")
    assert background.sensor == ["PlanetScope"]


def test_a_sensor_the_user_may_get_later_is_hypothetical() -> None:
    later = _query(
        "If we later get Sentinel-1, could the same model use it? For now it's Sentinel-2 only: crop types"
    )
    assert later.sensor == ["Sentinel-2"] and "SAR" not in later.modality


def test_the_users_own_baseline_is_a_reference_not_a_requirement() -> None:
    hsi = _query(
        "Hyperspectral and LiDAR for 20 urban classes. So far I've used a two-branch CNN on small "
        "patches, and I want a pretrained backbone that takes the cube natively."
    )
    assert not hsi.architectures and "Hyperspectral" in hsi.modality
    assert not _query("Our baseline is an ImageNet Swin-B in UperNet; aerial land cover").architectures
    lcz = _query("We pushed RGB composites through an ImageNet ResNet; now LCZ from Sentinel-2")
    assert not lcz.architectures
    assert _query("LCZ from Sentinel-2 with a ResNet-50 backbone").architectures == ["CNN"]


def test_a_dataset_name_a_family_shares_is_read_as_the_member_for_the_task() -> None:
    changes = _query(
        "We track new and demolished buildings in image pairs; after tuning on LEVIR it missed changes"
    )
    assert changes.application == "urban change detection" and changes.datasets == ["LEVIR-CD"]
    assert _query("ship detection: which model is best on LEVIR?").datasets == ["LEVIR-Ship"]
    assert _query("object detection: which model is best on LEVIR?").datasets == ["LEVIR"]


def test_other_models_data_said_as_the_wrong_domain_or_all_one_finds_is_background() -> None:
    xband = _query(
        "Umbra and Capella X-band scenes, no labels. Sentinel-1 models at 10 m feel like the wrong domain."
    )
    assert xband.sensor == ["Umbra", "Capella"] and xband.spatial_resolution_m is None
    lband = _query(
        "ALOS-2 L-band HH land use. Everything SAR I find is pretrained on Sentinel-1 C-band VV/VH."
    )
    assert lband.sensor == ["ALOS-2"] and not lband.bands


def test_what_the_user_calls_irrelevant_is_not_asked_for() -> None:
    masks = _query(
        "Masks of the object a phrase describes in aerial images; captions or chat answers are irrelevant"
    )
    assert masks.application != "image captioning" and not masks.conversational


def test_a_negation_in_a_phrase_reads_contracted_too() -> None:
    for text in (
        "Optical isn't an option: clouds. Sentinel-1 patches, four classes",
        "Optical isn’t an option: clouds. Sentinel-1 patches, four classes",
        "Optical is not an option: clouds. Sentinel-1 patches, four classes",
    ):
        query = _query(text)
        assert query.modality == ["SAR"] and query.sensor == ["Sentinel-1"], text
    assert _query("Landsat cannot resolve single trees; tree crowns from aerial RGB").sensor == ["Aerial"]


def test_what_the_user_does_not_need_is_not_asked_for() -> None:
    solar = _query("Rooftop solar masks from 0.3 m orthophotos. No text prompts or chat needed.")
    assert solar.application != "visual question answering" and not solar.conversational
    assert "Text" not in solar.modality


def test_a_model_taking_both_inputs_is_asked_for_only_when_said_of_the_model() -> None:
    assert _query("A model pretrained on both optical and radar for landslides in Japan").all_inputs
    assert _query("Flood mapping by data fusion of Sentinel-1 and Sentinel-2").all_inputs
    assert not _query("Aerial and Sentinel-2 imagery are both available for tree mapping").all_inputs
    wish = _query("Would a pretrained time-series encoder help with Sentinel-2 crop types?")
    assert wish.series_model and not wish.all_inputs
    native = _query("I'd like a model that natively takes both sensors as time series for urban change")
    assert native.series_model and native.all_inputs
    assert _query("Which VLM ingests SAR as well as optical for disaster questions?").all_inputs
    # (what the user would do instead, after 'rather than', does not swallow the wish before it)
    assert _query(
        "I'm looking for pretrained weights that take both radar and optical channels in one encoder "
        "rather than training a two-branch U-Net from scratch."
    ).all_inputs
    assert not _query("Cropland from two aerial flights; ideally it can use both dates").series_model
    stack = _query("Crop types from Sentinel-2 series; I want a model that handles the temporal stack")
    assert stack.series_model
    axis = _query("Swiss crop types from Sentinel-2; we want a model that really uses the temporal axis")
    assert axis.series_model
    assert not _query("We use the time series of NDVI from Sentinel-2 to map crops").series_model
    either = _query(
        "Mowing dates from S1 and S2 series; which time-series or optical-radar encoders would do?"
    )
    assert either.series_model


def test_a_gpu_not_required_a_label_statement_and_a_sam_like_wish() -> None:
    assert (
        _query("Informal settlements from 50 cm Pleiades; it must not require a GPU").compute.device_class
        == "cpu"
    )
    yields = _query(
        "Crop yield from Sentinel-2 time series. We don't have time-series labels, only county totals"
    )
    assert yields.multi_temporal and not yields.exclusions.modalities
    sam = _query("Something like SAM for satellite imagery, to click on fields and get their boundaries")
    assert sam.application == "promptable segmentation"


def test_accuracy_said_as_what_the_user_is_judged_on_is_a_priority() -> None:
    assert "accuracy" in _query("Flood mapping from Sentinel-1; I only care about accuracy").priorities
    assert (
        "accuracy" in _query("Crop types from Sentinel-2; the client only judges us on accuracy").priorities
    )
    miou = _query("Drone RGB segmentation of towns; the only thing I care about is the highest mIoU")
    assert "accuracy" in miou.priorities
    skysat = _query("Detect small vessels in Planet SkySat 50 cm frames")
    assert skysat.sensor == ["SkySat"]


def test_what_is_not_wanted_is_ruled_out_and_what_papers_use_is_background() -> None:
    ships = _query(
        "Ships in TerraSAR-X spotlight images. We don't want optical models; "
        "many papers use Sentinel-2 but that's irrelevant for us."
    )
    assert ships.modality == ["SAR"] and ships.sensor == ["TerraSAR-X"]
    assert {"RGB", "Multispectral"} <= set(ships.exclusions.modalities)
    crops = _query("We are not interested in SAR at all. Crop yield prediction from Landsat-8.")
    assert crops.exclusions.modalities == ["SAR"] and "SAR" not in crops.modality


def test_a_size_ruled_out_is_a_limit_and_out_of_distribution_rules_nothing_out() -> None:
    laptop = _query(
        "Crop types from Sentinel-2 series on a laptop CPU. Anything over roughly 100M parameters is out."
    )
    assert laptop.compute.max_parameters_m == 100 and laptop.compute.min_parameters_m is None
    shifted = _query("Flood mapping: our Sentinel-1 data is out of distribution for most models")
    assert shifted.sensor == ["Sentinel-1"] and not shifted.exclusions.sensors
    heavy = _query("Crop mapping from Sentinel-2; models above 300M parameters are too heavy for us.")
    assert heavy.compute.max_parameters_m == 300 and heavy.compute.min_parameters_m is None
    overkill = _query("Crop mapping from Sentinel-2; a model with more than 1B parameters is overkill.")
    assert overkill.compute.max_parameters_m == 1000 and overkill.compute.min_parameters_m is None
    assert (
        _query("Crop mapping from Sentinel-2; 20M parameters is our ceiling.").compute.max_parameters_m == 20
    )
    assert (
        _query("Crop mapping from Sentinel-2; the budget is 30M parameters.").compute.max_parameters_m == 30
    )
    card = _query("Crop mapping from Sentinel-2 on a single 11 GB GTX 1080 Ti.").compute
    assert card.device_class == "single-gpu" and card.max_parameters_m is not None


def test_audio_beside_imagery_is_an_input() -> None:
    sounds = _query("Map the soundscape from overhead imagery, with queries as text or audio clips")
    assert "Audio" in sounds.modality
    assert "Audio" in _query("Soundscape maps from Sentinel-2 and our geotagged field recordings").modality


def test_the_kind_of_model_asked_for_must_take_that_imagery() -> None:
    cubes = _query(
        "We fly 426-band hyperspectral cubes with a lidar canopy height model, and the labels then train a "
        "Sentinel-2 classifier for the wider region. I'd like a pretrained hyperspectral encoder for the "
        "cover types, on one RTX 3090."
    )
    assert cubes.model_kinds == ["Hyperspectral"]
    result = select_models(
        "We fly 426-band hyperspectral cubes with a lidar canopy height model, and the labels then train a "
        "Sentinel-2 classifier for the wider region. I'd like a pretrained hyperspectral encoder for the "
        "cover types, on one RTX 3090.",
        k=5,
        clarify=False,
    )
    assert result.models and all("Hyperspectral" in RECORDS[m.model_id].modalities for m in result.models)
    assert _query("Which SAR-pretrained backbone should I fine-tune for oil spills?").model_kinds == ["SAR"]
    assert _query("Which Sentinel-1 checkpoint suits flood mapping?").model_kinds == ["SAR"]
    # A platform's make, an imagery kind ruled out, and a kind said of other models name no model asked for.
    assert _query("Our drone model is a DJI Mavic 3; we map weeds in its RGB photos").model_kinds == []
    coral = _query(
        "Reef habitats from WorldView-3 8-band imagery: the coastal and yellow bands see through the water, "
        "so an RGB-only backbone won't do."
    )
    assert coral.model_kinds == [] and "RGB" in coral.exclusions.modalities
    assert _query("Most RGB models are trained on ImageNet; we map crops from Sentinel-2").model_kinds == []


def test_a_length_before_the_kind_of_imagery_is_its_resolution_and_flying_height_is_none() -> None:
    roofs = _query("Roof instances from 30-50 cm off-nadir satellite RGB plus a photogrammetric DSM")
    assert roofs.spatial_resolution_m == 0.5
    assert _query("Ship detection in 1 m SAR from ICEYE").spatial_resolution_m == 1.0
    flying = _query("We fly at 120 m drone altitude with an RGB camera to count sheep")
    assert flying.spatial_resolution_m is None


def test_most_models_of_any_description_are_background_but_the_most_accurate_are_wanted() -> None:
    points = read(
        "Most Earth-observation foundation models I see take 2D image patches; we have airborne laser "
        "scanning point clouds for tree segmentation."
    )
    assert "background" in {s.role for s in points.spans}
    assert _query(points.text).modality == ["LiDAR"]
    wanted = read("Which are the most accurate models for crop mapping from Sentinel-2?")
    assert not wanted.spans


def test_objects_one_by_one_are_instance_segmentation() -> None:
    inventory = _query(
        "A building-instance inventory from 0.3 m aerial RGB orthophotos, 1,500 tiles in COCO format"
    )
    assert inventory.task_type == "instance segmentation"


def test_what_a_model_advertises_is_said_of_it_not_asked_for() -> None:
    advertised = _query(
        "I started with SMARTIES since it advertises being sensor-agnostic, but I couldn't declare "
        "Sentinel-1 in its config. Which backbones accept dual-pol S1 on its own?"
    )
    assert not advertised.any_bands and advertised.modality == ["SAR"]
    assert _query("We need a wavelength-aware model for our custom 7-band camera").any_bands


def test_an_application_named_with_prediction_is_that_application() -> None:
    crops = _query("Parcel-level crop-type prediction from Sentinel-2 time series in Denmark")
    assert crops.application == "crop type mapping"
    heights = _query("Canopy height prediction from GEDI and Sentinel-2")
    assert heights.application == "canopy height estimation"


def test_the_things_looked_for_name_the_application() -> None:
    herd = _query("Thermal drone surveys over a game reserve to find and count elephants and rhinos at dawn")
    assert herd.application == "wildlife detection"
    alteration = _query("Forty EnMAP scenes over a copper district, nine alteration-mineral classes")
    assert alteration.application == "mineral mapping"
    ships = _query("I want to tell ships apart from islands and oil platforms in Sentinel-1 IW scenes")
    assert ships.application == "ship detection"


def test_single_date_models_ruled_out_ask_for_a_series_model() -> None:
    pretrain = _query("Unlabelled Sentinel-2 series for crop types. Single-date RGB models are of no use.")
    assert pretrain.series_model and "RGB" in pretrain.exclusions.modalities
    assert not _query("Crop types from Sentinel-2; a single date is enough").series_model


def test_an_application_named_with_a_qualified_task_noun_or_its_result() -> None:
    crops = _query("Crop-type semantic segmentation of parcels from Sentinel-2 time series, 18 crop classes")
    assert (crops.application, crops.task_type) == ("crop type mapping", "segmentation")
    assert _query("We produce annual 10 m tree-cover maps from Sentinel-2").application == "forest mapping"
    assert _query("We need flood maps from Sentinel-1 within hours").application == "flood mapping"


def test_a_label_for_each_tile_is_classification_and_labelling_tiles_is_not() -> None:
    habitat = _query(
        "I want a rough habitat map from 50 cm RGB orthophotos. There is no labelled data, so a "
        "vision-language model should score each tile against a sentence per habitat."
    )
    assert habitat.task_type == "zero-shot classification"
    later = _query(
        "200k unlabelled 0.5 m RGB image pairs for change detection; we may label a handful of tiles later."
    )
    assert later.task_type == "change detection"


@pytest.mark.parametrize(
    ("text", "regime"),
    [
        ("Tree species from aerial RGB-NIR; about 25k plots are labelled", "full-labels"),
        (
            "Periglacial landforms from Sentinel-2 and a DEM; around 1,200 polygons I digitised by hand",
            "few-shot",
        ),
        ("L-band SAR land use; we have around 600 labelled 256-pixel tiles", "few-shot"),
        ("Roads from 0.3 m RGB: ~6k labelled 1024^2 tiles from an earlier project", "full-labels"),
        ("Barrows in LiDAR relief images; a few hundred annotated examples so far", "few-shot"),
        (
            "Forest-loss drivers from Landsat 8; roughly 2,000 labelled events from a published dataset",
            "few-shot",
        ),
        ("Roofs from drone RGB, ~150 hand-digitised 512×512 tiles so far", "few-shot"),
        ("Change in 200k RGB tile pairs from 2016 and 2022, and not one change annotation yet", None),
        ("Crop types from Sentinel-2; 11 classes and 10 bands at 20 m", None),
    ],
)
def test_a_count_of_labelled_samples_reads_however_it_is_worded(text: str, regime: str | None) -> None:
    assert _query(text).data_regime == regime


def test_an_unknown_word_class_in_the_context_table_says_where_to_add_it() -> None:
    from agent.reading.context import _phrase

    assert _phrase("every * <models> i <find>").search("every SAR model I come across is Sentinel-1")
    with pytest.raises(ValueError, match=r"word_classes\.csv"):
        _phrase("most <gizmos>")


def test_a_priority_said_not_to_matter_is_no_priority() -> None:
    relaxed = _query(
        "Sentinel-2 land cover on a laptop; I don't need state-of-the-art accuracy, just something light"
    )
    assert "accuracy" not in relaxed.priorities
    assert "accuracy" in _query("Sentinel-2 land cover; I want state-of-the-art accuracy").priorities


def test_labels_counted_beside_self_supervised_encoders_are_counted() -> None:
    nairobi = _query(
        "New built-up areas from 2019 and 2024 Sentinel-2 mosaics, about 300 hand-checked change polygons; "
        "I was told to look at self-supervised ResNet-18/50 encoders. Laptop, no GPU."
    )
    assert nairobi.data_regime == "few-shot"


def test_a_size_bound_given_as_a_backbone_reads_in_other_words_too() -> None:
    for text in (
        "Tundra land cover from Sentinel-1 on a CPU-only server, so I'd rather not go beyond a ViT-Base.",
        "Tundra land cover from Sentinel-1 on a CPU-only server; I'd prefer not to go bigger than a "
        "ViT-Base.",
    ):
        assert _query(text).compute.max_parameters_m == 95, text


def test_generation_of_electricity_is_not_image_generation() -> None:
    plants = _query(
        "Power plants on or off from Landsat 8 thermal; labels come from hourly generation reports"
    )
    assert plants.task_type != "generation"
    assert _query("Synthetic image generation of SAR ships for augmentation").task_type == "generation"


def test_a_climate_project_or_a_weather_service_is_not_climate_data() -> None:
    assert "Climate" not in _query("Our urban-climate group asks questions of Sentinel-2 tiles").modality
    assert "Climate" not in _query("Our weather service holds SEVIRI imagery from Meteosat").modality
    assert "Climate" in _query("Crop yield from Sentinel-2 time series plus ERA5 weather data").modality


def test_a_list_of_classes_names_labels_and_a_land_legend_is_land_cover() -> None:
    from agent.interpreter import interpret

    text = (
        "About 3,000 aerial RGB tiles (224x224, ~0.3 m) to sort into five classes - residential, "
        "industrial, farmland, forest, water. One feature vector per tile and a linear classifier on top."
    )
    reading = read(text)
    assert [s.role for s in reading.spans] == ["classes"]
    query = interpret(reading.required_text).query
    assert (query.application, query.task_type, query.frozen_encoder) == (
        "land cover classification",
        "classification",
        True,
    )
    # A list of crop states is no land-cover legend: nothing is read from it.
    crops = read("We need 6 classes (healthy, wilt, weeds, bare soil, intercrop, other) on drone tiles.")
    assert "land cover" not in crops.required_text
    # Vegetation and ground are kinds of land: a drone legend of land and objects is land cover too.
    drone = read("Drone orthomosaics with the classes: building, clutter, vegetation, water, ground, car.")
    assert drone.required_text.endswith("; land cover classes")


def test_one_class_against_the_rest_is_that_class_mapped() -> None:
    from agent.interpreter import interpret

    query = interpret("Pretty basic ask: a forest / non-forest mask for northern BC from Sentinel-2.").query
    assert (query.application, query.task_type) == ("forest mapping", "segmentation")


def test_a_wish_said_of_what_is_not_wanted_is_not_asked_for() -> None:
    from agent.interpreter import interpret

    said = "Text search over Sentinel-2 tiles: the big chat models are out of the question."
    assert not interpret(read(said).required_text).query.conversational
    not_wanted = "Not interested in a chat model, just retrieval over Sentinel-2."
    assert not interpret(not_wanted).query.conversational
    assert interpret("I want to chat with my Sentinel-2 images.").query.conversational


def test_embedded_names_a_device_only_with_a_device_noun() -> None:
    from agent.interpreter import interpret

    board = interpret("Crop mapping on an embedded board from Sentinel-2.").query
    assert board.compute.device_class == "edge"
    assert interpret("Sentinel-2 archive to be embedded in a few days.").query.compute.device_class is None


def test_a_kind_of_model_ruled_out_keeps_the_users_own_imagery() -> None:
    from agent.interpreter import interpret

    text = (
        "I have 60,000 Sentinel-1 wave-mode vignettes to tag on a laptop; the ViT-Base SAR models my "
        "colleagues bring up would be too slow."
    )
    query = interpret(read(text).required_text).query
    assert ("SAR" in query.modality, "Sentinel-1" in query.sensor) == (True, True)
    assert "SAR" not in query.exclusions.modalities


def test_the_application_a_question_asks_about_is_the_task() -> None:
    from agent.interpreter import interpret

    text = (
        "Pre/post WorldView-2 pairs at 0.5 m and a few thousand labelled buildings: I need building "
        "footprints. Which pretrained backbones are strongest on bi-temporal building change?"
    )
    query = interpret(text).query
    assert (query.application, query.task_type) == ("urban change detection", "change detection")
    # Sub-metre multispectral sensors are mostly used as true colour: either kind serves.
    assert {"RGB", "Multispectral"} <= set(query.modality)


def test_questions_asked_of_the_images_are_the_task_whatever_they_are_about() -> None:
    from agent.interpreter import interpret

    text = "Drone frames of flooded streets: I'd like to ask the images questions, is this road flooded?"
    assert interpret(text).query.application == "visual question answering"
    ruled_out = interpret("Forest clear-cut mapping from Sentinel-2; I'm not looking for captioning models.")
    assert ruled_out.query.application != "image captioning"


def test_labels_said_not_to_be_the_bottleneck_are_enough_whatever_their_count() -> None:
    from agent.interpreter import interpret

    text = (
        "About 1,000 Sentinel-1 chips with pixel masks plus 300 scenes we annotated ourselves, so "
        "labels aren't really the bottleneck. Oil spill segmentation."
    )
    assert interpret(text).query.data_regime == "full-labels"
    counted = interpret("About 1,000 labelled Sentinel-1 chips with oil spill masks.").query
    assert counted.data_regime == "few-shot"


def test_centimetre_imagery_of_no_named_kind_is_true_colour() -> None:
    from agent.interpreter import interpret

    query = interpret("50 cm satellite tiles along rural roads and field notes to read together.").query
    assert "RGB" in query.modality


@pytest.mark.parametrize(
    "text",
    [
        "We have ~300 GPS-tagged field points and monthly Sentinel-2 for crop types.",
        "Around 60 confirmed slick outlines on Sentinel-1 VV for oil spills.",
        "Only about 30 scenes have been charted by our analysts: Sentinel-1 sea ice.",
        "20 to 40 field-checked spectra per mineral from PRISMA.",
    ],
)
def test_counts_of_samples_said_in_the_field_s_words_are_few_labels(text: str) -> None:
    from agent.interpreter import interpret

    assert interpret(text).query.data_regime == "few-shot"


def test_what_labels_were_confirmed_from_is_not_an_input() -> None:
    from agent.interpreter import interpret

    text = "The catch is labels: about 80 tiles confirmed from field reports; VV/VH backscatter."
    query = interpret(read(text).required_text).query
    assert query.modality == ["SAR"] and query.data_regime == "few-shot"


def test_no_masks_or_polygons_drawn_is_no_labels() -> None:
    assert _query("Building footprints from 0.5 m WorldView RGB; I have zero labelled masks").data_regime == (
        "zero-shot"
    )
    assert _query("Field boundaries from PlanetScope, but no polygons to train on").data_regime == "zero-shot"


def test_a_word_given_as_a_prompt_is_text_the_model_reads() -> None:
    prompted = _query(
        "Building footprints from 0.5 m Pleiades RGB, zero labelled masks. Is there something I can "
        "just prompt with 'building' and run?"
    )
    assert "Text" in prompted.modality
    typed = _query('Find solar farms in aerial RGB: I would type "solar panel", no labels.')
    assert "Text" in typed.modality
    # Points and boxes are prompts too, but no text; a quoted example of the input is no prompt.
    assert "Text" not in _query("We prompt the model with points on 10 cm drone RGB, no labels.").modality
    assert "Text" not in _query("Our drone RGB frames show scenes like 'flooded parking lot'.").modality


@pytest.mark.parametrize(
    "asked",
    [
        "Is there any pretrained model that takes thermal input?",
        "Is there a backbone that actually ingests the thermal channel?",
    ],
)
def test_a_model_asked_for_by_the_input_it_takes_must_take_it(asked: str) -> None:
    text = (
        f"Our drone carries paired RGB and thermal cameras and we detect wildfire smoke on a Jetson. {asked}"
    )
    assert _query(text).model_kinds == ["Thermal"]
    result = select_models(text, k=3, clarify=False)
    assert result.models and all("Thermal" in RECORDS[m.model_id].modalities for m in result.models)


def test_text_to_image_search_is_retrieval_not_generation() -> None:
    text = (
        "We want to adapt a remote-sensing CLIP model to 2 million RGB chips with auto-generated captions, "
        "to power text-to-image search in our catalogue. Which models are the best bases?"
    )
    assert _query(text).task_type == "retrieval"
