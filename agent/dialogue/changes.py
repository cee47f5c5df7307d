"""Changes to the task just answered: whether a message changes it ('only open weights', 'something
smaller?', 'what about Kenya instead?'), and the task's text after the change."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent.catalogue_questions import catalogue_superlative, size_question, without_size_question
from agent.dialogue.message import Message
from agent.dialogue.reader import Reader
from agent.mentions import LARGER_WORDS, SMALLER_WORDS
from agent.reading.compute import device_spans
from agent.reading.labels import regime_spans
from agent.reading.terms import blank_spans, find_terms
from agent.resources import Resources
from agent.selection import Selection
from agent.turn import Turn
from tools.changes import task_change

if TYPE_CHECKING:
    from agent.api import Session

# 'something smaller?', 'a bigger one': a size relative to the answer just given.
_ONE = r"(?:something|anything|one|ones|models?|options?|variants?|backbones?|versions?)"
_DEGREE = r"(?:a\s+(?:bit|little)\s+|much\s+|even\s+|slightly\s+)?"


def _relative_size(word: str) -> re.Pattern[str]:
    """A pattern for asking for a model of a relative size: 'something smaller', 'a bigger one'."""
    return re.compile(
        rf"\b{_ONE}\s+{_DEGREE}{word}\b(?!\s+than)|\b{_DEGREE}{word}\s+{_ONE}\b|^\W*{_DEGREE}{word}\W*(?:please\W*)?$",
        re.IGNORECASE,
    )


_SMALLER = _relative_size(SMALLER_WORDS)
_LARGER = _relative_size(LARGER_WORDS)


def size_reference(text: str, selection: Selection | None) -> tuple[str, bool] | None:
    """(the first model shown, larger) when ``text`` asks for a smaller or larger model than the
    answer just given ('what about something smaller?'); None otherwise."""
    if selection is None or not selection.models:
        return None
    larger = bool(_LARGER.search(text))
    if not larger and not _SMALLER.search(text):
        return None
    return selection.models[0].model_id, larger


_SWITCH = r"\bswitch(?:ing)? to\b|\bchange (?:it |that )?to\b"
_INSTEAD = re.compile(
    rf"\binstead\b|\brather\b|{_SWITCH}|^\W*actually\b|\bi\s+meant\b|\bi\s+mean\b", re.IGNORECASE
)
# 'crop mapping instead', 'switch to change detection'; not 'instead of' or 'rather than', whose
# object is the thing left behind.
_NEW_TASK_INSTEAD = re.compile(rf"\binstead\b(?!\s+of\b)|{_SWITCH}", re.IGNORECASE)
# What a change that says 'instead' replaces: the previous task's terms of the same kind.
_REPLACED = {
    "sensors": ("sensors", "modalities"),
    "modalities": ("sensors", "modalities"),
    "regions": ("regions",),
    "applications": ("applications", "task_types"),
    "task_types": ("applications", "task_types"),
}
# 'what about Kenya?', 'how about Landsat?': asked in place of the task's own.
_WHAT_ABOUT = re.compile(r"^\W*(?:and\s+|so\s+|ok(?:ay)?,?\s+)?(?:what|how)\s+about\b", re.IGNORECASE)
_AND_FIRST = re.compile(r"\W*(?:and|plus)\b", re.IGNORECASE)
_ALSO = re.compile(r"\b(?:too|also|as\s+well|in\s+addition|additionally|plus|both)\b", re.IGNORECASE)
_OPTICAL = re.compile(r"\boptical\b", re.IGNORECASE)
_LEADING_DEVICE = re.compile(
    r"(?:\b(?:with|on|using|and|or)\s+)?(?:\b(?:a|an|one|my|our|the|single|only)\s+)?$", re.IGNORECASE
)
_LEADING_WORD = re.compile(r"\b(?:with|in|from|using|on|over|for|of|and|or)\s+$", re.IGNORECASE)


def without_replaced(previous: str, change: str, read: Reader) -> str:
    """``previous`` without the sensors, modalities, regions or task a change names 'instead'
    ('what about Landsat instead?' drops 'Sentinel-2'); 'what about Kenya?' asks about the region
    (or imagery) in place of the old one too, unless it adds ('what about SAR as well?'), as does a
    region named alone ('in Brazil'). Unchanged without such a change."""
    instead = bool(_INSTEAD.search(change))
    # 'in Brazil' after an answer for Greenland: a region alone moves the task there ('and
    # Tanzania?' or 'Brazil too' adds one).
    region_alone = (
        not _ALSO.search(change) and not _AND_FIRST.match(change) and read.filled(change) == ["region"]
    )
    if not instead and not region_alone and not (_WHAT_ABOUT.search(change) and not _ALSO.search(change)):
        return previous
    spans = []
    # 'Landsat instead' swaps the imagery, not the time series: that goes only when the change
    # speaks of time.
    keeps_time = not any(term == "Multi-temporal" for term, _, _ in find_terms(change, "modalities"))
    for kind, replaced in _REPLACED.items():
        if not instead and kind in {"applications", "task_types"}:
            continue  # 'what about crop mapping?' is a new task, not a change
        # 'optical imagery instead' names modalities the vocabulary reads by rule, not by term.
        if not (find_terms(change, kind) or (kind == "modalities" and _OPTICAL.search(change))):
            continue
        for name in replaced:
            for term, start, end in find_terms(previous, name):
                if term == "Multi-temporal" and keeps_time:
                    continue
                # 'with Sentinel-1', 'in Kenya': the word that led to the term goes with it.
                lead = _LEADING_WORD.search(previous[:start])
                spans.append((lead.start() if lead else start, end))
    if device_spans(change):
        # 'what about an A100?' after 'on a laptop': the hardware named replaces the task's own.
        for start, end in device_spans(previous):
            lead = _LEADING_DEVICE.search(previous[:start])
            spans.append((lead.start() if lead else start, end))
    return re.sub(r"\s+([.,;?!])", r"\1", " ".join(blank_spans(previous, spans).split()))


# 'why not DOFA?', 'but why not the second one?': a sentence of its own in the task's text.
_WHY_NOT_SENTENCE = re.compile(
    r"(?:^|(?<=[.?!;]))\s*(?:(?:and|but|so)\s+)?why\s+not\s+[^.?!;]*(?:[?.!;]|$)", re.IGNORECASE
)
# A sentence after the text's first.
_LATER_SENTENCE = re.compile(r"(?<=[.?!;])[^.?!;]+(?:[.?!;]|$)")
# 'why is Clay first?', 'compare MAESTRO and AnySat', 'how does DOFA compare?': a sentence asking
# about the answer before.
_ASKED_OF_ANSWER = re.compile(
    r"\s*(?:(?:and|but|so|ok(?:ay)?)[,\s]+)?"
    r"(?:why|compare|comparing|how\s+(?:does|do|did)\b[^.?!;]*\bcompare|what(?:'s|\s+is|\s+are)\s+the\s+"
    r"differences?)\b[^.?!;]*(?:[?.!;]|$)",
    re.IGNORECASE,
)


def _without_asked_of_answer(text: str, read: Reader) -> str:
    """``text`` without the questions about an answer asked after its first sentence ('why is
    RAMEN ranked lower?', 'and the oldest one?'), unless they also change the task ('why not with
    SAR?' keeps SAR)."""

    def drop(match: re.Match[str]) -> str:
        sentence = match.group(0)
        asked = _ASKED_OF_ANSWER.fullmatch(sentence) or catalogue_superlative(sentence)
        return " " if asked and not read.filled(sentence) else sentence

    return " ".join(_LATER_SENTENCE.sub(drop, text).split())


def changes_task(text: str, previous: Turn, read: Reader, resources: Resources) -> bool:
    """Whether ``text`` changes the last task: no application or task of its own, but something
    the task can take (a constraint, data, a region, a model named or ruled out)."""
    alone = read.query(resources.model_names().without_names(text, keep_datasets=True))
    if alone.application or alone.task_type:
        # 'what about crop type mapping instead?': the task changes, its data and constraints stay.
        return bool(_NEW_TASK_INSTEAD.search(text))
    mentions = resources.model_names().find(text)
    if len(mentions.named) > 1 and not alone.filled_fields() and not previous.query.filled_fields():
        # 'CROMA vs Galileo?' after 'tell me about DOFA': models named alone, after models named
        # alone, are a question of their own.
        return False
    # 'something smaller?', and 'which one is the smallest?' of the task just answered
    sized = bool(
        _SMALLER.search(text) or _LARGER.search(text) or size_question(text) or catalogue_superlative(text)
    )
    return bool(alone.filled_fields() or mentions.named or mentions.excluded or sized)


def _changed_text(previous: Turn, message: Message) -> str:
    """The previous task's text with the change appended, less what the change replaces and the
    questions asked of the answer before."""
    text = message.task_text
    before = without_replaced(previous.text, text, message.read).rstrip()
    if message.size_reference is not None:
        # 'a bigger one' after 'something smaller?': the new relative size replaces the old.
        before = " ".join(_LARGER.sub("", _SMALLER.sub("", before)).split())
    if message.labels is not None:
        # 'a few' after 'none': the labels stated last replace those stated before.
        before = " ".join(blank_spans(before, regime_spans(before)).split())
    # 'why not DOFA?' is asked of the answer it follows; a later change leaves it behind.
    before = " ".join(_WHY_NOT_SENTENCE.sub(" ", before).split())
    # So are 'why is RAMEN ranked lower?' and 'compare MAESTRO and AnySat', when they add
    # nothing to the task but the models they ask about.
    before = _without_asked_of_answer(before, message.read)
    if message.asks_size or previous.size_follow_up:
        # 'and the largest?' after 'which one is the smallest?' replaces it; a later change
        # ('why not DOFA?') leaves a size question asked after an answer behind.
        before = without_size_question(before)
    joint = " " if before.endswith((".", "?", "!", ";")) else ". "
    return f"{before}{joint}{text}"


def change_task(session: Session, message: Message) -> Selection:
    """'only open weights', 'something smaller?', 'not DOFA': the task just answered, changed, and
    answered at once (its questions were asked)."""
    previous, answered_before = session._turn, session.last_selection
    assert previous is not None and answered_before is not None
    # A change keeps the number of models asked for before, unless it asks another.
    session._shown = message.count or session._shown
    turn = session._turn = Turn(
        text=_changed_text(previous, message), k=session._shown or session.k, clarify=False
    )
    turn.asked = set(previous.asked)
    turn.statement = previous.statement or previous.text
    # A change that asks no new relative size keeps the one asked before ('something
    # smaller?' then 'only open weights' or 'compare the top two'): its words stay in the text.
    turn.size_reference = message.size_reference or previous.size_reference
    turn.size_follow_up = message.asks_size
    if message.asks_size:
        # 'which of these is the smallest?': asked of the models just shown.
        turn.size_among = tuple(m.model_id for m in answered_before.models)
    selection = session._run()
    selection.follow_up = True
    selection.change = task_change(
        answered_before.query,
        selection.query,
        {**answered_before.model_names, **selection.model_names},
    )
    shown = previous.text if len(previous.text) <= 80 else previous.text[:77].rstrip() + "..."
    selection.assumptions.insert(
        0, f"Read as a change to the previous task ('{shown}'); start a new task to leave it behind"
    )
    if message.reference_note:
        selection.assumptions.insert(1, message.reference_note)
    return selection
