"""The app in a real browser: Playwright driving Debian's Chromium against an in-process server.

Screenshots of each step go to REMSA_SCREENSHOT_DIR (default: a pytest temporary folder).
"""

from __future__ import annotations

import gc
import os
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
FIRST_ANSWER_MS = 120_000  # the first request builds the embedding index and fits the capabilities encoding
STEP_MS = 30_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    # Gradio orphans asyncio event loops it creates outside a running loop; not ours to close.
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in. <function BaseEventLoop.__del__:pytest.PytestUnraisableExceptionWarning"
    ),
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in. <socket.socket:pytest.PytestUnraisableExceptionWarning"
    ),
]


def _require_browser() -> None:
    problem = None
    if not CHROMIUM.exists():
        problem = f"{CHROMIUM} is missing (apt-get install chromium chromium-driver)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "the playwright package is not installed (pip install -e '.[dev]')"
    if problem is None:
        return
    if os.environ.get("REMSA_REQUIRE_BROWSER") == "1":
        pytest.fail(f"REMSA_REQUIRE_BROWSER=1 but {problem}")
    pytest.skip(f"browser tests need Chromium: {problem}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served in-process on a free local port, task memory off."""
    yield from _serve(tmp_path_factory, {"REMSA_MEMORY__ENABLED": "false"})


def _serve(factory: pytest.TempPathFactory, env: dict[str, str]) -> Iterator[str]:
    """Serve the app with ``env`` set, in its own data folder; yield its address."""
    _require_browser()
    with pytest.MonkeyPatch.context() as mp:
        for key, value in {**env, "GRADIO_ANALYTICS_ENABLED": "False"}.items():
            mp.setenv(key, value)
        mp.setenv("REMSA_DATA_DIR", str(factory.mktemp("remsa-ui-data")))
        from agent.settings import Settings
        from ui.app import build_app, launch_app

        settings = Settings()
        demo = build_app(settings)
        for attempt in range(3):
            # Gradio checks that the address answers within a few seconds; on a machine busy with
            # other work that check can miss once, so the launch is tried again on a new port.
            port = _free_port()
            try:
                launch_app(demo, settings, host="127.0.0.1", port=port, share=False, prevent_thread_lock=True)
                break
            except ValueError:
                demo.close()
                if attempt == 2:
                    raise
        try:
            yield f"http://127.0.0.1:{port}/"
        finally:
            demo.close()
            gc.collect()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium, background networking off."""
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the step screenshots go."""
    folder = os.environ.get("REMSA_SCREENSHOT_DIR")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def page(browser: Any, app_url: str) -> Iterator[Any]:
    """A fresh browser context (its own Gradio session) on the app; fails on outside requests."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    outside: list[str] = []
    context.on(
        "request",
        lambda r: (
            outside.append(r.url) if not r.url.startswith(("http://127.0.0.1", "data:", "blob:")) else None
        ),
    )
    pg = context.new_page()
    pg.set_default_timeout(STEP_MS)
    pg.goto(app_url)
    pg.get_by_test_id("textbox").first.wait_for()
    yield pg
    context.close()
    assert outside == [], f"the page reached outside localhost: {outside[:5]}"


def _ask(page: Any, text: str) -> None:
    box = page.locator("#remsa-query").get_by_test_id("textbox")
    box.fill(text)
    box.press("Enter")


def test_first_screen_says_what_to_type_then_query_shows_cards_with_links(page: Any, shots: Path) -> None:
    page.screenshot(path=str(shots / "01_first_screen.png"), full_page=True)
    assert "find the right remote-sensing foundation model" in page.locator("#remsa-header").inner_text()
    assert page.locator(".remsa-example").count() >= 3
    _ask(page, "Flood mapping with Sentinel-1 SAR, few labels, CPU laptop")
    page.locator("#remsa-results .remsa-card").first.wait_for(timeout=FIRST_ANSWER_MS)
    page.locator('[data-testid="bot"]').first.wait_for()
    cards = page.locator("#remsa-results .remsa-card")
    assert cards.count() >= 1
    first = cards.first
    assert first.locator(".remsa-conf-fill").count() == 1
    assert first.locator("a.remsa-link", has_text="Paper").get_attribute("href").startswith("http")
    assert first.locator(".remsa-evidence td").count() > 0
    assert "Done in" in page.locator("#remsa-status").inner_text()
    page.screenshot(path=str(shots / "02_answer_cards.png"), full_page=True)


def test_clicking_suggested_answers_refines_the_answer(page: Any, shots: Path) -> None:
    _ask(page, "I need a model")
    option = page.locator("#remsa-questions button.remsa-option").first
    option.wait_for(state="visible")
    page.screenshot(path=str(shots / "03_clarification.png"), full_page=True)
    choice = option.inner_text().strip()
    option.click()
    page.wait_for_function("document.querySelector('#remsa-status')?.innerText.includes('Noted')")
    page.mouse.move(0, 0)
    assert page.locator("#remsa-questions button.remsa-option.primary").count() == 1
    page.screenshot(path=str(shots / "03b_answer_picked.png"), full_page=True)
    page.locator("#remsa-send-answers").click()
    bots = page.locator('[data-testid="bot"]')
    page.wait_for_function("document.querySelectorAll('[data-testid=\"bot\"]').length >= 2")
    page.wait_for_function("document.querySelector('#remsa-status')?.innerText.includes('Done in')")
    users = page.locator('[data-testid="user"]')
    assert choice in users.last.inner_text()
    assert "⏳" not in bots.last.inner_text()
    refined = (
        page.locator("#remsa-results .remsa-card").count() > 0
        or page.locator("#remsa-questions button.remsa-option").first.is_visible()
    )
    assert refined
    page.screenshot(path=str(shots / "04_refined.png"), full_page=True)


def test_asking_for_more_models_in_the_chat_shows_more_cards(page: Any, shots: Path) -> None:
    _ask(page, "Flood mapping with Sentinel-1 SAR, a well-labelled dataset, one GPU")
    cards = page.locator("#remsa-results .remsa-card")
    cards.first.wait_for(timeout=FIRST_ANSWER_MS)
    first = cards.count()
    _ask(page, "show me 6")
    page.wait_for_function("document.querySelectorAll('[data-testid=\"bot\"]').length >= 2")
    page.wait_for_function("document.querySelector('#remsa-status')?.innerText.includes('Done in')")
    page.wait_for_function("document.querySelectorAll('#remsa-results .remsa-card').length >= 6")
    assert first == 3 and cards.count() == 6
    assert page.locator('[data-testid="bot"]').last.inner_text().startswith("Top 6 for your task")
    page.screenshot(path=str(shots / "04c_show_more.png"), full_page=True)


def _counts(text: str) -> tuple[int, int]:
    match = re.search(r"(\d+) of (\d+) models", text)
    assert match, text
    return int(match.group(1)), int(match.group(2))


def test_explore_filter_and_open_a_record(page: Any, shots: Path) -> None:
    page.get_by_role("tab", name="Explore RS-FMD").click()
    search = page.locator("#explore-search").get_by_test_id("textbox")
    count = page.locator("#explore-count")
    total = _counts(count.inner_text())[1]
    search.fill("DOFA")
    page.wait_for_function(
        f"!document.querySelector('#explore-count').innerText.includes('{total} of {total}')"
    )
    shown = _counts(count.inner_text())[0]
    assert 1 <= shown < total
    _pick(page, "#explore-pick", "DOFA")
    detail = page.locator("#explore-detail .remsa-detail")
    detail.wait_for()
    assert "DOFA" in detail.locator("h3").inner_text()
    assert detail.locator(".remsa-fields a[href^='http']").count() > 0
    page.screenshot(path=str(shots / "05_explore_record.png"), full_page=True)


def _pick(page: Any, container: str, name: str) -> None:
    box = page.locator(f"{container} input")
    box.click()
    box.fill(name)
    page.get_by_role("option", name=name, exact=True).click()


def test_compare_two_models(page: Any, shots: Path) -> None:
    page.get_by_role("tab", name="Compare").click()
    _pick(page, "#compare-pick", "DOFA")
    _pick(page, "#compare-pick", "SatlasPretrain")
    table = page.locator("#compare-view table.remsa-compare")
    table.wait_for()
    header = table.locator("thead").inner_text()
    assert "DOFA" in header and "SatlasPretrain" in header
    page.screenshot(path=str(shots / "06_compare.png"), full_page=True)


def test_capabilities_map_draws_and_tabulates_a_model(page: Any, shots: Path) -> None:
    page.get_by_role("tab", name="Capabilities map").click()
    page.wait_for_function("document.querySelector('#capmap-message')?.innerText.includes('models and')")
    page.locator("#capmap-plot img, #capmap-plot svg").first.wait_for()
    page.screenshot(path=str(shots / "07_capabilities_map.png"), full_page=True)


# -- task memory in the app: each browser is its own user ----------------------------------------
SECRET_TASK = (
    "Flood mapping in Bangladesh with Sentinel-1 SAR for Acme Hydro Ltd (confidential project Zephyr), "
    "few labels, CPU laptop"
)
SIMILAR_TASKS = (
    "Flood extent mapping for Bangladesh from Sentinel-1, only a few labels, CPU only",
    "Mapping monsoon floods in Bangladesh with Sentinel-1 radar, few labelled scenes, no GPU",
)


@pytest.fixture(scope="module")
def memory_app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with task memory on (one process-wide store), as a shared deployment runs it."""
    yield from _serve(
        tmp_path_factory, {"REMSA_MEMORY__ENABLED": "true", "REMSA_MEMORY__BACKEND": "in-memory"}
    )


def _visit(browser: Any, url: str, state: Any = None) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, storage_state=state)
    page = context.new_page()
    page.set_default_timeout(STEP_MS)
    page.goto(url)
    page.get_by_test_id("textbox").first.wait_for()
    return context, page


def _answered(page: Any, count: int) -> None:
    """Wait until the chat holds ``count`` finished answers."""
    page.wait_for_function(
        f"[...document.querySelectorAll('[data-testid=\"bot\"]')].filter(b => !b.innerText.includes('⏳'))"
        f".length >= {count}",
        timeout=FIRST_ANSWER_MS,
    )
    page.wait_for_function("document.querySelector('#remsa-status')?.innerText.includes('Done in')")


def test_two_browsers_never_share_memory_and_a_returning_one_sees_its_own(
    browser: Any, memory_app_url: str, shots: Path
) -> None:
    first, page = _visit(browser, memory_app_url)
    for done, text in enumerate((SECRET_TASK, *SIMILAR_TASKS), start=1):
        _ask(page, text)
        _answered(page, done)
    earlier = page.locator("#remsa-earlier")
    assert "From your earlier tasks" in earlier.inner_text()
    assert "Zephyr" in earlier.inner_text()  # this browser's own history
    page.screenshot(path=str(shots / "08_earlier_tasks_offered.png"), full_page=True)
    state = first.storage_state()

    second, other = _visit(browser, memory_app_url)
    _ask(other, "Flood mapping from Sentinel-1 radar, few labels")
    _answered(other, 1)
    assert other.locator("#remsa-earlier").count() == 0
    assert "Zephyr" not in other.content() and "Acme" not in other.content()
    assert not other.locator("#remsa-suggestions").is_visible()
    other.screenshot(path=str(shots / "09_second_browser.png"), full_page=True)
    second.close()

    first.close()
    for attempt in range(2):
        # On a machine loaded by the parallel suite, the first answer of a fresh page has been seen
        # without the earlier tasks (not reproduced alone); a second visit from the same stored
        # state must show them, so a memory that forgets the visitor still fails.
        returning, again = _visit(browser, memory_app_url, state)
        _ask(again, "Flood mapping from Sentinel-1 radar, few labels")
        _answered(again, 1)
        if again.locator("#remsa-earlier").count() or attempt:
            break
        returning.close()
    assert "Zephyr" in again.locator("#remsa-earlier").inner_text()
    # What the earlier tasks suggest is offered as chips, never applied unasked.
    assert again.locator("#remsa-suggestions button", has_text="Region: Bangladesh").is_visible()
    before = again.locator("#remsa-results").inner_text()
    assert "Bangladesh" not in again.locator("#remsa-results .remsa-understood").inner_text()
    again.locator("#remsa-suggestions button", has_text="Region: Bangladesh").click()
    _answered(again, 2)
    assert "Bangladesh" in again.locator("#remsa-results .remsa-understood").inner_text()
    assert again.locator("#remsa-results").inner_text() != before
    again.screenshot(path=str(shots / "10_suggestion_accepted.png"), full_page=True)
    returning.close()


# Records whether the query box was ever disabled, however briefly.
_WATCH_LOCK = """() => {
  window.remsaBoxLocked = false;
  const root = document.querySelector('#remsa-query');
  const check = () => {
    const box = root.querySelector('textarea, input');
    if (box && box.disabled) window.remsaBoxLocked = true;
  };
  new MutationObserver(check).observe(root, {attributes: true, childList: true, subtree: true});
}"""


def test_the_box_locks_while_answering_and_both_messages_are_answered(page: Any, shots: Path) -> None:
    box = page.locator("#remsa-query").get_by_test_id("textbox")
    # The lock can be brief on a warm app: watch for it from before the question is sent.
    page.evaluate(_WATCH_LOCK)
    _ask(page, "Burn scar mapping with Sentinel-2, no GPU")
    page.wait_for_function("window.remsaBoxLocked === true")
    page.screenshot(path=str(shots / "11_box_locked.png"), full_page=True)
    box.fill("something smaller?", timeout=FIRST_ANSWER_MS)  # waits until the box is free again
    box.press("Enter")
    _answered(page, 2)
    users = [u.inner_text() for u in page.locator('[data-testid="user"]').all()]
    assert users == ["Burn scar mapping with Sentinel-2, no GPU", "something smaller?"]
    assert not box.is_disabled()
