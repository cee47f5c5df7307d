"""How long the Capabilities map takes to redraw when a model or datasets are highlighted.

Usage:
    python benchmarks_perf/capmap_redraw.py              # in-process: handler + gradio's serialisation
    python benchmarks_perf/capmap_redraw.py --browser    # also end to end in Chromium (pick -> drawn)

In-process, each redraw is the tab's handler (figure and standing table) plus gr.Plot's
postprocess, which is what the server sends. In the browser, it is the time from clicking a model
in the search list to its name being drawn on the map. Exit code 1 when the slowest redraw of
either exceeds the budget (default 1 s).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from ui_load import serve  # this folder's other benchmark: the app on a free port

CHROMIUM = Path("/usr/bin/chromium")
MODELS = ("DOFA", "CROMA", "Prithvi-EO-2.0", "SatMAE", "TerraMind", "Clay", "SkySense", "RemoteCLIP")
DATASETS = ([], ["EuroSAT"], ["Kuro Siwo", "PASTIS"])


def in_process(repeats: int) -> list[float]:
    """Seconds per redraw through the tab's handler and gradio's Plot serialisation."""
    import gradio as gr

    from agent.settings import Settings
    from ui.capmap import CapabilitiesTab

    with gr.Blocks():
        tab = CapabilitiesTab(Settings())
        plot = gr.Plot()
    start = time.perf_counter()
    tab.open()
    print(f"first open (loads the fit, lays out the map) {time.perf_counter() - start:.2f} s")
    ids = {name: mid for name, mid in tab.open()[2].choices}
    times = []
    for _ in range(repeats):
        for name in MODELS:
            for datasets in DATASETS:
                start = time.perf_counter()
                figure, _table = tab.choose(ids[name], datasets)
                plot.postprocess(figure)
                times.append(time.perf_counter() - start)
    return times


def in_browser(url: str) -> list[float]:
    """Seconds from picking a model in the map's search list to its name drawn on the map."""
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"])
        page = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.goto(url)
        page.get_by_test_id("textbox").first.wait_for()
        page.get_by_role("tab", name="Capabilities map").click()
        page.wait_for_function("document.querySelector('#capmap-message')?.innerText.includes('models and')")
        page.locator("#capmap-plot .js-plotly-plot").wait_for()
        for name in MODELS:
            box = page.locator("#capmap-model input")
            box.click()
            box.fill(name)
            option = page.get_by_role("option", name=name, exact=True)
            option.wait_for()
            start = time.perf_counter()
            option.click()
            page.wait_for_function(
                "[...document.querySelectorAll('#capmap-plot .textpoint text')]"
                f".some(t => t.textContent.startsWith({name!r}))",
                timeout=30_000,
            )
            times.append(time.perf_counter() - start)
        chromium.close()
    return times


def _report(label: str, times: list[float]) -> float:
    print(f"{label}: {len(times)} redraws, median {statistics.median(times):.3f} s, max {max(times):.3f} s")
    return max(times)


def main(argv: list[str] | None = None) -> int:
    """Time redraws in-process (and in Chromium with --browser); fail past the budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browser", action="store_true", help="Also time redraws end to end in Chromium.")
    parser.add_argument("--repeats", type=int, default=3, help="In-process passes over the models.")
    parser.add_argument("--budget", type=float, default=1.0, help="Slowest redraw allowed, in seconds.")
    args = parser.parse_args(argv)
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("REMSA_MEMORY__ENABLED", "false")
    worst = _report("in-process (handler + serialisation)", in_process(args.repeats))
    if args.browser:
        if not CHROMIUM.exists():
            print(f"--browser needs {CHROMIUM} (apt-get install chromium)")
            return 2
        url, demo = serve()
        try:
            worst = max(worst, _report("browser (pick -> drawn)", in_browser(url)))
        finally:
            demo.close()
    print(f"budget {args.budget:.2f} s: {'met' if worst <= args.budget else 'EXCEEDED'}")
    return 0 if worst <= args.budget else 1


if __name__ == "__main__":
    sys.exit(main())
