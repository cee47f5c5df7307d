"""The LLM boundary, fuzzed: whatever a model replies, nothing crashes, no model outside RS-FMD
reaches the user, hard constraints hold, and every value outside the vocabularies is dropped or
mapped with a line in the trace."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.api import Session
from agent.llm_steps import LLMSteps
from agent.settings import Settings
from rsfmd.loader import load_records
from tests.fakes import FunctionChat, ScriptedChat
from tools.filtering import violations

RECORDS = {r.model_id: r for r in load_records()}
QUERY = "Flood mapping with Sentinel-1 SAR, a few labels, one GPU"
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

words = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
# Schema-valid interpreter replies whose values may lie outside every vocabulary.
readings = st.fixed_dictionaries(
    {},
    optional={
        "application": st.one_of(words, st.sampled_from(["monsoon flood monitoring", "flood mapping", ""])),
        "modality": st.lists(st.one_of(words, st.sampled_from(["SAR", "Radar", "lidar"])), max_size=4),
        "sensor": st.lists(
            st.one_of(words, st.sampled_from(["Sentinel-1", "Sentinel 1", "Kompsat"])), max_size=4
        ),
        "task_type": st.one_of(words, st.just("segmentation")),
        "data_regime": st.one_of(words, st.just("few-shot")),
        "deployment_device": st.one_of(words, st.just("single-gpu")),
        "region": st.lists(words, max_size=3),
        "datasets": st.lists(st.one_of(words, st.just("Sen1Floods11")), max_size=3),
        "priorities": st.lists(words, max_size=3),
        "max_parameters_m": st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False)),
        "architectures": st.lists(words, max_size=2),
        "min_release_year": st.one_of(st.none(), st.integers(-5, 5000)),
    },
)


def _session(chat: Any) -> Session:
    return Session(Settings(memory={"enabled": False}), k=3, clarify=False, llm=LLMSteps(chat, "fake"))  # type: ignore[arg-type]


def _holds(selection: Any) -> None:
    assert selection.models, selection.status
    assert all(m.model_id in RECORDS for m in selection.models)  # nothing invented reaches the user
    for m in selection.models:
        broken = set(violations(RECORDS[m.model_id], selection.query))
        assert broken <= set(m.relaxed_constraints), (m.model_id, broken)


@FUZZ
@given(reply=readings)
def test_any_schema_valid_reading_with_unknown_values_never_crashes(reply: dict[str, Any]) -> None:
    text = json.dumps(reply)

    def respond(prompt: str) -> str:
        return text if "Convert the user's task description" in prompt else "[]"

    selection = _session(FunctionChat(respond)).ask(QUERY)
    _holds(selection)
    details = " ".join(s.detail for s in selection.trace)
    application = reply.get("application")
    if application and application.strip() and application != "flood mapping":
        # Mapped by the rules, or dropped: said either way (or the reply fell back as a whole).
        assert "application" in details or "failed at" in " ".join(selection.assumptions)


@FUZZ
@given(replies=st.lists(words, min_size=3, max_size=6))
def test_any_text_at_every_step_falls_back_without_a_crash(replies: list[str]) -> None:
    selection = _session(ScriptedChat(list(replies) * 2)).ask(QUERY)
    _holds(selection)


@FUZZ
@given(
    ranking=st.lists(
        st.fixed_dictionaries(
            {"model": st.one_of(words, st.sampled_from(sorted(RECORDS)[:20])), "rank": st.integers(-3, 50)},
            optional={"reason": st.lists(words, max_size=2)},
        ),
        max_size=8,
    )
)
def test_any_reranking_keeps_database_models_and_constraints(ranking: list[dict[str, Any]]) -> None:
    def respond(prompt: str) -> str:
        if "Convert the user's task description" in prompt:
            return json.dumps({"application": "flood mapping", "modality": ["SAR"]})
        if "produce a ranked list" in prompt:
            return json.dumps(ranking)
        return "not json at all"

    _holds(_session(FunctionChat(respond)).ask(QUERY))


def test_an_application_outside_the_vocabulary_is_mapped_not_crashed() -> None:
    """A real model's reply once carried 'monsoon flood monitoring' into the filter (KeyError)."""
    reply = json.dumps({"application": "monsoon flood monitoring", "modality": ["SAR"]})
    chat = ScriptedChat([reply, "[]", "[]", "[]", "[]"])
    selection = _session(chat).ask(QUERY)
    _holds(selection)
    assert selection.query.application == "flood mapping"
    assert any("read as 'flood mapping'" in s.detail for s in selection.trace)
    unknown = json.dumps({"application": "zzz qqq", "modality": ["SAR"]})
    dropped = _session(ScriptedChat([unknown, "[]", "[]", "[]", "[]"])).ask(QUERY)
    assert any("ignored unknown application 'zzz qqq'" in s.detail for s in dropped.trace)
    assert dropped.query.application == "flood mapping"  # the rules still read the task itself


@FUZZ
@given(
    items=st.lists(
        st.fixed_dictionaries(
            {
                "model_name": st.one_of(words, st.sampled_from(["TerraMind", "Spectra-L", "DOFA"])),
                "explanation": st.lists(words, min_size=1, max_size=3),
            },
            optional={"trade_offs": st.lists(words, max_size=2)},
        ),
        max_size=5,
    )
)
def test_any_explanation_keeps_database_models_and_says_what_it_ignored(items: list[dict[str, Any]]) -> None:
    def respond(prompt: str) -> str:
        if "Convert the user's task description" in prompt:
            return json.dumps({"application": "flood mapping", "modality": ["SAR"]})
        return json.dumps(items) if "produce a ranked list" not in prompt else "[]"

    selection = _session(FunctionChat(respond)).ask(QUERY)
    _holds(selection)
    shown = {m.name.lower() for m in selection.models}
    details = " ".join(s.detail for s in selection.trace)
    for item in items:
        if item["model_name"].strip().lower() not in shown and item["model_name"].strip():
            assert "not a model of this answer" in details or "explanations" in selection.engine
