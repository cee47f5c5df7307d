"""What RS-FMD holds on one model, said as sentences: a profile, one fact (size, licence, weights,
pretraining data, results) or its results on named benchmarks, for questions about a model."""

from __future__ import annotations

from agent.query import StructuredQuery
from rsfmd.datasets import bench_application, dataset_identities, dataset_identity
from rsfmd.licenses import allows_commercial_use
from rsfmd.schema import Benchmark, ModelRecord


def _variant_sizes(record: ModelRecord) -> list[str]:
    """'DOFA ViT-B/16 86M' for each variant whose size is known ('(no public checkpoint)' after one
    known to lack it)."""
    return [
        f"{v.name} {v.num_parameters:g}M{v.checkpoint_note}"
        for v in record.variants
        if v.num_parameters is not None
    ]


def model_profile(record: ModelRecord) -> str:
    """What RS-FMD holds on one model, in a paragraph: 'tell me about DOFA'."""
    year = record.release_date.year if record.release_date else record.release_year
    head = f"{record.model_name}{f' ({year})' if year else ''}: {record.short_description.rstrip('.')}."
    facts: list[str] = []
    if record.modalities:
        facts.append(f"takes {', '.join(record.modalities)}")
    if record.supported_sensors:
        shown = record.supported_sensors[:6]
        more = len(record.supported_sensors) - len(shown)
        facts.append(f"documented for {', '.join(shown)}{f' and {more} more' if more else ''}")
    sizes = _variant_sizes(record)
    if sizes:
        facts.append(f"variants {', '.join(sizes[:5])}{' and more' if len(sizes) > 5 else ''}")
    elif record.num_parameters is not None:
        facts.append(f"about {record.num_parameters:g}M parameters")
    else:
        facts.append("size not documented")
    data = [p.dataset for p in record.pretraining_phases if p.dataset]
    if data:
        facts.append(f"pretrained on {'; '.join(dict.fromkeys(data))}")
    facts.append(f"licence {record.license}" if record.license else "licence not stated")
    datasets = {b.dataset for b in record.benchmarks}
    facts.append(
        f"{len(record.benchmarks)} reported results on {len(datasets)} datasets"
        if record.benchmarks
        else "no reported results recorded"
    )
    return f"{head} In RS-FMD: {'; '.join(facts)}."


def protocol_parts(bench: Benchmark) -> list[str]:
    """How a result was obtained, as far as it is recorded: ['frozen', '10% of labels']."""
    parts = [bench.setting] if bench.setting else []
    return parts + ([f"{bench.sampling_percentage:g}% of labels"] if bench.sampling_percentage else [])


def _protocol(bench: Benchmark, *, brackets: bool = False) -> str:
    """', frozen, 10% of labels' (with ``brackets``, ' (frozen, 10% of labels)')."""
    parts = protocol_parts(bench)
    if not parts:
        return ""
    return f" ({', '.join(parts)})" if brackets else f", {', '.join(parts)}"


def _results_fact(record: ModelRecord, query: StructuredQuery | None, shown: int = 6) -> str:
    """The datasets a model reports results on, each with its first result as recorded: those on
    the task's application first, then on its task type ('what was it evaluated on?')."""
    name = record.model_name
    first: dict[str, Benchmark] = {}
    for bench in record.benchmarks:
        first.setdefault(bench.dataset, bench)
    if not first:
        return f"{name}: RS-FMD records no reported results for it"
    application = query.application if query is not None else None
    task = query.task_type if query is not None else None

    def standing(bench: Benchmark) -> int:
        if application is not None and bench_application(bench) == application:
            return 0
        return 1 if task is not None and bench.task_type == task else 2

    ordered = sorted(first.values(), key=standing)  # (stable: record order within each group)

    def said(bench: Benchmark) -> str:
        result = f"{bench.metrics[0]} {bench.metrics_value[0]:g}"
        return f"{bench.dataset} ({bench.task_type}; {result}{_protocol(bench)})"

    on_application = sum(standing(b) == 0 for b in ordered)
    on_task = sum(standing(b) == 1 for b in ordered)
    scope = ""
    if on_application:
        scope = f", {on_application} of them on {application}"
    elif on_task:
        scope = f", {on_task} of them on {task}"
    more = len(ordered) - shown
    tail = f"; and {more} more (all in `remsa db show {record.model_id}`)" if more > 0 else ""
    listed = "; ".join(said(b) for b in ordered[:shown])
    count = f"{len(ordered)} dataset{'s' if len(ordered) != 1 else ''}"
    return f"{name}: results recorded on {count}{scope}: {listed}{tail}"


def results_on(record: ModelRecord, datasets: list[str], application: str | None = None) -> str:
    """A model's recorded results on the benchmarks named ('was DOFA evaluated on EuroSAT?') or
    else on the application named ('... on flood mapping?'), each as recorded, or that it has none
    there."""
    if datasets:
        named = dataset_identities(datasets)
        rows = [b for b in record.benchmarks if dataset_identity(b.dataset) in named]
        where = " or ".join(datasets)
    else:
        rows = [b for b in record.benchmarks if bench_application(b) == application]
        where = str(application)
    if not rows:
        return f"{record.model_name}: no result recorded on {where}"

    shown = [
        f"{b.metrics[0]} {b.metrics_value[0]:g} on {b.dataset}{_protocol(b, brackets=True)}" for b in rows[:4]
    ]
    more = f" and {len(rows) - 4} more" if len(rows) > 4 else ""
    return f"{record.model_name}: {', '.join(shown)}{more}"


def model_fact(record: ModelRecord, topic: str, query: StructuredQuery | None = None) -> str:
    """One fact RS-FMD holds on a model, as a sentence: its size, licence, weights, pretraining
    data or reported results ('is it open source?', 'how big is the first one?', 'what was it
    evaluated on?', the results on ``query``'s task first); says so when no source states it."""
    name = record.model_name
    if topic == "profile":
        return model_profile(record)
    if topic == "results":
        return _results_fact(record, query)
    if topic == "usability":
        # What a user needs to start: weights, code and a licence that allows the use.
        if record.weights:
            weights = f"weights at {record.weights}"
        else:
            weights = (
                "no released weights" if record.weights_available is False else "no weights link recorded"
            )
        code = f"code at {record.repository}" if record.repository else "no code repository recorded"
        licence = f"licence {record.license}" if record.license else "licence not stated"
        return f"{name}: {weights}, {code}, {licence}"
    if topic == "size":
        sizes = _variant_sizes(record)
        if sizes:
            return f"{name}: {', '.join(sizes)} parameters"
        if record.num_parameters is not None:
            return f"{name}: about {record.num_parameters:g}M parameters"
        return f"{name}: no source in RS-FMD states its size"
    if topic == "licence":
        if not record.license:
            code = f"; code at {record.repository}" if record.repository else ""
            return f"{name}: no source in RS-FMD states its licence{code}"
        commercial = allows_commercial_use(record.license)
        use = {True: ", which allows commercial use", False: ", which rules out commercial use", None: ""}
        return f"{name}: licence {record.license}{use[commercial]}" + (
            f"; code at {record.repository}" if record.repository else ""
        )
    if topic == "weights":
        if record.weights:
            return f"{name}: weights at {record.weights}"
        if record.weights_available is False:
            return f"{name}: no released weights are recorded"
        return f"{name}: RS-FMD records no weights link" + (
            f"; see the code at {record.repository}" if record.repository else ""
        )
    phases = []
    for phase in record.pretraining_phases:
        if not phase.dataset:
            continue
        extra = [f"{phase.num_images:,} images"] if phase.num_images else []
        extra += [", ".join(phase.regions_coverage)] if phase.regions_coverage else []
        phases.append(phase.dataset + (f" ({'; '.join(extra)})" if extra else ""))
    if phases:
        return f"{name}: pretrained on {'; then '.join(phases)}"
    return f"{name}: no source in RS-FMD states its pretraining data"
