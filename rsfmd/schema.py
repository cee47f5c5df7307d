"""Pydantic schema of an RS-FMD record (REMSA paper, Table 4) plus what selection needs.

Metric convention: bounded metrics (accuracy, mIoU, F1, mAP, ...) are stored in percent (0-100);
unbounded ones (RMSE, MAE, FID) in their natural unit. ``rsfmd/vocab/metrics.csv`` gives each
metric's direction, range and scale.
"""

from __future__ import annotations

import datetime as dt
import re
from enum import StrEnum
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    HttpUrl,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from rsfmd.record_views import RecordViews
from rsfmd.usage import Usage
from rsfmd.vocab import (
    metric_info,
    normalise_metric,
    normalise_modality,
    normalise_sensor,
    normalise_task_type,
)

_HTTP_URL: TypeAdapter[HttpUrl] = TypeAdapter(HttpUrl)
MODEL_ID_PATTERN = r"^[a-z0-9][a-z0-9.+\-]*$"


def _check_url(value: str) -> str:
    value = value.strip()
    try:
        _HTTP_URL.validate_python(value)
    except ValidationError as exc:
        raise ValueError(f"not a valid http(s) URL: {value!r}") from exc
    if " " in value:
        raise ValueError(f"URL contains a space: {value!r}")
    return value


Url = Annotated[str, AfterValidator(_check_url)]
"""An http(s) URL, validated but kept verbatim."""


class Alignment(StrEnum):
    """Whether a model models spectral or temporal continuity (paper Table 4)."""

    full = "full"
    partial = "partial"
    none = "none"


class Category(StrEnum):
    """Family of the model, following the sections of the Awesome-RSFM list."""

    vision = "vision"
    vision_language = "vision-language"
    generative = "generative"
    vision_location = "vision-location"
    vision_audio = "vision-audio"
    task_specific = "task-specific"
    embedding_product = "embedding-product"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, use_enum_values=False)


def _dedupe(values: list[str]) -> list[str]:
    out: list[str] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


class Source(_Strict):
    """A document that supports some fields of a record."""

    url: Url
    fields: list[str] = Field(
        default_factory=list,
        description="Record fields this source supports (ModelRecord field names).",
    )
    note: str | None = Field(default=None, description="Where in the source, e.g. 'Table 3'.")


class Variant(_Strict):
    """One released size or configuration of a model."""

    name: str = Field(min_length=1)
    num_parameters: float | None = Field(
        default=None, ge=0, description="Parameters in millions (encoder, unless noted)."
    )
    backbone: str | None = None
    embedding_dim: int | None = Field(default=None, gt=0)
    num_layers: int | None = Field(default=None, gt=0)
    weights: Url | None = None
    released: bool | None = Field(default=None, description="False: described, but no public checkpoint.")
    modalities: list[str] = Field(
        default_factory=list,
        description="Inputs of this checkpoint its name does not say (a Landsat one taking thermal bands).",
    )

    @field_validator("modalities")
    @classmethod
    def _modalities(cls, value: list[str]) -> list[str]:
        return _dedupe([normalise_modality(v) for v in value])

    @property
    def checkpoint_note(self) -> str:
        """' (no public checkpoint)' after a variant known to lack one, else nothing."""
        return " (no public checkpoint)" if self.released is False else ""


class PretrainingPhase(_Strict):
    """One pretraining stage (paper Table 4, nested PretrainingPhase)."""

    dataset: str | None = None
    regions_coverage: list[str] = Field(default_factory=list)
    time_range: str | None = None
    num_images: int | None = Field(default=None, ge=0)
    token_size: str | None = None
    image_resolution: str | None = None
    epochs: int | None = Field(default=None, ge=0)
    batch_size: int | None = Field(default=None, gt=0)
    learning_rate: str | None = None
    augmentations: list[str] = Field(default_factory=list)
    processing: list[str] = Field(default_factory=list)
    sampling: str | None = None
    processing_level: str | None = None
    cloud_cover: str | None = None
    missing_data: str | None = None
    masking_ratio: float | None = Field(default=None, ge=0, le=1)
    sensors: list[str] = Field(default_factory=list, description="Sensors in this dataset.")

    @field_validator("sensors")
    @classmethod
    def _sensors(cls, value: list[str]) -> list[str]:
        return _dedupe([normalise_sensor(v) for v in value])


class Benchmark(_Strict):
    """One reported evaluation (paper Table 4, nested Benchmark), with its source."""

    task_type: str = Field(description="Task type from rsfmd/vocab/task_types.csv.")
    application: str | None = Field(default=None, description="Specific application (free text).")
    dataset: str = Field(min_length=1)
    metrics: list[str] = Field(min_length=1)
    metrics_value: list[float] = Field(min_length=1)
    sensor: list[str] = Field(default_factory=list)
    regions: list[str] = Field(default_factory=list)
    original_samples: int | None = Field(default=None, ge=0)
    num_samples: int | None = Field(default=None, ge=0)
    sampling_percentage: float | None = Field(
        default=None, gt=0, le=100, description="Label fraction used, in percent."
    )
    num_classes: int | None = Field(default=None, gt=0)
    classes: list[str] = Field(default_factory=list)
    image_resolution: str | None = None
    spatial_resolution: str | None = None
    bands_used: list[str] = Field(default_factory=list)
    augmentations: list[str] = Field(default_factory=list)
    optimizer: str | None = None
    batch_size: int | None = Field(default=None, gt=0)
    learning_rate: float | None = Field(default=None, gt=0)
    epochs: int | None = Field(default=None, ge=0)
    loss_function: str | None = None
    split_ratio: str | None = None
    setting: str | None = Field(
        default=None,
        description="Evaluation protocol: fine-tune, linear probe, frozen encoder, kNN, zero-shot...",
    )
    variant: str | None = Field(default=None, description="Which released variant was evaluated.")
    source_url: Url = Field(description="Where the numbers come from.")
    source_note: str | None = Field(default=None, description="Table or section in the source.")

    @field_validator("task_type")
    @classmethod
    def _task_type(cls, value: str) -> str:
        return normalise_task_type(value)

    @field_validator("metrics")
    @classmethod
    def _metrics(cls, value: list[str]) -> list[str]:
        return [normalise_metric(v) for v in value]

    @field_validator("sensor")
    @classmethod
    def _sensor(cls, value: list[str]) -> list[str]:
        return _dedupe([normalise_sensor(v) for v in value])

    @model_validator(mode="after")
    def _values_match_metrics(self) -> Benchmark:
        if len(self.metrics) != len(self.metrics_value):
            raise ValueError(
                f"metrics has {len(self.metrics)} names but metrics_value has "
                f"{len(self.metrics_value)} values; give one value per metric"
            )
        for metric, value in zip(self.metrics, self.metrics_value, strict=True):
            info = metric_info(metric)
            if not info.minimum <= value <= info.maximum:
                raise ValueError(
                    f"{metric} value {value} is outside [{info.minimum:g}, {info.maximum:g}] "
                    f"({info.scale}); bounded metrics are stored in percent"
                )
        return self

    def values(self) -> dict[str, float]:
        """Metric name to value."""
        return dict(zip(self.metrics, self.metrics_value, strict=True))


class ModelRecord(_Strict, RecordViews):
    """One remote-sensing foundation model in RS-FMD."""

    # Identity and links (paper Table 4, main fields).
    model_id: str = Field(pattern=MODEL_ID_PATTERN, description="Stable lower-case identifier.")
    model_name: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list, description="Other names of this model.")
    version: str | None = None
    release_date: dt.date | None = None
    release_year: int | None = Field(
        default=None,
        ge=1990,
        le=2100,
        description="Year of first release when the exact date is not known (e.g. from an arXiv id).",
    )
    last_updated: dt.date | None = None
    short_description: str = Field(min_length=10, max_length=1200)
    paper_link: Url | None = None
    citations: int | None = Field(default=None, ge=0)
    repository: Url | None = None
    weights: Url | None = None
    # Architecture.
    backbone: str | None = None
    num_layers: int | None = Field(default=None, gt=0)
    num_parameters: float | None = Field(
        default=None, ge=0, description="Parameters in millions of the main reported variant."
    )
    variants: list[Variant] = Field(default_factory=list)
    embedding_dim: int | None = Field(default=None, gt=0)
    # Pretraining.
    pretext_training_type: str | None = None
    masking_strategy: str | None = None
    pretraining: str | None = None
    domain_knowledge: list[str] = Field(default_factory=list)
    backbone_modifications: list[str] = Field(default_factory=list)
    pretraining_phases: list[PretrainingPhase] = Field(default_factory=list)
    # Data the model takes.
    supported_sensors: list[str] = Field(default_factory=list)
    modality_integration_type: str | None = None
    modalities: list[str] = Field(default_factory=list)
    spectral_alignment: Alignment | None = None
    temporal_alignment: Alignment | None = None
    spatial_resolution: str | None = None
    temporal_resolution: str | None = None
    bands: list[str] = Field(default_factory=list)
    # What selection needs beyond the paper.
    category: Category
    task_types: list[str] = Field(
        default_factory=list, description="Task types the model is built or shown to handle."
    )
    license: str | None = None
    weights_available: bool | None = None
    github_stars: int | None = Field(default=None, ge=0)
    benchmarks: list[Benchmark] = Field(default_factory=list)
    sources: list[Source] = Field(min_length=1)
    usage: list[Usage] = Field(
        default_factory=list,
        description="Ways to load the model, kept in rsfmd/data/usage.csv and joined on loading.",
    )
    confidence: dict[str, float] = Field(
        default_factory=dict, description="Per-field confidence in [0, 1]; absent means unrated."
    )
    verified: dict[str, bool] = Field(
        default_factory=dict, description="Per-field flag: checked by a reviewer against a source."
    )
    notes: str | None = None

    @field_validator("modalities")
    @classmethod
    def _modalities(cls, value: list[str]) -> list[str]:
        return _dedupe([normalise_modality(v) for v in value])

    @field_validator("supported_sensors")
    @classmethod
    def _sensors(cls, value: list[str]) -> list[str]:
        return _dedupe([normalise_sensor(v) for v in value])

    @field_validator("task_types")
    @classmethod
    def _task_types(cls, value: list[str]) -> list[str]:
        return _dedupe([normalise_task_type(v) for v in value])

    @field_validator("confidence")
    @classmethod
    def _confidence(cls, value: dict[str, float]) -> dict[str, float]:
        for name, score in value.items():
            _check_field_name(name)
            if not 0.0 <= score <= 1.0:
                raise ValueError(f"confidence of {name!r} is {score}; it must be in [0, 1]")
        return value

    @field_validator("verified")
    @classmethod
    def _verified(cls, value: dict[str, bool]) -> dict[str, bool]:
        for name in value:
            _check_field_name(name)
        return value

    @model_validator(mode="after")
    def _consistency(self) -> ModelRecord:
        for source in self.sources:
            for name in source.fields:
                _check_field_name(name)
        if self.last_updated and self.release_date and self.last_updated < self.release_date:
            raise ValueError("last_updated is before release_date")
        if self.release_date and self.release_year and self.release_year != self.release_date.year:
            raise ValueError("release_year disagrees with release_date: keep one of them")
        if missing := {m for v in self.variants for m in v.modalities} - set(self.modalities):
            taken = ", ".join(sorted(missing))
            raise ValueError(f"a variant takes {taken}: add it to the model's modalities")
        if self.weights_available is False and self.weights:
            raise ValueError(
                "weights_available is false but a weights link is given: drop the link, "
                "or set weights_available to true if the weights are out"
            )
        return self

    def to_json_line(self) -> str:
        """One JSONL line, without empty optional fields or the usage rows (kept in usage.csv)."""
        return self.model_dump_json(exclude_defaults=True, exclude={"usage"})


FIELD_NAMES: frozenset[str] = frozenset(ModelRecord.model_fields)


def _check_field_name(name: str) -> None:
    root = re.split(r"[.\[]", name, maxsplit=1)[0]
    if root not in FIELD_NAMES:
        raise ValueError(f"{name!r} is not a ModelRecord field")
