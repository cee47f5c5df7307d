"""What `remsa chat` prints for an answer: Markdown for rich to render; a follow-up in a few lines.

A new task gets the full answer (cards with reasons, trade-offs and links). A follow-up (a change,
a question about the models shown, more models) says what changed and what answers it, then lists
the ranking: models shown in the answer before on one line each, only the new ones as cards.
"""

from __future__ import annotations

from agent.selection import RankedModel, Selection, Status
from rsfmd.usage import usage_line

# Said when no model is shown, by status.
_NO_MODELS = {
    Status.no_match: "No model in RS-FMD matches this task: loosen a constraint, or type `new`.",
    Status.not_understood: "Nothing here reads as a remote-sensing task.",
}


def model_line(model: RankedModel, *, shown_before: bool = False) -> str:
    """'1. **THOR** 89/100, confidence 0.69, 7.6M parameters' (and 'shown before')."""
    size = f", {model.parameters_m:g}M parameters" if model.parameters_m is not None else ""
    before = " (shown before)" if shown_before else ""
    score = f"{model.score:.0f}/100, confidence {model.confidence:.2f}"
    return f"{model.rank}. **{model.name}** {score}{size}{before}"


def model_card(model: RankedModel) -> str:
    """A model new to the conversation, as a short card: its line, reasons, trade-offs, how to adapt
    and load it, and links."""
    lines = [f"#### {model_line(model)}"]
    lines.extend(f"- {reason}" for reason in model.reasons)
    lines.extend(f"- Trade-off: {t}" for t in model.trade_offs)
    if model.adaptation is not None:  # (as the cards of a new task say it; the code stays out)
        lines.append(f"- Adapt: {model.adaptation.markdown()}")
    if model.usage:
        lines.append(f"- {usage_line(model.usage)}")
    links = [f"[{label}]({url})" for label, url in model.links.model_dump().items() if url]
    if links:
        lines.append("- Links: " + ", ".join(links))
    return "\n".join(lines)


def _questions(selection: Selection) -> str:
    """What was understood and noted, each a paragraph, then the questions as a list."""
    understood = selection.understood()
    paragraphs = [f"**Understood:** {' · '.join(understood)}"] if understood else []
    paragraphs.extend(f"*Noted: {note}*" for note in selection.assumptions)
    paragraphs.append("I need a little more to go on:")
    questions = [
        f"- {q.text}" + (f" [{' / '.join(q.options)}]" if q.options else "") for q in selection.questions
    ]
    return "\n\n".join([*paragraphs, "\n".join(questions)])


def follow_up_markdown(selection: Selection, before: Selection) -> str:
    """A follow-up in a few lines: the change, the answers, then the ranking without the cards of
    models already shown ('Same models as before' when nothing moved)."""
    lines = [f"**{selection.change}.**"] if selection.change else []
    lines.extend(f"- {answer}" if len(selection.answers) > 1 else answer for answer in selection.answers)
    if not selection.models:
        lines.append(_NO_MODELS.get(selection.status, "No model to show."))
        return "\n\n".join(lines)
    if selection.status == Status.closest_match:
        lines.append("*No model meets every constraint: these are the closest matches.*")
    before_ids = [m.model_id for m in before.models]
    if [m.model_id for m in selection.models] == before_ids and [m.rank for m in selection.models] == [
        m.rank for m in before.models
    ]:
        shown = " · ".join(f"{m.rank}. {m.name}" for m in selection.models)
        lines.append(f"Same models as before: {shown}.")
        return "\n\n".join(lines)
    ranking = []
    for model in selection.models:
        known = model.model_id in before_ids
        ranking.append(model_line(model, shown_before=True) if known else model_card(model))
    lines.append("\n".join(ranking))
    return "\n\n".join(lines)


def chat_markdown(selection: Selection, before: Selection | None) -> str:
    """What the terminal chat prints for ``selection``, the answer before it being ``before``."""
    if selection.status == Status.needs_clarification:
        # (questions; or, before any task, the reply to 'hi' or 'what's the weather?')
        return _questions(selection) if selection.questions else "\n\n".join(selection.answers)
    if selection.status == Status.not_understood:
        return "\n\n".join(selection.assumptions) or _NO_MODELS[Status.not_understood]
    if selection.follow_up and before is not None and before.models:
        return follow_up_markdown(selection, before)
    footer = f"*engine: {selection.engine}; overall confidence {selection.overall_confidence:.2f}*"
    return f"{selection.to_markdown().rstrip()}\n\n{footer}"
