"""The Capabilities map's data: every placed model by name, who is not placed and why, highlights."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr
import pytest

from agent.query import StructuredQuery
from agent.settings import Settings
from rsfmd.schema import ModelRecord
from tests.conftest import GRADIO_LOOP_LEAKS
from tools.capenc.predict import CapabilitiesPredictor
from ui.capmap import CapabilitiesTab, map_versus_reported, standing_rows
from ui.capmap_figure import UNPLACED_REASONS, figure_data, map_layout, task_datasets, unplaced_models

MIN_RESULTS = Settings().capabilities.min_results
pytestmark = GRADIO_LOOP_LEAKS


@pytest.fixture(scope="module")
def predictor(records: list[ModelRecord]) -> CapabilitiesPredictor:
    """The shipped capabilities fit (loaded, not refitted)."""
    return CapabilitiesPredictor.load_or_fit(records, Settings())


def _names(records: list[ModelRecord]) -> dict[str, str]:
    return {r.model_id: r.model_name for r in records}


def test_every_placed_model_is_on_the_map_by_name(
    records: list[ModelRecord], predictor: CapabilitiesPredictor
) -> None:
    layout = map_layout(predictor, _names(records))
    placed = {r.model_id for r in records if predictor.has_model(r.model_id)}
    assert {p.model_id for p in layout.models} == placed
    assert len(layout.models) == len(predictor.row_ids)  # one dot per evaluated variant
    assert [mid for _, mid in layout.model_choices()] == sorted(
        placed, key=lambda m: _names(records)[m].lower()
    )
    renamed = next(r for r in records if r.model_id in placed and r.model_name != r.model_id)
    assert (renamed.model_name, renamed.model_id) in layout.model_choices()
    assert all(p.n_results >= MIN_RESULTS for p in layout.models)
    assert len(layout.benchmarks) == len(predictor.columns())


def test_unplaced_models_are_counted_once_with_a_reason(
    records: list[ModelRecord], predictor: CapabilitiesPredictor
) -> None:
    groups = unplaced_models(records, predictor, MIN_RESULTS)
    unplaced = [name for g in groups for name in g.names]
    placed = {r.model_name for r in records if predictor.has_model(r.model_id)}
    assert len(unplaced) == len(set(unplaced)) == len(records) - len(placed)
    assert not set(unplaced) & placed
    no_results = next(g for g in groups if g.reason == UNPLACED_REASONS["no_results"])
    assert set(no_results.names) == {r.model_name for r in records if not r.benchmarks}
    few = UNPLACED_REASONS["few_results"].format(n=MIN_RESULTS)
    few_names = next(g.names for g in groups if g.reason == few)
    by_name = {r.model_name: r for r in records}
    assert all(sum(len(b.values()) for b in by_name[n].benchmarks) < MIN_RESULTS for n in few_names)


def test_figure_highlights_the_chosen_model_and_datasets(
    records: list[ModelRecord], predictor: CapabilitiesPredictor
) -> None:
    layout = map_layout(predictor, _names(records))
    name, model_id = layout.model_choices()[0]
    dataset = layout.datasets()[0]
    plain = figure_data(layout, None, [])
    assert [t["name"] for t in plain["data"]] == [
        "benchmark (hover for its name)",
        "model (hover for its name)",
    ]
    assert any(name in h for h in plain["data"][1]["hovertext"])
    data = figure_data(layout, model_id, [dataset])["data"]
    task, chosen = data[2], data[3]
    assert set(task["text"]) - {""} == {dataset}
    assert len(task["x"]) == sum(p.dataset == dataset for p in layout.benchmarks)
    assert chosen["name"] == name and all(t.startswith(name) for t in chosen["text"])
    assert len(chosen["x"]) == sum(p.model_id == model_id for p in layout.models)
    assert len(data[0]["x"]) + len(task["x"]) == len(layout.benchmarks)
    assert len(data[1]["x"]) + len(chosen["x"]) == len(layout.models)


def test_task_datasets_named_first_else_those_like_the_task(predictor: CapabilitiesPredictor) -> None:
    named = predictor.columns()[0].dataset
    assert task_datasets(predictor, StructuredQuery(datasets=[named], application="flood mapping")) == [named]
    flood = task_datasets(predictor, StructuredQuery(application="flood mapping", sensor=["Sentinel-1"]))
    assert "Kuro Siwo" in flood  # a flood benchmark on the map


def test_standing_says_in_words_how_the_map_compares() -> None:
    assert map_versus_reported(0.30, 0.10) == "expects worse by 0.20"
    assert map_versus_reported(0.10, 0.30) == "expects better by 0.20"
    assert map_versus_reported(0.101, 0.10) == "agrees"
    assert map_versus_reported(0.2, None) == ""


def test_standing_rows_put_reported_benchmarks_first(
    records: list[ModelRecord], predictor: CapabilitiesPredictor
) -> None:
    model_id = next(r.model_id for r in records if predictor.has_model(r.model_id))
    rows = standing_rows(predictor, model_id)
    reported = [r for r in rows if r[1] != ""]
    assert reported and rows[: len(reported)] == reported
    assert all(0.0 <= r[2] <= 1.0 and r[3].startswith("± ") for r in rows)


@dataclass
class _Conversation:
    selection: Any


@dataclass
class _Selection:
    query: StructuredQuery


def test_opening_the_tab_highlights_the_chat_task(records: list[ModelRecord]) -> None:
    with gr.Blocks():
        tab = CapabilitiesTab(Settings())
    note, unplaced, models, datasets, task_note, figure = tab.open(
        _Conversation(_Selection(StructuredQuery(application="flood mapping", sensor=["Sentinel-1"])))
    )
    assert "models and" in note and "Kuro Siwo" in datasets.value
    assert "flood mapping" in task_note
    assert f"{len(records) - len(models.choices)} models have too few results" in unplaced
    assert any(t.name == "highlighted benchmark" for t in figure.data)
    _, _, _, datasets, task_note, _ = tab.open(_Conversation(None))
    assert "value" not in datasets.constructor_args  # the datasets picked by hand stay
    assert "No task in the chat yet" in task_note
