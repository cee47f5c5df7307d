"""Markdown rendering of a Selection, for people: models with reasons, trade-offs, links and how to
load them, then questions and assumptions."""

from __future__ import annotations

from agent.selection import Selection
from rsfmd.usage import usage_line, usage_markdown


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
