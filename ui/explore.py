"""The Explore tab: RS-FMD as a filterable, sortable table and one record with its sources."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import Any

import gradio as gr

from rsfmd.catalog import database_stats, filter_records, find_record
from rsfmd.licenses import allows_commercial_use
from rsfmd.schema import ModelRecord
from rsfmd.traits import ARCHITECTURE_FAMILIES
from rsfmd.vocab import VocabularyName, get_vocabulary
from ui.record_view import record_detail_html

ANY = "any"
TABLE_COLUMNS: tuple[str, ...] = (
    "Model",
    "Category",
    "Year",
    "Params (M)",
    "Modalities",
    "Sensors",
    "Task types",
    "Weights",
    "Benchmarks",
)
SORT_KEYS: tuple[str, ...] = (
    "Model",
    "Year (newest first)",
    "Params (smallest first)",
    "Benchmarks (most first)",
)
# A search word that names one of these vocabularies' terms (or a synonym, "S1") also finds the term.
SEARCH_VOCABULARIES: tuple[VocabularyName, ...] = ("sensors", "applications", "task_types", "modalities")


@dataclass(frozen=True)
class RecordFilter:
    """What the Explore filters ask for; empty or 'any' means no constraint."""

    text: str = ""
    category: str = ANY
    modality: str = ANY
    sensor: str = ANY
    task_type: str = ANY
    architecture: str = ANY
    min_params: float | None = None
    max_params: float | None = None
    min_year: int | None = None
    max_year: int | None = None
    weights_only: bool = False
    commercial_only: bool = False


def _given(value: str | None) -> str | None:
    return value if value and value != ANY else None


def has_weights(record: ModelRecord) -> bool:
    """Weights are released (``ModelRecord.weights_released``)."""
    return record.weights_released is True


def apply_filter(records: Sequence[ModelRecord], f: RecordFilter) -> list[ModelRecord]:
    """Records passing every filter; a range excludes records whose value is unknown."""
    out = filter_records(
        records,
        modality=_given(f.modality),
        sensor=_given(f.sensor),
        category=_given(f.category),
        task_type=_given(f.task_type),
        max_parameters=f.max_params,
        architecture=_given(f.architecture),
    )
    if f.min_params is not None:
        out = [r for r in out if (p := r.largest_parameters) is not None and p >= f.min_params]
    if f.min_year is not None:
        out = [r for r in out if r.year is not None and r.year >= f.min_year]
    if f.max_year is not None:
        out = [r for r in out if r.year is not None and r.year <= f.max_year]
    if f.weights_only:
        out = [r for r in out if has_weights(r)]
    if f.commercial_only:
        out = [r for r in out if allows_commercial_use(r.license)]
    if f.text.strip():
        out = [r for r in out if matches_text(r, f.text)]
    return out


def search_text(record: ModelRecord) -> str:
    """What the text search looks in, lower-cased: names, description, applications, sensors, datasets."""
    parts = [
        record.model_id,
        record.model_name,
        *record.aliases,
        record.short_description,
        *record.all_task_types,
        *(b.application or "" for b in record.benchmarks),
        *record.supported_sensors,
        *(s for b in record.benchmarks for s in b.sensor),
        *(s for p in record.pretraining_phases for s in p.sensors),
        *(b.dataset for b in record.benchmarks),
        *(p.dataset or "" for p in record.pretraining_phases),
        record.pretraining or "",
    ]
    return "\n".join(parts).lower()


@cache
def _spellings(term: str) -> tuple[re.Pattern[str], ...]:
    """Patterns for a search term: as typed, and the vocabulary names it stands for ("S1" finds
    "Sentinel-1"). A term that is a vocabulary synonym must stand as a word ("S1", not "S12")."""
    found = {get_vocabulary(name).get(term) for name in SEARCH_VOCABULARIES} - {None}
    typed = re.escape(term.lower())
    patterns = [rf"(?<![a-z0-9]){typed}(?![a-z0-9])" if found else typed]
    patterns += [re.escape(c.lower()) for c in found if c]
    return tuple(re.compile(p) for p in patterns)


def matches_text(record: ModelRecord, text: str) -> bool:
    """Whether the record mentions the whole text, or each of its words, in any spelling."""
    haystack = search_text(record)
    phrase = text.strip()
    if any(p.search(haystack) for p in _spellings(phrase)):
        return True
    words = phrase.split()
    return len(words) > 1 and all(any(p.search(haystack) for p in _spellings(w)) for w in words)


def sort_records(records: Sequence[ModelRecord], key: str) -> list[ModelRecord]:
    """Records ordered by one of SORT_KEYS; unknown values last."""
    if key == "Year (newest first)":
        return sorted(
            records,
            key=lambda r: (
                r.year is None,
                -(r.year or 0),
                -(r.release_date.toordinal() if r.release_date else 0),  # a year-only record last in its year
            ),
        )
    if key == "Params (smallest first)":
        return sorted(records, key=lambda r: (r.smallest_parameters is None, r.smallest_parameters or 0.0))
    if key == "Benchmarks (most first)":
        return sorted(records, key=lambda r: (-len(r.benchmarks), r.model_name.lower()))
    return sorted(records, key=lambda r: r.model_name.lower())


def _params(record: ModelRecord) -> str:
    low, high = record.smallest_parameters, record.largest_parameters
    if low is None or high is None:
        return ""
    return f"{low:g}" if low == high else f"{low:g}–{high:g}"


def table_rows(records: Sequence[ModelRecord]) -> list[list[Any]]:
    """One table row per record, in TABLE_COLUMNS order."""
    return [
        [
            r.model_name,
            r.category.value,
            r.year or "",
            _params(r),
            ", ".join(r.modalities),
            ", ".join(r.supported_sensors[:4]) + (" …" if len(r.supported_sensors) > 4 else ""),
            ", ".join(r.all_task_types),
            "yes" if has_weights(r) else "no",
            len(r.benchmarks),
        ]
        for r in records
    ]


def _count_text(shown: int, total: int) -> str:
    return f"{shown} of {total} models match."


def _choices(counts: dict[str, int]) -> list[str]:
    return [ANY, *sorted(counts)]


class ExploreTab:
    """Builds the Explore tab over a fixed list of records."""

    def __init__(self, records: Sequence[ModelRecord]) -> None:
        self.records = list(records)
        stats = database_stats(self.records)
        years = [r.year for r in self.records if r.year]
        gr.Markdown(
            f"**RS-FMD: {stats['count']} models, {stats['benchmark_results']} benchmark results.** "
            "Filter, sort, then pick a model (or click its row) to see every field with its sources."
        )
        with gr.Row():
            self.text = gr.Textbox(
                label="Search",
                placeholder="name, application, sensor or dataset (e.g. Sentinel-1, EuroSAT)",
                scale=2,
                elem_id="explore-search",
            )
            self.category = gr.Dropdown(_choices(stats["by_category"]), value=ANY, label="Category")
            self.modality = gr.Dropdown(_choices(stats["by_modality"]), value=ANY, label="Modality")
            self.sensor = gr.Dropdown(
                _choices(stats["by_sensor"]), value=ANY, label="Sensor", elem_id="explore-sensor"
            )
            self.task_type = gr.Dropdown(_choices(stats["by_task_type"]), value=ANY, label="Task type")
            self.architecture = gr.Dropdown([ANY, *ARCHITECTURE_FAMILIES], value=ANY, label="Backbone")
        with gr.Row():
            self.min_params = gr.Number(label="Min params (M)", value=None, placeholder="any", minimum=0)
            self.max_params = gr.Number(label="Max params (M)", value=None, placeholder="any", minimum=0)
            # Empty until set: a pre-filled range would drop the records with no known year as soon
            # as any other filter changes.
            span = f"{min(years)}" if years else "any"
            self.min_year = gr.Number(
                label="From year",
                value=None,
                placeholder=f"any (earliest {span})",
                precision=0,
                elem_id="explore-min-year",
            )
            span = f"{max(years)}" if years else "any"
            self.max_year = gr.Number(
                label="To year", value=None, placeholder=f"any (latest {span})", precision=0
            )
            self.weights = gr.Checkbox(label="Weights available", value=False)
            self.commercial = gr.Checkbox(
                label="Licence allows commercial use",
                value=False,
                info="open licences only; unstated or custom terms are left out",
            )
            self.sort = gr.Dropdown(list(SORT_KEYS), value=SORT_KEYS[0], label="Sort by")
        self.count = gr.Markdown(_count_text(len(self.records), len(self.records)), elem_id="explore-count")
        self.table = gr.Dataframe(
            headers=list(TABLE_COLUMNS),
            value=table_rows(sort_records(self.records, SORT_KEYS[0])),
            interactive=False,
            wrap=True,
            max_height=420,
            column_widths=["15%", "10%", "6%", "8%", "14%", "16%", "17%", "7%", "7%"],
            elem_id="explore-table",
        )
        self.pick = gr.Dropdown(
            [r.model_name for r in sort_records(self.records, SORT_KEYS[0])],
            value=None,
            label="Open a record",
            elem_id="explore-pick",
        )
        self.detail = gr.HTML(elem_id="explore-detail")
        filters = [
            self.text, self.category, self.modality, self.sensor, self.task_type, self.architecture,
            self.min_params, self.max_params, self.min_year, self.max_year, self.weights,
            self.commercial, self.sort,
        ]  # fmt: skip
        for component in filters:
            component.change(  # type: ignore[attr-defined]
                self.refresh,
                inputs=filters,
                outputs=[self.table, self.count, self.pick],
                api_visibility="private",
                show_progress="hidden",
            )
        self.table.select(self.row_selected, outputs=[self.pick], api_visibility="private")
        self.pick.change(self.show, inputs=[self.pick], outputs=[self.detail], api_visibility="private")

    def refresh(
        self,
        text: str,
        category: str,
        modality: str,
        sensor: str,
        task_type: str,
        architecture: str,
        min_params: float | None,
        max_params: float | None,
        min_year: float | None,
        max_year: float | None,
        weights: bool,
        commercial: bool,
        sort: str,
    ) -> tuple[Any, str, Any]:
        """Filtered and sorted table, its count, and the record picker limited to the shown rows."""
        f = RecordFilter(
            text=text or "",
            category=category or ANY,
            modality=modality or ANY,
            sensor=sensor or ANY,
            task_type=task_type or ANY,
            architecture=architecture or ANY,
            min_params=min_params if min_params else None,  # an empty or 0 bound means no bound
            max_params=max_params if max_params else None,
            min_year=int(min_year) if min_year else None,  # an empty box may arrive as 0: no bound
            max_year=int(max_year) if max_year else None,
            weights_only=bool(weights),
            commercial_only=bool(commercial),
        )
        shown = sort_records(apply_filter(self.records, f), sort or SORT_KEYS[0])
        rows = table_rows(shown)
        count = _count_text(len(shown), len(self.records))
        table = gr.Dataframe(value=rows if rows else [[""] * len(TABLE_COLUMNS)], headers=list(TABLE_COLUMNS))
        return table, count, gr.Dropdown(choices=[r.model_name for r in shown], value=None)

    def row_selected(self, evt: gr.SelectData) -> Any:
        """Clicking a table row opens that record."""
        row = evt.row_value if isinstance(evt.row_value, list) else None
        return gr.Dropdown(value=row[0]) if row and row[0] else gr.Dropdown()

    def show(self, name: str | None) -> str:
        """The detail view of one record."""
        if not name:
            return ""
        record = find_record(self.records, name)
        if record is None:
            return f'<p class="remsa-muted">No record named {escape(name)}.</p>'
        return record_detail_html(record)
