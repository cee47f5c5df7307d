"""The Compare tab and the Compare action on an answer, without a server."""

from __future__ import annotations

from typing import Any

import gradio as gr
import pytest

from agent.settings import Settings
from rsfmd.catalog import find_record
from rsfmd.schema import ModelRecord
from tests.conftest import GRADIO_LOOP_LEAKS
from ui.chat import ChatTab
from ui.compare import EMPTY_COMPARE, CompareTab, comparison_html, model_highlights, standings
from ui.compare_action import COMPARE_TAB_ID
from ui.conversation import Conversation

pytestmark = GRADIO_LOOP_LEAKS


def _record(records: list[ModelRecord], name: str) -> ModelRecord:
    record = find_record(records, name)
    assert record is not None, name
    return record


def test_compare_tab_says_what_to_do_until_two_models_are_picked(records: list[ModelRecord]) -> None:
    with gr.Blocks():
        tab = CompareTab(records)
    assert tab.view.value == EMPTY_COMPARE and "Compare" in EMPTY_COMPARE and "Chat tab" in EMPTY_COMPARE
    assert tab.compare([]) == EMPTY_COMPARE
    assert "pick at least one more" in tab.compare(["DOFA"])
    assert "remsa-compare" in tab.compare(["DOFA", "SatlasPretrain"])


def test_comparison_puts_shared_datasets_first_then_each_models_best_results(
    records: list[ModelRecord],
) -> None:
    chosen = [_record(records, "THOR"), _record(records, "SatlasPretrain")]
    html = comparison_html(chosen, records)
    shared, best, props = (
        html.index(t) for t in ("Results on shared datasets", "best results", "Properties")
    )
    assert shared < best < props
    # THOR and SatlasPretrain both report Sen1Floods11, under different protocols.
    assert "Sen1Floods11" in html[shared:best] and "different protocols" in html[shared:best]
    ranks = standings(records)
    for record in chosen:
        rows = model_highlights(record, ranks, set())
        assert rows and [r[2] for r in rows] == sorted(r[2] for r in rows)  # where it stands highest first
        assert all(1 <= place <= field for _, _, place, field in rows)


@pytest.mark.slow
def test_the_answers_compare_action_opens_the_compare_tab_with_the_ticked_models(
    records: list[ModelRecord],
) -> None:
    with gr.Blocks():
        with gr.Tabs() as tabs:
            with gr.Tab("Chat"):
                chat = ChatTab(Settings(memory={"enabled": False}))
            with gr.Tab("Compare", id=COMPARE_TAB_ID):
                compare = CompareTab(records)
        chat.link_compare(tabs, compare)
    conv = Conversation()
    out: dict[Any, Any] = {}
    for update in chat.respond("Flood mapping with Sentinel-1 SAR, few labels, one GPU", [], conv, 3, False):
        out.update(update)
    assert conv.selection is not None
    models = conv.selection.models
    action = chat.compare
    assert out[action.row].visible is True
    assert out[action.pick].value == [m.model_id for m in models[:2]]
    assert [value for _, value in out[action.pick].choices] == [m.model_id for m in models]
    opened = action.open([models[0].model_id, models[2].model_id])
    assert opened[tabs].selected == COMPARE_TAB_ID
    assert opened[compare.pick]["value"] == [models[0].name, models[2].name]
    assert models[0].name in opened[compare.view] and models[2].name in opened[compare.view]
    assert models[1].name not in opened[compare.view]
    refused = action.open([models[0].model_id])
    assert tabs not in refused and "Tick 2 to 4 models" in refused[chat.status]
