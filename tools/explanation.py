"""Explanation tool: reasons and trade-offs per model, grounded in the record and its evidence.

The offline engine templates them from the ranking criteria; an LLM rewrites them from the same
evidence (agent/llm_steps.py). The RankedModel entries follow the paper's Appendix E fields; the
Markdown for people is tools/selection_markdown.py, and what RS-FMD holds on one model, said as
sentences, tools/model_facts.py.
"""

from __future__ import annotations

from agent.query import StructuredQuery
from agent.query_phrases import release_years
from agent.selection import EvidenceNumber, Links, RankedModel
from agent.wording import with_article
from rsfmd.licenses import allows_commercial_use, within_licenses
from rsfmd.schema import Category, ModelRecord
from rsfmd.usage import UsageSnippet, by_library
from tools.adaptation import advise
from tools.candidate import Candidate
from tools.criteria import image_pairs_only
from tools.region_fit import region_fit
from tools.result_credit import LARGER_VARIANTS_SAID

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
    "focus": "built for your kind of imagery",
    "description": "described like your task",
    "availability": "availability",
    "precedent": "precedent",
}


# Precedent from this score up is said among the reasons: good for about a third of the support of
# the similar curated requests (scores rarely pass 0.6, which takes most of them agreeing).
PRECEDENT_SAID = 0.3

# What results below the bar for a reason of their own are results on.
_EVIDENCE_SCOPE = {"related": "on related tasks only", "task": "on the task type, not this application"}


def _reasons(c: Candidate) -> list[str]:
    crit = c.criteria
    reasons: list[str] = []
    strong = sorted(
        (n for n in crit if crit[n].score >= 0.6 and crit[n].evidence and n != "precedent"),
        # Released weights are a condition of use, not a fit to the task: said after the fits.
        key=lambda n: (n == "availability", -crit[n].weight),
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
    precedent = crit.get("precedent")
    if precedent is not None and precedent.score >= PRECEDENT_SAID and precedent.evidence:
        # How experts judged similar requests: said last, after the evidence, and never cut.
        return [*reasons[:5], f"Precedent: {precedent.evidence[0]}"]
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
    performance = c.criteria.get("performance")
    if performance is not None:
        # The variant within the budget has no results of its own: said whatever the weight.
        out.extend(f"Reported {e}" for e in performance.evidence if e.startswith(LARGER_VARIANTS_SAID))
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
    years = release_years(query)
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
