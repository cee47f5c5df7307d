"""Offline interpreter: free text to StructuredQuery by vocabulary and rules.

Each part of the query is read by one module of agent/reading/ (sensors, imagery, tasks, datasets,
labels, compute, preferences, licences, resolution, places); this module calls them in order and
builds the query. Applications the rules do not name are matched by sentence-embedding similarity
when an encoder is given. The LLM interpreter (agent/llm_steps.py) fills the same model and lets
these rules fill what it missed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.query import EITHER_MODALITIES, Exclusions, StructuredQuery
from agent.reading.compute import read_compute
from agent.reading.datasets import NamedData, read_datasets
from agent.reading.imagery import data_terms, named_bands, read_modalities
from agent.reading.labels import read_regime
from agent.reading.licences import asks_commercial_use, asks_open_weights, read_licences
from agent.reading.model_kinds import asked_model_kinds
from agent.reading.places import read_regions
from agent.reading.points import lidar_as_points
from agent.reading.preferences import (
    architectures,
    asks_all_inputs,
    asks_any_bands,
    asks_precomputed_embeddings,
    asks_series_model,
    asks_specialist,
    backbones_asked,
    named_metrics,
    performance_floor,
    read_priorities,
    read_release_years,
)
from agent.reading.related_applications import prompted_with_text, told_in_text
from agent.reading.resolution import read_resolution
from agent.reading.sensors import (
    at_the_resolution,
    imagery_of_missions,
    keep_named_elsewhere,
    keep_own_data,
    read_exclusions,
    read_sensors,
    ruled_out_spans,
    rules_out_rgb_alone,
)
from agent.reading.similarity import Encode, guess_application
from agent.reading.slips import mend
from agent.reading.tables import cue_pattern
from agent.reading.tasks import (
    TaskReading,
    name_application,
    read_chat,
    read_task_type,
    whole_image_task,
)
from agent.reading.terms import TermSpan, blank_spans, find_terms, overlaps
from rsfmd.datasets import find_dataset
from rsfmd.pretext import pretext_methods
from rsfmd.vocab import sensor_family, sensor_modality


@dataclass
class Interpretation:
    """The parsed query and what the interpreter noticed on the way (shown as assumptions)."""

    query: StructuredQuery
    notes: list[str] = field(default_factory=list)
    language: str | None = None  # set when the text reads as another language than English


_LEARNER = re.compile(
    r"\b(?:logistic|linear|ridge|lasso|polynomial|support[\s-]vector|random[\s-]forest)\s+regression\b"
)


def _read_task(
    text: str,
    lowered: str,
    apps: list[TermSpan],
    modalities: list[str],
    exclusions: Exclusions,
    encode: Encode | None,
    similarity_threshold: float,
    notes: list[str],
    ruled: list[tuple[int, int]],
) -> tuple[TaskReading, NamedData]:
    """The task's application and type, and the data it names."""
    task = name_application(text, lowered, apps, notes)
    named, task.application = read_datasets(text, task.application, notes)
    # 'a logistic regression on SIFT features' names a learner, not a regression task.
    learners = [m.span() for m in _LEARNER.finditer(task.task_text)]
    # A task ruled out ('no segmentation or localisation') is not the task, as an application is not.
    not_tasks = learners + (ruled if len(task.task_text) == len(lowered) else [])
    task_terms = [t for t in find_terms(task.task_text, "task_types") if not overlaps(t[1], t[2], not_tasks)]
    if task.application is None and encode is not None and not named.suites:
        # (a label per tile said limits the guess to applications that classify)
        task.application = guess_application(
            task.task_text,
            task.similar_text,
            task_terms or whole_image_task(task.task_text),
            encode,
            similarity_threshold,
            notes,
        )
    read_task_type(task, task_terms, lowered, modalities, exclusions, notes)
    return task, named


# Imagery named by its resolution alone ('0.5 m satellite imagery'): what optical sensors of that
# resolution deliver. Sub-metre products come as true colour as often as with all bands.
_VHR_M = 2.0
_OPTICAL_M = 60.0


def _imagery_of_resolution(resolution_m: float, notes: list[str]) -> tuple[list[str], bool]:
    """The kinds of imagery read from a stated resolution when no kind or sensor is named, and
    whether either serves."""
    if resolution_m <= _VHR_M:
        notes.append(
            f"{resolution_m:g} m imagery with no kind named read as very-high-resolution optical: "
            "RGB or multispectral"
        )
        return ["RGB", "Multispectral"], True
    if resolution_m <= _OPTICAL_M:
        notes.append(f"{resolution_m:g} m imagery with no kind named read as multispectral")
        return ["Multispectral"], False
    return [], False


# A benchmark the user trains on ('I'm training R3Det on HRSC2016'): its imagery is theirs.
_TRAINING_ON = re.compile(r"\b(?:train\w*|fine[\s-]?tun\w*)\b[^.?!;]{0,50}?\b(?:on|with)\s+(?:the\s+)?$")


def _imagery_of_datasets(named: NamedData, notes: list[str]) -> list[str]:
    """The kinds of imagery of the benchmark datasets the user trains on ('training oriented object
    detection on DOTA-v1.5'), when no kind or sensor is named: their data is the benchmark's."""
    trained = [
        info
        for s, e in named.dataset_ranges
        if _TRAINING_ON.search(named.plain[max(0, s - 80) : s].lower())
        and (info := find_dataset(named.plain[s:e]))
    ]
    kinds = list(dict.fromkeys(m for info in trained for m in info.modalities if m != "Multi-temporal"))
    if kinds:
        names = ", ".join(dict.fromkeys(info.name for info in trained))
        notes.append(f"no kind of imagery named: read as that of {names}, trained on ({', '.join(kinds)})")
    return kinds


def _of_families(named: list[str], kinds: list[str], sensors: list[str]) -> list[str]:
    """The user's sensors of the families of the satellites that name the model asked for ('models
    pretrained on Landsat' beside Landsat-5 and Landsat-8 scenes), and those satellites."""
    named = [s for s in named if sensor_modality(s) in kinds]
    families = set().union(*(sensor_family(s) for s in named))
    return list(dict.fromkeys([*(s for s in sensors if s in families), *named]))


def interpret(
    text: str, encode: Encode | None = None, *, similarity_threshold: float = 0.45
) -> Interpretation:
    """Parse a free-text task into a StructuredQuery with rules (and embeddings for applications)."""
    notes: list[str] = []
    written = mend(text, notes)
    lowered = written.lower()
    sensor_terms = find_terms(written, "sensors")
    ruled = ruled_out_spans(lowered)
    rgb_alone = rules_out_rgb_alone(lowered)
    exclusions = keep_own_data(read_exclusions(lowered), lowered, sensor_terms, ruled, rgb_alone)
    unruled = blank_spans(lowered, ruled)
    bands = named_bands(unruled)  # 'no SWIR or thermal': bands ruled out are none named
    exclusions = keep_named_elsewhere(exclusions, unruled, bands, rgb_alone)
    # A data product named for what it measures ('a canopy height model') is data, not the task.
    data_found = data_terms(lowered)
    data = [(s, e) for _, s, e in data_found]
    # An application ruled out ('no captioning or chat models') is not the task.
    apps = [
        a
        for a in find_terms(lowered, "applications")
        if not any(s <= a[1] and a[2] <= e and e - s > a[2] - a[1] for s, e in data)
        and not any(s <= a[1] and a[2] <= e for s, e in ruled)
    ]
    sensors = read_sensors(written, lowered, sensor_terms, apps, exclusions, notes)
    modalities, either = read_modalities(written, lowered, sensor_terms, sensors, apps, exclusions, notes)
    kinds_asked, model_sensors = asked_model_kinds(lowered, data_found, sensor_terms)
    model_kinds = [k for k in kinds_asked if k not in exclusions.modalities]
    modalities = modalities or model_kinds
    multi_temporal = "Multi-temporal" in modalities
    task, named = _read_task(
        text, lowered, apps, modalities, exclusions, encode, similarity_threshold, notes, ruled
    )
    conversational = read_chat(lowered, task, notes)
    regime = read_regime(lowered, sensors, task.task_type, notes)
    task.task_type = regime.task_type
    if task.task_type == "classification" and regime.data == "few-shot" and "Text" in modalities:
        # Classes given as text with a few labels beside ('class-name prompts, then a linear probe'):
        # a model that classifies from class names, and takes a probe on its features.
        task.task_type = "zero-shot classification"
        notes.append("classes given as text, with a few labels: read as classification from class names")
    # No labels, the classes given as text prompts: the open-vocabulary form of the task.
    text_prompted = regime.data == "zero-shot" and "Text" in modalities
    if text_prompted and (prompted := prompted_with_text(task.application, task.task_type)):
        notes.append(f"no labels and text prompts: read as {prompted}")
        task.application = prompted
    if told := told_in_text(task.application, modalities):
        task.application, task.task_type = told
        notes.append(f"a change to be told in text about image pairs: read as {task.application}")
    compute = read_compute(
        lowered, written, regime.data, (task.application, task.task_type), notes, frozen=regime.frozen
    )
    priorities = read_priorities(lowered, compute.device_class, regime.transfer, notes)
    earliest, latest = read_release_years(lowered, notes)
    # 'no VHR involved': a resolution ruled out is none asked for.
    resolution, resolution_m = read_resolution(unruled, task.application, task.task_type, notes)
    sensors = at_the_resolution(sensors, resolution_m, notes)
    if not set(modalities) - {"Multi-temporal"} and not sensors and resolution_m is not None:
        # ('bi-temporal 0.5 m image pairs': a series of what the resolution says)
        kinds, either = _imagery_of_resolution(resolution_m, notes)
        modalities = [*kinds, *modalities]
    if not set(modalities) - {"Multi-temporal"} and not sensors and named.datasets:
        modalities = [*_imagery_of_datasets(named, notes), *modalities]
    if not set(modalities) - {"Multi-temporal"} and not sensors:
        modalities = [*imagery_of_missions(lowered, notes), *modalities]
    licences, permissive = read_licences(lowered, notes)
    regions = read_regions(named.plain, named.dataset_ranges, exclusions.regions, notes)
    series_model = asks_series_model(lowered)
    if (
        regime.pretrain_further
        and multi_temporal
        and not series_model
        and task.task_type != "change detection"
    ):
        # Pretraining goes on over the user's archive of image series: the model must take series
        # (not over the scenes of before-and-after pairs, which any encoder of one image takes).
        series_model = True
        notes.append("Pretraining further on your image series: only models that take image series are kept")
    elif (
        multi_temporal and "Text" in modalities and not series_model and "change" in (task.application or "")
    ):
        # A head over two dates can be put on any encoder, not on a model that answers in text about
        # a change. (Questions about a disaster scene, with pairs among them, are also answered from
        # one image: there the series is weighed, not required.)
        series_model = True
        notes.append(
            "Answers in text about several dates: only models that read image series or pairs are kept"
        )
    query = StructuredQuery(
        application=task.application,
        modality=modalities,
        either_modality=either and set(modalities) >= EITHER_MODALITIES,
        sensor=list(dict.fromkeys(sensors)),
        spatial_resolution=resolution,
        spatial_resolution_m=resolution_m,
        temporal_resolution="time series" if multi_temporal else None,
        bands=bands,
        available_data=regime.data,
        deployment_device=compute.device_class,
        priority_metrics=named_metrics(lowered)[:3],
        min_performance=performance_floor(lowered),
        region=regions,
        datasets=named.datasets,
        pretrained_on=named.pretrained_on,
        pretext=pretext_methods(written),
        backbones=backbones_asked(lowered),
        suites=named.suites,
        domain_keywords=task.domains(),
        task_type=task.task_type,
        data_regime=regime.data,
        compute=compute,
        priorities=priorities,
        exclusions=exclusions,
        multi_temporal=multi_temporal,
        commercial_use=asks_commercial_use(lowered, permissive),
        licenses=licences,
        open_weights=asks_open_weights(lowered),
        own_work=bool(cue_pattern("own_work", "said").search(lowered)),
        precomputed_embeddings=asks_precomputed_embeddings(lowered),
        frozen_encoder=regime.frozen,
        pretrain_further=regime.pretrain_further,
        conversational=conversational,
        architectures=architectures(lowered),
        any_bands=asks_any_bands(lowered),
        all_inputs=asks_all_inputs(lowered),
        point_cloud=_points(modalities, lowered, notes),
        series_model=series_model,
        model_kinds=model_kinds,
        model_sensors=_of_families(model_sensors, model_kinds, sensors),
        specialist=asks_specialist(lowered),
        min_release_year=earliest,
        max_release_year=latest,
    )
    return Interpretation(query=query, notes=notes, language=task.language)


def _points(modalities: list[str], lowered: str, notes: list[str]) -> bool:
    """Whether the user's LiDAR is used as points, with no elevation raster of theirs beside it."""
    if "LiDAR" not in modalities or "DEM" in modalities or not lidar_as_points(lowered):
        return False
    notes.append("LiDAR used as points: models of elevation rasters (DEM) do not take it")
    return True
