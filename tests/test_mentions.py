"""Models named in a task: asked about, or ruled out."""

from __future__ import annotations

import pytest

from agent.api import select_models
from agent.mentions import ModelNames
from agent.settings import Settings
from benchmark_queries.generate import load_queries
from rsfmd.loader import load_records
from ui.cards import chat_summary


@pytest.fixture(scope="module")
def names() -> ModelNames:
    return ModelNames(load_records())


def _settings() -> Settings:
    return Settings(memory={"enabled": False})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "named", "excluded"),
    [
        ("compare DOFA and CROMA for flood mapping", ["dofa", "croma"], []),
        ("is SatMAE better than Scale-MAE?", ["satmae", "scale-mae"], []),
        ("DOFA-CLIP for zero-shot", ["dofa-clip"], []),  # the longer name, not DOFA
        ("flood mapping with Sentinel-1 but not TerraMind", [], ["terramind"]),
        ("anything except DOFA or CROMA for crop mapping", [], ["dofa", "croma"]),
        ("not DOFA; how does CROMA do?", ["croma"], ["dofa"]),
        ("I like Clay and Prithvi-EO-2.0 for crops", ["clay", "prithvi-eo-2.0"], []),
        ("Clay soil mapping with Sentinel-2", [], []),  # the common word opening the text
        ("mapping the range of a species", [], []),  # 'RANGE' only as the record writes it
        ("clay soils and the range of crops", [], []),
        # A pretraining corpus that shares its model's name is the model; a benchmark is not.
        ("compare SeCo and CROMA", ["seco", "croma"], []),
        # ... except after 'pretrained on', where it is the pretraining data.
        ("a model pretrained on SSL4EO-S12 but not MMEarth", [], ["mmearth"]),
        ("trained on SeCo or SSL4EO-S12, like CROMA", ["croma"], []),
        ("the best model on EuroSAT", [], []),
        # An alias that begins other models' names is the family's: both Prithvi versions.
        ("compare Prithvi and SatMAE", ["prithvi-eo-1.0", "prithvi-eo-2.0", "satmae"], []),
        ("flood mapping, not Prithvi", [], ["prithvi-eo-1.0", "prithvi-eo-2.0"]),
        ("Prithvi-EO-2.0 or DOFA?", ["prithvi-eo-2.0", "dofa"], []),
        # A model named twice takes its later reading, as a conversation goes.
        ("why is GFM first? not GFM", [], ["gfm"]),
        ("flood mapping; drop DOFA and remove CROMA too", [], ["dofa", "croma"]),
        ("not DOFA. what about DOFA after all?", ["dofa"], []),
        ("Prithvi, but not Prithvi-EO-1.0", ["prithvi-eo-2.0"], ["prithvi-eo-1.0"]),
    ],
)
def test_model_names_in_text(names: ModelNames, text: str, named: list[str], excluded: list[str]) -> None:
    found = names.find(text)
    assert (found.named, found.excluded) == (named, excluded)


def test_no_benchmark_query_names_a_model(names: ModelNames) -> None:
    assert [q.id for q in load_queries() if names.find(q.text).named or names.find(q.text).excluded] == []


def test_named_models_are_shown_after_the_top_with_their_rank() -> None:
    selection = select_models(
        "compare DOFA and CROMA for flood mapping with Sentinel-1", k=3, clarify=False, settings=_settings()
    )
    ids = [m.model_id for m in selection.models]
    assert {"dofa", "croma"} <= set(ids)
    assert [m.rank for m in selection.models[:3]] == [1, 2, 3]
    extras = selection.models[3:]
    assert [m.rank for m in extras] == sorted(m.rank for m in extras)
    for model in extras:
        assert f"You named {model.name}: ranked {model.rank} of " in " ".join(selection.assumptions)
    named = sorted((m for m in selection.models if m.model_id in {"dofa", "croma"}), key=lambda m: m.rank)
    expected = ", then ".join(f"{m.name} (rank {m.rank})" for m in named)
    head = f"Of the models you named, the best fit for this task: {expected}; {named[1].name} is "
    assert any(a.startswith(head) and f" points behind {named[0].name}" in a for a in selection.assumptions)
    summary = chat_summary(selection)
    # Where the models named rank answers the question: the chat says it before the top 3.
    assert any(a.startswith(head) for a in selection.answers)
    assert summary.startswith(selection.answers[0])
    # A named model ranked right after the top 3 continues the list ('Top 4'); one ranked further
    # down is shown apart, under the models named.
    ranks = [m.rank for m in selection.models]
    contiguous = ranks == list(range(1, len(ranks) + 1))
    listed = f"Top {len(ranks) if contiguous else 3} for your task:"
    assert summary.index(selection.answers[-1]) < summary.index(listed)
    if not contiguous:
        assert summary.index("The models you named:") < summary.index(f"**{extras[0].name}**")


def test_ruled_out_and_unsuitable_named_models() -> None:
    ruled_out = select_models(
        "flood mapping with Sentinel-1 but not TerraMind or Copernicus-FM",
        clarify=False,
        settings=_settings(),
    )
    assert not {"terramind", "copernicus-fm"} & {m.model_id for m in ruled_out.models}
    assert "Left out as asked: TerraMind, Copernicus-FM" in ruled_out.assumptions
    optical = select_models(
        "is SpectralGPT good for flood mapping with Sentinel-1 SAR?", clarify=False, settings=_settings()
    )
    assert "spectralgpt" not in {m.model_id for m in optical.models}
    assert any(a.startswith("You named SpectralGPT: set aside because") for a in optical.assumptions)


@pytest.mark.parametrize(
    ("text", "smaller_than"),
    [
        ("something like Prithvi-EO-2.0 but smaller, for burn scars", ["prithvi-eo-2.0"]),
        ("a model lighter than DOFA for floods", ["dofa"]),
        ("CROMA, only much smaller", ["croma"]),
        ("compare DOFA and CROMA", []),
        ("is DOFA smaller than CROMA?", []),  # a question, not a size limit
        ("not DOFA, something smaller", []),  # a model ruled out is no yardstick
    ],
)
def test_models_named_as_a_size_to_undercut(names: ModelNames, text: str, smaller_than: list[str]) -> None:
    assert names.find(text).smaller_than == smaller_than


def test_smaller_than_a_named_model_is_a_strict_size_limit() -> None:
    selection = select_models(
        "something like Prithvi-EO-1.0 but smaller, for burn scars", clarify=False, settings=_settings()
    )
    assert selection.query.compute.max_parameters_m == 86 and selection.query.compute.below_limit
    assert "fewer than 86M parameters" in selection.understood()
    assert all(m.parameters_m is not None and m.parameters_m < 86 for m in selection.models)
    # Prithvi-EO-1.0 is a size reference here, not a model asked about: no note about it being set aside.
    assert not any(a.startswith("You named Prithvi-EO-1.0") for a in selection.assumptions)
    assert any(
        a.startswith("Smaller than Prithvi-EO-1.0 read as fewer than 86M") for a in selection.assumptions
    )


def test_larger_than_a_named_model_is_a_strict_size_floor() -> None:
    selection = select_models(
        "like CROMA but bigger, for crop type mapping", clarify=False, settings=_settings()
    )
    compute = selection.query.compute
    assert compute.min_parameters_m == 307 and compute.above_floor
    assert "more than 307M parameters" in selection.understood()
    assert selection.models and all(
        m.parameters_m is not None and m.parameters_m > 307 for m in selection.models
    ), [(m.name, m.parameters_m) for m in selection.models]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("tell me about TerraMind", ["terramind"]),
        ("what is the difference between CROMA and DOFA?", ["dofa", "croma"]),
    ],
)
def test_models_named_without_a_task_are_the_answer_and_no_question_is_asked(
    text: str, shown: list[str]
) -> None:
    selection = select_models(text, settings=_settings())  # clarification allowed
    assert selection.questions == []
    assert sorted(m.model_id for m in selection.models) == sorted(shown)
    assert any(a.startswith("No task stated: shown are the models you named") for a in selection.assumptions)
    # Once a task is given, the models are ranked among all others again.
    with_task = select_models(
        f"{text} for flood mapping with Sentinel-1", clarify=False, settings=_settings()
    )
    assert len(with_task.models) > len(shown)


def test_why_not_a_model_names_it_without_ruling_it_out() -> None:
    records = load_records()
    names = ModelNames(records)
    dofa = next(r.model_id for r in records if r.model_name == "DOFA")
    found = names.find("why not DOFA?")
    assert found.named == [dofa] and not found.excluded
    assert names.find("flood mapping, not DOFA").excluded == [dofa]
