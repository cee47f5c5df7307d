"""Explanation tool: reasons and trade-offs per model, grounded in the record and its evidence.

The offline engine templates them from the ranking criteria; an LLM rewrites them from the same
evidence (agent/llm_steps.py). JSON follows the paper's Appendix E fields; Markdown for people.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.query import StructuredQuery
from agent.selection import EvidenceNumber, Links, RankedModel
from agent.wording import with_article
from rsfmd.datasets import bench_application, dataset_identities, dataset_identity
from rsfmd.licenses import allows_commercial_use, within_licenses
from rsfmd.schema import Benchmark, Category, ModelRecord
from rsfmd.usage import UsageSnippet, by_library, usage_line, usage_markdown
from tools.adaptation import advise
from tools.ranking import Candidate, image_pairs_only, region_fit

if TYPE_CHECKING:
    from agent.selection import Selection

_CRITERION_LABEL = {
    "application": "task fit",
    "modality": "data fit",
    "performance": "reported performance",
    "efficiency": "efficiency",
    "generalizability": "generalisability",
    "popularity": "adoption",
    "recency": "recency",
    "data_regime": "label budget fit",
    "frozen_encoder": "frozen-encoder fit",
    "imagery": "fit to your imagery",
    "availability": "availability",
}


# What results below the bar for a reason of their own are results on.
_EVIDENCE_SCOPE = {"related": "on related tasks only", "task": "on the task type, not this application"}


def _reasons(c: Candidate) -> list[str]:
    crit = c.criteria
    reasons: list[str] = []
    strong = sorted(
        (n for n in crit if crit[n].score >= 0.6 and crit[n].evidence), key=lambda n: -crit[n].weight
    )
    for name in strong:
        text = "; ".join(crit[name].evidence[:2])
        if any(text in earlier for earlier in reasons):
            continue  # the frozen-encoder result already given as reported performance
        reasons.append(f"{_CRITERION_LABEL[name].capitalize()}: {text}")
    performance = crit.get("performance")
    if (
        performance is not None
        and performance.evidence
        and "performance" not in strong
        and performance.score >= 0.4
    ):
        # Evidence of middling weight is evidence too: the numbers behind a model ranked first on
        # other criteria, said beside task and data fit with what they are results on.
        level = c.evidence_items[0].relevance if c.evidence_items else "application"
        scope = _EVIDENCE_SCOPE.get(level, "weaker")
        reasons.insert(
            min(2, len(reasons)), f"Reported performance ({scope}): {'; '.join(performance.evidence[:2])}"
        )
    if c.predicted is not None and not any("predicted:" in r for r in reasons):
        reasons.append(f"Predicted (no result on this application): {c.predicted.summary}")
    if c.memory_note:
        reasons.append(c.memory_note)
    if not reasons:
        reasons.append(f"Closest match in RS-FMD: {c.record.short_description[:140]}")
    return reasons[:6]


def _trade_offs(c: Candidate, query: StructuredQuery) -> list[str]:
    r = c.record
    out: list[str] = []
    for name, criterion in c.criteria.items():
        # (weights that are not out are said once, below, with what to do about it)
        if (
            criterion.score < 0.4
            and criterion.weight >= 0.1
            and criterion.evidence
            and name != "availability"
        ):
            out.append(f"Weaker {_CRITERION_LABEL[name]}: {criterion.evidence[0]}")
    data = c.criteria.get("modality")
    if data is not None and data.score >= 0.4:
        # Taking the user's data only through a related input is said even when the fit is middling.
        out.extend(f"Data fit: {e}" for e in data.evidence if "only through related input" in e)
    size = r.largest_parameters
    small = r.smallest_parameters
    if r.category == Category.embedding_product:
        # What a product offers is fixed: its grid, and the scenes someone already encoded.
        grid = f" at {r.spatial_resolution}" if r.spatial_resolution else ""
        out.append(f"Embeddings are precomputed{grid}: other dates, places or resolutions need a model run")
    elif size and small and size > 3 * small:
        out.append(
            f"Sizes range from {small:g}M to {size:g}M parameters: larger is usually more accurate but slower"
        )
    if r.weights_released is not True and r.category != Category.embedding_product:
        out.append("Pretrained weights not confirmed as released")
    commercial = allows_commercial_use(r.license)
    stated = f"License '{r.license}' has terms of its own" if r.license else "No license stated"
    if commercial is False:
        out.append(f"License {r.license} restricts commercial use")
    elif query.licenses and (within := within_licenses(r.license, query.licenses)) is not True:
        wanted = " or ".join(query.licenses)
        out.append(
            f"Licensed {r.license}, not {wanted}" if within is False else f"{stated}: confirm it is {wanted}"
        )
    elif commercial is None and query.commercial_use:
        out.append(f"{stated}: confirm it allows commercial use")
    years = query.release_years()
    for constraint in c.relaxed:
        if constraint == "release_year" and years:
            out.append(f"Released in {r.year}, not {years} (closest match)")
        else:
            out.append(f"Does not meet your {constraint.replace('_', ' ')} constraint (closest match)")
    if years and r.year is None:
        out.append(f"Release year unknown: confirm it was {years}")
    if query.architectures and not r.architectures:
        out.append(
            f"Backbone family not documented: confirm it is {with_article(' or '.join(query.architectures))}"
        )
    mismatch = region_fit(r, query.region).mismatch if query.region else None
    if mismatch and not any(mismatch in line for line in out):
        out.append(mismatch[0].upper() + mismatch[1:])
    if query.multi_temporal and "Multi-temporal" not in r.modalities and r.temporal_alignment is None:
        out.append("Treats each date separately; temporal modelling must be added on top")
    if pairs := image_pairs_only(r, query):
        out.append(f"Built for image pairs ({' and '.join(pairs)}): it needs a before and an after image")
    return out[:5]


def _evidence(c: Candidate) -> list[EvidenceNumber]:
    return [
        EvidenceNumber(
            dataset=i.dataset,
            metric=i.metric,
            value=i.value,
            setting=i.setting,
            relevance=i.relevance,
            source_url=i.source_url,
        )
        for i in c.evidence_items[:6]
    ]


def _shown_size(record: ModelRecord, query: StructuredQuery) -> float | None:
    """The smallest variant's size; the largest one's when the user asked for a large model."""
    if query.compute.wants_large():
        return record.largest_parameters
    return record.smallest_parameters


def _variant_sizes(record: ModelRecord) -> list[str]:
    """'DOFA ViT-B/16 86M' for each variant whose size is known."""
    return [f"{v.name} {v.num_parameters:g}M" for v in record.variants if v.num_parameters is not None]


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


def why_behind(model: Candidate, above: Candidate, shown: int = 2) -> str:
    """What puts ``model`` after ``above``, the model ranked just before it: the gap and the
    criteria that weigh most in it (', 1.8 points behind Copernicus-FM, which scores higher on
    generalisability (1.00 against 0.79: evaluated on data from Bangladesh)'), to follow a note
    naming its rank."""
    name = above.record.model_name
    gaps = sorted(
        (
            ((leader.score - mine.score) * mine.weight, criterion, leader, mine)
            for criterion, mine in model.criteria.items()
            if (leader := above.criteria.get(criterion)) is not None and leader.score > mine.score
        ),
        key=lambda gap: -gap[0],
    )
    gap = f", {above.score - model.score:.1f} points behind {name}"
    leads = []
    for weight, criterion, leader, mine in gaps[:shown]:
        if weight <= 0:
            continue
        # What the leader has that this model lacks, where the evidence says ('evaluated on data
        # from Bangladesh'), rather than what both have.
        own = [e for e in leader.evidence if e not in mine.evidence] or leader.evidence
        why = f": {own[0]}" if own else ""
        leads.append(f"{_CRITERION_LABEL[criterion]} ({leader.score:.2f} against {mine.score:.2f}{why})")
    return f"{gap}, which scores higher on {' and '.join(leads)}" if leads else gap


def why_ranked(model: RankedModel, after: RankedModel | None) -> str:
    """What puts ``model`` where it is: its lead over the model after it and its leading reasons
    (', 10.4 points ahead of DOFA; Task fit: ...'), to follow a note naming its rank."""
    lead = f", {model.score - after.score:.1f} points ahead of {after.name}" if after is not None else ""
    return f"{lead}; " + "; ".join(model.reasons[:3])


def explain(ranked: list[Candidate], query: StructuredQuery) -> list[RankedModel]:
    """RankedModel entries (rank, score, confidence, reasons, trade-offs, evidence, links)."""
    out: list[RankedModel] = []
    for rank, c in enumerate(ranked, start=1):
        r = c.record
        weights = r.weights or next((v.weights for v in r.variants if v.weights), None)
        out.append(
            RankedModel(
                rank=rank,
                model_id=r.model_id,
                name=r.model_name,
                score=c.score,
                confidence=c.confidence,
                reasons=_reasons(c),
                trade_offs=_trade_offs(c, query),
                evidence=_evidence(c),
                predicted=c.predicted.summary if c.predicted else None,
                criteria={n: round(cr.score, 3) for n, cr in c.criteria.items()},
                links=Links(paper=r.paper_link, code=r.repository, weights=weights),
                relaxed_constraints=list(c.relaxed),
                parameters_m=_shown_size(r, query),
                modalities=list(r.modalities),
                sensors=list(r.supported_sensors),
                usage=[UsageSnippet.of(u) for rows in by_library(r.usage).values() for u in rows],
                adaptation=advise(r, query),
            )
        )
    return out


def selection_markdown(selection: Selection, show_code: bool = True) -> str:
    """Markdown: models with reasons, trade-offs, links and how to load them (with ``show_code``, the
    code); then questions and assumptions."""
    lines = [f"**Task:** {selection.query_text}"]
    understood = selection.understood()
    if understood:  # (a paragraph of its own: Markdown joins adjacent lines)
        lines.extend(["", f"**Understood:** {' · '.join(understood)}"])
    if selection.change:
        lines.extend(["", f"**{selection.change}.**"])
    lines.append("")
    if selection.answers:  # what answers the question asked, before the models
        if len(selection.answers) == 1:
            lines.append(f"**Answer:** {selection.answers[0]}")
        else:
            lines.append("**Answer:**")
            lines.extend(f"- {a}" for a in selection.answers)
        lines.append("")
    if selection.questions:
        lines.append("**Questions to sharpen the answer:**")
        lines.extend(
            f"- {q.text} ({' / '.join(q.options)})" if q.options else f"- {q.text}"
            for q in selection.questions
        )
        lines.append("")
    for m in selection.models:
        lines.append(f"### {m.rank}. {m.name} (score {m.score:.0f}/100, confidence {m.confidence:.2f})")
        lines.extend(f"- {reason}" for reason in m.reasons)
        lines.extend(f"- Trade-off: {t}" for t in m.trade_offs)
        if m.adaptation is not None:
            lines.append(f"- Adapt: {m.adaptation.markdown()}")
        links = [f"[{label}]({url})" for label, url in m.links.model_dump().items() if url]
        if links:
            lines.append("- Links: " + ", ".join(links))
        if m.usage:
            lines.append(f"- {usage_line(m.usage)}")
            lines.extend(["", *usage_markdown(m.usage)] if show_code else [])
        lines.append("")
    assumptions = [a for a in selection.assumptions if a not in selection.answers]
    if assumptions:
        lines.append("**Assumptions:**")
        lines.extend(f"- {a}" for a in assumptions)
    if selection.similar_tasks or selection.suggestions:
        lines.append("")
        lines.append("**From your earlier tasks:**")
        lines.extend(f"- {t.query_text} (similarity {t.similarity:.2f})" for t in selection.similar_tasks)
        lines.extend(
            f"- Suggested{' and accepted' if s.accepted else ', not applied'}: {s.label} ({s.reason})"
            for s in selection.suggestions
        )
    return "\n".join(lines).strip() + "\n"
