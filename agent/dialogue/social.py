"""Messages that are not about a task: thanks, greetings and questions outside remsa's scope
('what's the weather like today?'), acknowledged while the task and its answer stay."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent.dialogue.message import Message
from agent.dialogue.references import REFERENCE_NOTE
from agent.query import StructuredQuery
from agent.selection import Selection, Status

if TYPE_CHECKING:
    from agent.api import Session

# Messages that are only social: acknowledged, and nothing of the task changes.
_THANKS = re.compile(
    r"\b(?:thanks?|thank\s+you|thx|cheers|ty|great|perfect|awesome|cool|nice)\b", re.IGNORECASE
)
SOCIAL = re.compile(
    r"\W*(?:(?:ok(?:ay)?|great|perfect|awesome|cool|nice|super|brilliant|got\s+it)[,!.\s]*)*"
    r"(?:(?:many\s+)?thanks?(?:\s+(?:a\s+lot|so\s+much|again))?|thank\s+you(?:\s+(?:so\s+much|very\s+much|again))?|"
    r"thx|cheers|ty|hi|hello|hey|good\s+(?:morning|afternoon|evening)|bye|goodbye|see\s+you|"
    r"ok(?:ay)?|great|perfect|awesome|cool|nice|got\s+it)"
    r"(?:[,!.\s]+(?:(?:that'?s\s+)?(?:great|helpful|perfect)|bye|goodbye|there|all|again|remsa))*\W*",
    re.IGNORECASE,
)
_SOCIAL_REPLY = {"thanks": "You're welcome", "hello": "Hello"}
# Questions outside the scope of model selection, answered as such.
OFF_TOPIC = re.compile(
    r"^\W*(?:what'?s|what\s+is|how'?s|how\s+is)\s+the\s+weather\b|\bweather\s+(?:today|tomorrow|forecast)\b|"
    r"^\W*what(?:'s|\s+is)\s+the\s+capital\s+of\b|\btell\s+me\s+a\s+joke\b|^\W*what\s+time\s+is\s+it\b",
    re.IGNORECASE,
)


def _acknowledged(session: Session, text: str, reply: str) -> Selection:
    """The last answer (or the questions pending) again, with ``reply`` said first."""
    if session.last_selection is None:
        reply += "; describe your task (what the model should do, and with what imagery) to get started"
        return Selection(
            status=Status.needs_clarification,
            query=StructuredQuery(),
            query_text=text,
            assumptions=[reply],
            answers=[reply],
            questions=list(session._pending),
        )
    selection = session.last_selection.model_copy(deep=True)
    # (what the message before said its words referred to is no note on this one)
    kept = [a for a in selection.assumptions if a not in selection.answers and not REFERENCE_NOTE.search(a)]
    selection.assumptions = [reply, *kept]
    selection.answers = [reply]
    selection.follow_up, selection.change = True, None
    return selection


def social(session: Session, message: Message) -> Selection:
    """'thanks!', 'hi there', 'bye': acknowledged; the task and its answer (or questions) stay."""
    text = message.text.strip()
    return _acknowledged(session, text, _SOCIAL_REPLY["thanks" if _THANKS.search(text) else "hello"])


def off_topic(session: Session, message: Message) -> Selection:
    """A question outside remsa's scope: said so; the task and its answer (or questions) stay."""
    text = message.text.strip()
    reply = (
        f"'{text}' is outside what remsa answers: it recommends remote-sensing foundation models for a task"
    )
    return _acknowledged(session, text, reply)
