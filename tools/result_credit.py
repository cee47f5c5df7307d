"""Credit for reported results: by what they are results on (level credit) and under which
protocol, as the performance, label-budget and frozen-encoder criteria."""

from __future__ import annotations

import re

from agent.query import StructuredQuery
from rsfmd.datasets import dataset_identity, evaluated_on
from rsfmd.schema import Category, ModelRecord
from tools.candidate import Candidate, Criterion, Predict
from tools.evidence import RELATED_TASKS, RELEVANCE_WEIGHT, EvidenceIndex, EvidenceItem, setting_class
from tools.filtering import released_trained_for, size_for_user
from tools.fit import parameter_budget, results_far_from, results_on_other_sensors
from tools.inputs import images_with_images
from tools.region_fit import shorten

# How much a strong result counts by what it is a result on. Results on the user's application
# count in full; results on other applications of the same task type, or on related tasks, count
# far less, so that many rows on other tasks do not outweigh a model made for the user's data.
LEVEL_CREDIT = {"application": 1.0, "task": 0.65, "related": 0.45}
# Results only on imagery of other sensors than the user's, of the same kind.
OTHER_SENSOR = 0.85
# No reported result at all: unknown, not bad (the criterion is marked unknown and lowers confidence).
NO_RESULTS = 0.3
# Results only of variants larger than the user's budget, when a smaller variant fits it: the
# variant the user would run has no results of its own, so they count for half, and at most as
# much as no results at all.
LARGER_VARIANT = 0.5
LARGER_VARIANTS_SAID = "results of larger variants only"
# What the label-budget and frozen-encoder criteria say has no result then.
FITTING_VARIANT_SAID = "of the variant that fits your budget"


# Pretext descriptions that say the model learnt from labels (or was only fine-tuned).
_NOT_SELF_SUPERVISED = re.compile(r"\s*(?:none\b|n/a\b|(?:fully )?supervised\b)", re.IGNORECASE)


def performance_fit(
    c: Candidate, query: StructuredQuery, index: EvidenceIndex, predict: Predict | None
) -> Criterion:
    """Reported results on matching datasets, else a capabilities-encoding prediction."""
    items = _in_users_protocol_first(index.relevant(c.record, query), query)
    c.evidence_items = items
    c.results_of_larger_variants = False
    # No result on the user's application itself: ask the capabilities encoding how the model
    # stands on the most similar datasets in the performance matrix.
    prediction = None
    if predict is not None and not any(i.relevance == "application" for i in items):
        prediction = predict(c.record, query)
        c.predicted = prediction
    # A prediction is task-level evidence; on other imagery it is only related evidence, as a
    # reported result on other imagery would be.
    predicted_score = (
        LEVEL_CREDIT["related" if prediction.other_imagery else "task"]
        * prediction.score
        * (1.0 - 0.5 * min(prediction.uncertainty, 1.0))
        if prediction
        else None
    )
    if items:
        level = items[0].relevance
        top = _distinct([i for i in items if i.relevance == level])[:3]
        values = [
            0.55
            if i.standing is None
            else 0.55 + 0.5 * (i.standing - 0.55)
            if _discounted(i, query)
            else i.standing
            for i in top
        ]
        score = LEVEL_CREDIT[level] * (0.25 + 0.75 * sum(values) / len(values))
        # Results on another application say what they are about ('on PASTIS, a crop type mapping
        # benchmark'), so they are not read as results on the user's application.
        evidence = [i.describe(name_application=query.application not in {None, i.application}) for i in top]
        if far := results_far_from([i.dataset for i in top], query):
            # Strong numbers on imagery unlike the user's transfer only in part.
            score *= 0.7
            evidence.append(far)
        elif other := results_on_other_sensors([i.dataset for i in top], query):
            # Results on another sensor's imagery of the same kind transfer in large part.
            score *= OTHER_SENSOR
            evidence.append(other)
        if larger := _results_of_larger_variants(c, top, query, index):
            # The variant the user would run has no results of its own: at most what a model with
            # no reported results gets; nor do its larger variants' protocols (frozen, few labels)
            # count for it in the label-budget and frozen-encoder criteria.
            score = min(score * LARGER_VARIANT, NO_RESULTS)
            evidence.append(larger)
            c.results_of_larger_variants = True
        if prediction is not None and predicted_score is not None:
            score = 0.5 * score + 0.5 * predicted_score
            evidence.append(f"predicted: {prediction.summary}")
        return Criterion(score, evidence=evidence)
    if prediction is not None and predicted_score is not None:
        return Criterion(predicted_score, evidence=[f"predicted: {prediction.summary}"], known=True)
    if c.record.benchmarks:
        return Criterion(0.3, evidence=["results reported only on unrelated tasks"], known=True)
    return Criterion(NO_RESULTS, evidence=["no reported results"], known=False)


def _results_of_larger_variants(
    c: Candidate, top: list[EvidenceItem], query: StructuredQuery, index: EvidenceIndex
) -> str | None:
    """'results of larger variants only; the 5.7M variant that fits your budget reports none': the
    model has a variant within the user's budget and larger ones, and no reported result of the
    record is known to be of a variant within the budget (a result naming no variant is taken to
    be of the variant the authors evaluate, not of one released later)."""
    limit = parameter_budget(query)
    size = size_for_user(c.record, query)
    largest = c.record.largest_parameters
    if limit is None or size is None or largest is None or size > limit or largest <= limit:
        return None
    if query.compute.wants_large() or c.record.category == Category.embedding_product:
        return None
    if any(known <= limit for known in index.reported_variant_sizes(c.record)):
        return None
    shown = sorted({i.variant_size for i in top if i.variant_size is not None})
    of = f" (of {shown[0]:g}M and more)" if shown else ""
    return f"{LARGER_VARIANTS_SAID}{of}; the {size:g}M variant that fits your budget reports none"


def _discounted(item: EvidenceItem, query: StructuredQuery) -> bool:
    """With labels aplenty or none stated, a result from a 1% label split says less than one
    trained on all labels: such results come last within their level and their standing counts half."""
    return query.data_regime in {None, "full-labels"} and item.setting == "few-shot"


def _in_users_protocol_first(items: list[EvidenceItem], query: StructuredQuery) -> list[EvidenceItem]:
    """Within each relevance level, results under the user's label budget first, then those with
    the encoder frozen when the user will keep it frozen, and discounted results last."""
    wanted: list[str] = [query.data_regime] if query.data_regime in {"few-shot", "zero-shot"} else []
    if query.frozen_encoder:
        wanted.append("frozen")
    if not wanted and query.data_regime not in {None, "full-labels"}:
        return items
    return sorted(
        items,
        key=lambda i: (
            -RELEVANCE_WEIGHT[i.relevance],
            wanted.index(i.setting) if i.setting in wanted else len(wanted),
            _discounted(i, query),
        ),
    )


def _distinct(items: list[EvidenceItem]) -> list[EvidenceItem]:
    """One item per dataset (protocol aside, as in ``EvidenceIndex.relevant``), metric, setting and
    variant, the first kept: a second source's other number for the same result stays in the
    evidence table, with its source, not in the reasons."""
    seen: set[tuple[str, str, str, str | None]] = set()
    out = []
    for item in items:
        key = (dataset_identity(item.dataset), item.metric, item.setting, item.variant)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _result_settings(record: ModelRecord) -> set[tuple[str, str]]:
    """(task type, coarse setting) of every reported result."""
    return {(b.task_type, setting_class(b)) for b in record.benchmarks}


# Tasks whose output is masks or boxes on the image.
MASK_AND_BOX_TASKS = frozenset({"segmentation", "instance segmentation", "detection"})


def regime_fit(c: Candidate, query: StructuredQuery) -> Criterion:
    """How usable the model is with the user's amount of labelled data."""
    r = c.record
    tasks = set(r.all_task_types)
    own = _own_results(c)
    settings = {i.setting for i in own}
    if query.data_regime == "zero-shot":
        # Usable without labels means usable for *this* task without training a head.
        task = query.task_type
        classification_like = task in {None, "classification", "zero-shot classification", "retrieval"}
        if r.category == Category.vision_language:
            # Declared abilities or zero-shot results count; a benchmark with a trained decoder does not.
            zero_shot = set(r.task_types) | {
                t for t, setting in _result_settings(r) if setting == "zero-shot"
            }
            if (
                task is not None
                and task in zero_shot
                and task not in {"classification", "multi-label classification"}
            ):
                return Criterion(1.0, evidence=[f"does {task} from text prompts, without training"])
            if classification_like and tasks & {"zero-shot classification", "retrieval"}:
                return Criterion(1.0, evidence=["usable without training (zero-shot vision-language)"])
            if task in MASK_AND_BOX_TASKS and (near := RELATED_TASKS[task] & zero_shot & MASK_AND_BOX_TASKS):
                # Masks or boxes of a related kind from text prompts: open-vocabulary semantic masks
                # split into crowns, boxes into instances; closer than any head still to train.
                return Criterion(0.8, evidence=[f"does {min(near)} from text prompts, without training"])
            return Criterion(0.45, evidence=[f"vision-language, but not shown doing {task} without training"])
        if "zero-shot" in settings:
            return Criterion(0.9, evidence=["zero-shot results reported"])
        if released_trained_for(r, query.application):
            # A task model released trained for the user's application runs on their data as it is.
            return Criterion(0.9, evidence=[f"released already trained for {query.application}"])
        if r.category == Category.embedding_product:
            return Criterion(0.7, evidence=["precomputed embeddings: cluster or search them without labels"])
        if images_with_images(query):
            # Images found by their likeness: the encoder's embeddings are compared as they are.
            return Criterion(0.7, evidence=["its embeddings are compared as they are: no head to train"])
        return Criterion(0.25, evidence=["needs at least a trained head"])
    if query.data_regime == "few-shot":
        low = [i for i in own if i.setting == "few-shot"]
        if low:
            # A low-label result shows the model was tried with few labels; on what, and how it
            # did, say how well: #1 on the user's application counts fully, an unranked result
            # on a related task little more than good frozen features.
            best = max(low, key=_strength)
            return Criterion(0.65 + 0.35 * _strength(best), evidence=[f"low-label result: {best.describe()}"])
        if "frozen" in settings or r.category == Category.embedding_product:
            return Criterion(0.75, evidence=["strong frozen features (linear probe / kNN)"])
        whose = FITTING_VARIANT_SAID if c.results_of_larger_variants else "reported"
        return Criterion(0.5, evidence=[f"no low-label results {whose}"], known=False)
    if query.data_regime == "unlabeled":
        if r.category == Category.embedding_product:
            return Criterion(1.0, evidence=["precomputed embeddings for unsupervised use"])
        if evaluated_on(r, query.application) and r.weights_released and not query.pretrain_further:
            # Released weights already trained for the user's application need no labels of theirs.
            return Criterion(0.9, evidence=[f"released weights already trained for {query.application}"])
        pretext = r.pretext_training_type or ""
        if query.pretrain_further and r.category == Category.vision_language:
            why = "pretrained on image-text pairs: pretraining further needs captions"
            return Criterion(0.4, evidence=[why])
        if _NOT_SELF_SUPERVISED.match(pretext):
            text = f"pretrained with labels, not self-supervised ({shorten(pretext, 40)})"
            return Criterion(0.4, evidence=[text])
        if pretext:
            return Criterion(0.8, evidence=[f"self-supervised pretraining ({shorten(pretext, 40)})"])
        return Criterion(0.5, known=False)
    return Criterion(0.7, evidence=["full fine-tuning possible"])


def _own_results(c: Candidate) -> list[EvidenceItem]:
    """The candidate's results that speak for the variant the user would run: none when they are all
    of larger variants than the one that fits the user's budget."""
    return [] if c.results_of_larger_variants else c.evidence_items


def _strength(i: EvidenceItem) -> float:
    """What a result under a protocol says of a model: #1 on the user's application counts fully,
    an unranked result on a related task little more than half."""
    standing = i.standing if i.standing is not None else 0.55
    return RELEVANCE_WEIGHT[i.relevance] * (0.5 + 0.5 * standing)


def frozen_fit(c: Candidate) -> Criterion:
    """How well the model serves with its encoder frozen (linear probe, k-NN, similarity search)."""
    r = c.record
    if r.category == Category.embedding_product:
        return Criterion(0.9, evidence=["precomputed embeddings: frozen features by design"])
    if r.category == Category.generative:
        return Criterion(0.2, evidence=["a generative model, not an encoder"])
    if c.results_of_larger_variants:
        return Criterion(0.45, evidence=[f"no frozen-encoder results {FITTING_VARIANT_SAID}"], known=False)
    frozen = [i for i in c.evidence_items if i.setting == "frozen"]
    if frozen:
        best = max(frozen, key=_strength)
        return Criterion(0.6 + 0.4 * _strength(best), evidence=[best.describe()])
    if any(setting_class(b) == "frozen" for b in r.benchmarks):
        return Criterion(0.6, evidence=["frozen-encoder results reported on other tasks"])
    if r.benchmarks:
        return Criterion(0.4, evidence=["no result reported with the encoder frozen"], known=False)
    return Criterion(0.45, known=False)
