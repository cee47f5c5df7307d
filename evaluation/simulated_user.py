"""Offline simulated user: answers a system's clarification questions from the benchmark query's slots.

It only reveals what the query states or its template implies; a field it cannot map, or one the
query leaves open, gets no answer (the key is missing), so no system is handed hidden information.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from agent.systems import ClarificationQuestion, UserSimulator
from benchmark_queries.generate import BenchmarkQuery, SlotVocabulary, load_slot_vocabulary
from rsfmd.vocab import application_task_type, term_key

_FIELD_ALIASES: Mapping[str, str] = {
    "application": "application",
    "applications": "application",
    "task": "task_type",
    "task_type": "task_type",
    "task_types": "task_type",
    "modality": "modality",
    "modalities": "modality",
    "input_modality": "modality",
    "input_modalities": "modality",
    "data_modality": "modality",
    "sensor": "sensor",
    "sensors": "sensor",
    "platform": "sensor",
    "region": "region",
    "regions": "region",
    "geographic_region": "region",
    "location": "region",
    "deployment_device": "compute",
    "device": "compute",
    "hardware": "compute",
    "compute": "compute",
    "compute_budget": "compute",
    "compute_constraints": "compute",
    "resources": "compute",
    "parameter_limit": "compute",
    "max_parameters": "compute",
    "max_params": "compute",
    "model_size": "compute",
    "data_regime": "data_regime",
    "labels": "data_regime",
    "label_availability": "data_regime",
    "labeled_data": "data_regime",
    "training_data": "data_regime",
    "spatial_resolution": "spatial_resolution",
    "resolution": "spatial_resolution",
    "gsd": "spatial_resolution",
    "min_performance": "priority",
    "priority": "priority",
    "priorities": "priority",
    "evaluation_priority": "priority",
}
"""ClarificationQuestion.field (normalised: lower case, underscores) to the answer's source."""

_PRIORITY_PHRASES: Mapping[str, str] = {
    "accuracy": "the highest overall accuracy matters most",
    "precision": "clean outputs with few false detections",
    "recall": "capture every target, false alarms are acceptable",
    "speed": "fast, near real-time inference",
    "spatial detail": "accuracy and fine spatial detail",
    "balance": "a balance of performance and efficiency",
}


def normalise_field(name: str) -> str:
    """'Deployment device' / 'deployment-device' -> 'deployment_device'."""
    return re.sub(r"[\s\-.]+", "_", name.strip().lower())


def _answers(query: BenchmarkQuery, vocab: SlotVocabulary) -> dict[str, str]:
    slots = query.slots
    answers: dict[str, str] = {}
    for key in ("application", "modality", "sensor", "region", "spatial_resolution", "data_regime"):
        if key in slots:
            answers[key] = slots[key]
    if "application" in slots:
        task_type = application_task_type(slots["application"])
        if task_type:
            answers["task_type"] = task_type
    if "data_regime" in slots:
        answers["data_regime"] = (
            f"{slots['data_regime']} ({vocab.data_regime_phrases.get(slots['data_regime'], '')})"
        )
    if "device" in slots:
        answers["compute"] = slots["device"]
    elif "compute" in slots:
        answers["compute"] = vocab.compute_phrases.get(slots["compute"], slots["compute"])
    if "priority" in slots:
        answers["priority"] = _PRIORITY_PHRASES.get(slots["priority"], slots["priority"])
    return answers


def _prefer_option(answer: str, options: list[str]) -> str:
    """The offered option that names the same term as the answer, else the answer itself."""
    key = term_key(answer)
    for option in options:
        if term_key(option) == key or (term_key(option) and term_key(option) in key):
            return option
    return answer


def answer_questions(
    query: BenchmarkQuery, questions: list[ClarificationQuestion], vocab: SlotVocabulary | None = None
) -> dict[str, str]:
    """Field name to answer for every question the query's slots can answer."""
    answers = _answers(query, vocab or load_slot_vocabulary())
    out: dict[str, str] = {}
    for question in questions:
        source = _FIELD_ALIASES.get(normalise_field(question.field))
        if source is None or source not in answers:
            continue
        out[question.field] = _prefer_option(answers[source], question.options)
    return out


def make_user(
    query: BenchmarkQuery, log: Callable[[list[ClarificationQuestion], dict[str, str]], None] | None = None
) -> UserSimulator:
    """A UserSimulator bound to one query; ``log`` (optional) sees every exchange."""
    vocab = load_slot_vocabulary()

    def user(questions: list[ClarificationQuestion]) -> dict[str, str]:
        reply = answer_questions(query, questions, vocab)
        if log is not None:
            log(questions, reply)
        return reply

    return user
