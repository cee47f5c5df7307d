"""Candidates filtered by the hard constraints, with closest matches when too few meet them all."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from agent.query import StructuredQuery
from rsfmd.schema import ModelRecord
from rsfmd.vocab import TEXT_ANSWER_TASKS
from tools.filtering import cannot_download, released_trained_for, size_for_user, violations
from tools.ranking import RARE_INPUT_RELAXABLE, RELAXATION_ORDER, distinctive_modalities, takes_rare


@dataclass
class FilterOutcome:
    """Survivors, why the others were rejected, and which constraints were relaxed."""

    survivors: list[ModelRecord]
    rejected: dict[str, list[str]] = field(default_factory=dict)
    relaxed: dict[str, list[str]] = field(default_factory=dict)
    """model id -> constraints it violates but was kept for (closest match)."""
    rare_short: bool = False
    """Fewer models than wanted take the input few models take (a thermal band beside RGB)."""
    short: bool = False
    """Fewer models than wanted meet every constraint and can be downloaded when the user needs to."""

    @property
    def strict_count(self) -> int:
        """How many kept models meet every constraint (none relaxed)."""
        return len(self.strict)

    @property
    def strict(self) -> list[ModelRecord]:
        """The kept models that meet every constraint."""
        return [r for r in self.survivors if r.model_id not in self.relaxed]

    @property
    def relaxed_constraints(self) -> list[str]:
        """Every constraint relaxed for at least one kept model."""
        return sorted({c for cs in self.relaxed.values() for c in cs})

    def keep_closest(self, record: ModelRecord, broken: Collection[str]) -> None:
        """Keep ``record`` as a closest match despite the constraints it breaks (``broken``)."""
        self.survivors.append(record)
        self.relaxed[record.model_id] = sorted(broken)
        self.rejected.pop(record.model_id, None)


# The constraints bent, in turn, to fill a short answer. Weights are not among them: they break
# only when the user needs them, and then a model they cannot get is no closest match at all.
FILLING_ORDER = tuple(c for c in RELAXATION_ORDER if c != "weights")
# Embeddings computed from another sensor's imagery, for a user who must compute their own (no
# encoder released to run on it), serve nothing: no closest match.
UNUSABLE = frozenset({"encoder", "sensor"})
# What a ready task model may break and still come closest for a task the user has no labels for.
READY_MODEL_RELAXABLE = frozenset({"sensor", "band_flexibility"})


def filter_candidates(
    records: Sequence[ModelRecord],
    query: StructuredQuery,
    minimum: int = 1,
) -> FilterOutcome:
    """Keep records that break no rule; when fewer than ``minimum`` survive, add closest matches.

    Closest matches break only constraints from FILLING_ORDER, relaxed one at a time in that
    order; a modality mismatch is never relaxed, so a SAR task never gets an optical-only model, nor
    are unreleased weights, so a user who must run the model never gets one they cannot download.
    When the task's inputs include one few models take (``distinctive_modalities``) and fewer than
    ``minimum`` models taking it survive, those documented for another sensor, or over a size budget
    read from the device (not one the user stated), are added as closest matches too; so are task
    models released trained for the application, documented for another sensor, when the user has
    no labels and nothing else gives the output as it is.
    """
    broken = {r.model_id: violations(r, query) for r in records}
    survivors = [r for r in records if not broken[r.model_id]]
    outcome = FilterOutcome(
        survivors=survivors,
        rejected={mid: list(v.values()) for mid, v in broken.items() if v},
    )
    rare = distinctive_modalities(query)
    if rare and sum(takes_rare(r, query, rare) for r in survivors) < minimum:
        # A size budget the user stated is theirs; one read from the device is an estimate.
        bendable = RARE_INPUT_RELAXABLE - (
            {"compute"} if query.compute.max_parameters_m is not None else set()
        )
        for record in records:
            if (
                takes_rare(record, query, rare)
                and broken[record.model_id]
                and set(broken[record.model_id]) <= bendable
                and not _far_over_budget(record, query)
            ):
                outcome.keep_closest(record, broken[record.model_id])
    if query.data_regime == "zero-shot" and not any(
        released_trained_for(r, query.application) for r in survivors
    ):
        # Nothing meeting every constraint gives the output without labels: a task model released
        # trained for the application, documented for another sensor, comes closest.
        for record in records:
            if (
                released_trained_for(record, query.application)
                and broken[record.model_id]
                and set(broken[record.model_id]) <= READY_MODEL_RELAXABLE
            ):
                outcome.keep_closest(record, broken[record.model_id])
    outcome.rare_short = bool(rare) and sum(takes_rare(r, query, rare) for r in outcome.survivors) < minimum
    outcome.short = sum(_obtainable(r, query, outcome) for r in outcome.strict) < minimum
    if not outcome.short:
        return outcome
    allowed: set[str] = set()
    for constraint in FILLING_ORDER:
        allowed.add(constraint)
        extra = [
            r
            for r in records
            if broken[r.model_id]
            and set(broken[r.model_id]) <= allowed
            and r not in outcome.survivors
            and not ("compute" in broken[r.model_id] and _over_stated_budget(r, query))
            and not _of_no_use(r, query, broken[r.model_id])
        ]
        extra.sort(key=lambda r: len(broken[r.model_id]))
        for record in extra:
            outcome.keep_closest(record, broken[record.model_id])
        if sum(_obtainable(r, query, outcome) for r in outcome.survivors) >= minimum:
            break
    return outcome


def _obtainable(record: ModelRecord, query: StructuredQuery, outcome: FilterOutcome) -> bool:
    """Whether the user can get the record's weights when they need them: one they cannot is no help."""
    return not cannot_download(record, query, outcome.relaxed.get(record.model_id, []))


# A device's budget bends for a model that takes the rare input, but not without bound: a model
# several times the size a laptop or a Jetson is read to hold does not run there.
BENDABLE_OVER_BUDGET = 4.0


def _of_no_use(record: ModelRecord, query: StructuredQuery, broken: Collection[str]) -> bool:
    """Whether the model breaks constraints that leave it of no use to the user: embeddings of another
    sensor's imagery with no encoder to compute the user's own, or no text written for a task whose
    answer is text (a caption, an answer)."""
    writes_text = bool(TEXT_ANSWER_TASKS & set(record.all_task_types))
    answer_in_text = "task" in broken and query.task_type in TEXT_ANSWER_TASKS and not writes_text
    return set(broken) >= UNUSABLE or answer_in_text


def _over_stated_budget(record: ModelRecord, query: StructuredQuery) -> bool:
    """Whether the model is not known to fit a size limit the user said in parameters: theirs, not an
    estimate from their GPU's memory or kind of device, so no closest match bends it."""
    limit = query.compute.max_parameters_m
    if limit is None or not query.compute.limit_said:
        return False
    size = size_for_user(record, query)
    return size is None or size > limit


def _far_over_budget(record: ModelRecord, query: StructuredQuery) -> bool:
    """Whether the model is so far over the device's budget that bending it would be no help."""
    limit = query.compute.parameter_limit()
    size = size_for_user(record, query)
    return limit is not None and size is not None and size > BENDABLE_OVER_BUDGET * limit
