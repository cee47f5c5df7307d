"""The dispatch table: one small handler per intent. The handlers of one family of intents live
with its detectors (replies, facts, changes, social); those that answer the same task again, or a
new task, live here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agent.dialogue.changes import change_task
from agent.dialogue.facts import model_facts, not_in_rsfmd
from agent.dialogue.message import Intent, Message
from agent.dialogue.replies import compare_in_reply, reply, why_asked
from agent.dialogue.social import off_topic, social
from agent.reading.imagery import INFRARED_ADVICE
from agent.selection import Selection
from agent.turn import Turn
from tools.explanation import why_ranked

if TYPE_CHECKING:
    from agent.api import Session

Handler = Callable[["Session", Message], Selection]

_NAME_IT = "name the sensor or imagery (e.g. 'thermal', 'Landsat-8', 'hyperspectral'), or describe a new task"


def _previous(session: Session) -> Turn:
    assert session._turn is not None
    return session._turn


def why_first(session: Session, message: Message) -> Selection:
    """'why?', 'why that one?' after an answer: the same answer, with what put its first model
    first."""
    selection = session._same_task(_previous(session))
    if selection.models:
        top, after = selection.models[0], selection.models[1] if len(selection.models) > 1 else None
        note = f"'{message.text.strip()}' read as why {top.name} is first" + why_ranked(top, after)
        selection.assumptions.insert(0, note)
        selection.answers.insert(0, note)
    return selection


def names_no_model(session: Session, message: Message) -> Selection:
    """'exclude it' after a message that named no model (or several): nothing to leave out, so the
    same answer, and a word on how to say which."""
    return session._same_task(
        _previous(session),
        f"'{message.resolved.strip()}' names no model: the message before named none, or several. "
        "Say which to leave out, e.g. 'drop the first one' or 'not DOFA'",
    )


def more_or_fewer(session: Session, message: Message) -> Selection:
    """'show me 5', 'more options': the same task, with more (or fewer) models shown."""
    session._shown = message.count
    selection = session._same_task(_previous(session))
    selection.assumptions.insert(0, f"The same task as before, with the top {message.count} shown")
    return selection


def unread_about(session: Session, message: Message) -> Selection:
    """'what about infrared?': nothing remsa can read, so the task and its answer stay."""
    infrared = any(n.endswith(INFRARED_ADVICE) for n in message.read(message.task_text).notes)
    return session._same_task(
        _previous(session),
        f"'{message.about}' is not read as a sensor, imagery kind, region, constraint or model that "
        f"RS-FMD knows, so the task stays as it was; {INFRARED_ADVICE if infrared else _NAME_IT}",
    )


def unanswerable(session: Session, message: Message) -> Selection:
    """'which of these is the most elegant?': about the models shown, but nothing RS-FMD holds answers
    it; the task and its answer stay rather than an empty task starting."""
    return session._same_task(
        _previous(session),
        f"'{message.task_text.strip()}' asks about the models shown, but RS-FMD holds nothing to answer it; "
        "ask about their size, licence, weights, pretraining data or reported results (e.g. "
        "'which of these has weights?'), or describe a new task",
    )


def new_task(session: Session, message: Message) -> Selection:
    """A task of its own: read afresh, with the questions it needs."""
    session._shown = message.count
    session._turn = Turn(text=message.task_text, k=message.count or session.k, clarify=session.clarify)
    session._asked, session._answers = [], {}
    selection = session._run()
    if message.reference_note:
        selection.assumptions.insert(0, message.reference_note)
    return selection


HANDLERS: dict[Intent, Handler] = {
    Intent.social: social,
    Intent.off_topic: off_topic,
    Intent.why_asked: why_asked,
    Intent.compare_in_reply: compare_in_reply,
    Intent.reply: reply,
    Intent.why_first: why_first,
    Intent.names_no_model: names_no_model,
    Intent.model_facts: model_facts,
    Intent.how_many: more_or_fewer,
    Intent.unknown_model: not_in_rsfmd,
    Intent.change: change_task,
    Intent.unread_about: unread_about,
    Intent.unanswerable: unanswerable,
    Intent.new_task: new_task,
}
