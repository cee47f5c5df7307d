"""HTML rendering of answers: model cards, confidence bars, questions, assumptions.

Everything that comes from the database or the agent is escaped; only links with an http(s)
address become anchors.
"""

from __future__ import annotations

from html import escape

from agent.selection import Adaptation, EvidenceNumber, RankedModel, Selection, Status
from ui.usage_block import USAGE_CSS, usage_html

EMPTY_RESULTS = (
    '<div class="remsa-empty">'
    "<p><b>Your recommendations will appear here.</b></p>"
    "<p>Each model comes as a card: its rank, a score out of 100, a confidence bar, the reasons it "
    "fits your task, its trade-offs, the reported results behind it (with dataset names and "
    "sources) and links to its paper, code and weights.</p>"
    "</div>"
)

_STATUS_NOTES: dict[Status, str] = {
    Status.closest_match: (
        "No model satisfies every hard constraint; these are the closest matches "
        "(relaxed constraints are named on each card)."
    ),
    Status.no_match: "No model in RS-FMD matches this task. Try loosening a constraint.",
    Status.not_understood: (
        "Nothing here reads as a remote-sensing task: say what to map or detect, which imagery, "
        "how many labels and where it must run."
    ),
}


def confidence_colour(confidence: float) -> str:
    """Green for confident, amber for moderate, red for weak answers."""
    if confidence >= 0.7:
        return "#2e7d32"
    if confidence >= 0.45:
        return "#f9a825"
    return "#c62828"


def confidence_bar_html(confidence: float) -> str:
    """A labelled horizontal bar filled to the confidence, coloured by its level."""
    pct = max(0.0, min(1.0, confidence)) * 100
    colour = confidence_colour(confidence)
    return (
        f'<div class="remsa-conf" title="confidence {confidence:.2f}">'
        f'<span class="remsa-conf-label">confidence {pct:.0f}%</span>'
        '<div class="remsa-conf-track" style="background:#e0e0e0;border-radius:4px;height:8px;'
        'width:100%;overflow:hidden">'
        f'<div class="remsa-conf-fill" data-confidence="{confidence:.2f}" '
        f'style="width:{pct:.0f}%;height:8px;background:{colour}"></div></div></div>'
    )


def link_html(label: str, url: str | None, css_class: str = "remsa-link") -> str:
    """An anchor opening in a new tab, or a greyed label when there is no address."""
    if url and url.startswith(("http://", "https://")):
        return (
            f'<a class="{css_class}" href="{escape(url, quote=True)}" target="_blank" '
            f'rel="noopener noreferrer">{escape(label)}</a>'
        )
    return f'<span class="{css_class} remsa-missing" title="not recorded">{escape(label)}: none</span>'


def _chips(values: list[str], limit: int = 6) -> str:
    shown = values[:limit]
    more = f'<span class="remsa-chip">+{len(values) - limit}</span>' if len(values) > limit else ""
    return "".join(f'<span class="remsa-chip">{escape(v)}</span>' for v in shown) + more


def evidence_table_html(evidence: list[EvidenceNumber]) -> str:
    """The reported numbers behind a recommendation, each with its dataset and source."""
    if not evidence:
        return '<p class="remsa-muted">No reported benchmark result in RS-FMD matches this task.</p>'
    rows = "".join(
        "<tr>"
        f"<td>{escape(e.dataset)}</td><td>{escape(e.metric)}</td><td>{e.value:g}</td>"
        f"<td>{escape(e.setting)}</td><td>{escape(e.relevance)}</td>"
        f"<td>{link_html('source', e.source_url)}</td>"
        "</tr>"
        for e in evidence
    )
    return (
        '<table class="remsa-evidence"><thead><tr><th>dataset</th><th>metric</th><th>value</th>'
        f"<th>setting</th><th>relevance</th><th></th></tr></thead><tbody>{rows}</tbody></table>"
    )


def adaptation_html(adaptation: Adaptation | None) -> str:
    """How to adapt the model: the advice, why, the RS-FMD results behind it and any comparison of
    settings, each result with its source; a rule of thumb is labelled as one."""
    if adaptation is None:
        return ""
    cited = "".join(
        f"<li>{escape(e.dataset)}: {escape(e.metric)} {e.value:g} "
        f"({escape(f'{e.variant}; ' if e.variant else '')}{escape(e.setting)}"
        f"{f', {e.label_percent:g}% labels' if e.label_percent is not None else ''}) "
        f"{link_html('source', e.source_url)}</li>"
        for e in adaptation.evidence
    )
    compared = "".join(
        f"<li>{escape(c.statement)} "
        + " ".join(link_html("source", url) for url in dict.fromkeys(r.source_url for r in c.results))
        + "</li>"
        for c in adaptation.comparisons
    )
    return (
        f'<div class="remsa-adapt" data-mode="{escape(adaptation.mode, quote=True)}" '
        f'data-basis="{escape(adaptation.basis, quote=True)}">'
        f'<p class="remsa-h">How to adapt it: {escape(adaptation.label)} '
        f'<span class="remsa-muted">({escape(adaptation.basis)})</span></p>'
        f"<p>{escape(' '.join(adaptation.why))}</p>"
        + (f'<ul class="remsa-adapt-evidence">{cited}</ul>' if cited else "")
        + (f'<p class="remsa-muted">Settings compared in RS-FMD:</p><ul>{compared}</ul>' if compared else "")
        + "</div>"
    )


def model_card_html(model: RankedModel) -> str:
    """One recommended model as a card."""
    size = f"{model.parameters_m:g}M parameters" if model.parameters_m is not None else "size not recorded"
    facts = _chips(model.modalities) + _chips(model.sensors) + f'<span class="remsa-chip">{size}</span>'
    reasons = "".join(f"<li>{escape(r)}</li>" for r in model.reasons)
    trade_offs = "".join(f"<li>{escape(t)}</li>" for t in model.trade_offs)
    relaxed = (
        f'<p class="remsa-relaxed">Relaxed: {escape(", ".join(model.relaxed_constraints))}</p>'
        if model.relaxed_constraints
        else ""
    )
    predicted = (
        f'<p class="remsa-predicted"><b>Capabilities encoding:</b> {escape(model.predicted)}</p>'
        if model.predicted
        else ""
    )
    links = " ".join(
        link_html(label, url)
        for label, url in (
            ("Paper", model.links.paper),
            ("Code", model.links.code),
            ("Weights", model.links.weights),
        )
    )
    return (
        f'<div class="remsa-card" data-model-id="{escape(model.model_id, quote=True)}">'
        '<div class="remsa-card-head">'
        f'<span class="remsa-rank">#{model.rank}</span>'
        f'<span class="remsa-name">{escape(model.name)}</span>'
        f'<span class="remsa-score">{model.score:.0f}<small>/100</small></span>'
        "</div>"
        f"{confidence_bar_html(model.confidence)}"
        f'<div class="remsa-facts">{facts}</div>'
        f"{relaxed}"
        f'<p class="remsa-h">Why it fits</p><ul class="remsa-reasons">{reasons}</ul>'
        + (
            f'<p class="remsa-h">Trade-offs</p><ul class="remsa-tradeoffs">{trade_offs}</ul>'
            if trade_offs
            else ""
        )
        + f"{predicted}{adaptation_html(model.adaptation)}"
        f'<details class="remsa-ev" open><summary>Evidence ({len(model.evidence)} reported '
        f"results)</summary>{evidence_table_html(model.evidence)}</details>"
        f'<div class="remsa-links">{links}</div>'
        f"{usage_html(model.usage)}"
        "</div>"
    )


def selection_html(selection: Selection) -> str:
    """The whole answer: a status note, the cards and the assumptions made."""
    parts: list[str] = []
    understood = selection.understood()
    if understood:
        chips = "".join(f'<span class="remsa-chip">{escape(u)}</span>' for u in understood)
        parts.append(f'<p class="remsa-understood"><span class="remsa-muted">Understood:</span> {chips}</p>')
    if selection.change:  # what a follow-up changed, above the cards it changed
        parts.append(f'<p class="remsa-change">{escape(selection.change)}.</p>')
    note = _STATUS_NOTES.get(selection.status)
    if note:
        parts.append(f'<p class="remsa-note">{escape(note)}</p>')
    if selection.status == Status.needs_clarification and not selection.models:
        parts.append(
            '<p class="remsa-muted">A few details first: answer the questions on the left '
            "(click a suggestion or type in the box).</p>"
        )
    parts.extend(model_card_html(m) for m in selection.models)
    if selection.assumptions:
        items = "".join(f"<li>{escape(a)}</li>" for a in selection.assumptions)
        parts.append(
            f'<div class="remsa-assumptions"><p class="remsa-h">Assumptions made</p><ul>{items}</ul></div>'
        )
    parts.append(earlier_tasks_html(selection))
    if selection.models:
        parts.append(
            f'<p class="remsa-muted">Engine: {escape(selection.engine)} · overall confidence '
            f"{selection.overall_confidence:.2f} · database {escape(selection.database_version[:12])}</p>"
        )
    return '<div class="remsa-results">' + "".join(parts) + "</div>"


def earlier_tasks_html(selection: Selection) -> str:
    """The user's similar earlier tasks and what they suggest, apart from the answer's assumptions."""
    if not (selection.similar_tasks or selection.suggestions):
        return ""
    tasks = "".join(
        f"<li>{escape(t.query_text)} <span class='remsa-muted'>(similarity {t.similarity:.2f})</span></li>"
        for t in selection.similar_tasks
    )
    offered = "".join(
        f"<li>{'✓ ' if s.accepted else ''}<b>{escape(s.label)}</b>: {escape(s.reason)}"
        f"{' (applied, as you accepted)' if s.accepted else ''}</li>"
        for s in selection.suggestions
    )
    hint = (
        '<p class="remsa-muted">Suggestions are not applied unless you click them (left).</p>'
        if any(not s.accepted for s in selection.suggestions)
        else ""
    )
    return (
        '<div class="remsa-earlier" id="remsa-earlier"><p class="remsa-h">From your earlier tasks</p>'
        f"<ul>{tasks}</ul>{'<p>They suggest:</p><ul>' + offered + '</ul>' if offered else ''}{hint}</div>"
    )


def chat_summary(selection: Selection) -> str:
    """The assistant's chat message (markdown): what a follow-up changed first, then a short answer
    pointing at the cards."""
    body = _chat_body(selection)
    return f"**{selection.change}.**\n\n{body}" if selection.change else body


def _chat_body(selection: Selection) -> str:
    if selection.status == Status.needs_clarification:
        # What was read on the way (a slip mended, another language noticed) comes first.
        lines = [f"*Noted: {note}*" for note in selection.assumptions[:3]]
        lines.append("To pick well I need a bit more:")
        lines.extend(f"- {q.text}" for q in selection.questions)
        lines.append("\nClick a suggested answer below, or type your answer.")
        return "\n".join(lines)
    if selection.status == Status.not_understood:
        return "\n".join(selection.assumptions) or _STATUS_NOTES[Status.not_understood]
    if not selection.models:
        return _STATUS_NOTES[Status.no_match]
    top = selection.top_count()
    head = (
        "Closest matches (not every constraint could be met):"
        if selection.status == Status.closest_match
        else f"Top {top} for your task:"
    )
    # What answers the question asked ('which one is smallest?', 'why not SAM?') comes first.
    lines = [*(f"{answer}\n" for answer in selection.answers), head]
    for i, m in enumerate(selection.models):
        if i == top:
            lines.append("\nThe models you named:")
        lines.append(f"{m.rank}. **{m.name}**: {m.score:.0f}/100, confidence {m.confidence:.2f}")
    lines.append("\nDetails, evidence and links are on the cards.")
    return "\n".join(lines)


APP_CSS = (
    """
.remsa-header h1 { margin-bottom: 0.1em; }
.remsa-header p { margin-top: 0; font-size: 1.05em; }
.remsa-card { border: 1px solid var(--border-color-primary); border-radius: 10px; padding: 12px 14px;
  margin-bottom: 12px; background: var(--background-fill-primary); }
.remsa-card-head { display: flex; align-items: baseline; gap: 10px; margin-bottom: 6px; }
.remsa-rank { font-weight: 700; color: var(--body-text-color-subdued); }
.remsa-name { font-weight: 700; font-size: 1.15em; flex: 1; }
.remsa-score { font-weight: 700; font-size: 1.2em; }
.remsa-score small { font-weight: 400; color: var(--body-text-color-subdued); }
.remsa-conf { margin: 4px 0 8px 0; }
.remsa-conf-label { font-size: 0.85em; color: var(--body-text-color-subdued); }
.remsa-chip { display: inline-block; font-size: 0.8em; padding: 1px 8px; margin: 0 4px 4px 0;
  border-radius: 10px; background: var(--background-fill-secondary);
  border: 1px solid var(--border-color-primary); }
.remsa-h { font-weight: 600; margin: 8px 0 2px 0; }
.remsa-reasons, .remsa-tradeoffs { margin: 0 0 4px 1.1em; }
.remsa-tradeoffs li { color: #8a5a00; }
.remsa-evidence { font-size: 0.85em; width: 100%; border-collapse: collapse; }
.remsa-evidence td, .remsa-evidence th { padding: 2px 6px; text-align: left;
  border-bottom: 1px solid var(--border-color-primary); }
.remsa-links { margin-top: 8px; display: flex; gap: 8px; flex-wrap: wrap; }
.remsa-links .remsa-link { padding: 3px 10px; border-radius: 6px; text-decoration: none;
  border: 1px solid var(--border-color-accent); }
.remsa-missing { color: var(--body-text-color-subdued); border-style: dashed !important; }
.remsa-muted { color: var(--body-text-color-subdued); font-size: 0.9em; }
.remsa-note { padding: 6px 10px; border-left: 4px solid #f9a825;
  background: var(--background-fill-secondary); }
.remsa-relaxed { color: #8a5a00; font-size: 0.9em; }
.remsa-change { font-weight: 600; padding: 6px 10px; border-left: 4px solid #00897b;
  background: var(--background-fill-secondary); }
.remsa-empty { padding: 18px; border: 1px dashed var(--border-color-primary); border-radius: 10px;
  color: var(--body-text-color-subdued); }
.remsa-table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
.remsa-table td, .remsa-table th { padding: 4px 8px; border-bottom: 1px solid var(--border-color-primary);
  text-align: left; vertical-align: top; }
.remsa-best { font-weight: 700; }
.remsa-option.primary { font-weight: 700; }
.remsa-option.primary::before { content: "✓ "; }
"""
    + USAGE_CSS
)
