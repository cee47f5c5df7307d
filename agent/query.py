"""The structured form of a user's task (REMSA paper Appendix B, plus what ranking needs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rsfmd.vocab import get_vocabulary, normalise_modality, normalise_sensor, normalise_task_type

DataRegime = Literal["zero-shot", "few-shot", "full-labels", "unlabeled"]
DeviceClass = Literal["edge", "cpu", "single-gpu", "multi-gpu"]
Priority = Literal[
    "accuracy", "speed", "efficiency", "precision", "recall", "generalization", "recency", "adoption"
]

MANDATORY_FIELDS: tuple[str, ...] = ("application", "modality")
# The modalities of which one serves when the task asks for either ('optical imagery').
EITHER_MODALITIES: frozenset[str] = frozenset({"RGB", "Multispectral"})

# Parameter budget (millions) implied by a device class when the user states no explicit limit:
# a ViT-B (~86M) still runs on a laptop CPU; edge boards want ResNet-50 / ViT-S / Swin-T sizes.
DEVICE_PARAMETER_BUDGET: dict[str, float | None] = {
    "edge": 50.0,
    "cpu": 120.0,
    "single-gpu": 1500.0,
    "multi-gpu": None,
}


def canonical_datasets(names: Sequence[str]) -> list[str]:
    """Dataset names as the dataset table writes them (unknown names as given), each once."""
    from rsfmd.datasets import find_dataset

    return list(dict.fromkeys(info.name if (info := find_dataset(n)) else n for n in names))


class MinPerformance(BaseModel):
    """A floor on reported performance (paper Appendix B)."""

    model_config = ConfigDict(extra="forbid")

    metric: list[str] = Field(default_factory=list, description="Canonical metric names.")
    value: list[float] = Field(default_factory=list, description="Floors, in the metric's scale.")

    @model_validator(mode="after")
    def _same_length(self) -> MinPerformance:
        if len(self.metric) != len(self.value):
            raise ValueError("min_performance needs one value per metric")
        return self


class ComputeBudget(BaseModel):
    """What the user can run the model on."""

    model_config = ConfigDict(extra="forbid")

    device_class: DeviceClass | None = None
    max_parameters_m: float | None = Field(default=None, gt=0, description="Explicit limit, millions.")
    limit_said: bool = Field(
        default=False, description="The limit is the user's, in parameters, not estimated."
    )
    below_limit: bool = Field(
        default=False, description="The limit is exclusive: fewer parameters than a model the user named."
    )
    min_parameters_m: float | None = Field(
        default=None, gt=0, description="Explicit floor, millions ('over 1B parameters')."
    )
    above_floor: bool = Field(
        default=False, description="The floor is exclusive: more parameters than a model the user named."
    )
    size_waived: bool = Field(default=False, description="Said not to matter ('model size is no concern').")

    def parameter_limit(self) -> float | None:
        """The explicit limit, else the one implied by the device class."""
        if self.max_parameters_m is not None:
            return self.max_parameters_m
        return DEVICE_PARAMETER_BUDGET.get(self.device_class) if self.device_class else None

    def reaches_floor(self, largest: float) -> bool:
        """Whether a model's largest variant (``largest``, millions) is as large as asked."""
        floor = self.min_parameters_m
        if floor is None:
            return True
        return largest > floor if self.above_floor else largest >= floor

    def wants_large(self) -> bool:
        """A floor and no limit ('over 1B parameters'): the model's largest variant is what counts."""
        return self.min_parameters_m is not None and self.parameter_limit() is None


class Exclusions(BaseModel):
    """What the user ruled out ("no SAR", "not DOFA")."""

    model_config = ConfigDict(extra="forbid")

    modalities: list[str] = Field(default_factory=list)
    sensors: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=list, description="Model ids.")
    regions: list[str] = Field(default_factory=list, description="Regions the data is not from.")


class StructuredQuery(BaseModel):
    """Constraints and preferences parsed from a free-text task description."""

    model_config = ConfigDict(extra="forbid")

    application: str | None = Field(default=None, description="Mandatory: what the user wants to do.")
    modality: list[str] = Field(default_factory=list, description="Mandatory: input data modalities.")
    sensor: list[str] = Field(default_factory=list)
    spatial_resolution: str | None = None
    spatial_resolution_m: float | None = Field(default=None, gt=0)
    temporal_resolution: str | None = None
    bands: list[str] = Field(default_factory=list)
    available_data: str | None = None
    deployment_device: str | None = None
    priority_metrics: list[str] = Field(default_factory=list)
    min_performance: MinPerformance | None = None
    region: list[str] = Field(default_factory=list)
    datasets: list[str] = Field(
        default_factory=list,
        description="Benchmark datasets the user named ('best on EuroSAT'): results there count first.",
    )
    suites: list[str] = Field(
        default_factory=list,
        description="Benchmark suites the user named ('best on PANGAEA'); their datasets are in datasets.",
    )
    domain_keywords: list[str] = Field(default_factory=list)
    task_type: str | None = None
    data_regime: DataRegime | None = None
    compute: ComputeBudget = Field(default_factory=ComputeBudget)
    priorities: list[Priority] = Field(default_factory=list)
    exclusions: Exclusions = Field(default_factory=Exclusions)
    multi_temporal: bool = Field(default=False, description="The user's data is a time series.")
    commercial_use: bool = Field(default=False, description="The licence must allow commercial use.")
    licenses: list[str] = Field(
        default_factory=list,
        description="Licences the user accepts, by family (Apache-2.0, MIT, BSD); empty: any licence.",
    )
    open_weights: bool = Field(default=False, description="Pretrained weights must be downloadable.")
    own_work: bool = Field(
        default=False,
        description="The user speaks of data or work of their own ('our archive', 'we map'): a model to use.",
    )
    precomputed_embeddings: bool = Field(
        default=False,
        description="The user wants embeddings already computed (an embedding product), not a model to run.",
    )
    frozen_encoder: bool = Field(
        default=False,
        description="The encoder is used frozen (linear probe, k-NN, similarity search), not fine-tuned.",
    )
    pretrain_further: bool = Field(
        default=False,
        description="The user will pretrain further, self-supervised, on their own unlabelled archive.",
    )
    conversational: bool = Field(
        default=False, description="The user wants to chat with the model: it must write free text."
    )
    architectures: list[str] = Field(
        default_factory=list,
        description="Backbone families the user accepts ('CNN', 'transformer', 'Mamba'); empty: any.",
    )
    all_inputs: bool = Field(
        default=False,
        description="One model must take every kind of imagery asked for together (fusion), not any one.",
    )
    point_cloud: bool = Field(
        default=False, description="The user's LiDAR is used as points, not rasterised to heights."
    )
    series_model: bool = Field(
        default=False,
        description="The model must take image time series ('a time-series encoder'), not single images.",
    )
    specialist: bool = Field(
        default=False,
        description="A model pretrained on the user's kind of imagery alone ('a SAR-specific model') is "
        "preferred to one that saw it among other kinds.",
    )
    model_kinds: list[str] = Field(
        default_factory=list,
        description="Kinds of imagery that name the model asked for ('a hyperspectral encoder'): it must "
        "take one of them.",
    )
    model_sensors: list[str] = Field(
        default_factory=list,
        description="Satellites that name the model asked for ('models pretrained on Landsat'): its fit to "
        "the user's imagery is judged on them.",
    )
    any_bands: bool = Field(
        default=False,
        description="The model must take arbitrary band sets (wavelength-aware), not one sensor's bands.",
    )
    backbones: list[str] = Field(
        default_factory=list,
        description="Backbones the user asks for by name, a family ('Swin') or a standard one ('ResNet-50').",
    )
    pretrained_on: list[str] = Field(
        default_factory=list,
        description="Datasets the model must have been pretrained on ('pretrained on SSL4EO-S12'): any.",
    )
    pretext: list[str] = Field(
        default_factory=list,
        description=(
            "Pretraining methods the model must use ('contrastive learning', 'masked image modelling', "
            "'self-distillation'): any."
        ),
    )
    min_release_year: int | None = Field(default=None, description="Released in this year or later.")
    max_release_year: int | None = Field(default=None, description="Released in this year or earlier.")
    either_modality: bool = Field(
        default=False,
        description="Any one of the requested RGB and multispectral serves ('optical', 'Maxar imagery').",
    )
    assumed_modality: list[str] = Field(
        default_factory=list,
        description="Typical inputs for the application: a soft preference when no modality is stated.",
    )

    @field_validator("modality", "model_kinds")
    @classmethod
    def _modality(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(normalise_modality(v) for v in value))

    @field_validator("sensor")
    @classmethod
    def _sensor(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(normalise_sensor(v) for v in value))

    @field_validator("task_type")
    @classmethod
    def _task_type(cls, value: str | None) -> str | None:
        return normalise_task_type(value) if value else None

    @field_validator("datasets")
    @classmethod
    def _datasets(cls, value: list[str]) -> list[str]:
        return canonical_datasets(value)

    @field_validator("pretrained_on")
    @classmethod
    def _pretrained_on(cls, value: list[str]) -> list[str]:
        return canonical_datasets(value)

    @field_validator("region")
    @classmethod
    def _region(cls, value: list[str]) -> list[str]:
        vocab = get_vocabulary("regions")
        return list(dict.fromkeys(vocab.get(v) or v for v in value))

    def missing_mandatory(self) -> list[str]:
        """Mandatory fields still empty: named benchmarks stand for the imagery and the task
        ('the best model on EuroSAT', 'the best on PANGAEA')."""
        return [f for f in MANDATORY_FIELDS if not getattr(self, f) and not self.datasets]

    def filled_fields(self) -> list[str]:
        """Names of fields that hold a value."""
        out = []
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, BaseModel):
                if any(v not in (None, [], False) for v in value.model_dump().values()):
                    out.append(name)
            elif value not in (None, [], False, ""):
                out.append(name)
        return out

    def merged_with(self, other: StructuredQuery) -> StructuredQuery:
        """This query with every field ``other`` fills taken from ``other`` (lists are unioned)."""
        data = self.model_dump()
        for name in type(self).model_fields:
            value = getattr(other, name)
            if isinstance(value, list) and value:
                data[name] = list(dict.fromkeys([*data[name], *value]))
            elif isinstance(value, BaseModel) and data[name] is None:
                data[name] = value.model_dump()
            elif isinstance(value, BaseModel):
                for sub, sub_value in value.model_dump().items():
                    if isinstance(sub_value, list) and sub_value:
                        data[name][sub] = list(dict.fromkeys([*data[name][sub], *sub_value]))
                    elif sub_value not in (None, [], False):
                        data[name][sub] = sub_value
            elif value not in (None, [], False, ""):
                data[name] = value
        return StructuredQuery.model_validate(data)
