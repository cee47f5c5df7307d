"""How to adapt a recommended model: frozen with a light head, few-label adaptation, or fine-tuning.

The advice starts from rules of thumb over the user's label budget and hardware and the model's
size (``tools/adaptation.toml``, first matching rule wins), then looks for the RS-FMD results that
back it: the model's reported results under the advised setting, those on the user's dataset,
application or task first. Where the model reports one dataset under several settings or label
fractions, the comparison is stated; where it shows frozen features within a point of full
fine-tuning on a task like the user's, the cheaper frozen encoder is advised. Advice that no
reported result backs says so and is labelled a rule of thumb.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

from agent.query import StructuredQuery
from agent.selection import Adaptation, AdaptationMode, AdaptationResult, SettingComparison
from rsfmd.datasets import bench_application, dataset_family, dataset_identity
from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.vocab import metric_info
from tools.evidence import RELATED_TASKS, same_imagery
from tools.inputs import requested_imagery

RULES_PATH = Path(__file__).with_name("adaptation.toml")
# How close a result is to the user's task: their dataset, their application, their task type,
# a related task, anything else.
_RELEVANCE_ORDER = ("dataset", "application", "task", "related", "other")
_TASK_LIKE = frozenset(_RELEVANCE_ORDER[:3])


@dataclass(frozen=True)
class AdaptationRules:
    """The tables of ``adaptation.toml``."""

    thresholds: Mapping[str, float]
    devices: Mapping[str, Mapping[str, Any]]
    labels: Mapping[str, str]
    zero_shot_task_types: frozenset[str]
    mode_labels: Mapping[str, str]
    settings: tuple[tuple[str, re.Pattern[str]], ...]
    support: tuple[Mapping[str, str], ...]
    rules: tuple[Mapping[str, str], ...]


def trainable_m(device: str) -> float:
    """The largest model (millions of parameters) whose every weight ``device`` can train."""
    return float(load_rules().devices[device]["fine_tune_max_m"])


@cache
def load_rules(path: Path = RULES_PATH) -> AdaptationRules:
    """Read the adaptation tables (once per path)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(
            f"cannot read the adaptation rules {path}: {exc}; restore the file from the package"
        ) from exc
    missing = {"thresholds", "device", "labels", "zero_shot", "mode", "setting", "support", "rule"} - set(
        data
    )
    if missing:
        raise ValueError(
            f"{path} lacks the table(s) {', '.join(sorted(missing))}; restore the file from the package"
        )
    modes = set(data["mode"])
    for row in [*data["rule"], *data["support"]]:
        if row["mode"] not in modes:
            raise ValueError(f"{path}: mode {row['mode']!r} has no entry in [mode]; add it or fix the row")
    return AdaptationRules(
        thresholds=data["thresholds"],
        devices=data["device"],
        labels=data["labels"],
        zero_shot_task_types=frozenset(data["zero_shot"]["task_types"]),
        mode_labels=data["mode"],
        settings=tuple((row["family"], re.compile(row["pattern"], re.IGNORECASE)) for row in data["setting"]),
        support=tuple(data["support"]),
        rules=tuple(data["rule"]),
    )


@dataclass(frozen=True)
class _Result:
    """One reported value of the model, with how it was obtained and how close it is to the task."""

    bench: Benchmark
    metric: str
    value: float
    family: str
    labels: str
    relevance: int

    def cited(self) -> AdaptationResult:
        return AdaptationResult(
            dataset=self.bench.dataset,
            metric=self.metric,
            value=self.value,
            setting=self.bench.setting or "",
            family=self.family,
            label_percent=self.bench.sampling_percentage,
            variant=self.bench.variant,
            source_url=self.bench.source_url,
        )

    def protocol(self) -> str:
        """'linear probe, 10% labels'; the setting alone when the label fraction is not recorded."""
        pct = self.bench.sampling_percentage
        return f"{self.bench.setting}, {pct:g}% labels" if pct is not None else f"{self.bench.setting}"

    def said(self) -> str:
        """'mIoU 63.5 on CaFFe (TerraMind-V1-Large; full fine-tuning, UNet decoder, 100% labels)'."""
        variant = f"{self.bench.variant}; " if self.bench.variant else ""
        return f"{self.metric} {self.value:g} on {self.bench.dataset} ({variant}{self.protocol()})"


def setting_family(bench: Benchmark, rules: AdaptationRules | None = None) -> str | None:
    """The protocol family of a result ('frozen', 'fine-tune', ...), or None when its setting says none."""
    return _family(bench.setting, (rules or load_rules()).settings) if bench.setting else None


@cache
def _family(setting: str, families: tuple[tuple[str, re.Pattern[str]], ...]) -> str | None:
    # Once per setting text: every request reads the settings of thousands of results.
    return next((family for family, pattern in families if pattern.search(setting)), None)


def _label_class(bench: Benchmark, family: str, rules: AdaptationRules) -> str:
    """'few', 'full' or 'partial': the label budget a result was obtained with."""
    pct = bench.sampling_percentage
    if family == "few-shot" or (pct is not None and pct <= rules.thresholds["few_labels_max_percent"]):
        return "few"
    if pct is None or pct >= rules.thresholds["full_labels_min_percent"]:
        return "full"
    return "partial"


def _relevance(bench: Benchmark, query: StructuredQuery) -> int:
    """Index in ``_RELEVANCE_ORDER``, one step further for a dataset of other imagery than the user's."""
    level = _RELEVANCE_ORDER.index("other")
    if query.datasets and dataset_identity(bench.dataset) in dataset_family(query.datasets):
        level = _RELEVANCE_ORDER.index("dataset")
    elif query.application and bench_application(bench) == query.application:
        level = _RELEVANCE_ORDER.index("application")
    elif query.task_type and bench.task_type == query.task_type:
        level = _RELEVANCE_ORDER.index("task")
    elif query.task_type and bench.task_type in RELATED_TASKS.get(query.task_type, frozenset()):
        level = _RELEVANCE_ORDER.index("related")
    if not same_imagery(bench, requested_imagery(query)):
        level = min(level + 1, _RELEVANCE_ORDER.index("other"))
    return level


def _results(record: ModelRecord, query: StructuredQuery, rules: AdaptationRules) -> list[_Result]:
    """The record's results whose setting names a protocol, most relevant first, each value once."""
    out: list[_Result] = []
    seen: set[tuple[str, str, float, str, float | None, str | None]] = set()
    for bench in record.benchmarks:
        family = setting_family(bench, rules)
        if family is None:
            continue
        for metric, value in bench.values().items():
            key = (
                dataset_identity(bench.dataset),
                metric,
                value,
                family,
                bench.sampling_percentage,
                bench.variant,
            )
            if key in seen:  # one result copied by two sources
                continue
            seen.add(key)
            labels = _label_class(bench, family, rules)
            out.append(_Result(bench, metric, value, family, labels, _relevance(bench, query)))
    out.sort(key=lambda r: r.relevance)
    return out


def _conditions(record: ModelRecord, query: StructuredQuery, rules: AdaptationRules) -> dict[str, str]:
    """What the rules are matched on, plus the words they are filled with."""
    device_class = query.compute.device_class or "none"
    device = rules.devices[device_class]
    size = record.largest_parameters if query.compute.wants_large() else record.smallest_parameters

    def fits(limit_name: str) -> str:
        if size is None:
            return "unknown"
        return "yes" if size <= float(device[limit_name]) else "no"

    can_untrained = bool(rules.zero_shot_task_types & set(record.all_task_types)) or any(
        setting_family(b, rules) == "zero-shot" for b in record.benchmarks
    )
    return {
        "labels": rules.labels[query.data_regime or "none"],
        "frozen_asked": "yes" if query.frozen_encoder else "no",
        "zero_shot": "yes" if can_untrained else "no",
        "tune_fits": fits("fine_tune_max_m"),
        "peft_fits": fits("peft_max_m"),
        "device": str(device["words"]),
        "size": f"its {size:g}M parameters" if size is not None else "it",
    }


def _rule(conditions: Mapping[str, str], rules: AdaptationRules) -> Mapping[str, str]:
    for rule in rules.rules:
        if all(conditions.get(k) == v for k, v in rule.items() if k not in {"mode", "why"}):
            return rule
    raise ValueError(
        "no adaptation rule matched; the last rule in adaptation.toml must match any label budget"
    )


def _supports(result: _Result, mode: str, rules: AdaptationRules) -> bool:
    return any(
        row["mode"] == mode and row["family"] == result.family and row["labels"] in {"*", result.labels}
        for row in rules.support
    )


def _supporting(results: Sequence[_Result], mode: str, labels: str, rules: AdaptationRules) -> list[_Result]:
    """Results under the advised setting, most relevant first, then those at the user's label budget."""
    backing = [r for r in results if _supports(r, mode, rules)]
    backing.sort(key=lambda r: (r.relevance, r.labels != labels))
    # Different datasets before a second variant or source on one dataset.
    seen: set[str] = set()
    first: list[_Result] = []
    later: list[_Result] = []
    for r in backing:
        (later if dataset_identity(r.bench.dataset) in seen else first).append(r)
        seen.add(dataset_identity(r.bench.dataset))
    ordered = first + later
    return ordered[: int(rules.thresholds["evidence_shown"])]


def _comparable_groups(results: Sequence[_Result]) -> list[list[_Result]]:
    """Results on one dataset and metric (and variant) under two or more settings or label fractions."""
    groups: dict[tuple[str, str, str | None], dict[tuple[str, float | None], _Result]] = {}
    for r in results:
        key = (dataset_identity(r.bench.dataset), r.metric, r.bench.variant)
        groups.setdefault(key, {}).setdefault((r.family, r.bench.sampling_percentage), r)
    return [list(g.values()) for g in groups.values() if len(g) > 1]


def _statement(group: Sequence[_Result]) -> str:
    """'On BigEarthNet (LESSVIT-B; 10% labels), mAP: fine-tune 86.08 against linear probe 82.94.' What the
    results share is said once; the best comes first."""
    higher = metric_info(group[0].metric).higher_is_better
    ordered = sorted(group, key=lambda r: -r.value if higher else r.value)
    fractions = {r.bench.sampling_percentage for r in group}
    settings = {r.bench.setting for r in group}
    shared = [group[0].bench.variant] if group[0].bench.variant else []
    if len(fractions) == 1 and None not in fractions:
        shared.append(f"{group[0].bench.sampling_percentage:g}% labels")
    elif len(settings) == 1:
        shared.append(str(group[0].bench.setting))

    def what(r: _Result) -> str:
        if len(fractions) == 1:
            return str(r.bench.setting)
        pct = r.bench.sampling_percentage
        labels = f"{pct:g}% labels" if pct is not None else "labels not stated"
        return labels if len(settings) == 1 else f"{r.bench.setting} ({labels})"

    context = f" ({'; '.join(shared)})" if shared else ""
    values = " against ".join(f"{what(r)} {r.value:g}" for r in ordered)
    return f"On {group[0].bench.dataset}{context}, {group[0].metric}: {values}."


def _comparisons(
    results: Sequence[_Result], rules: AdaptationRules
) -> list[tuple[list[_Result], SettingComparison]]:
    """The stated comparisons, most relevant first and across settings before across label fractions."""
    groups = _comparable_groups(results)
    groups.sort(key=lambda g: (min(r.relevance for r in g), len({r.family for r in g}) < 2))
    out = []
    for group in groups[: int(rules.thresholds["comparisons_shown"])]:
        shown = SettingComparison(
            dataset=group[0].bench.dataset,
            metric=group[0].metric,
            statement=_statement(group),
            results=[r.cited() for r in group],
        )
        out.append((group, shown))
    return out


def _frozen_gains(results: Sequence[_Result]) -> list[tuple[int, float, _Result]]:
    """(relevance, fine-tuning's lead in metric points, frozen result) for each frozen result on a
    task like the user's that the model also reports fully fine-tuned at the same label fraction.
    Only metrics in percent points are compared."""
    out = []
    for group in _comparable_groups([r for r in results if _RELEVANCE_ORDER[r.relevance] in _TASK_LIKE]):
        info = metric_info(group[0].metric)
        if info.scale != "percent":
            continue
        sign = 1 if info.higher_is_better else -1
        for frozen in (r for r in group if r.family == "frozen"):
            pct = frozen.bench.sampling_percentage
            leads = [
                sign * (t.value - frozen.value)
                for t in group
                if t.family == "fine-tune" and t.bench.sampling_percentage == pct
            ]
            if leads:
                out.append((frozen.relevance, max(leads), frozen))
    return out


def _frozen_close(results: Sequence[_Result], rules: AdaptationRules) -> tuple[float, _Result] | None:
    """Fine-tuning's lead and the frozen result, when they show fine-tuning not worth its cost: at
    the most relevant level with frozen-against-fine-tuned pairs, it leads by no more than the margin
    on average. None otherwise."""
    gains = _frozen_gains(results)
    if not gains:
        return None
    level = min(g[0] for g in gains)
    closest = [g for g in gains if g[0] == level]
    if sum(g[1] for g in closest) / len(closest) > rules.thresholds["frozen_suffices_points"]:
        return None
    _, lead, frozen = min(closest, key=lambda g: g[1])
    return lead, frozen


def advise(record: ModelRecord, query: StructuredQuery, rules: AdaptationRules | None = None) -> Adaptation:
    """How to adapt ``record`` to the task in ``query``, with the RS-FMD results behind the advice."""
    rules = rules or load_rules()
    conditions = _conditions(record, query, rules)
    rule = _rule(conditions, rules)
    mode = rule["mode"]
    why = [rule["why"].format(**conditions)]
    results = _results(record, query, rules)
    close = _frozen_close(results, rules) if mode == "fine-tune" else None
    backing = _supporting(results, "frozen" if close else mode, conditions["labels"], rules)
    if close is not None:
        mode = "frozen"
        lead, frozen = close
        gap = f"only {lead:.2g} {frozen.metric} points" if lead > 0 else "nothing"
        why = [
            f"In RS-FMD, fully fine-tuning it gains {gap} over its frozen features on results like "
            f"yours ({frozen.said()}): start frozen with a light head, which costs far less."
        ]
        backing = [frozen, *(r for r in backing if r is not frozen)][: len(backing) or 1]
    else:
        why.append(_evidence_sentence(record, mode, backing, results, rules))
    return Adaptation(
        mode=cast(AdaptationMode, mode),
        label=rules.mode_labels[mode],
        why=why,
        basis="RS-FMD results" if backing else "rule of thumb",
        evidence=[r.cited() for r in backing],
        comparisons=[shown for _, shown in _comparisons(results, rules)],
    )


def _evidence_sentence(
    record: ModelRecord,
    mode: str,
    backing: Sequence[_Result],
    results: Sequence[_Result],
    rules: AdaptationRules,
) -> str:
    """What RS-FMD holds for the advice: the best-placed result, or that it holds none."""
    if backing:
        return f"RS-FMD reports {backing[0].said()}."
    if results:
        held = ", ".join(dict.fromkeys(r.family for r in results))
        label = rules.mode_labels[mode]
        return f"RS-FMD holds no {label} result for it (only {held}), so this is a rule of thumb."
    if record.benchmarks:
        return "RS-FMD's results for it do not state how it was trained, so this is a rule of thumb."
    return "RS-FMD holds no result for it under any setting, so this is a rule of thumb."
