"""Licence and weights requirements: reading licences, parsing the request, filtering and ranking."""

from __future__ import annotations

import pytest

from agent import select_models
from agent.interpreter import interpret
from agent.query import StructuredQuery
from agent.query_phrases import summary
from agent.settings import Settings
from rsfmd.licenses import allows_commercial_use, within_licenses
from rsfmd.loader import load_records
from tests.records import make_record
from tools.candidate import Candidate
from tools.closest import filter_candidates
from tools.evidence import EvidenceIndex
from tools.explanation import explain
from tools.filtering import violations
from tools.ranking import score_candidates


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Apache-2.0", True),
        ("MIT (code); CC0-1.0 (weights and embeddings)", True),
        ("Apache-2.0 (code); CC-BY-4.0 (weights)", True),
        ("CC-BY-NC-4.0", False),
        ("CC-BY-NC-4.0 (weights); MIT (code)", False),
        ("Research Use License (custom)", False),
        ("MIT (code)", None),  # only the code's licence is known
        ("DINOv3 License (custom Meta license)", None),
        (None, None),
        ("  ", None),
    ],
)
def test_reading_a_licence_for_commercial_use(text: str | None, expected: bool | None) -> None:
    assert allows_commercial_use(text) is expected


@pytest.mark.parametrize(
    ("text", "commercial", "weights"),
    [
        ("flood mapping with Sentinel-1 for our company's product", True, False),
        ("crop mapping, commercial use allowed, open weights only", True, True),
        ("non-commercial research on crop mapping with Sentinel-2", False, False),
        ("building segmentation; weights must be downloadable", False, True),
        ("building segmentation from aerial RGB", False, False),
        # Non-commercial ruled out is commercial use asked for.
        ("I can't use anything non-commercial; ship detection in Sentinel-1", True, False),
        ("crop mapping, avoid CC-BY-NC weights", True, False),
        ("flood mapping, no research-only models", True, False),
        ("this is for non-commercial use only, flood mapping", False, False),
    ],
)
def test_the_request_is_read_from_plain_words(text: str, commercial: bool, weights: bool) -> None:
    query = interpret(text).query
    assert (query.commercial_use, query.open_weights) == (commercial, weights)


def _model(model_id: str, **fields: object) -> object:
    return make_record(model_id, modalities=["SAR"], task_types=["segmentation"], **fields)


def test_known_restrictions_filter_and_unknown_terms_cost_a_little() -> None:
    nc = _model("nc", license="CC-BY-NC-4.0", weights_available=True)
    closed = _model("closed", license="MIT", weights_available=False)
    unknown = _model("unknown", weights_available=True)
    fine = _model("fine", license="Apache-2.0", weights_available=True)
    query = StructuredQuery(
        task_type="segmentation", modality=["SAR"], commercial_use=True, open_weights=True
    )
    assert set(violations(nc, query)) == {"license"}
    assert set(violations(closed, query)) == {"weights"}
    outcome = filter_candidates([nc, closed, unknown, fine], query)
    assert {r.model_id for r in outcome.survivors} == {"unknown", "fine"}
    ranked = score_candidates([Candidate(r) for r in outcome.survivors], query, EvidenceIndex([]))
    assert [c.record.model_id for c in ranked] == ["fine", "unknown"]
    notes = {m.model_id: m.trade_offs for m in explain(ranked, query)}
    assert "No license stated: confirm it allows commercial use" in notes["unknown"]
    assert not any("license" in t.lower() for t in notes["fine"])
    # Without the requirements nothing is filtered for licence or weights.
    plain = StructuredQuery(task_type="segmentation", modality=["SAR"])
    assert len(filter_candidates([nc, closed, unknown, fine], plain).survivors) == 4


def test_end_to_end_commercial_request_never_returns_a_non_commercial_model() -> None:
    restricted = {r.model_id for r in load_records() if allows_commercial_use(r.license) is False}
    settings = Settings(memory={"enabled": False})  # type: ignore[arg-type]
    task = "SAR ship detection"
    plain = select_models(task, k=5, clarify=False, settings=settings)
    assert {m.model_id for m in plain.models} & restricted, "the plain request includes a restricted model"
    selection = select_models(
        f"{task} for a commercial product, open weights only", k=5, clarify=False, settings=settings
    )
    assert selection.query.commercial_use and selection.query.open_weights
    assert len(selection.models) == 5 and not {m.model_id for m in selection.models} & restricted


@pytest.mark.parametrize(
    ("text", "accepted", "expected"),
    [
        ("Apache-2.0", {"Apache-2.0", "MIT"}, True),
        ("MIT", {"Apache-2.0"}, False),
        ("CC-BY-4.0", {"Apache-2.0", "MIT"}, False),  # open, but not a licence the user named
        ("Apache-2.0 (code); CC-BY-4.0 (weights)", {"Apache-2.0"}, False),
        ("Apache-2.0 (weights); MIT (GitHub code)", {"Apache-2.0", "MIT"}, True),
        ("CC-BY-NC-4.0 (weights); MIT (code)", {"MIT"}, False),
        ("MIT (code)", {"MIT"}, None),  # the weights' licence is not stated
        ("Apache-2.0 (code); CC-BY-4.0 (weights)", {"CC-BY"}, True),
        ("CC-BY-NC-4.0", {"CC-BY"}, False),
        ("CC-BY-SA-4.0", {"CC-BY"}, False),  # share-alike is not CC-BY alone
        ("CC0-1.0", {"CC0"}, True),
        (None, {"MIT"}, None),
    ],
)
def test_a_licence_is_within_the_ones_the_user_named(
    text: str | None, accepted: set[str], expected: bool | None
) -> None:
    assert within_licenses(text, accepted) is expected


def test_named_licences_filter_and_say_when_none_is_confirmed() -> None:
    mit = _model("mit", license="MIT")
    cc = _model("cc", license="CC-BY-4.0")
    unstated = _model("unstated")
    query = StructuredQuery(task_type="segmentation", modality=["SAR"], commercial_use=True, licenses=["MIT"])
    assert set(violations(cc, query)) == {"license"}
    outcome = filter_candidates([mit, cc, unstated], query)
    assert {r.model_id for r in outcome.survivors} == {"mit", "unstated"}
    ranked = score_candidates([Candidate(r) for r in outcome.survivors], query, EvidenceIndex([]))
    notes = {m.model_id: m.trade_offs for m in explain(ranked, query)}
    assert "No license stated: confirm it is MIT" in notes["unstated"]
    assert summary(query)[-1] == "licence: MIT"
    selection = select_models(
        "BSD licensed model for oil spill detection with Sentinel-1",
        clarify=False,
        settings=Settings(memory={"enabled": False}),  # type: ignore[arg-type]
    )
    assert any("No model left states a BSD licence" in a for a in selection.assumptions)


def test_the_weights_licence_decides_when_the_record_names_it() -> None:
    assert within_licenses("MIT (code); Apache-2.0 (Hugging Face model card)", ["Apache-2.0"]) is True
    assert within_licenses("Apache-2.0 (weights); MIT (GitHub code)", ["Apache-2.0"]) is True
    assert within_licenses("Apache-2.0 (code); CC-BY-4.0 (weights)", ["Apache-2.0"]) is False
    assert within_licenses("Apache-2.0 (code); CC-BY-NC-SA-4.0 (weights)", ["Apache-2.0"]) is False
    # Without a part marked as the weights', every part counts.
    assert within_licenses("Apache-2.0 (README statement); LICENSE file says MIT", ["Apache-2.0"]) is False
    assert (
        within_licenses("Apache-2.0 (README statement); LICENSE file says MIT", ["Apache-2.0", "MIT"]) is True
    )
    assert within_licenses("MIT (code)", ["MIT"]) is None


@pytest.mark.parametrize(
    ("text", "licences"),
    [
        ("a CC-BY licensed model for flood mapping with Sentinel-1", ["CC-BY"]),
        ("I need CC0 weights for cloud detection with Landsat 8", ["CC0"]),
        (
            "a CC-BY-4.0 or more permissive model for crop mapping with Sentinel-2",
            ["CC-BY", "Apache-2.0", "MIT", "BSD", "CC0"],
        ),
        (
            "MIT or more permissive, land cover mapping with Sentinel-2",
            ["MIT", "Apache-2.0", "BSD", "CC-BY", "CC0"],
        ),
        ("Apache-2.0 or MIT only, crop mapping with Sentinel-2", ["Apache-2.0", "MIT"]),
        ("no CC-BY-NC weights, building segmentation from aerial RGB", []),
    ],
)
def test_creative_commons_licences_and_more_permissive_ones_are_named(text: str, licences: list[str]) -> None:
    reading = interpret(text)
    assert reading.query.licenses == licences
    assert reading.query.commercial_use
    if "more permissive" in text:
        assert any(" or more permissive read as: only models licensed " in n for n in reading.notes)
