"""Replies to the clarification questions pending: free-text answers (each part phrased as the
answer to the question it answers), 'why?' asked of the questions, and 'compare the top two'."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent.dialogue.changes import without_replaced
from agent.dialogue.counts import only_a_count, requested_count
from agent.dialogue.message import Message
from agent.dialogue.reader import Reader
from agent.query import StructuredQuery
from agent.selection import Selection
from agent.systems import ClarificationQuestion
from tools.clarification import answer_text, typed_labels_answer

if TYPE_CHECKING:
    from agent.api import Session

# Why a clarification question is asked, for 'why?' in reply to it.
_WHY_ASKED = {
    "application": "what the model should do decides which results count",
    "modality": "the imagery you have decides which models can take it",
    "sensor": "the sensor decides which models were built for your bands",
    "data_regime": "how many labels you have decides between zero-shot, few-shot and fine-tuned results",
    "deployment_device": "where the model runs bounds its size",
    "region": "your region weighs models by their pretraining coverage and evaluations there",
}
# A reply to several questions at once: '500, laptop', 'none and a GPU'.
_REPLY_PARTS = re.compile(r"\s*(?:[,;/]|\band\b|\s-\s)\s*", re.IGNORECASE)
# What each question field is filled by, in the interpreter's own field names.
_QUESTION_FIELD = {"task_type": "application", "sensor": "modality", "compute": "deployment_device"}
_NO_ANSWER = re.compile(
    r"(?:skip|pass|n/?a|not sure|unsure|dunno|i don'?t know|no idea|whatever(?: you think)?|any|anything|"
    r"doesn'?t matter|no preference)\W*",
    re.IGNORECASE,
)
_LENGTH_ALONE = re.compile(r"\d+(?:\.\d+)?\s*(?:cm|m|km)\b\W*", re.IGNORECASE)


def _answer_to(question: ClarificationQuestion, part: str, read: Reader) -> str | None:
    """``part`` phrased as the answer to ``question`` when, so phrased, it answers it; else None."""
    if question.field == "data_regime":
        return typed_labels_answer(part)
    phrased = answer_text(question, part)
    filled = {_QUESTION_FIELD.get(f, f) for f in read.filled(phrased)}
    return phrased if question.field in filled else None


def phrased_reply(session: Session, reply: str, read: Reader) -> str:
    """A terse reply to the pending questions ('500, laptop', 'none', 'aerial RGB, 20 cm') with
    each part the interpreter cannot read alone phrased as the answer to the next question
    still open, in the order asked, when so phrased it answers that question; parts it reads,
    counts ('top 3'), models and 'skip' stay as typed. The reply itself when nothing changes."""
    parts = [p.strip() for p in _REPLY_PARTS.split(reply) if p.strip()]
    if len(parts) > 4:
        return reply
    open_questions = list(session._pending)
    queries = {part: read.query(part) for part in parts}
    for query in queries.values():
        filled = {_QUESTION_FIELD.get(f, f) for f in query.filled_fields()}
        open_questions = [q for q in open_questions if q.field not in filled]
    names = session.resources.model_names()
    out, changed = [], False
    for part in parts:
        mentions = names.find(part)
        phrased = None
        if _LENGTH_ALONE.fullmatch(part):
            phrased = f"My data is {part} imagery."  # '20 cm': the imagery's resolution
        elif open_questions and not (
            queries[part].filled_fields()
            or mentions.named
            or mentions.excluded
            or (requested_count(part, None, session.k) and only_a_count(part, read))
            or _NO_ANSWER.fullmatch(part)
        ):
            phrased = _answer_to(open_questions[0], part, read)
            if phrased is not None:
                open_questions.pop(0)
        out.append(phrased or part)
        changed = changed or phrased is not None
    return "; ".join(out) if changed else reply


def reply(session: Session, message: Message) -> Selection:
    """An answer to the questions pending, in free text: the next round of the task."""
    turn, text = session._turn, message.text
    assert turn is not None
    if message.count_only:
        # 'top 10' in reply to a question: the answer now, with that many models.
        turn.clarify = False
    session._answers["reply"] = f"{session._answers.get('reply', '')} {text}".strip()
    if message.count:
        session._shown = turn.k = message.count  # 'a laptop, and show me 5'
    # 'actually crop type mapping instead', in reply to a question: it replaces what it
    # names in the task so far, as it would after an answer.
    kept = without_replaced(turn.text, text, message.read)
    replaced = kept != turn.text
    if not turn.query.filled_fields() and message.read.filled(text):
        # 'what can you do?' or 'I need a model', then the task: the task alone.
        kept = ""
        turn.notes = []
    if replaced or not kept:
        turn.query = StructuredQuery()  # read again from the text, without what it replaced
    turn.text = kept
    selection = session._continue(
        phrased_reply(session, text, message.read), {q.field for q in session._pending}
    )
    if replaced:
        selection.assumptions.insert(
            0, f"'{text.strip()}' read as replacing what it names in the task so far"
        )
    return selection


def compare_in_reply(session: Session, message: Message) -> Selection:
    """'compare the top two' in reply to a question: the answer now, with at least that many
    models (the count names the models to compare, not how many to show), then the comparison
    asked of it, as after any answer."""
    turn = session._turn
    assert turn is not None and message.compared is not None
    turn.clarify = False
    turn.k = max(turn.k, message.compared)
    reply = message.compare_reply
    if reply is not None:
        # 'compare the top two, with aerial RGB': the rest answers the questions, and only the
        # comparison is asked of the answer, so that a later change leaves it behind.
        session._answers["reply"] = f"{session._answers.get('reply', '')} {reply}".strip()
    if session._continue(reply or "", {q.field for q in session._pending}).models:
        return session._respond(message.compare_asked, message.read)
    assert session.last_selection is not None
    return session.last_selection


def why_asked(session: Session, message: Message) -> Selection:
    """'why?' in reply to questions: why they are asked; they stay open."""
    assert session.last_selection is not None
    why = "; ".join(_WHY_ASKED.get(q.field, q.field.replace("_", " ")) for q in session._pending)
    note = f"Each answer narrows the ranking: {why}. Answer any of them, or say 'top 3' for the ranking now"
    selection = session.last_selection.model_copy(deep=True)
    selection.assumptions = [note, *selection.assumptions]
    selection.answers = [note]
    return selection
