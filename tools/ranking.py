"""Ranking tool: score filtered candidates on evidence, with weights that follow the query.

Seven criteria after the REMSA rubric (application compatibility, modality match, reported
performance, efficiency, generalisability, popularity, recency) plus data-regime fit when the user
states how much labelled data they have; the criteria themselves live in tools/criteria.py,
tools/result_credit.py and tools/region_fit.py. Weights start from the paper's expert weights
(25/20/20/15/10/5/5) and shift with the query's priorities (templates A1-D4); how closely a record
reads like the task, and how experts judged similar curated requests (tools/precedent.py), take
fixed shares. This module sums them, orders the candidates and gives each its confidence.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from agent.query import StructuredQuery
from agent.query_phrases import release_years
from agent.wording import with_article
from rsfmd.datasets import evaluated_on
from rsfmd.licenses import allows_commercial_use, within_licenses
from rsfmd.schema import ModelRecord
from rsfmd.vocab import airborne, typical_modalities
from tools.candidate import Candidate, Criterion, Predict
from tools.criteria import (
    application_fit,
    modality_counts,
    modality_fit,
    popularity_fit,
    recency_fit,
    release_day,
)
from tools.evidence import EvidenceIndex
from tools.filtering import OUTPUT_TASKS, cannot_download, size_for_user
from tools.fit import availability_fit, efficiency_fit, focus_fit, focus_kind, imagery_fit
from tools.inputs import MAP_INPUTS, compatible_for, requested_imagery, requested_modalities, takes_any
from tools.precedent import PrecedentFit
from tools.region_fit import generalizability_fit, shorten
from tools.result_credit import frozen_fit, performance_fit, regime_fit
from tools.variants import sensors_taking

BASE_WEIGHTS: dict[str, float] = {
    "application": 0.25,
    "modality": 0.20,
    "performance": 0.20,
    "efficiency": 0.15,
    "generalizability": 0.10,
    "popularity": 0.05,
    "recency": 0.05,
}


# The share of the score that goes to how closely a model's record reads like the task (sentence
# embeddings of the task and of the record): what a model was built and described for, which its
# benchmark rows may not show.
DESCRIPTION_WEIGHT = 0.05


def query_weights(
    query: StructuredQuery, described: bool = False, precedent: float = 0.0
) -> dict[str, float]:
    """Criterion weights for this query (sum to 1); ``described``: the candidates' records were
    compared with the task's text, and that closeness takes its fixed share; ``precedent``: the share
    of how experts judged similar requests, when any is close."""
    w = dict(BASE_WEIGHTS)
    priorities = set(query.priorities)
    if "accuracy" in priorities:
        w["performance"] += 0.10
        w["efficiency"] -= 0.05
    if priorities & {"precision", "recall"}:
        w["performance"] += 0.05
    if priorities & {"speed", "efficiency"} or query.compute.device_class in {"edge", "cpu"}:
        w["efficiency"] += 0.15
        w["performance"] -= 0.03
    if query.compute.device_class == "multi-gpu" and "accuracy" not in priorities:
        w["performance"] += 0.05
        w["efficiency"] -= 0.07
    if query.compute.size_waived:
        # 'model size is no concern': how light a model is earns nothing.
        w["efficiency"] = 0.0
    if "generalization" in priorities:
        w["generalizability"] += 0.10
    elif not query.region and query.data_regime in {"full-labels", "few-shot"}:
        # A model trained on the user's own labels for one area: the breadth of its pretraining
        # (regions, image count) weighs less than for one used as is or across regions.
        w["generalizability"] -= 0.05
    if "recency" in priorities:
        w["recency"] += 0.15
    if "adoption" in priorities:
        w["popularity"] += 0.15
    if query.data_regime is not None:
        # Without labels, a model that must be trained first is hardly usable at all.
        w["data_regime"] = {"zero-shot": 0.30, "full-labels": 0.08}.get(query.data_regime, 0.18)
    if query.frozen_encoder:
        w["frozen_encoder"] = 0.15
    # Using a model on one's own data: its pretraining imagery against the user's sensor and
    # resolution, and whether the weights can be had at all.
    if query.sensor or query.spatial_resolution_m is not None:
        w["imagery"] = 0.15
        if query.data_regime == "unlabeled":
            # Unlabelled data only (to cluster, search or pretrain further on): what the model was
            # pretrained on matters more than its results on a downstream task that may come later.
            w["imagery"] += 0.10
            w["application"] -= 0.10
    if focus_kind(query):
        w["focus"] = 0.05
    # A user who names the machine it will run on runs it themselves: weights they cannot
    # download weigh more than in a survey of what exists.
    w["availability"] = 0.20 if query.compute.device_class else 0.12
    total = sum(max(v, 0.0) for v in w.values())
    rest = 1.0 - (DESCRIPTION_WEIGHT if described else 0.0) - precedent
    weights = {k: rest * max(v, 0.0) / total for k, v in w.items()}
    if described:
        weights["description"] = DESCRIPTION_WEIGHT
    if precedent:
        weights["precedent"] = precedent
    return weights


def description_fit(c: Candidate, low: float, high: float) -> Criterion:
    """How closely the record reads like the task, from the least (0) to the most (1) similar candidate."""
    score = (c.similarity - low) / (high - low) if high > low else 0.5
    score = max(0.0, min(1.0, score))
    return Criterion(score, evidence=["described much like your task"] if score >= 0.75 else [])


def precedent_fit(fit: PrecedentFit | None) -> Criterion:
    """How experts judged this model for the curated requests most similar to the task."""
    if fit is None or not fit.score:
        return Criterion(0.0)
    quoted = shorten(fit.closest_text, 70)
    n = len(fit.requests)
    said = "a similar request" if n == 1 else f"{n} similar requests"
    ids = ", ".join(fit.requests[:3])
    main = f"judged a good pick for {said}, e.g. '{quoted}' ({ids})"
    if fit.why:
        main += f": {shorten(fit.why, 120)}"
    return Criterion(fit.score, evidence=[main, *([f"source: {fit.source_url}"] if fit.source_url else [])])


def unconfirmed_requirements(record: ModelRecord, query: StructuredQuery) -> list[str]:
    """The user's licence, weights, release-year and backbone requirements RS-FMD cannot confirm for
    this record."""
    out = []
    if query.licenses and within_licenses(record.license, query.licenses) is None:
        out.append(f"{with_article(' or '.join(query.licenses))} licence")
    elif query.commercial_use and allows_commercial_use(record.license) is None:
        out.append("commercial use")
    if query.open_weights and record.weights_released is None:
        out.append("downloadable weights")
    if (years := release_years(query)) and record.year is None:
        out.append(years)
    if query.architectures and not record.architectures:
        out.append(f"{with_article(' or '.join(query.architectures))} backbone")
    return out


def no_result_on_application(candidates: Sequence[Candidate], query: StructuredQuery) -> bool:
    """Whether the task names an application on which none of ``candidates`` reports a result."""
    return bool(query.application) and not any(evaluated_on(c.record, query.application) for c in candidates)


# Relaxed in this order when nothing (or too little) survives; modality is never relaxed.
RELAXATION_ORDER: tuple[str, ...] = (
    "min_performance",
    "precomputed_embeddings",
    "sensor",
    # Reading the images as a series bends before taking every kind of imagery the user has.
    "series",
    "all_inputs",
    "release_year",
    "architecture",
    "backbone",
    "band_flexibility",
    "pretraining",
    "exclusions",
    "encoder",
    "license",
    "compute",
    # Taking the user's data only through a related input (RGB of their bands) bends before the
    # task: a model that does not produce the output asked for, or reads no text, is of no use.
    "imagery",
    "task",
    # A model over the budget, or shown on another task, can still be run; one whose weights are not
    # released cannot (when weights are not needed, nothing is relaxed for them).
    "weights",
)


# A requested modality this many times rarer in RS-FMD than another requested one is what makes
# the task the user's: DEM beside Sentinel-2, thermal beside RGB, audio beside imagery.
DISTINCTIVE_RARITY = 4.0
# A model taking that input, though documented for another sensor, over the size budget read from
# the device or not wavelength-aware, answers the task better than one that cannot take it at all.
RARE_INPUT_RELAXABLE = frozenset({"sensor", "compute", "band_flexibility"})


def distinctive_modalities(query: StructuredQuery) -> frozenset[str]:
    """The requested input modalities far rarer in RS-FMD than another requested one; and image
    pairs or series when the answer is text about them ('what changed between these two images?')."""
    # (pairs read in the task, or the application's usual input: change captioning takes pairs)
    series = query.multi_temporal or "Multi-temporal" in typical_modalities(query.application)
    pairs = {"Multi-temporal"} if series and query.task_type in OUTPUT_TASKS else set()
    wanted = requested_modalities(query) - MAP_INPUTS
    if len(wanted) < 2:
        return frozenset(pairs)
    counts = modality_counts()
    common = max(counts.get(m, 0) for m in wanted)
    return frozenset({m for m in wanted if counts.get(m, 0) * DISTINCTIVE_RARITY <= common} | pairs)


def flown_apart(record: ModelRecord, query: StructuredQuery, inputs: Collection[str] = ()) -> bool:
    """The user's imagery is all airborne and the record documented for satellites only, or the
    reverse: the rare input it takes (satellite thermal at 100 m) is not the user's (drone frames).
    With ``inputs``, only the sensors the record takes them from count."""
    theirs = {a for s in query.sensor if (a := airborne(s)) is not None}
    ours = {a for s in sensors_taking(record, inputs) if (a := airborne(s)) is not None}
    return len(theirs) == 1 and bool(ours) and not theirs & ours


def takes_rare(record: ModelRecord, query: StructuredQuery, rare: frozenset[str]) -> bool:
    """Whether the record takes the rare input asked for, from the user's kind of platform."""
    return takes_any(record, rare, compatible_for(query)) and not flown_apart(record, query, rare)


def score_candidates(
    candidates: Sequence[Candidate],
    query: StructuredQuery,
    index: EvidenceIndex,
    predict: Predict | None = None,
    unevidenced: bool | None = None,
    precedents: Mapping[str, PrecedentFit] | None = None,
    precedent_share: float = 0.0,
) -> list[Candidate]:
    """Score every candidate (0-100) with per-model confidence; best first. ``unevidenced``:
    ``no_result_on_application`` of the candidates, when the caller has it already; ``precedents``:
    per model, how experts judged it for similar requests (``precedent_share`` of the score)."""
    similarities = [c.similarity for c in candidates if c.similarity > 0.0]
    share = precedent_share if precedents else 0.0
    weights = query_weights(query, described=bool(similarities), precedent=share)
    low, high = (min(similarities), max(similarities)) if similarities else (0.0, 0.0)
    kind = focus_kind(query)
    dates = [d for c in candidates if (d := release_day(c.record))]
    newest = max(dates) if "recency" in query.priorities and dates else None
    if unevidenced is None:
        unevidenced = no_result_on_application(candidates, query)
    for c in candidates:
        crit = {
            "application": application_fit(c, query, unevidenced),
            "modality": modality_fit(c, query),
            "performance": performance_fit(c, query, index, predict),
            "efficiency": efficiency_fit(c, query),
            "generalizability": generalizability_fit(c, query),
            "popularity": popularity_fit(c),
            "recency": recency_fit(c, newest),
        }
        if "data_regime" in weights:
            crit["data_regime"] = regime_fit(c, query)
        if "frozen_encoder" in weights:
            crit["frozen_encoder"] = frozen_fit(c)
        if "imagery" in weights and (imagery := imagery_fit(c.record, query)) is not None:
            crit["imagery"] = Criterion(imagery[0], evidence=imagery[1])
        if "description" in weights:
            crit["description"] = description_fit(c, low, high)
        if kind is not None:
            focus, why = focus_fit(c.record, kind)
            crit["focus"] = Criterion(focus, evidence=why)
        if share:
            crit["precedent"] = precedent_fit((precedents or {}).get(c.record.model_id))
        available, why, known = availability_fit(c.record)
        crit["availability"] = Criterion(available, evidence=why, known=known)
        for name, criterion in crit.items():
            criterion.weight = weights[name]
        c.criteria = crit
        raw = sum(cr.score * cr.weight for cr in crit.values()) + c.memory_delta
        # A broken constraint (closest match) costs more than a requirement no source confirms.
        penalty = 0.08 * len(c.relaxed) + 0.04 * len(unconfirmed_requirements(c.record, query))
        c.score = round(100.0 * max(0.0, min(1.0, raw - penalty)), 1)
    # Models that meet every constraint come before closest matches, whatever their scores; then
    # those that take the input few models take (a thermal band beside RGB) before those that don't.
    # A model taking it, documented for another sensor or over the device's budget, comes before one
    # that cannot take it at all.
    distinctive = distinctive_modalities(query)
    asked_imagery = requested_imagery(query)

    def order(x: Candidate) -> tuple[bool, bool, int, bool, bool, bool, bool, float, str]:
        lacks = bool(distinctive) and not takes_rare(x.record, query, distinctive)
        # Documented for another sensor only: the imagery criterion and the penalty weigh that, so
        # such a model competes on its score with those meeting every constraint, when it takes the
        # user's kind of imagery itself (an RGB model for Landsat bands does not).
        relaxed = set(x.relaxed) - {"sensor"}
        if x.relaxed and asked_imagery and not asked_imagery & set(x.record.modalities):
            relaxed = set(x.relaxed)
        other = relaxed - RARE_INPUT_RELAXABLE if distinctive else relaxed
        # Weights needed (asked for, or the model is to run on the user's machine or labels): a model
        # whose weights are not released, or that no source confirms, comes after every model the
        # user can download, closest matches included: one they cannot get is no help at all.
        unobtainable = cannot_download(x.record, query, x.relaxed)
        # Documented for another sensor on another kind of platform (satellite thermal for drone
        # frames): after those for another sensor on the user's kind of platform.
        apart = "sensor" in x.relaxed and flown_apart(x.record, query, asked_imagery)
        # Among closest matches, one bending a constraint relaxed early (a sensor) comes before one
        # bending a constraint relaxed late (taking every kind of imagery the user has, the budget).
        bent = max((RELAXATION_ORDER.index(c) for c in other if c in RELAXATION_ORDER), default=-1)
        # A model FAR_OVER_BUDGET times the parameter budget or more does not run on the user's
        # hardware at all: after one that does, though documented for another sensor or platform.
        return (
            unobtainable,
            bool(other),
            bent,
            "compute" in x.relaxed and far_over_budget(x.record, query),
            lacks,
            bool(relaxed),
            apart,
            -x.score,
            x.record.model_name.lower(),
        )

    ranked = sorted(candidates, key=order)
    for i, c in enumerate(ranked):
        coverage = sum(cr.weight for cr in c.criteria.values() if cr.known)
        nxt = ranked[i + 1].score if i + 1 < len(ranked) else c.score - 10.0
        margin = min(1.0, max(0.0, c.score - nxt) / 6.0)
        c.confidence = round(max(0.0, min(1.0, 0.65 * coverage + 0.35 * margin - 0.15 * len(c.relaxed))), 2)
    return ranked


# A closest match this many times over the parameter budget is no close match: it comes after those
# nearer the budget, whatever its score.
FAR_OVER_BUDGET = 10.0


def far_over_budget(record: ModelRecord, query: StructuredQuery) -> bool:
    """Whether the record's smallest variant for the user's data is ``FAR_OVER_BUDGET`` times the
    user's parameter limit or more."""
    limit, size = query.compute.parameter_limit(), size_for_user(record, query)
    return limit is not None and size is not None and size >= FAR_OVER_BUDGET * limit


def overall_confidence(ranked: Sequence[Candidate], k: int, query: StructuredQuery) -> float:
    """Confidence in the top-k as a whole: per-model confidences, less for missing mandatory fields."""
    top = ranked[:k]
    if not top:
        return 0.0
    mean = sum(c.confidence for c in top) / len(top)
    return round(max(0.0, mean - 0.2 * len(query.missing_mandatory())), 2)
