"""The Capabilities map and Explore tabs in a real browser (Playwright driving Debian's Chromium).

Uses the app, browser and screenshot fixtures of test_ui_browser; screenshots go to
REMSA_SCREENSHOT_DIR (default: a pytest temporary folder).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rsfmd.loader import load_records
from rsfmd.schema import ModelRecord
from tests import test_ui_browser as served
from tests.test_ui_browser import FIRST_ANSWER_MS, _ask, _counts, _pick
from ui.explore import RecordFilter, apply_filter

# The served app, the browser, a fresh page per test and the screenshot folder, as test_ui_browser has them.
app_url, browser, page, shots = served.app_url, served.browser, served.page, served.shots
pytestmark = served.pytestmark

MAP_READY = "document.querySelector('#capmap-message')?.innerText.includes('models and')"
PLOT = "#capmap-plot .js-plotly-plot"


@pytest.fixture(scope="module")
def records() -> list[ModelRecord]:
    """The shipped RS-FMD, which the app serves."""
    return load_records(None)


def _open_map(page: Any) -> None:
    page.get_by_role("tab", name="Capabilities map").click()
    page.wait_for_function(MAP_READY)
    page.locator(PLOT).wait_for()


def _hover_a_model(page: Any) -> Any:
    """Move over the first model dot until plotly shows its hover label (it may still be drawing)."""
    hover = page.locator(f"{PLOT} .hoverlayer .hovertext")
    for attempt in range(20):
        dot = page.locator(f"{PLOT} .scatterlayer .trace").nth(1).locator("path.point").first
        dot.scroll_into_view_if_needed()
        box = dot.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2 + attempt % 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(250)
        if hover.count():
            return hover
    raise AssertionError("no hover label over a model dot")


def _plot_labels(page: Any) -> list[str]:
    labels: list[str] = page.locator(f"{PLOT} .textpoint text").all_text_contents()
    return labels


def test_map_names_models_on_hover_and_highlights_a_searched_model(page: Any, shots: Path) -> None:
    _open_map(page)
    assert "too few results to be placed" in page.locator("#capmap-message").inner_text()
    page.locator("#capmap-unplaced-box").get_by_text("Models not on the map").click()
    assert "no benchmark result in RS-FMD" in page.locator("#capmap-unplaced").inner_text()
    # Hovering a model dot names it.
    hover = _hover_a_model(page)
    assert "reported results" in hover.first.text_content()
    page.screenshot(path=str(shots / "20_capmap_hover.png"), full_page=True)
    # The model search lists names, not ids; picking one highlights it on the map.
    _pick(page, "#capmap-model", "Prithvi-EO-2.0")
    page.wait_for_function(
        f"[...document.querySelectorAll('{PLOT} .textpoint text')]"
        ".some(t => t.textContent.startsWith('Prithvi-EO-2.0'))"
    )
    # The standing table follows the map, the map's estimate against the reported result in words.
    page.wait_for_function("document.querySelector('#capmap-table')?.innerText.includes('expects')")
    _pick(page, "#capmap-datasets", "EuroSAT")
    page.wait_for_function(
        f"[...document.querySelectorAll('{PLOT} .textpoint text')].some(t => t.textContent === 'EuroSAT')"
    )
    assert any(label.startswith("Prithvi-EO-2.0") for label in _plot_labels(page))
    page.keyboard.press("Escape")  # close the dataset list before the picture
    page.screenshot(path=str(shots / "21_capmap_model_and_dataset_highlighted.png"), full_page=True)


def test_map_highlights_the_datasets_of_the_chat_task(page: Any, shots: Path) -> None:
    _ask(page, "Flood mapping with Sentinel-1 SAR, a well-labelled dataset, one GPU")
    page.locator("#remsa-results .remsa-card").first.wait_for(timeout=FIRST_ANSWER_MS)
    _open_map(page)
    page.wait_for_function("document.querySelector('#capmap-task-note')?.innerText.includes('flood mapping')")
    page.wait_for_function(
        f"[...document.querySelectorAll('{PLOT} .textpoint text')].some(t => t.textContent === 'Kuro Siwo')"
    )
    page.screenshot(path=str(shots / "22_capmap_chat_task.png"), full_page=True)


def _wait_count(page: Any, shown: int, total: int) -> None:
    page.wait_for_function(
        f"document.querySelector('#explore-count')?.innerText.startsWith('{shown} of {total} models')"
    )


def test_explore_count_returns_to_all_after_a_filter_is_undone(
    page: Any, shots: Path, records: list[ModelRecord]
) -> None:
    page.get_by_role("tab", name="Explore RS-FMD").click()
    total = len(records)
    _wait_count(page, total, total)
    _pick(page, "#explore-sensor", "Sentinel-1")
    page.wait_for_function(f"!document.querySelector('#explore-count').innerText.startsWith('{total} of')")
    _pick(page, "#explore-sensor", "any")
    _wait_count(page, total, total)
    year = page.locator("#explore-min-year input")
    year.fill("2022")
    year.press("Enter")
    page.wait_for_function(f"!document.querySelector('#explore-count').innerText.startsWith('{total} of')")
    year.fill("")
    year.press("Enter")
    _wait_count(page, total, total)
    assert _counts(page.locator("#explore-count").inner_text()) == (total, total)
    page.screenshot(path=str(shots / "23_explore_count_after_undo.png"), full_page=True)


@pytest.mark.parametrize(
    ("text", "expected_name", "shot"),
    [
        ("S1", "CROMA", "24_explore_search_sensor.png"),
        ("Kuro Siwo", "Copernicus-FM", "25_explore_search_dataset.png"),
    ],
)
def test_explore_search_finds_sensors_and_datasets(
    page: Any, shots: Path, records: list[ModelRecord], text: str, expected_name: str, shot: str
) -> None:
    expected = apply_filter(records, RecordFilter(text=text))
    assert expected_name in {r.model_name for r in expected}
    page.get_by_role("tab", name="Explore RS-FMD").click()
    page.locator("#explore-search").get_by_test_id("textbox").fill(text)
    _wait_count(page, len(expected), len(records))
    assert expected_name in page.locator("#explore-table").inner_text()
    page.screenshot(path=str(shots / shot), full_page=True)


def test_explore_record_view_shows_a_variants_table(
    page: Any, shots: Path, records: list[ModelRecord]
) -> None:
    record = next(r for r in records if r.model_name == "Prithvi-EO-2.0")
    page.get_by_role("tab", name="Explore RS-FMD").click()
    page.locator("#explore-search").get_by_test_id("textbox").fill(record.model_name)
    _wait_count(page, len(apply_filter(records, RecordFilter(text=record.model_name))), len(records))
    _pick(page, "#explore-pick", record.model_name)
    variants = page.locator("#explore-detail table.remsa-variants")
    variants.wait_for()
    assert variants.locator("tbody tr").count() == len(record.variants) > 1
    assert variants.locator("a[href^='http']").count() >= 1 or not any(v.weights for v in record.variants)
    assert page.locator("#explore-detail table.remsa-sources a[href^='http']").count() >= len(record.sources)
    variants.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "26_explore_record_variants.png"), full_page=True)
