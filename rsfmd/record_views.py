"""What the tools read from an RS-FMD record beyond its stored fields: task types with those of its
results, sizes of its released variants, whether its weights are out, its backbones' families.
``ModelRecord`` (``rsfmd/schema.py``) takes these views from ``RecordViews``."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from rsfmd.traits import architecture_families, names_a_generative_llm, names_prompts

if TYPE_CHECKING:
    from rsfmd.schema import Benchmark, Variant


class RecordViews:
    """Derived views of a record, read from the fields ``ModelRecord`` stores."""

    if TYPE_CHECKING:
        task_types: list[str]
        benchmarks: list[Benchmark]
        backbone: str | None
        short_description: str
        pretext_training_type: str | None
        notes: str | None
        variants: list[Variant]
        num_parameters: float | None
        weights_available: bool | None
        weights: str | None
        release_date: dt.date | None
        release_year: int | None

    @property
    def all_task_types(self) -> list[str]:
        """Declared task types plus those of the reported benchmarks."""
        return list(dict.fromkeys([*self.task_types, *(b.task_type for b in self.benchmarks)]))

    @property
    def writes_text(self) -> bool:
        """Whether the model writes free text (captions, answers): it captions, or is built on a
        large language model. CLIP-style models answer only by picking from given choices."""
        if "captioning" in self.all_task_types:
            return True
        return names_a_generative_llm(f"{self.backbone or ''} {self.short_description}")

    @property
    def backbone_text(self) -> str:
        """The record's backbone and its variants' backbones and names, as one text."""
        return " | ".join([self.backbone or "", *(f"{v.backbone or ''} {v.name}" for v in self.variants)])

    @property
    def architectures(self) -> frozenset[str]:
        """Architecture families of the record's backbones ('CNN', 'transformer', 'Mamba'), from
        their names; empty when no backbone names one."""
        return architecture_families(
            " ".join([self.backbone or "", *(v.backbone or "" for v in self.variants)])
        )

    @property
    def takes_prompts(self) -> bool:
        """Whether the model segments from point or box prompts (SAM-style), as its record says."""
        if not {"segmentation", "instance segmentation"} & set(self.all_task_types):
            return False
        described = " ".join(
            [self.backbone or "", self.short_description, self.pretext_training_type or "", self.notes or ""]
        )
        return names_prompts(described)

    @property
    def released_variants(self) -> list[Variant]:
        """The variants not known to lack a public checkpoint."""
        return [v for v in self.variants if v.released is not False]

    @property
    def released_sizes(self) -> list[float]:
        """Parameters (millions) of the main variant and of every released one, where stated."""
        sizes = [v.num_parameters for v in self.released_variants if v.num_parameters is not None]
        return sizes + ([self.num_parameters] if self.num_parameters is not None else [])

    @property
    def smallest_parameters(self) -> float | None:
        """Parameters (millions) of the smallest released variant, when known."""
        return min(self.released_sizes, default=None)

    @property
    def largest_parameters(self) -> float | None:
        """Parameters (millions) of the largest released variant, when known."""
        return max(self.released_sizes, default=None)

    @property
    def weights_released(self) -> bool | None:
        """Whether pretrained weights are out: the stated flag, else True when a weights link is known."""
        if self.weights_available is not None:
            return self.weights_available
        return True if self.weights else None

    @property
    def year(self) -> int | None:
        """Release year: from the release date, else from release_year."""
        return self.release_date.year if self.release_date else self.release_year
