"""Derive missing ``num_parameters`` and ``supported_sensors`` from documented facts.

Three rules, each applied only where the field is missing (`rsfmd.infer_fields` writes them):

* parameters: the record's ``backbone`` names exactly one row of ``rsfmd/vocab/backbones.csv``
  (see ``rsfmd.backbones.match_backbone``); the row's documented count is used.
* variant sizes: likewise for each released variant whose ``backbone`` names one row, so a
  small checkpoint counts for a budget (a ViT-B/32 beside a ViT-H/14).
* sensors: the sensors of its pretraining phases and of the datasets it was pretrained or
  evaluated on (``rsfmd/vocab/datasets.csv``), results kept in attachment files included.
  A derived sensor whose modality, and the modalities of the datasets it came from, are all
  missing from the record's curated ``modalities`` contradicts them: it is reported and,
  unless asked, not written.

Every derived value is marked: a ``confidence`` below 0.7, a ``Source`` saying it was derived
and a sentence in ``notes``. Records that already have the field are never touched, so running
twice changes nothing the second time.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rsfmd.backbones import Backbone, BackboneMatch, MatchStatus, match_backbone
from rsfmd.datasets import dataset_info, get_dataset_table
from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.vocab import sensor_modality

PARAMETERS_CONFIDENCE = 0.5
SENSORS_CONFIDENCE = 0.55


@dataclass(frozen=True)
class ParameterDerivation:
    """A parameter count taken from the standard size of the record's backbone."""

    backbone: Backbone

    @property
    def note(self) -> str:
        """The Source note written with the value."""
        return f"standard size of the {self.backbone.name} backbone; derived, not stated by the model authors"

    @property
    def sentence(self) -> str:
        """The sentence appended to the record's notes."""
        return (
            f"num_parameters ({self.backbone.params_m:g}M) is the standard size of its "
            f"{self.backbone.name} backbone, derived by `infer-fields` and not stated by the model "
            f"authors (confidence {PARAMETERS_CONFIDENCE})."
        )


@dataclass(frozen=True)
class VariantSizes:
    """Parameter counts taken from the standard sizes of released variants' backbones."""

    sizes: tuple[tuple[str, Backbone], ...]
    """(variant name, its backbone's row), in the record's order."""

    def notes(self) -> dict[str, str]:
        """The Source notes to write: one per source of the backbone sizes used (URL -> note)."""
        by_url: dict[str, list[str]] = {}
        for name, b in self.sizes:
            by_url.setdefault(b.source_url, []).append(f"{name}: {b.name}, {b.params_m:g}M")
        return {
            url: f"standard sizes of the variants' backbones ({'; '.join(named)}); derived, not stated "
            "by the model authors"
            for url, named in by_url.items()
        }

    @property
    def sentence(self) -> str:
        """The sentence appended to the record's notes."""
        return (
            f"The sizes of {len(self.sizes)} variant(s) are the standard sizes of their backbones, derived "
            f"by `infer-fields` and not stated by the model authors (confidence {PARAMETERS_CONFIDENCE})."
        )


@dataclass(frozen=True)
class SensorEvidence:
    """One derived sensor and where it came from."""

    sensor: str
    origins: tuple[str, ...]
    """Datasets (canonical names) or pretraining phases that contributed the sensor."""
    modalities: frozenset[str]
    """The sensor's modality plus the modalities of the datasets that contributed it."""


@dataclass(frozen=True)
class SensorDerivation:
    """Sensors derived for a record: those to write and those held back as contradictions."""

    kept: tuple[SensorEvidence, ...]
    contradicting: tuple[SensorEvidence, ...]

    @property
    def sensors(self) -> list[str]:
        """The sensor names to write."""
        return [e.sensor for e in self.kept]

    @property
    def origins(self) -> list[str]:
        """Origins of the written sensors, in first-seen order."""
        return list(dict.fromkeys(o for e in self.kept for o in e.origins))

    @property
    def note(self) -> str:
        """The Source note written with the value."""
        return f"derived from the sensors of its pretraining/evaluation datasets ({', '.join(self.origins)})"

    @property
    def sentence(self) -> str:
        """The sentence appended to the record's notes."""
        text = (
            f"supported_sensors derived by `infer-fields` from the sensors of its pretraining/evaluation "
            f"datasets ({', '.join(self.origins)}); not stated by the model authors "
            f"(confidence {SENSORS_CONFIDENCE})."
        )
        if self.contradicting:
            held = "; ".join(f"{e.sensor} ({', '.join(e.origins)})" for e in self.contradicting)
            text += f" Held back as contradicting the curated modalities: {held}."
        return text


@dataclass(frozen=True)
class Proposal:
    """What ``infer-fields`` would change in one record."""

    model_id: str
    line: int
    parameters: ParameterDerivation | None = None
    sensors: SensorDerivation | None = None
    backbone_match: BackboneMatch | None = None
    """Set when the record lacks parameters and has a backbone, whatever the outcome."""
    variant_sizes: VariantSizes | None = None

    @property
    def changes(self) -> bool:
        """Whether applying the proposal edits the record."""
        sized = self.parameters is not None or self.variant_sizes is not None
        return sized or bool(self.sensors and self.sensors.kept)


def dataset_name_candidates(text: str) -> list[str]:
    """Dataset names in a free-text dataset field: parentheticals dropped, split on ' + '.

    ``"MillionAID (MAE, ViT variants)"`` gives ``["MillionAID"]``;
    ``"NWPU-RESISC45 + DOTA"`` gives ``["NWPU-RESISC45", "DOTA"]``.
    """
    without = re.sub(r"\s*\([^()]*\)", "", text)
    return [part.strip() for part in re.split(r"\s+\+\s+", without) if part.strip()]


def _origin_label(text: str) -> str:
    """The canonical dataset name of ``text`` when known, else ``text`` without parentheticals."""
    names = dataset_name_candidates(text)
    known = get_dataset_table().get(names[0]) if len(names) == 1 else None
    return known or " + ".join(names) or text


def _known_datasets(text: str) -> list[str]:
    table = get_dataset_table()
    found = (table.get(name) for name in dataset_name_candidates(text))
    return [name for name in found if name is not None]


def has_parameters(record: ModelRecord) -> bool:
    """Whether the record or any variant states a parameter count."""
    return record.smallest_parameters is not None


def derive_parameters(record: ModelRecord) -> tuple[ParameterDerivation | None, BackboneMatch | None]:
    """The parameter derivation for a record lacking counts, with the backbone match behind it."""
    if has_parameters(record) or not record.backbone:
        return None, None
    found = match_backbone(record.backbone)
    if found.status is MatchStatus.matched and found.backbone is not None:
        return ParameterDerivation(found.backbone), found
    return None, found


def derive_variant_sizes(record: ModelRecord) -> VariantSizes | None:
    """Sizes for the released variants with no count whose backbone names one row (None: none)."""
    sizes = []
    for variant in record.variants:
        if variant.num_parameters is not None or variant.released is False or not variant.backbone:
            continue
        found = match_backbone(variant.backbone)
        if found.status is MatchStatus.matched and found.backbone is not None:
            sizes.append((variant.name, found.backbone))
    return VariantSizes(tuple(sizes)) if sizes else None


def sensor_evidence(record: ModelRecord, attached: Sequence[Benchmark] = ()) -> list[SensorEvidence]:
    """Sensors of the record's pretraining phases and pretraining/evaluation datasets, in order.

    ``attached`` are the record's results kept in attachment files (``benchmarks/*.jsonl``):
    datasets it was evaluated on, like those of its own ``benchmarks``.
    """
    origins: dict[str, list[str]] = {}
    modalities: dict[str, set[str]] = {}

    def add(sensor: str, origin: str, dataset_modalities: tuple[str, ...] = ()) -> None:
        origins.setdefault(sensor, [])
        if origin not in origins[sensor]:
            origins[sensor].append(origin)
        modalities.setdefault(sensor, {sensor_modality(sensor)}).update(dataset_modalities)

    for phase in record.pretraining_phases:
        label = phase.dataset or "a pretraining phase"
        for sensor in phase.sensors:
            add(sensor, _origin_label(label))
        for name in _known_datasets(phase.dataset or ""):
            info = dataset_info(name)
            for sensor in info.sensors:
                add(sensor, info.name, info.modalities)
    for bench in [*record.benchmarks, *attached]:
        for sensor in bench.sensor:
            add(sensor, _origin_label(bench.dataset))
        for name in _known_datasets(bench.dataset):
            info = dataset_info(name)
            for sensor in info.sensors:
                add(sensor, info.name, info.modalities)
    return [SensorEvidence(s, tuple(origins[s]), frozenset(modalities[s])) for s in origins]


def derive_sensors(
    record: ModelRecord, *, keep_contradicting: bool = False, attached: Sequence[Benchmark] = ()
) -> SensorDerivation | None:
    """The sensor derivation for a record with no supported_sensors (None when nothing is known)."""
    if record.supported_sensors:
        return None
    evidence = sensor_evidence(record, attached)
    if not evidence:
        return None
    curated = set(record.modalities)
    contradicting = [e for e in evidence if curated and not (e.modalities & curated)]
    kept = [e for e in evidence if keep_contradicting or e not in contradicting]
    return SensorDerivation(tuple(kept), tuple(contradicting))


def propose(
    record: ModelRecord, line: int, *, keep_contradicting: bool = False, attached: Sequence[Benchmark] = ()
) -> Proposal:
    """Every derivation for one record (``attached``: its results kept in attachment files)."""
    parameters, backbone_match = derive_parameters(record)
    return Proposal(
        model_id=record.model_id,
        line=line,
        parameters=parameters,
        sensors=derive_sensors(record, keep_contradicting=keep_contradicting, attached=attached),
        backbone_match=backbone_match,
        variant_sizes=derive_variant_sizes(record),
    )
