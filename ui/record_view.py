"""One RS-FMD record as HTML: its fields with their sources, then variants, pretraining phases,
benchmarks and sources as tables. Every value is escaped; addresses become links."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from rsfmd.catalog import sources_for_field
from rsfmd.schema import ModelRecord
from ui.cards import link_html

# Fields shown in a section of their own (or not at all) rather than as a row of the fields table.
_SECTIONS = frozenset({"variants", "pretraining_phases", "benchmarks", "sources"})
_HIDDEN = frozenset({"confidence", "verified", "model_id", "model_name"})
MAX_TEXT = 300
MAX_LINK = 70


def _is_url(value: object) -> bool:
    return isinstance(value, str) and value.startswith(("http://", "https://"))


def _number(value: float | int) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def value_html(value: Any) -> str:
    """A field value as escaped HTML: links for addresses, lists joined, nested rows as a table."""
    if value is None or value == "" or value == []:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return _number(value)
    if _is_url(value):
        return link_html(value if len(value) <= MAX_LINK else value[: MAX_LINK - 1] + "…", value)
    if isinstance(value, dict):
        return rows_table([value])
    if isinstance(value, list):
        if all(isinstance(v, dict) for v in value):
            return rows_table(value)
        return ", ".join(value_html(v) for v in value)
    text = str(value)
    return escape(text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "...")


# Column headings that say more than the field name.
HEADINGS: dict[str, str] = {
    "num_parameters": "parameters (M)",
    "num_images": "images",
    "num_layers": "layers",
    "embedding_dim": "embedding size",
    "regions_coverage": "regions",
}


def _heading(name: str) -> str:
    return HEADINGS.get(name, name.replace("_", " "))


def rows_table(rows: Sequence[dict[str, Any]], css_class: str = "remsa-table") -> str:
    """A table of dictionaries: one column per key any row has (first-seen order), one row each."""
    keys = list(dict.fromkeys(k for row in rows for k in row))
    head = "".join(f"<th>{escape(_heading(k))}</th>" for k in keys)
    body = "".join(
        "<tr>" + "".join(f"<td>{value_html(row.get(k))}</td>" for k in keys) + "</tr>" for row in rows
    )
    return (
        f'<table class="{escape(css_class, quote=True)}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def _field_rows(record: ModelRecord, data: dict[str, Any]) -> str:
    rows = []
    for name, value in data.items():
        if name in _SECTIONS or name in _HIDDEN:
            continue
        urls = sources_for_field(record, name)
        sources = " ".join(link_html(f"[{i}]", u) for i, u in enumerate(urls, start=1)) or (
            '<span class="remsa-muted">none named</span>'
        )
        rows.append(
            f"<tr><td><code>{escape(name)}</code></td><td>{value_html(value)}</td><td>{sources}</td></tr>"
        )
    return "".join(rows)


def _labels(percentage: float | None) -> str:
    return f" ({percentage:g}% labels)" if percentage else ""


def benchmarks_html(record: ModelRecord) -> str:
    """The record's reported results, one row each, with the source of the numbers."""
    if not record.benchmarks:
        return '<p class="remsa-muted">No benchmark results recorded.</p>'
    rows = "".join(
        "<tr>"
        f"<td>{escape(b.dataset)}</td><td>{escape(b.task_type)}</td>"
        f"<td>{escape(b.setting or '')}{_labels(b.sampling_percentage)}</td>"
        f"<td>{escape(', '.join(f'{m} {v:g}' for m, v in b.values().items()))}</td>"
        f"<td>{escape(b.variant or '')}</td>"
        f"<td>{link_html('source', b.source_url)}{escape(' ' + b.source_note) if b.source_note else ''}</td>"
        "</tr>"
        for b in record.benchmarks
    )
    return (
        '<table class="remsa-table remsa-benchmarks"><thead><tr><th>dataset</th><th>task</th><th>setting</th>'
        f"<th>results</th><th>variant</th><th>source</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def sources_html(record: ModelRecord) -> str:
    """The record's sources: number, address (a link), the fields each supports and where in it."""
    rows = "".join(
        f"<tr><td>{i}</td><td>{link_html(s.url, s.url)}</td><td>{escape(', '.join(s.fields))}</td>"
        f"<td>{escape(s.note or '')}</td></tr>"
        for i, s in enumerate(record.sources, start=1)
    )
    return (
        '<table class="remsa-table remsa-sources"><thead><tr><th>#</th><th>source</th><th>fields</th>'
        f"<th>where</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _section(title: str, rows: list[dict[str, Any]], css_class: str) -> str:
    if not rows:
        return ""
    return f"<h4>{escape(title)} ({len(rows)})</h4>{rows_table(rows, f'remsa-table {css_class}')}"


def record_detail_html(record: ModelRecord) -> str:
    """A record field by field with the sources of each, then its variants, pretraining phases,
    benchmarks and sources as tables."""
    data = record.model_dump(mode="json", exclude_defaults=True)
    return (
        f'<div class="remsa-detail" data-model-id="{escape(record.model_id, quote=True)}">'
        f"<h3>{escape(record.model_name)} <small class='remsa-muted'>({escape(record.model_id)})</small></h3>"
        '<table class="remsa-table remsa-fields"><thead><tr><th>field</th><th>value</th><th>sources</th></tr>'
        f"</thead><tbody>{_field_rows(record, data)}</tbody></table>"
        + _section("Variants", data.get("variants", []), "remsa-variants")
        + _section("Pretraining phases", data.get("pretraining_phases", []), "remsa-phases")
        + f"<h4>Benchmarks ({len(record.benchmarks)})</h4>{benchmarks_html(record)}"
        + f"<h4>Sources ({len(record.sources)})</h4>{sources_html(record)}</div>"
    )
