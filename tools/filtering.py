"""The hard constraints, as deterministic rules: each returns the reason a record violates it, or
None. The LLM never decides these; ``tools/closest.py`` applies them to candidates.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from agent.query import StructuredQuery
from rsfmd.backbones import names_backbone
from rsfmd.datasets import dataset_identities, dataset_identity, evaluated_on, pretrained_on
from rsfmd.licenses import allows_commercial_use, within_licenses
from rsfmd.pretext import pretext_described, uses_pretext
from rsfmd.schema import Alignment, Category, ModelRecord
from rsfmd.traits import grid_metres
from rsfmd.vocab import application_domain, application_task_type, sensor_family
from tools.inputs import (
    all_inputs_violation,
    compatible_modalities,
    imagery_violation,
    modality_violation,
    models_time,
    requested_imagery,
)
from tools.variants import sensors_taking, size_for_data

# Tasks whose output only a model built for them can produce (a CLIP encoder writes no captions).
OUTPUT_TASKS = frozenset({"captioning", "vqa", "visual grounding", "generation"})
# Tasks whose input includes text: class names to pick from, a question, a phrase to locate.
TEXT_TASKS = frozenset({"zero-shot classification", "vqa", "visual grounding"})
# Device-implied budgets are soft by this factor; a stated parameter limit is exact.
DEVICE_BUDGET_TOLERANCE = 1.25


def series_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user wants a model for image time series ('a time-series encoder') and the record takes
    single images."""
    if not query.series_model:
        return None
    if record.temporal_alignment == Alignment.partial:
        return "pools images or takes their dates as metadata: does not model the series"
    return None if models_time(record) else "takes single images, not time series"


def sensor_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The record is not documented for any requested sensor (sensor-agnostic models pass), counting
    only the sensors it takes the user's kind of imagery from (``sensors_taking``)."""
    if not query.sensor:
        return None
    if record.spectral_alignment == Alignment.full:
        return None  # wavelength-aware models take arbitrary band sets
    wanted: set[str] = set()
    for sensor in query.sensor:
        wanted |= sensor_family(sensor)
    documented = sensors_taking(record, requested_imagery(query))
    if set(documented) & wanted:
        return None
    if not record.supported_sensors:
        return "supported sensors unknown"
    return f"documented for {', '.join(documented[:4])}, not {', '.join(query.sensor)}"


def size_for_user(record: ModelRecord, query: StructuredQuery) -> float | None:
    """Parameters of the smallest variant for the user's sensors and imagery (tools/variants.py)."""
    sensors = set().union(*(sensor_family(s) for s in query.sensor)) if query.sensor else set()
    return size_for_data(record, sensors, compatible_modalities(requested_imagery(query)))


def compute_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The smallest released variant exceeds the user's parameter budget, or the largest falls short
    of the size asked for ('over 1B parameters')."""
    floor = query.compute.min_parameters_m
    if floor is not None:
        largest = record.largest_parameters
        if largest is None:
            return f"model size unknown, cannot confirm it has at least {floor:g}M parameters"
        if not query.compute.reaches_floor(largest):
            bound = (
                f"not more than {floor:g}M"
                if query.compute.above_floor
                else f"under the {floor:g}M asked for"
            )
            return f"largest variant has {largest:g}M parameters, {bound}"
    limit = query.compute.parameter_limit()
    if limit is None or (record.category == Category.embedding_product and not query.compute.below_limit):
        # Precomputed embeddings are read, not computed: the encoder's size costs the user nothing
        # (unless they ask for something smaller than a model: then it is the size they compare).
        return None
    explicit = query.compute.max_parameters_m is not None
    size = size_for_user(record, query)
    if size is None:
        return "model size unknown, cannot confirm it fits the budget"
    allowed = limit if explicit else limit * DEVICE_BUDGET_TOLERANCE
    which = "smallest variant" if size == record.smallest_parameters else "smallest variant for your data"
    if explicit and query.compute.below_limit and size >= allowed:
        return f"{which} has {size:g}M parameters, not fewer than {limit:g}M"
    if size > allowed:
        return f"{which} has {size:g}M parameters, over the {limit:g}M budget"
    return None


def performance_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """Every reported result in the metric (on the benchmarks the user named, when the model has
    results there; else on the task type) is below the user's floor."""
    floor = query.min_performance
    if floor is None:
        return None
    named = dataset_identities(query.datasets)
    for metric, minimum in zip(floor.metric, floor.value, strict=True):
        results = [b for b in record.benchmarks if metric in b.metrics]
        on_named = [b for b in results if dataset_identity(b.dataset) in named]
        values = [
            b.values()[metric]
            for b in on_named or results
            if on_named or query.task_type is None or b.task_type == query.task_type
        ]
        if values and max(values) < minimum:
            return f"best reported {metric} is {max(values):g}, below the required {minimum:g}"
    return None


def exclusion_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user ruled the model out, or it only takes excluded data."""
    excluded = query.exclusions
    if record.model_id in excluded.models:
        return "excluded by name"
    if excluded.modalities and record.modalities:
        usable = set(record.modalities) - set(excluded.modalities) - {"Multi-temporal", "Text", "Location"}
        if not usable:
            needed = ", ".join(sorted(set(record.modalities) & set(excluded.modalities)))
            return f"needs {needed}, which is excluded"
    if (
        excluded.sensors
        and record.supported_sensors
        and set(record.supported_sensors) <= set(excluded.sensors)
    ):
        return f"only documented for excluded sensors ({', '.join(record.supported_sensors)})"
    return None


def _gives(record: ModelRecord, task: str) -> bool:
    """The model gives ``task``'s output; any segmentation gives masks."""
    tasks = record.all_task_types
    return task in tasks or (task.endswith("segmentation") and any(t.endswith("segmentation") for t in tasks))


def task_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user needs an output (captions, answers, boxes from text, images) the model does not produce,
    or prompts (points, boxes) it does not take."""
    task = query.task_type
    own = application_task_type(query.application)
    if own in OUTPUT_TASKS and task not in {None, own} and not _gives(record, task):
        # Masks of what a phrase refers to: the model must give the output asked for as well.
        return f"does not do {task}, which {query.application} asks for here"
    if task in OUTPUT_TASKS and task not in record.all_task_types:
        # A reported result on the user's application shows the model produces its output.
        if evaluated_on(record, query.application):
            return None
        return f"does not do {task}"
    if query.application == "promptable segmentation" and not (
        record.takes_prompts or evaluated_on(record, query.application)
    ):
        # Clicks or boxes in, masks out: a segmenter with trained class heads cannot do it.
        return "takes no point or box prompts"
    if reads_no_text_for(record, query):
        return f"reads no text, which {query.application} takes"
    return None


def task_takes_text(query: StructuredQuery) -> bool:
    """Whether text goes in or comes out of the user's task: among their inputs or prompts, class
    names or questions given as text, or a vision-language application."""
    return bool(
        "Text" in query.modality
        or query.task_type in TEXT_TASKS
        or (query.application and application_domain(query.application) == "vision-language")
    )


def reads_no_text_for(record: ModelRecord, query: StructuredQuery) -> bool:
    """Whether the user's task takes text (text among their inputs or prompts, or a vision-language
    application: 'open-vocabulary detection' takes its classes as text) and the model reads none,
    with no result on the application."""
    if "Text" in record.modalities or record.category in {Category.vision_language, Category.vision_audio}:
        return False
    if "Text" in query.modality:
        return True  # text is among the user's inputs or prompts: a result on the task is no help
    if query.task_type in TEXT_TASKS and not any(b.task_type == query.task_type for b in record.benchmarks):
        return True  # class names or a question given as text, whatever the application
    return bool(
        query.application
        and application_domain(query.application) == "vision-language"
        and not evaluated_on(record, query.application)
    )


def license_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The licence rules out commercial use, or is not one the user named (an unstated licence passes)."""
    if query.commercial_use and allows_commercial_use(record.license) is False:
        return f"license {record.license} does not allow commercial use"
    if query.licenses and within_licenses(record.license, query.licenses) is False:
        return f"licensed {record.license}, not {' or '.join(query.licenses)}"
    return None


def runs_model(query: StructuredQuery) -> bool:
    """Whether the user needs downloadable weights: asked for, or the model is to serve work or data
    of their own, run on their machine or learn from their labels or archive (``runs_encoder``)."""
    return query.own_work or runs_encoder(query)


def runs_encoder(query: StructuredQuery) -> bool:
    """Whether the user runs a model themselves: weights asked for, or a machine, labels or an archive
    of their own named. Work of their own alone may be served by embeddings already computed."""
    return query.open_weights or query.compute.device_class is not None or query.data_regime is not None


def released_trained_for(record: ModelRecord, application: str | None) -> bool:
    """A task model released already trained for ``application``: it runs on the user's data as it is."""
    return (
        application is not None
        and record.category == Category.task_specific
        and record.weights_released is True
        and evaluated_on(record, application)
    )


def cannot_download(record: ModelRecord, query: StructuredQuery, relaxed: Collection[str]) -> bool:
    """The user needs downloadable weights (``runs_model``) and will not get them: the record was
    kept despite its weights constraint (``relaxed``: the constraints it breaks), or no source
    shows a release. Such a model neither counts towards enough candidates nor comes before one
    the user can download."""
    unknown = record.weights_released is None and record.category != Category.embedding_product
    return "weights" in relaxed or (unknown and runs_model(query))


def weights_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user needs downloadable weights (``runs_model``) and the sources say they are not released, or
    asked for them in words and the sources show no release."""
    if record.category == Category.embedding_product or not runs_model(query):
        return None
    if record.weights_released is False:
        return "pretrained weights are not released"
    if query.open_weights and record.weights_released is None:
        # Asked for in words ('VLMs with released weights'): a release the sources do not show is
        # not one the user can count on.
        return "no release of its weights is known"
    return None


def embeddings_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user wants precomputed embeddings and the record is a model to run, or embeddings on a
    grid coarser than their imagery."""
    if query.precomputed_embeddings and record.category != Category.embedding_product:
        return "a model to run, not precomputed embeddings"
    if query.precomputed_embeddings and (coarse := coarser_grid(record, query)):
        return coarse
    return None


def coarser_grid(record: ModelRecord, query: StructuredQuery) -> str | None:
    """Why an embedding product is too coarse for the resolution the user states: its embeddings
    cannot be finer than their grid."""
    if record.category != Category.embedding_product:
        return None
    grid = grid_metres(record.spatial_resolution or "")
    wanted_m = query.spatial_resolution_m
    if grid is not None and wanted_m is not None and grid > 2 * wanted_m:
        return f"embeddings at {record.spatial_resolution}, coarser than your {wanted_m:g} m"
    return None


def encoder_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user runs an encoder on their own new imagery (on a device, or a backbone of a given
    kind) or pretrains one further, and the record is precomputed embeddings."""
    if record.category != Category.embedding_product or query.precomputed_embeddings:
        return None
    if query.compute.device_class == "edge":
        return "precomputed embeddings: no encoder to run on the device"
    if query.pretrain_further:
        return "precomputed embeddings: no encoder to pretrain further"
    if query.architectures or query.backbones:
        return "precomputed embeddings, not a backbone to run"
    if runs_encoder(query) and record.weights_released is not True:
        return "precomputed embeddings, encoder not known to be released: nothing to run on your imagery"
    return coarser_grid(record, query)


def release_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """Released outside the years the user asked for (an unknown year passes, unconfirmed)."""
    year = record.year
    if year is None:
        return None
    if query.min_release_year is not None and year < query.min_release_year:
        return f"released in {year}, before {query.min_release_year}"
    if query.max_release_year is not None and year > query.max_release_year:
        return f"released in {year}, after {query.max_release_year}"
    return None


def architecture_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """A backbone of another family than the user accepts ('CNN only'); an unnamed one passes."""
    have = record.architectures
    if not query.architectures or not have or have & set(query.architectures):
        return None
    return f"{' and '.join(sorted(have))} backbone, not {' or '.join(query.architectures)}"


def backbone_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user asks for a backbone by name ('a Swin backbone') and the record's backbones are
    another, or not recorded."""
    if not query.backbones:
        return None
    if names_backbone(record.backbone_text, query.backbones):
        return None
    wanted = " or ".join(query.backbones)
    if not record.backbone_text.strip():
        return f"backbone not recorded, so not known to be {wanted}"
    return f"{record.backbone or 'its backbone'}, not {wanted}"


def band_flexibility_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user needs any band set ('arbitrary spectral bands') and the record is not documented as
    wavelength-aware."""
    if query.any_bands and record.spectral_alignment != Alignment.full:
        return "not documented as taking arbitrary band sets (wavelength-aware)"
    return None


def pretext_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user asks for a pretraining method ('trained with contrastive learning') and the record's
    pretraining is described otherwise (or not at all)."""
    if not query.pretext or uses_pretext(record, query.pretext):
        return None
    wanted = " or ".join(query.pretext)
    if not pretext_described(record):
        return f"pretraining method not recorded, so not known to be {wanted}"
    return f"pretraining not described as {wanted}"


def pretraining_violation(record: ModelRecord, query: StructuredQuery) -> str | None:
    """The user asks for a model pretrained on given data and the record's pretraining data names
    none of it (or is not recorded)."""
    if not query.pretrained_on or pretrained_on(record, query.pretrained_on):
        return None
    wanted = " or ".join(query.pretrained_on)
    if not any(phase.dataset for phase in record.pretraining_phases):
        return f"pretraining data not recorded, so not known to include {wanted}"
    return f"pretraining data not recorded as including {wanted}"


RULES: dict[str, Callable[[ModelRecord, StructuredQuery], str | None]] = {
    "modality": modality_violation,
    "imagery": imagery_violation,
    "task": task_violation,
    "sensor": sensor_violation,
    "all_inputs": all_inputs_violation,
    "series": series_violation,
    "compute": compute_violation,
    "min_performance": performance_violation,
    "exclusions": exclusion_violation,
    "weights": weights_violation,
    "license": license_violation,
    "precomputed_embeddings": embeddings_violation,
    "encoder": encoder_violation,
    "release_year": release_violation,
    "architecture": architecture_violation,
    "backbone": backbone_violation,
    "band_flexibility": band_flexibility_violation,
    "pretraining": pretraining_violation,
    "pretext": pretext_violation,
}


def violations(record: ModelRecord, query: StructuredQuery) -> dict[str, str]:
    """Constraint name to reason, for every rule the record breaks."""
    out: dict[str, str] = {}
    for name, rule in RULES.items():
        reason = rule(record, query)
        if reason is not None:
            out[name] = reason
    return out
