"""Compare from an answer, the Compare tab's empty state, and a follow-up's change said first, in a
real browser (Playwright driving Debian's Chromium).

Uses the app, browser and screenshot fixtures of test_ui_browser; screenshots go to
REMSA_SCREENSHOT_DIR (default: a pytest temporary folder).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests import test_ui_browser as served
from tests.test_ui_browser import _answered, _ask

# The served app, the browser, a fresh page per test and the screenshot folder, as test_ui_browser has them.
app_url, browser, page, shots = served.app_url, served.browser, served.page, served.shots
pytestmark = served.pytestmark

TASK = "Flood mapping with Sentinel-1 SAR, few labels, one GPU"


def _compare_tab_selected(page: Any) -> bool:
    return page.get_by_role("tab", name="Compare").get_attribute("aria-selected") == "true"


def _card_names(page: Any) -> list[str]:
    names: list[str] = page.locator("#remsa-results .remsa-card .remsa-name").all_inner_texts()
    return names


def _ticked(page: Any, name: str) -> Any:
    return page.locator("#remsa-compare-pick label", has_text=name).locator("input[type=checkbox]")


def test_compare_tab_says_what_to_do_before_any_model_is_picked(page: Any, shots: Path) -> None:
    page.get_by_role("tab", name="Compare").click()
    empty = page.locator("#compare-view #compare-empty")
    empty.wait_for()
    text = empty.inner_text()
    assert "Nothing to compare yet" in text and "Chat tab" in text and "Compare" in text
    page.screenshot(path=str(shots / "30_compare_empty.png"), full_page=True)


def test_compare_on_an_answer_opens_the_compare_tab_with_its_models(page: Any, shots: Path) -> None:
    assert not page.locator("#remsa-compare-row").is_visible()  # nothing to compare before an answer
    _ask(page, TASK)
    _answered(page, 1)
    page.locator("#remsa-compare-row").wait_for(state="visible")
    first, second, third = _card_names(page)[:3]
    assert _ticked(page, first).is_checked() and _ticked(page, second).is_checked()
    assert not _ticked(page, third).is_checked()
    page.screenshot(path=str(shots / "31_compare_action.png"), full_page=True)

    page.locator("#remsa-compare").click()
    page.wait_for_function(
        "document.querySelector('[role=tab][aria-selected=true]')?.innerText.trim() === 'Compare'"
    )
    table = page.locator("#compare-view table.remsa-compare")
    table.wait_for()
    header = table.locator("thead").inner_text()
    assert first in header and second in header and third not in header
    assert first in page.locator("#compare-pick").inner_text()
    view = page.locator("#compare-view").inner_text()
    assert view.index("Results on shared datasets") < view.index("best results") < view.index("Properties")
    page.screenshot(path=str(shots / "32_compare_filled.png"), full_page=True)

    # Any models of the answer: the first and the third.
    page.get_by_role("tab", name="Chat").click()
    _ticked(page, second).uncheck()
    _ticked(page, third).check()
    page.locator("#remsa-compare").click()
    page.wait_for_function(
        f"document.querySelector('#compare-view table.remsa-compare thead')?.innerText.includes({third!r})"
    )
    assert _compare_tab_selected(page)
    header = page.locator("#compare-view table.remsa-compare thead").inner_text()
    assert first in header and third in header and second not in header
    page.screenshot(path=str(shots / "33_compare_chosen.png"), full_page=True)


def test_a_follow_up_says_what_it_changed_first_and_the_status_line_once(page: Any, shots: Path) -> None:
    _ask(page, TASK)
    _answered(page, 1)
    _ask(page, "something smaller?")
    _answered(page, 2)
    bubble = page.locator('[data-testid="bot"]').last.inner_text().strip()
    assert bubble.splitlines()[0].startswith("Now fewer than"), bubble
    assert "M parameters" in bubble.splitlines()[0]
    status = page.locator("#remsa-status").inner_text().strip()
    assert status.startswith("Done in") and len(status.splitlines()) == 1
    assert "Now fewer than" not in status and "⏳" not in status
    change = page.locator("#remsa-results .remsa-change")
    assert change.inner_text().startswith("Now fewer than")
    page.screenshot(path=str(shots / "34_follow_up_change_first.png"), full_page=True)
