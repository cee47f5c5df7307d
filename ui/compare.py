"""The Compare tab: two to four models side by side, with benchmarks on the datasets they share."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from html import escape

import gradio as gr

from rsfmd.catalog import find_record
from rsfmd.schema import ModelRecord
from rsfmd.vocab import metric_info
from ui.cards import link_html

MIN_MODELS = 2
MAX_MODELS = 4

BenchKey = tuple[str, str, str, str]  # dataset, metric, setting, label fraction


def _params(r: ModelRecord) -> str:
    sizes = [f"{v.name}: {v.num_parameters:g}M" for v in r.variants if v.num_parameters is not None]
    if sizes:
        return "; ".join(sizes)
    return f"{r.num_parameters:g}M" if r.num_parameters is not None else "—"


def _pretraining(r: ModelRecord) -> str:
    phases = []
    for p in r.pretraining_phases:
        bits = [p.dataset or "unnamed dataset"]
        if p.num_images:
            bits.append(f"{p.num_images:,} images")
        if p.regions_coverage:
            bits.append(", ".join(p.regions_coverage))
        phases.append(" · ".join(bits))
    return "; ".join(phases) or (r.pretraining or "—")


PROPERTIES: tuple[tuple[str, Callable[[ModelRecord], str]], ...] = (
    ("Category", lambda r: r.category.value),
    ("Released", lambda r: str(r.release_date or r.release_year or "—")),
    ("Modalities", lambda r: ", ".join(r.modalities) or "—"),
    ("Sensors", lambda r: ", ".join(r.supported_sensors) or "—"),
    ("Spatial resolution", lambda r: r.spatial_resolution or "—"),
    ("Bands", lambda r: ", ".join(r.bands[:14]) + (" …" if len(r.bands) > 14 else "") or "—"),
    ("Size", _params),
    ("Backbone", lambda r: r.backbone or "—"),
    ("Pretraining", lambda r: r.pretext_training_type or "—"),
    ("Pretraining data", _pretraining),
    ("Task types", lambda r: ", ".join(r.all_task_types) or "—"),
    ("License", lambda r: r.license or "—"),
    ("Benchmark results", lambda r: str(len(r.benchmarks))),
)


def best_results(record: ModelRecord) -> dict[BenchKey, float]:
    """Each (dataset, metric, setting, label fraction) the model reports, with its best value."""
    out: dict[BenchKey, float] = {}
    for b in record.benchmarks:
        pct = f"{b.sampling_percentage:g}%" if b.sampling_percentage else ""
        for metric, value in b.values().items():
            key = (b.dataset, metric, b.setting or "", pct)
            higher = metric_info(metric).higher_is_better
            old = out.get(key)
            if old is None or (value > old if higher else value < old):
                out[key] = value
    return out


def shared_benchmarks(records: Sequence[ModelRecord]) -> dict[BenchKey, dict[str, float]]:
    """Results on keys reported by at least two of the models: key -> model_id -> value."""
    table: dict[BenchKey, dict[str, float]] = defaultdict(dict)
    for r in records:
        for key, value in best_results(r).items():
            table[key][r.model_id] = value
    shared = {k: v for k, v in table.items() if len(v) >= 2}
    return dict(sorted(shared.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def comparison_html(records: Sequence[ModelRecord]) -> str:
    """Properties side by side, links, then results on the benchmarks the models share (best in bold)."""
    head = "".join(f"<th>{escape(r.model_name)}</th>" for r in records)
    rows = "".join(
        f"<tr><th>{escape(label)}</th>" + "".join(f"<td>{escape(get(r))}</td>" for r in records) + "</tr>"
        for label, get in PROPERTIES
    )
    links = "<tr><th>Links</th>" + "".join(
        "<td>" + " ".join(link_html(n, u) for n, u in (("Paper", r.paper_link), ("Code", r.repository),
                                                         ("Weights", r.weights))) + "</td>"
        for r in records
    ) + "</tr>"  # fmt: skip
    props = (
        f'<table class="remsa-table remsa-compare"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{rows}{links}</tbody></table>"
    )
    shared = shared_benchmarks(records)
    if not shared:
        bench = '<p class="remsa-muted">These models report no result on a shared dataset and protocol.</p>'
    else:
        body = []
        for (dataset, metric, setting, pct), values in shared.items():
            higher = metric_info(metric).higher_is_better
            best = max(values.values()) if higher else min(values.values())
            cells = "".join(
                (f'<td class="remsa-best">{values[r.model_id]:g}</td>' if values[r.model_id] == best
                 else f"<td>{values[r.model_id]:g}</td>") if r.model_id in values else "<td>—</td>"
                for r in records
            )  # fmt: skip
            protocol = " · ".join(x for x in (setting, pct) if x)
            body.append(
                f"<tr><th>{escape(dataset)}<br><small>{escape(metric)}"
                f"{' · ' + escape(protocol) if protocol else ''}</small></th>{cells}</tr>"
            )
        bench = (
            f'<table class="remsa-table remsa-shared"><thead><tr><th>dataset · metric</th>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>"
        )
    return (
        f"{props}<h4>Benchmarks on shared datasets ({len(shared)})</h4>{bench}"
        '<p class="remsa-muted">Best value per row in bold; numbers as reported, so protocols can differ '
        "in details (see each record's sources in Explore).</p>"
    )


class CompareTab:
    """Builds the Compare tab."""

    def __init__(self, records: Sequence[ModelRecord]) -> None:
        self.records = list(records)
        names = sorted((r.model_name for r in self.records), key=str.lower)
        gr.Markdown(f"Pick {MIN_MODELS} to {MAX_MODELS} models to see them side by side.")
        self.pick = gr.Dropdown(
            names,
            multiselect=True,
            max_choices=MAX_MODELS,
            label="Models",
            elem_id="compare-pick",
        )
        self.view = gr.HTML(elem_id="compare-view")
        self.pick.change(self.compare, inputs=[self.pick], outputs=[self.view], api_visibility="private")

    def compare(self, names: list[str] | None) -> str:
        """The comparison of the picked models (or what is missing)."""
        chosen = [r for n in names or [] if (r := find_record(self.records, n)) is not None]
        if len(chosen) < MIN_MODELS:
            return f'<p class="remsa-muted">Pick at least {MIN_MODELS} models.</p>'
        return comparison_html(chosen[:MAX_MODELS])
