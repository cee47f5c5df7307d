"""The Gradio app: ``build_app`` returns the Blocks (testable without a server); ``launch_app`` serves it."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import logging
import os
import threading
from typing import Any

import gradio as gr
from gradio.events import api

from agent.api import Session
from agent.settings import Settings
from rsfmd.loader import load_records
from ui.capmap import CapabilitiesTab
from ui.cards import APP_CSS
from ui.chat import ChatTab
from ui.compare import CompareTab
from ui.compare_action import COMPARE_TAB_ID
from ui.explore import ExploreTab

TITLE = "remsa — find the right remote-sensing foundation model"
SUBTITLE = (
    "Describe your task in plain words (what to map, which imagery, how many labels, what hardware) "
    "and get ranked models from RS-FMD with the evidence behind them."
)
QUEUE_CONCURRENCY = 4
SUBMIT_TAB_MODULE = "ui.submit_tab"

log = logging.getLogger(__name__)


def select_api(settings: Settings, query: str, k: int = 3) -> dict[str, Any]:
    """One stateless answer (no clarification round, no task memory) as Selection JSON."""
    session = Session(settings.model_copy(update={"user_id": None}), k=max(1, min(int(k), 20)), clarify=False)
    return session.ask(query).model_dump(mode="json")


def _submit_tab(settings: Settings) -> None:
    """The 'Submit a model' tab, when its module is installed."""
    if importlib.util.find_spec(SUBMIT_TAB_MODULE) is None:
        return
    module = importlib.import_module(SUBMIT_TAB_MODULE)
    with gr.Tab("Submit a model", id="submit"):
        module.build_submit_tab(settings)


def answer_colab_check_once() -> None:
    """Gradio asks whether it runs in Colab on every page load, from its server threads, by trying
    to import IPython; concurrent imports of a missing module can trip CPython's import locks
    (KeyError in ``_ModuleLock``). The answer does not change while the process runs: ask once."""
    utils = gr.utils
    if not hasattr(utils.colab_check, "cache_info"):
        utils.colab_check = functools.cache(utils.colab_check)
    utils.colab_check()


def build_app(settings: Settings | None = None) -> gr.Blocks:
    """The whole app: chat, explore, compare, capabilities map (and submit, if present)."""
    answer_colab_check_once()
    settings = settings or Settings()
    records = load_records(settings.database.path)
    with gr.Blocks(title="remsa", analytics_enabled=False, fill_width=True) as demo:
        gr.Markdown(f"# {TITLE}\n{SUBTITLE}", elem_classes="remsa-header", elem_id="remsa-header")
        with gr.Tabs() as tabs:
            with gr.Tab("Chat", id="chat"):
                chat = ChatTab(settings)
            with gr.Tab("Explore RS-FMD", id="explore"):
                ExploreTab(records)
            with gr.Tab("Compare", id=COMPARE_TAB_ID):
                compare = CompareTab(records)
            with gr.Tab("Capabilities map", id="capmap") as capmap_tab:
                CapabilitiesTab(settings).wire(capmap_tab, chat.state)
            _submit_tab(settings)
        chat.link_compare(tabs, compare)

        def select(query: str, k: int = 3) -> dict[str, Any]:
            """Recommend up to k models for a task described in words; returns the Selection as JSON."""
            return select_api(settings, query, k)

        api(select, api_name="select", concurrency_limit=QUEUE_CONCURRENCY)
    demo.queue(default_concurrency_limit=QUEUE_CONCURRENCY)
    blocks: gr.Blocks = demo
    return blocks


def login(settings: Settings) -> tuple[str, str] | None:
    """(user, password) when both login variables are set, for shared deployments; otherwise None."""
    user = os.environ.get(settings.ui.user_env)
    password = os.environ.get(settings.ui.password_env)
    return (user, password) if user and password else None


def warm_up(settings: Settings) -> None:
    """Build the shared resources now (errors surface on the first request instead)."""
    from agent.interpreter import interpret
    from agent.reading.terms import compile_patterns
    from agent.resources import get_resources

    try:
        resources = get_resources(settings)
        resources.retrieval.ensure_built()
        resources.capabilities(settings)
        # The interpreter's term, dataset (benchmarks and pretraining corpora) and word-frequency
        # tables, and the model-name finder.
        interpret(
            "flood mapping with Sentinel-1 on Sen1Floods11, pretrained on SSL4EO-S12",
            resources.encoder.encode,
        )
        # Their patterns are compiled on first use; a server compiles them all before it serves.
        compile_patterns()
        resources.model_names().compile()
    except (OSError, ValueError) as exc:
        log.warning("warm-up failed; the first request will retry: %s", exc)


def launch_app(
    demo: gr.Blocks,
    settings: Settings,
    *,
    host: str | None = None,
    port: int | None = None,
    share: bool | None = None,
    prevent_thread_lock: bool = False,
) -> tuple[Any, str, str]:
    """Serve the app (bound to Settings.ui.host unless told otherwise); analytics stay off.

    The encoder, index and capabilities fit are built in the background while the page loads, so
    the first question does not pay for them.
    """
    os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
    threading.Thread(target=warm_up, args=(settings,), name="remsa-warm-up", daemon=True).start()
    return demo.launch(
        server_name=host or settings.ui.host,
        server_port=port if port is not None else settings.ui.port,
        share=settings.ui.share if share is None else share,
        auth=login(settings),
        prevent_thread_lock=prevent_thread_lock,
        css=APP_CSS,
        theme=gr.themes.Default(primary_hue="teal"),
        footer_links=["api"],
        show_error=True,
        quiet=prevent_thread_lock,
    )
