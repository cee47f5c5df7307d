"""Three ranking criteria about using a model on the user's own data, as a practitioner would judge:

- ``imagery_fit``: was the model pretrained on the user's sensor, or on imagery of a similar ground
  resolution? A specialist pretrained on exactly the user's sensor beats a generalist that merely
  accepts it, and a model that saw only 10 m pixels is a poor start for 3 cm drone tiles.
- ``availability_fit``: can the user download the weights and run it today?
- ``efficiency_fit``: does its smallest variant for the user's data fit the user's budget, or what
  their device can train?

All read the record, imagery fit also the sensor table (``rsfmd/vocab/sensors.csv``: ground
sampling distance per sensor); none reads the text.
"""

from __future__ import annotations

import math

from agent.query import StructuredQuery
from rsfmd.datasets import find_dataset
from rsfmd.schema import Alignment, Category, ModelRecord
from rsfmd.vocab import sensor_body, sensor_family, sensor_gsd_m, sensor_modality
from tools.adaptation import trainable_m
from tools.candidate import Candidate, Criterion
from tools.filtering import size_for_user
from tools.inputs import compatible_modalities, requested_imagery, requested_modalities
from tools.variants import dedicated_variant, sensors_taking

# A model is far from the user's imagery when everything it saw is this many times coarser (or
# finer) than the user's pixels.
FAR_RESOLUTION = 8.0
LOW_CONFIDENCE = 0.7
"""Fields a curator marked below this were inferred, not read in a source: weaker evidence."""


def field_confidence(record: ModelRecord, field: str) -> float:
    """The curator's confidence in a field (1.0 when unrated)."""
    return record.confidence.get(field, 1.0)


def pretraining_sensors(record: ModelRecord) -> set[str]:
    """Sensors of the model's pretraining data (its documented sensors when phases name none)."""
    phases = {s for p in record.pretraining_phases for s in p.sensors}
    return phases or set(record.supported_sensors)


def user_gsd_m(query: StructuredQuery) -> float | None:
    """The ground resolution of the user's imagery: as stated, else that of their sensors."""
    if query.spatial_resolution_m is not None:
        return query.spatial_resolution_m
    table = sensor_gsd_m()
    known = [table[s] for s in query.sensor if s in table]
    return min(known) if known else None


def seen_gsds(record: ModelRecord, imagery: set[str]) -> list[float]:
    """Ground resolutions of the model's pretraining sensors; only those of the user's kind of
    imagery when it saw any: a model that saw 10 m SAR and 1 m RGB has seen no 1 m SAR."""
    table = sensor_gsd_m()
    sensors = [s for s in pretraining_sensors(record) if s in table]
    wanted = compatible_modalities(imagery)
    own = [s for s in sensors if sensor_modality(s) in wanted]
    return [table[s] for s in own or sensors]


def _resolution_factor(record: ModelRecord, wanted_m: float, imagery: set[str]) -> tuple[float, str | None]:
    seen = seen_gsds(record, imagery)
    if not seen:
        return 1.0, None
    finest, coarsest = min(seen), max(seen)
    if finest >= FAR_RESOLUTION * wanted_m:
        return 0.5, f"pretrained on imagery of {finest:g} m or coarser, far from your {wanted_m:g} m pixels"
    if coarsest * FAR_RESOLUTION <= wanted_m:
        return (
            0.7,
            f"pretrained only on imagery of {coarsest:g} m or finer, far finer than your {wanted_m:g} m",
        )
    return 1.0, None


# A model pretrained on the user's sensor among other kinds of imagery (SAR beside optical, DEM and
# land cover) against one pretrained on that kind of imagery alone; lower when the user asks for a
# specialist ('a SAR-specific model').
SHARED_PRETRAINING = 0.9
SHARED_PRETRAINING_FOR_SPECIALIST = 0.6


def _other_kinds(pretrained: set[str], imagery: set[str]) -> list[str]:
    """The kinds of imagery, other than the user's (and those compatible with it), among the
    model's pretraining sensors."""
    if not imagery:
        return []
    wanted = compatible_modalities(imagery)
    return sorted({k for s in pretrained if (k := sensor_modality(s)) and k not in wanted})


def _own_imagery(
    record: ModelRecord, query: StructuredQuery, own: list[str], pretrained: set[str], imagery: set[str]
) -> tuple[float, list[str]]:
    """Fit of a model pretrained on the user's sensor: shared with other kinds of imagery, unless a
    released checkpoint is for the user's kind of imagery alone."""
    said = f"pretrained on {', '.join(own)} imagery itself"
    if not (others := _other_kinds(pretrained, imagery)):
        return 1.0, [said]
    if checkpoint := dedicated_variant(record, query.sensor, compatible_modalities(imagery)):
        return 1.0, [said, f"checkpoint {checkpoint} for that imagery alone"]
    # Pretrained on the sensor among other kinds of imagery: its capacity is shared.
    shared = f"{said}, beside {' and '.join(others)} data"
    if query.specialist:
        return SHARED_PRETRAINING_FOR_SPECIALIST, [f"{shared}: no specialist"]
    return SHARED_PRETRAINING, [shared]


def imagery_fit(record: ModelRecord, query: StructuredQuery) -> tuple[float, list[str]] | None:
    """Score in [0, 1] and reasons; None when the user names neither a sensor nor a resolution."""
    wanted_m = user_gsd_m(query)
    if not query.sensor and wanted_m is None:
        return None
    if record.category == Category.embedding_product:
        return 0.75, []  # judged on its grid by the modality criterion
    evidence: list[str] = []
    imagery = requested_imagery(query)
    # (of a model whose checkpoints take different inputs, the sensors it takes the user's from)
    pretrained, documented_for = pretraining_sensors(record), set(sensors_taking(record, imagery))
    if documented_for != set(record.supported_sensors):
        pretrained &= documented_for
    # ('models pretrained on Landsat, including TM', with Sentinel-2 also in use): the satellites that
    # name the model asked for are those its fit is judged on.
    users = query.model_sensors or query.sensor
    if users:
        family = set().union(*(sensor_family(s) for s in users))
        inferred = field_confidence(record, "supported_sensors") < LOW_CONFIDENCE
        if (own := sorted(set(users) & pretrained)) and inferred:
            score = 0.85
            evidence.append(f"likely takes {', '.join(own)} (inferred from its datasets)")
        elif own:
            score, evidence = _own_imagery(record, query, own, pretrained, imagery)
        elif documented := sorted(set(users) & documented_for):
            score = 0.75
            evidence.append(f"documented for {', '.join(documented)}, though not pretrained on it")
        elif related := sorted(family & (pretrained | documented_for)):
            score = 0.65
            evidence.append(f"pretrained on {', '.join(related)}, a closely related sensor")
        elif record.spectral_alignment == Alignment.full:
            score = 0.55
            evidence.append("takes any band set by wavelength, though not pretrained on your sensor")
        else:
            score = 0.3
            evidence.append("not pretrained on your sensor or a related one")
        # Imagery of another world (Mars, the Moon): a model pretrained on Earth has seen none of it.
        worlds = {sensor_body(s) for s in query.sensor} - {""}
        if worlds and not worlds & {sensor_body(s) for s in record.supported_sensors}:
            score *= 0.5
            evidence.append(f"not pretrained on imagery of {' or '.join(sorted(worlds))}")
    else:
        score = 0.75
    if wanted_m is not None:
        factor, why = _resolution_factor(record, wanted_m, imagery)
        score *= factor
        if why:
            evidence.append(why)
    return score, evidence


# Kinds of imagery whose structure models built for several kinds capture poorly (hundreds of
# contiguous narrow bands): when the user's imagery is of such a kind alone, a model built for it
# alone is preferred.
SPECIALIST_KINDS = frozenset({"Hyperspectral"})
_NOT_A_KIND = frozenset({"Text", "Location", "Multi-temporal"})


def focus_kind(query: StructuredQuery) -> str | None:
    """The user's one kind of imagery, when it is one that specialists serve best or the user asks
    for a specialist ('a backbone pretrained on lots of SAR')."""
    kinds = requested_modalities(query) - _NOT_A_KIND
    if len(kinds) != 1:
        return None
    return next(iter(kinds)) if query.specialist or kinds <= SPECIALIST_KINDS else None


def focus_fit(record: ModelRecord, kind: str) -> tuple[float, list[str]]:
    """1.0 for a model whose inputs are that kind of imagery alone, else 0."""
    inputs = set(record.modalities) - _NOT_A_KIND
    if inputs and inputs <= {kind}:
        return 1.0, [f"built for {kind.lower()} imagery alone"]
    built_for = " and ".join(sorted(inputs)).lower() or "other"
    return 0.0, [f"built for {built_for} data, not for {kind.lower()} alone"]


def availability_fit(record: ModelRecord) -> tuple[float, list[str], bool]:
    """Whether the weights can be downloaded: score, reason, and whether that is known."""
    released = record.weights_released
    if record.category == Category.embedding_product:
        return 1.0, ["embeddings published: nothing to run"], True
    if released is True:
        return 1.0, ["pretrained weights are public"], True
    if released is False:
        return 0.0, ["no public weights: you would have to ask the authors or pretrain it yourself"], True
    return 0.6, ["public weights not confirmed"], False


def _dataset_gsd(name: str) -> float | None:
    """The finest ground resolution of a dataset's sensors, when the tables know it."""
    info = find_dataset(name)
    table = sensor_gsd_m()
    gsds = [table[s] for s in (info.sensors if info else ()) if s in table]
    return min(gsds) if gsds else None


def _far(gsd: float, wanted_m: float) -> bool:
    return gsd >= FAR_RESOLUTION * wanted_m or gsd * FAR_RESOLUTION <= wanted_m


def far_from_users_pixels(dataset: str, query: StructuredQuery) -> bool:
    """Whether a dataset's imagery is known to be of a ground resolution far from the user's."""
    wanted_m = user_gsd_m(query)
    gsd = _dataset_gsd(dataset) if wanted_m is not None else None
    return gsd is not None and wanted_m is not None and _far(gsd, wanted_m)


def results_on_other_sensors(datasets: list[str], query: StructuredQuery) -> str | None:
    """Why results on ``datasets`` say less about the user's sensor (every one of them on imagery of
    other sensors, none related to the user's), or None. Results on Sentinel-2 patches say less about
    Landsat chips than results on Landsat do."""
    if not query.sensor or not datasets:
        return None
    family = set().union(*(sensor_family(s) for s in query.sensor))
    sensors: list[str] = []
    for name in datasets:
        info = find_dataset(name)
        if info is None or not info.sensors or family & set(info.sensors):
            return None  # unknown imagery, or the user's: no claim
        sensors.extend(s for s in info.sensors if s not in sensors)
    return f"results on {', '.join(sensors[:2])} imagery, not {', '.join(query.sensor[:2])}"


def results_far_from(datasets: list[str], query: StructuredQuery) -> str | None:
    """Why results on ``datasets`` say little about the user's imagery (every one of them at a
    ground resolution far from the user's), or None. Results on 10 m Sentinel-1 floods say little
    about 1 m ICEYE floods."""
    wanted_m = user_gsd_m(query)
    if wanted_m is None or not datasets:
        return None
    seen: list[tuple[str, float]] = []
    for name in datasets:
        if (gsd := _dataset_gsd(name)) is None:
            return None  # unknown imagery: no claim either way
        seen.append((name, gsd))
    if all(_far(g, wanted_m) for _, g in seen):
        shown = ", ".join(f"{n} ({g:g} m)" for n, g in seen[:2])
        return f"results on {shown}, imagery far from your {wanted_m:g} m"
    return None


def size_confidence(record: ModelRecord) -> float:
    """The curator's confidence in the size shown for a record (its smallest variant's): that of
    ``num_parameters`` when it is that size, else the lower of it and that of ``variants``."""
    if record.num_parameters is not None and record.num_parameters == record.smallest_parameters:
        return field_confidence(record, "num_parameters")
    return min(field_confidence(record, "num_parameters"), field_confidence(record, "variants"))


def _trained_on_cpu(query: StructuredQuery) -> bool:
    """A CPU and no size limit stated: the model is trained there, so what a CPU trains sets the scale."""
    return query.compute.device_class == "cpu" and query.compute.max_parameters_m is None


def parameter_budget(query: StructuredQuery) -> float | None:
    """The user's parameter budget: the stated or device limit; on a CPU with none stated, the size
    a CPU trains."""
    return trainable_m("cpu") if _trained_on_cpu(query) else query.compute.parameter_limit()


def efficiency_fit(c: Candidate, query: StructuredQuery) -> Criterion:
    """Size of the smallest variant for the user's data against the user's budget (log scale)."""
    size = size_for_user(c.record, query)
    if c.record.category == Category.embedding_product:
        return Criterion(1.0, evidence=["precomputed embeddings: no model to run"])
    if size is None:
        # Under a tight budget an undocumented size is a real risk (it is often an LLM-sized model).
        tight = query.compute.parameter_limit() is not None
        return Criterion(0.25 if tight else 0.35, evidence=["size not documented"], known=False)
    floor = query.compute.min_parameters_m
    if floor is not None and query.compute.wants_large():
        # Asked for a large model ('over 1B parameters'): reaching the size is the fit, not smallness.
        largest = c.record.largest_parameters or size
        reached = query.compute.reaches_floor(largest)
        score = 1.0 if reached else max(0.05, 0.7 - 0.45 * math.log10(max(floor / largest, 1.0)))
        bound = "more than" if query.compute.above_floor else "at least"
        return Criterion(
            score, evidence=[f"largest variant {largest:g}M parameters (asked for {bound} {floor:g}M)"]
        )
    # Without a budget: 1.0 up to 25M parameters, 0.65 at 250M, 0.3 at 2.5B; on several GPUs size
    # costs little below a billion parameters.
    anchor = 1000.0 if query.compute.device_class == "multi-gpu" else 25.0
    absolute = max(0.05, min(1.0, 1.0 - 0.35 * math.log10(max(size, 1.0) / anchor)))
    cpu_trained = _trained_on_cpu(query)
    limit = parameter_budget(query)
    if limit is not None:
        # 1.0 at a quarter of the budget, 0.7 at the budget; over it, a steeper fall (0.42 at 2.5x,
        # near 0 at 10x): a model past what the machine runs costs more than one well under it
        # gains, and models over the budget stay distinguishable when a closest match must exceed it.
        ratio = math.log10(size / limit)
        score = max(0.03, min(1.0, 0.7 - (0.7 if ratio > 0 else 0.45) * ratio))
        if {"efficiency", "speed"} & set(query.priorities):
            # Asked to be efficient under a loose budget (a GPU): smaller still counts.
            score = min(score, absolute)
    else:
        score = absolute
    budget = (
        f" (a CPU trains up to about {limit:g}M)" if cpu_trained else f" (budget {limit:g}M)" if limit else ""
    )
    confidence = size_confidence(c.record)
    if confidence < LOW_CONFIDENCE:
        # Derived (a named backbone's standard size, a count from released code) or secondary.
        text = (
            f"about {size:g}M parameters (not stated by the authors: derived or secondary, "
            f"confidence {confidence:.2g}){budget}"
        )
        return Criterion(score, evidence=[text], known=False)
    if size != c.record.smallest_parameters:
        text = f"smallest variant for your data {size:g}M parameters{budget}"
        return Criterion(score, evidence=[f"{text} (smallest overall {c.record.smallest_parameters:g}M)"])
    return Criterion(score, evidence=[f"smallest variant {size:g}M parameters{budget}"])
