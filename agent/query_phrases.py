"""A structured query said back as short phrases: what was understood ('flood mapping', 'SAR',
'CPU, about 120M'), and the release years asked for."""

from __future__ import annotations

from collections.abc import Mapping

from agent.query import EITHER_MODALITIES, StructuredQuery, canonical_datasets

_DEVICE_WORDS = {"cpu": "CPU", "edge": "edge device", "single-gpu": "one GPU", "multi-gpu": "several GPUs"}


def _suite_members(suite: str) -> list[str]:
    """A benchmark suite's datasets by their canonical names (as ``datasets`` holds them)."""
    from rsfmd.datasets import suite_datasets

    return canonical_datasets(suite_datasets(suite))


def _resolution_text(resolution: str) -> str:
    """'10 m' as it is; a class with the word: 'high resolution', 'very high resolution (sub-metre)'."""
    if resolution[:1].isdigit() or "resolution" in resolution:
        return resolution
    word, _, detail = resolution.partition(" (")
    return f"{word} resolution ({detail}" if detail else f"{word} resolution"


def _size_text(millions: float) -> str:
    """'300M', '1B', '1.5B'."""
    return f"{millions / 1000:g}B" if millions >= 1000 else f"{millions:g}M"


def summary(query: StructuredQuery, names: Mapping[str, str] | None = None) -> list[str]:
    """What was understood, as short phrases (e.g. 'flood mapping', 'SAR', 'CPU, about 120M').

    ``names`` gives the display name of an excluded model id ('not TerraMind', not 'not terramind').
    """
    parts: list[str] = []
    if query.application:
        parts.append(query.application)
    elif query.task_type:
        parts.append(query.task_type)
    either = [m for m in query.modality if query.either_modality and m in EITHER_MODALITIES]
    if either:
        parts.append(" or ".join(sorted(either, key=lambda m: m != "RGB")))
    parts.extend(m for m in query.modality if m not in either)
    parts.extend(s for s in query.sensor if s not in parts)
    if query.spatial_resolution:
        parts.append(_resolution_text(query.spatial_resolution))
    if query.data_regime:
        parts.append(query.data_regime.replace("-", " "))
    if query.frozen_encoder:
        parts.append("frozen encoder")
    if query.conversational:
        parts.append("writes free text (chat)")
    parts.extend(_size_phrases(query))
    floor = query.min_performance
    if floor is not None:
        parts.extend(f"{m} at least {v:g}" for m, v in zip(floor.metric, floor.value, strict=True))
    parts.extend(f"priority: {p}" for p in query.priorities)
    if query.region:
        parts.append("region: " + ", ".join(query.region))
    if query.datasets:
        # A suite is shown by its name, not its dozen datasets.
        members = {d for suite in query.suites for d in _suite_members(suite)}
        named = [f"{s} ({len(_suite_members(s))} datasets)" for s in query.suites]
        parts.append("on " + ", ".join([*named, *(d for d in query.datasets if d not in members)]))
    parts.extend(_choice_phrases(query, names))
    return parts


def _size_phrases(query: StructuredQuery) -> list[str]:
    """The device and parameter bounds, as phrases."""
    parts: list[str] = []
    limit = query.compute.parameter_limit()
    if query.compute.max_parameters_m is not None:
        bound = "fewer than" if query.compute.below_limit else "at most"
        parts.append(f"{bound} {_size_text(query.compute.max_parameters_m)} parameters")
    elif query.compute.device_class and limit is not None:
        device = _DEVICE_WORDS.get(query.compute.device_class, query.compute.device_class)
        parts.append(f"{device} (about {limit:g}M parameters)")
    elif query.compute.device_class:
        parts.append(_DEVICE_WORDS.get(query.compute.device_class, query.compute.device_class))
    if query.compute.min_parameters_m is not None:
        bound = "more than" if query.compute.above_floor else "at least"
        parts.append(f"{bound} {_size_text(query.compute.min_parameters_m)} parameters")
    return parts


def _choice_phrases(query: StructuredQuery, names: Mapping[str, str] | None) -> list[str]:
    """Exclusions, licences, weights, years, architectures, backbones and pretraining, as phrases."""
    models = [(names or {}).get(m, m) for m in query.exclusions.models]
    excluded = [*query.exclusions.modalities, *query.exclusions.sensors, *query.exclusions.regions, *models]
    either = " or ".join
    said = [
        (excluded, "not " + ", ".join(excluded)),
        (query.licenses, "licence: " + either(query.licenses)),
        (query.commercial_use and not query.licenses, "commercial use"),
        (query.open_weights, "open weights"),
        (query.precomputed_embeddings, "precomputed embeddings"),
        (years := release_years(query), years or ""),
        (query.architectures, "architecture: " + either(query.architectures)),
        (query.all_inputs, "every input in one model"),
        (query.series_model, "a model for time series"),
        (query.model_kinds, f"a {either(query.model_kinds)} model"),
        (query.model_sensors, f"preferably pretrained on {either(query.model_sensors)} imagery"),
        (query.specialist, "a specialist for your kind of imagery"),
        (query.any_bands, "any band set (wavelength-aware)"),
        (query.backbones, "backbone: " + either(query.backbones)),
        (query.pretrained_on, "pretrained on " + either(query.pretrained_on)),
        (query.pretext, "pretrained by " + either(query.pretext)),
    ]
    return [phrase for holds, phrase in said if holds]


def release_years(query: StructuredQuery) -> str | None:
    """'released in 2025', 'released 2024 or later', 'released 2022 or earlier', or None."""
    earliest, latest = query.min_release_year, query.max_release_year
    if earliest is not None and earliest == latest:
        return f"released in {earliest}"
    if earliest is not None and latest is not None:
        return f"released {earliest} to {latest}"
    if earliest is not None:
        return f"released {earliest} or later"
    if latest is not None:
        return f"released {latest} or earlier"
    return None
