"""The Compare tab: two to four models side by side, with benchmarks on the datasets they share."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

import gradio as gr

from rsfmd.catalog import find_record
from rsfmd.schema import ModelRecord
from rsfmd.vocab import metric_info
from ui.cards import link_html

MIN_MODELS = 2
MAX_MODELS = 4
BEST_SHOWN = 5  # best results shown per model, beside the shared ones

BenchKey = tuple[str, str, str, str]  # dataset, metric, setting, label fraction


def _params(r: ModelRecord) -> str:
    sizes = [
        f"{v.name}: {v.num_parameters:g}M{v.checkpoint_note}"
        for v in r.variants
        if v.num_parameters is not None
    ]
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


def _table(head: str, body: list[str], css: str, corner: str = "") -> str:
    return (
        f'<table class="remsa-table {css}"><thead><tr><th>{corner}</th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def across_protocols(
    records: Sequence[ModelRecord],
) -> dict[tuple[str, str], dict[str, tuple[BenchKey, float]]]:
    """(dataset, metric) pairs that at least two models report, but never under the same protocol:
    -> model_id -> (its key, its best value there)."""
    exact = {(key[0], key[1]) for key in shared_benchmarks(records)}
    table: dict[tuple[str, str], dict[str, tuple[BenchKey, float]]] = defaultdict(dict)
    for r in records:
        for key, value in best_results(r).items():
            pair = (key[0], key[1])
            old = table[pair].get(r.model_id)
            higher = metric_info(key[1]).higher_is_better
            if pair not in exact and (old is None or (value > old[1] if higher else value < old[1])):
                table[pair][r.model_id] = (key, value)
    return {pair: v for pair, v in sorted(table.items()) if len(v) >= 2}


def _protocol_text(setting: str, pct: str) -> str:
    return " · ".join(x for x in (setting, pct) if x)


def _shared_html(records: Sequence[ModelRecord], head: str) -> str:
    """Results on the datasets at least two of the models report: under the same protocol first
    (best per row in bold), then under different protocols (each with its own, not ranked)."""
    shared, loose = shared_benchmarks(records), across_protocols(records)
    datasets = {key[0] for key in shared} | {pair[0] for pair in loose}
    title = f"<h4>Results on shared datasets ({len(datasets)})</h4>"
    if not datasets:
        return title + '<p class="remsa-muted">These models report no result on a shared dataset.</p>'
    body = []
    for (dataset, metric, setting, pct), values in shared.items():
        higher = metric_info(metric).higher_is_better
        best = max(values.values()) if higher else min(values.values())
        cells = "".join(
            (f'<td class="remsa-best">{values[r.model_id]:g}</td>' if values[r.model_id] == best
             else f"<td>{values[r.model_id]:g}</td>") if r.model_id in values else "<td>—</td>"
            for r in records
        )  # fmt: skip
        protocol = _protocol_text(setting, pct)
        body.append(
            f"<tr><th>{escape(dataset)}<br><small>{escape(metric)}"
            f"{' · ' + escape(protocol) if protocol else ''}</small></th>{cells}</tr>"
        )
    for (dataset, metric), by_model in loose.items():
        cells = "".join(
            f"<td>{by_model[r.model_id][1]:g}<br><small>"
            f"{escape(_protocol_text(*by_model[r.model_id][0][2:]) or 'protocol not recorded')}</small></td>"
            if r.model_id in by_model
            else "<td>—</td>"
            for r in records
        )
        body.append(
            f'<tr class="remsa-loose"><th>{escape(dataset)}<br><small>{escape(metric)} · '
            f"different protocols</small></th>{cells}</tr>"
        )
    return title + _table(head, body, "remsa-shared", "dataset · metric")


def standings(catalogue: Sequence[ModelRecord]) -> dict[BenchKey, list[float]]:
    """Every model's best value on each benchmark key, best first: where a result stands in RS-FMD."""
    table: dict[BenchKey, list[float]] = defaultdict(list)
    for record in catalogue:
        for key, value in best_results(record).items():
            table[key].append(value)
    for (_, metric, _, _), values in table.items():
        values.sort(reverse=metric_info(metric).higher_is_better)
    return dict(table)


def model_highlights(
    record: ModelRecord, ranks: Mapping[BenchKey, list[float]], skip: set[BenchKey], limit: int = BEST_SHOWN
) -> list[tuple[BenchKey, float, int, int]]:
    """A model's best results outside ``skip``: (key, value, its place in RS-FMD, models reporting),
    those where it stands highest first, then those the fewest models report."""
    rows = []
    for key, value in best_results(record).items():
        if key in skip:
            continue
        field = ranks.get(key, [value])
        rows.append((key, value, field.index(value) + 1 if value in field else 1, len(field)))
    rows.sort(key=lambda row: (row[2], -row[3], row[0]))
    return rows[:limit]


def _highlights_html(records: Sequence[ModelRecord], head: str, catalogue: Sequence[ModelRecord]) -> str:
    """Each model's best results on the datasets the others do not report, side by side."""
    skip = set(shared_benchmarks(records)) | {
        key for by_model in across_protocols(records).values() for key, _ in by_model.values()
    }
    ranks = standings(catalogue)
    cells = []
    for record in records:
        items = [
            f"<li><b>{escape(dataset)}</b> {escape(metric)} {value:g}"
            f"<br><small>{escape(' · '.join(x for x in (setting, pct) if x) or 'protocol not recorded')}"
            f" · #{place} of {field} in RS-FMD</small></li>"
            for (dataset, metric, setting, pct), value, place, field in model_highlights(record, ranks, skip)
        ]
        cells.append(
            f"<td><ul class='remsa-highlights'>{''.join(items)}</ul></td>"
            if items
            else '<td class="remsa-muted">no other reported result</td>'
        )
    body = [f"<tr><th>best results</th>{''.join(cells)}</tr>"]
    return "<h4>Each model's best results elsewhere</h4>" + _table(head, body, "remsa-highlight")


def comparison_html(records: Sequence[ModelRecord], catalogue: Sequence[ModelRecord] | None = None) -> str:
    """Results on the benchmarks the models share (best in bold), then each model's best results
    elsewhere (placed among ``catalogue``, by default the models compared), then their properties
    and links side by side."""
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
        f'<h4>Properties</h4><table class="remsa-table remsa-compare"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{rows}{links}</tbody></table>"
    )
    return (
        f"{_shared_html(records, head)}{_highlights_html(records, head, catalogue or records)}{props}"
        '<p class="remsa-muted">Best value per row in bold where the protocol is the same; numbers as '
        "reported, so details can still differ (see each record's sources in Explore).</p>"
    )


EMPTY_COMPARE = (
    '<div class="remsa-empty" id="compare-empty">'
    f"<p><b>Nothing to compare yet.</b> Pick {MIN_MODELS} to {MAX_MODELS} models above, or ask in the "
    "Chat tab and press <b>Compare</b> above the answer's cards to bring its models here.</p>"
    "<p>You will see their results on the datasets they share first, then each model's best results "
    "elsewhere, then their sizes, sensors, licences and links side by side.</p></div>"
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
        self.view = gr.HTML(EMPTY_COMPARE, elem_id="compare-view")
        self.pick.change(self.compare, inputs=[self.pick], outputs=[self.view], api_visibility="private")

    def chosen(self, names: Sequence[str] | None) -> list[ModelRecord]:
        """The records of the names or ids given (unknown ones left out), at most MAX_MODELS."""
        found = [r for n in names or [] if (r := find_record(self.records, n)) is not None]
        return list({r.model_id: r for r in found}.values())[:MAX_MODELS]

    def compare(self, names: list[str] | None) -> str:
        """The comparison of the picked models (or what to do when fewer than two are picked)."""
        chosen = self.chosen(names)
        if not chosen:
            return EMPTY_COMPARE
        if len(chosen) < MIN_MODELS:
            return (
                f'<p class="remsa-muted">{escape(chosen[0].model_name)} picked: pick at least one more '
                "model to compare.</p>"
            )
        return comparison_html(chosen, self.records)

    def show(self, names: Sequence[str]) -> tuple[Any, str]:
        """The picker set to these models and their comparison, for another tab to open this one with."""
        chosen = self.chosen(names)
        picked = [r.model_name for r in chosen]
        return gr.update(value=picked), self.compare(picked)
