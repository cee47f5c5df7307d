"""Precedent: the models experts judged good for the curated requests most like the task."""

import json

import pytest

from agent.api import select_models
from agent.resources import get_resources
from agent.settings import PrecedentSettings, Settings
from evaluation.realistic import load_requests, part_prefix, realistic_dir
from evaluation.realistic_run import _without_own_part
from tools.explanation import PRECEDENT_SAID
from tools.precedent import Precedent, PrecedentPool, load_precedents, small_compute

CFG = PrecedentSettings()


@pytest.fixture(scope="module")
def pool():
    return get_resources(Settings()).precedents()


@pytest.fixture(scope="module")
def develop_request():
    split = json.loads((realistic_dir() / "split.json").read_text(encoding="utf-8"))
    develop = set(split["develop"])
    return next(r for r in load_requests() if r.id in develop and len(r.good_ids - {None}) >= 2)


def test_the_pool_is_the_develop_part_only():
    split = json.loads((realistic_dir() / "split.json").read_text(encoding="utf-8"))
    ids = {p.request_id for p in load_precedents()}
    assert ids == set(split["develop"])
    assert not ids & set(split["held_out"])


@pytest.mark.parametrize(
    ("request_id", "part"), [("r12a-03", "r12a-"), ("r1-01", "r1-"), ("r3-10~reworded", "r3-")]
)
def test_part_of_a_request(request_id, part):
    assert part_prefix(request_id) == part


def test_a_request_like_a_precedent_supports_its_good_picks(pool, develop_request):
    found = pool.support(develop_request.text, CFG.neighbours, CFG.min_similarity)
    for model_id in develop_request.good_ids - {None}:
        assert develop_request.id in found[model_id].requests
        assert found[model_id].requests[0] == develop_request.id  # the closest precedent is itself
        assert 0.0 < found[model_id].score <= 1.0
        # what made it good there, with the source, as the expert wrote it
        pick = next(g for g in develop_request.good if g.model_id == model_id)
        assert (found[model_id].why, found[model_id].source_url) == (pick.why, str(pick.source_url))


def test_leaving_out_a_part_leaves_out_its_requests(pool, develop_request):
    part = part_prefix(develop_request.id)
    found = pool.support(develop_request.text, CFG.neighbours, CFG.min_similarity, exclude=[part])
    assert all(not r.startswith(part) for fit in found.values() for r in fit.requests)


def test_text_unlike_any_precedent_gets_no_support(pool):
    assert pool.support("What time does the bakery on Main Street open tomorrow?", 8, 0.5) == {}
    assert pool.support("   ", 8, 0.5) == {}


def test_precedent_is_a_reason_and_can_be_switched_off(develop_request):
    on = select_models(develop_request.text, k=3, clarify=False)
    assert all("precedent" in m.criteria for m in on.models)
    strong = [m for m in on.models if m.criteria["precedent"] >= PRECEDENT_SAID]
    assert strong and all(m.reasons[-1].startswith("Precedent: judged a good pick for") for m in strong)
    assert any("precedent:" in step.detail for step in on.trace)
    off = select_models(
        develop_request.text,
        k=3,
        clarify=False,
        settings=Settings(precedents=PrecedentSettings(enabled=False)),
    )
    assert not any(r.startswith("Precedent") for m in off.models for r in m.reasons)
    assert not any("precedent" in m.criteria for m in off.models)
    assert not any("precedent:" in step.detail for step in off.trace)


def test_the_benchmark_judges_a_request_without_its_own_part():
    class Probe:
        settings = Settings()

    probe = Probe()
    with _without_own_part(probe, "r12a-03~reworded"):
        assert probe.settings.precedents.exclude == ["r12a-"]
    assert probe.settings.precedents.exclude == []


@pytest.mark.parametrize(
    ("device", "limit", "small"),
    [
        ("cpu", None, True),
        ("edge", None, True),
        ("single-gpu", 30.0, True),
        ("single-gpu", None, False),
        ("cloud", None, False),
        (None, 100.0, True),
        (None, 400.0, None),
        (None, None, None),
    ],
)
def test_small_compute(device, limit, small):
    assert small_compute(device, limit) is small


def test_precedents_on_other_compute_count_less():
    # The same request judged twice, once on a laptop and once on a GPU: a user on a laptop is
    # supported by the laptop precedent first.
    laptop = Precedent("p-1", "map floods from Sentinel-1", ("tiny-model",), (("small", ""),), small=True)
    gpu = Precedent("p-2", "map floods from Sentinel-1", ("large-model",), (("best", ""),), small=False)
    pool = PrecedentPool([laptop, gpu], get_resources(Settings()).encoder, None)
    text = "flood maps from Sentinel-1"
    on_cpu = pool.support(text, 1, 0.0, small=True)
    on_gpu = pool.support(text, 1, 0.0, small=False)
    assert set(on_cpu) == {"tiny-model"} and set(on_gpu) == {"large-model"}
    either = pool.support(text, 2, 0.0)
    both = pool.support(text, 2, 0.0, small=True)
    assert either["tiny-model"].score == either["large-model"].score  # compute unknown: equal
    assert both["tiny-model"].score > both["large-model"].score
