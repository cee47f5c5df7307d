"""The Gradio app without a server: layout, rendering, filters, comparison, chat handlers, feedback."""

from __future__ import annotations

import argparse
import importlib.util
import json
from collections.abc import Iterator
from typing import Any

import gradio as gr
import pytest

from agent.selection import Links, RankedModel, Selection
from agent.settings import Settings
from rsfmd.licenses import allows_commercial_use
from rsfmd.schema import ModelRecord
from tests.conftest import GRADIO_LOOP_LEAKS
from ui import app as app_module
from ui.app import build_app, login, select_api
from ui.cards import confidence_colour, model_card_html, selection_html
from ui.chat import ChatTab
from ui.compare import comparison_html, shared_benchmarks
from ui.conversation import Conversation, give_feedback, session_settings
from ui.explore import RecordFilter, apply_filter, record_detail_html, sort_records

# Gradio creates (and orphans) an asyncio event loop whenever it builds a queue or lock outside a
# running loop; their collection raises ResourceWarnings that are Gradio's, not ours.
pytestmark = GRADIO_LOOP_LEAKS


def _settings(**memory: Any) -> Settings:
    return Settings(memory={"enabled": False, **memory})


def _tab_labels(demo: gr.Blocks) -> list[str]:
    return [b.label for b in demo.blocks.values() if isinstance(b, gr.Tab)]


def test_build_app_has_every_tab_and_a_select_endpoint() -> None:
    demo = build_app(_settings())
    assert isinstance(demo, gr.Blocks)
    assert {"Chat", "Explore RS-FMD", "Compare", "Capabilities map"} <= set(_tab_labels(demo))
    api_names = {fn.api_name for fn in demo.fns.values()}
    assert "select" in api_names
    assert demo.enable_queue is True


def test_submit_tab_is_omitted_when_its_module_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def fake(name: str, *args: Any) -> Any:
        return None if name == app_module.SUBMIT_TAB_MODULE else real(name, *args)

    monkeypatch.setattr(app_module.importlib.util, "find_spec", fake)
    assert "Submit a model" not in _tab_labels(build_app(_settings()))


def test_login_needs_both_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings()
    monkeypatch.setenv(settings.ui.user_env, "ana")
    assert login(settings) is None
    monkeypatch.setenv(settings.ui.password_env, "s3cret")
    assert login(settings) == ("ana", "s3cret")


def test_cli_defaults_bind_locally_without_share() -> None:
    from ui.cli import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["ui"])
    assert (args.host, args.port, args.share) == (None, None, None)
    assert Settings().ui.host == "127.0.0.1" and Settings().ui.share is False
    args = parser.parse_args(["ui", "--host", "0.0.0.0", "--port", "9000", "--share"])
    assert (args.host, args.port, args.share) == ("0.0.0.0", 9000, True)


def _model(**update: Any) -> RankedModel:
    base = RankedModel(
        rank=1,
        model_id="m",
        name="Model <b>X</b>",
        score=81.0,
        confidence=0.3,
        reasons=["fits <script>"],
        links=Links(paper="https://arxiv.org/abs/1", code="https://github.com/x/y", weights=None),
    )
    return base.model_copy(update=update)


def test_card_escapes_text_links_what_exists_and_colours_confidence() -> None:
    html = model_card_html(_model())
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="https://arxiv.org/abs/1"' in html and 'href="https://github.com/x/y"' in html
    assert "Weights: none" in html
    assert 'data-confidence="0.30"' in html and "width:30%" in html
    assert confidence_colour(0.3) != confidence_colour(0.8)


def test_explore_filters_combine(records: list[ModelRecord]) -> None:
    f = RecordFilter(modality="SAR", max_params=100, min_year=2022, weights_only=True)
    shown = apply_filter(records, f)
    assert shown
    for r in shown:
        assert "SAR" in r.modalities and r.year is not None and r.year >= 2022
        assert r.smallest_parameters is not None and r.smallest_parameters <= 100
    assert len(apply_filter(records, RecordFilter())) == len(records)
    mamba = apply_filter(records, RecordFilter(architecture="Mamba"))
    assert mamba and all("Mamba" in r.architectures for r in mamba)
    commercial = apply_filter(records, RecordFilter(commercial_only=True))
    assert commercial and len(commercial) < len(records)
    assert all(allows_commercial_use(r.license) for r in commercial)
    newest = sort_records(records, "Year (newest first)")
    years = [r.year for r in newest if r.year]
    assert years == sorted(years, reverse=True)


def test_record_detail_shows_values_with_their_sources(records: list[ModelRecord]) -> None:
    record = next(r for r in records if r.benchmarks and any(s.fields for s in r.sources))
    html = record_detail_html(record)
    field_source = next(s for s in record.sources if s.fields)
    assert f"<code>{field_source.fields[0]}</code>" in html
    assert field_source.url in html
    assert record.benchmarks[0].source_url in html and record.benchmarks[0].dataset in html


def test_compare_shows_shared_benchmarks_only(records: list[ModelRecord]) -> None:
    benchmarked = sorted((r for r in records if r.benchmarks), key=lambda r: -len(r.benchmarks))[:3]
    shared = shared_benchmarks(benchmarked)
    assert shared, "the most benchmarked models should share at least one dataset"
    assert all(len(values) >= 2 for values in shared.values())
    html = comparison_html(benchmarked)
    for r in benchmarked:
        assert r.model_name in html
    assert "remsa-best" in html


def _chat_tab(settings: Settings | None = None) -> ChatTab:
    """The chat tab, built inside a Blocks context as Gradio requires."""
    with gr.Blocks():
        return ChatTab(settings or _settings())


def _final(events: Iterator[dict[Any, Any]]) -> dict[Any, Any]:
    merged: dict[Any, Any] = {}
    for update in events:
        merged.update(update)
    return merged


@pytest.mark.slow
def test_chat_clarifies_then_answers_with_its_own_session() -> None:
    settings = _settings()
    tab = _chat_tab(settings)
    conv = Conversation()
    out = _final(tab.respond("I need a model", [], conv, 3, False))
    assert conv.selection is not None and len(conv.pending) == 2, "a vague query should ask two questions"
    assert out[tab.send_answers].visible is True
    first, second = conv.pending
    # One click notes the answer but waits: the other question still needs one.
    noted = _final(tab.answer_clicked(0, first.options[1], out[tab.chatbot], conv, 3, False))
    assert conv.session is not None and len(conv.session.history) == 1
    assert "Noted" in noted[tab.status] and "Send answers" in noted[tab.status]
    assert noted[tab.option_buttons[0][1]].variant == "primary"
    assert noted[tab.option_buttons[0][0]].variant == "secondary"
    # The second click sends both answers as one round.
    out = _final(tab.answer_clicked(1, second.options[0], out[tab.chatbot], conv, 3, False))
    assert len(conv.session.history) == 2
    assert conv.selection is not None and conv.selection.clarification_rounds == 1
    query = conv.selection.query
    assert query.application == first.options[1]
    assert query.modality and query.modality[0] in second.options[0]
    history = out[tab.chatbot]
    assert [m["role"] for m in history] == ["user", "assistant", "user", "assistant"]
    assert history[2]["content"] == f"{first.options[1]}; {second.options[0]}"
    other = Conversation()
    _final(
        tab.respond(
            "Crop type mapping from Sentinel-2 time series, few labels, single GPU", [], other, 2, False
        )
    )
    assert other.session is not conv.session
    assert other.selection is not None and "Crop type" in other.selection.query_text


@pytest.mark.slow
def test_send_answers_and_typed_text_go_with_clicked_answers() -> None:
    tab = _chat_tab()
    conv = Conversation()
    out = _final(tab.respond("I need a model", [], conv, 3, False))
    nothing = _final(tab.send_clicked(out[tab.chatbot], conv))
    assert "Click a suggested answer first" in nothing[tab.status]
    first = conv.pending[0]
    _final(tab.answer_clicked(0, first.options[0], out[tab.chatbot], conv, 3, False))
    sent = _final(tab.send_clicked(out[tab.chatbot], conv))
    assert conv.session is not None and len(conv.session.history) == 2
    assert conv.picks == {}
    assert sent[tab.chatbot][-2]["content"] == first.options[0]
    # Typed text after a click: both go in the same round.
    typed = Conversation()
    out = _final(tab.respond("I need a model", [], typed, 3, False))
    app_q, _ = typed.pending
    _final(tab.answer_clicked(0, app_q.options[0], out[tab.chatbot], typed, 3, False))
    out = _final(tab.respond("Sentinel-1 SAR", out[tab.chatbot], typed, 3, False))
    assert typed.session is not None and len(typed.session.history) == 2
    assert typed.selection is not None and typed.selection.clarification_rounds == 1
    assert "SAR" in typed.selection.query.modality
    assert out[tab.chatbot][-2]["content"] == f"{app_q.options[0]}; Sentinel-1 SAR"


@pytest.mark.slow
def test_answer_exports_json_and_markdown() -> None:
    tab = _chat_tab()
    conv = Conversation()
    out = _final(tab.respond("Flood mapping with Sentinel-1 SAR, few labels, CPU laptop", [], conv, 3, False))
    assert conv.selection is not None and conv.selection.models
    assert "remsa-card" in out[tab.results]
    assert conv.export_dir is not None
    (json_file,) = conv.export_dir.glob("*.json")
    (md_file,) = conv.export_dir.glob("*.md")
    data = json.loads(json_file.read_text(encoding="utf-8"))
    assert conv.selection.models[0].name in md_file.read_text(encoding="utf-8")
    assert data["query_text"].startswith("Flood mapping") and len(data["models"]) == len(
        conv.selection.models
    )
    assert give_feedback(conv, 1, "up", None).startswith("Not stored: task memory is off")


@pytest.mark.slow
def test_feedback_is_stored_in_task_memory_when_memory_is_on() -> None:
    from agent.memory import close_stores, open_store

    base = Settings(memory={"enabled": True, "backend": "in-memory"})
    tab = _chat_tab(base)
    conv = Conversation()
    try:
        _final(tab.respond("Flood mapping with Sentinel-1 SAR, few labels, CPU laptop", [], conv, 2, True))
        assert conv.selection is not None and conv.selection.models
        message = give_feedback(conv, 1, "down", "too big")
        assert message.startswith("Thanks")
        assert conv.session is not None
        visitor = conv.session.settings.user_id  # no login: this browser's own anonymous id
        assert visitor is not None and visitor.startswith("visitor-")
        stored = open_store(session_settings(base, 2, True, visitor)).export(visitor)
        model_id = conv.selection.models[0].model_id
        assert any(i.feedback.get(model_id) for i in stored)
    finally:
        close_stores()


@pytest.mark.slow
def test_select_api_returns_selection_json_for_its_query() -> None:
    data = select_api(_settings(), "Building segmentation from RGB aerial images", 2)
    parsed = Selection.model_validate(data)
    assert parsed.query_text == "Building segmentation from RGB aerial images"
    assert 1 <= len(parsed.models) <= 2
    html = selection_html(parsed)
    assert html.count("remsa-card") >= 1
    assert 'Understood:</span> <span class="remsa-chip">building segmentation</span>' in html


@pytest.mark.slow
def test_refused_text_keeps_the_box_the_picks_and_the_conversation() -> None:
    tab = _chat_tab()
    conv = Conversation()
    out = _final(tab.respond("I need a model", [], conv, 3, False))
    first = conv.pending[0]
    _final(tab.answer_clicked(0, first.options[0], out[tab.chatbot], conv, 3, False))
    session = conv.session
    refused = _final(tab.respond("flood " * 900, out[tab.chatbot], conv, 3, False))
    assert "limit is 4000" in refused[tab.status]
    assert tab.query not in refused  # the typed text stays in the box to be shortened
    assert tab.chatbot not in refused  # nothing added to the conversation
    assert conv.session is session and conv.picks == {first.field: first.options[0]}


def test_chat_question_round_says_what_was_read_on_the_way() -> None:
    tab = _chat_tab()
    conv = Conversation()
    out = _final(tab.respond("Cartographie des inondations avec Sentinel-1", [], conv, 3, False))
    message = out[tab.chatbot][-1]["content"]
    assert message.startswith("*Noted: The task seems to be written in French")
    assert "To pick well I need a bit more:" in message


def test_warm_up_builds_what_the_first_request_needs() -> None:
    from agent.reading.terms import _matcher, _regex, compile_patterns, dataset_terms

    dataset_terms.cache_clear()
    _matcher.cache_clear()
    app_module.warm_up(Settings(memory={"enabled": False}))
    assert dataset_terms.cache_info().currsize == 2  # benchmarks; and corpora, for pretraining data
    assert _matcher.cache_info().currsize >= 3  # sensors, modalities, applications at least
    # ... and their patterns compiled, so that no request pays for a first use
    compiled = _regex.cache_info().currsize
    assert compile_patterns() <= compiled == _regex.cache_info().currsize  # nothing left to compile


@pytest.mark.slow
def test_chat_reads_a_constraint_after_an_answer_as_a_change_to_that_task() -> None:
    tab = _chat_tab()
    conv = Conversation()
    out = _final(tab.respond("Flood mapping with Sentinel-1 SAR, few labels, CPU laptop", [], conv, 3, False))
    first = conv.session
    assert conv.selection is not None and conv.selection.models
    out = _final(tab.respond("only models with open weights", out[tab.chatbot], conv, 3, False))
    assert conv.session is first and conv.selection is not None
    assert conv.selection.query.application == "flood mapping" and conv.selection.query.open_weights
    assert conv.selection.assumptions[0].startswith("Read as a change to the previous task")
    _final(tab.respond("Building segmentation from aerial images", out[tab.chatbot], conv, 3, False))
    assert conv.selection is not None and not conv.selection.query.open_weights  # a new task


def test_explore_applies_no_year_filter_until_one_is_set(records: list[ModelRecord]) -> None:
    from ui.explore import ExploreTab

    with gr.Blocks():
        tab = ExploreTab(records)
    assert tab.min_year.value is None and tab.max_year.value is None
    # Changing another filter and undoing it keeps every record, those with no known year too.
    defaults = ["", "", "", "", "", "", None, None, tab.min_year.value, tab.max_year.value, False, False, ""]
    _, count, _ = tab.refresh(*defaults)
    assert count.startswith(f"{len(records)} of {len(records)}")
    defaults[8:10] = [0, 0]  # an empty number box as the browser may send it
    _, count, _ = tab.refresh(*defaults)
    assert count.startswith(f"{len(records)} of {len(records)}")
    assert any(r.year is None for r in records)
