"""Deciding what a message does, once: social, off-topic, a reply to the questions pending, a
question about the models shown, a count, a change to the task, or a new task. Each detector runs
on the message's one reading; the handler of the intent decided acts on what deciding found."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.catalogue_questions import size_question
from agent.dialogue.changes import changes_task, size_reference
from agent.dialogue.counts import only_a_count, requested_count
from agent.dialogue.facts import QUESTION, THESE, fact_question, unknown_model
from agent.dialogue.message import Intent, Message
from agent.dialogue.reader import Reader
from agent.dialogue.references import (
    COMPARE_FIRST_FEW,
    ONLY_PRONOUN,
    compared_first_few,
    name_ordinals,
    name_pronoun,
)
from agent.dialogue.social import OFF_TOPIC, SOCIAL
from agent.resources import Resources
from agent.selection import Selection
from agent.turn import Turn
from tools.clarification import typed_labels_answer

# 'why?', 'why that one?', 'explain': a question about the answer just given.
_WHY_ALONE = re.compile(
    r"(?:(?:but|and|so|ok(?:ay)?)[,\s]+)?(?:why(?:\s+(?:this|that|it|so))?(?:\s+(?:one|model))?"
    r"|why\s+is\s+(?:that|it)|explain(?:\s+(?:that|this|why|it))?|how\s+come)\s*[?!.]*",
    re.IGNORECASE,
)
# 'what about infrared?', 'and X?': a follow-up naming one thing, to be read as a change.
_ABOUT_ONE_THING = re.compile(
    r"(?:(?:and\s+)?(?:what|how)\s+about|and)\s+(?:the\s+|using\s+)?([^?.!,;]{1,40}?)\s*[?.!]*", re.IGNORECASE
)


@dataclass(frozen=True)
class Situation:
    """What the conversation holds when a message arrives."""

    turn: Turn | None  # the task so far
    pending: bool  # clarification questions wait for an answer
    shown: Selection | None  # the last answer
    said_before: str  # the last message that started or changed a task (models named)
    k: int  # how many models an answer shows by default
    resources: Resources


def decide(text: str, situation: Situation, read: Reader) -> Message:
    """The intent of ``text`` in ``situation``, and what deciding it found."""
    message = Message(text=text, read=read, resolved=text, said_before=situation.said_before)
    if SOCIAL.fullmatch(text.strip()):
        return _decided(message, Intent.social)
    if OFF_TOPIC.search(text) and not read.query(text).application:
        return _decided(message, Intent.off_topic)
    if situation.turn is not None and situation.pending:
        return _reply(message, situation)
    return _after_answer(message, situation)


def _decided(message: Message, intent: Intent) -> Message:
    message.intent = intent
    return message


def _reply(message: Message, situation: Situation) -> Message:
    """A message while questions are pending: 'why?' of them, 'compare the top two', or answers."""
    text, read = message.text, message.read
    if _WHY_ALONE.fullmatch(text.strip()):
        return _decided(message, Intent.why_asked)
    if compared := compared_first_few(text):
        message.compared, message.compare_asked = compared, text
        if read.filled(text):
            clause = COMPARE_FIRST_FEW.search(text)
            message.compare_asked = clause.group(0) if clause else text
            rest = COMPARE_FIRST_FEW.sub(" ", text) if clause else text
            message.compare_reply = " ".join(rest.strip(" ,;:").split())
        return _decided(message, Intent.compare_in_reply)
    # 'top 10' in reply to a question: the answer now, with that many models.
    message.count_only = only_a_count(text, read) and bool(requested_count(text, None, situation.k))
    message.count = requested_count(text, None, situation.k)
    return _decided(message, Intent.reply)


def _after_answer(message: Message, situation: Situation) -> Message:
    """A message with no question pending: about the answer shown, or a task."""
    shown, resources = situation.shown, situation.resources
    answered = situation.turn is not None and shown is not None and bool(shown.models)
    if answered and _WHY_ALONE.fullmatch(message.text.strip()):
        return _decided(message, Intent.why_first)
    text, note = name_ordinals(message.text, shown)
    if note is None:
        text, note = name_pronoun(text, shown, situation.said_before, resources)
        if note is None and answered and ONLY_PRONOUN.fullmatch(text):
            # 'exclude it' after a message that named no model (or several): nothing to leave out.
            message.resolved = text
            return _decided(message, Intent.names_no_model)
    message.resolved, message.reference_note = text, note
    if answered:
        message.facts = fact_question(text, shown, situation.said_before, note, message.read, resources)
        if message.facts is not None:
            return _decided(message, Intent.model_facts)
    return _task(message, situation)


def _task(message: Message, situation: Situation) -> Message:
    """A message that asks for models: more of them, a change to the task shown, or a new task."""
    text, read, shown, resources = message.resolved, message.read, situation.shown, situation.resources
    previous = situation.turn
    message.count = requested_count(text, shown, situation.k)
    has_task = previous is not None and shown is not None
    if has_task and message.count and only_a_count(text, read):
        return _decided(message, Intent.how_many)  # 'show me 5', 'more options'
    if (
        has_task
        and text.strip().lower().rstrip(".!") not in {"no", "0"}
        and (labels := typed_labels_answer(text)) is not None
        and not set(read.filled(text)) - {"data_regime", "available_data"}
    ):
        message.labels = labels  # 'a few', '500 fields' after an answer: the labels the task has
    task = message.task_text
    if has_task and (unknown := unknown_model(task, read, resources)) is not None:
        message.unknown_model = unknown
        return _decided(message, Intent.unknown_model)
    if (
        previous is not None
        and shown is not None
        and (message.labels is not None or changes_task(task, previous, read, resources))
    ):
        message.size_reference = size_reference(task, shown)
        message.asks_size = size_question(task) is not None
        return _decided(message, Intent.change)
    answered = previous is not None and shown is not None and bool(shown.models)
    about = _ABOUT_ONE_THING.fullmatch(task.strip()) if answered else None
    if about and not read.filled(task):
        message.about = about.group(1)
        return _decided(message, Intent.unread_about)
    if (
        answered
        and QUESTION.search(task)
        and THESE.search(task)
        and not read.filled(task)
        and not resources.model_names().find(task).named
    ):
        return _decided(message, Intent.unanswerable)
    return _decided(message, Intent.new_task)
