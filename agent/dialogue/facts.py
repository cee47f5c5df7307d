"""Questions about the models shown or named ('is it open source?', 'how big is the second one?',
'why not SAM?'): which models and topics they ask about, and the answer from RS-FMD's records."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent.dialogue.message import FactQuestion, Message
from agent.dialogue.reader import Reader
from agent.mentions import asked_about_name, built_on
from agent.resources import Resources
from agent.selection import Selection
from tools.model_facts import model_fact, results_on

if TYPE_CHECKING:
    from agent.api import Session

_EVALUATED = r"\b(?:evaluated|tested|benchmarked|validated|assessed)"
# Words comparing models by size: 'which is bigger?', 'which of A, B and C is smallest?'
_COMPARATIVES = "bigger|larger|smaller|lighter|heavier"
_SUPERLATIVES = "biggest|largest|heaviest|smallest|lightest"
# Questions about a model shown or named, answered from its record: (topic, pattern).
_FACT_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        # 'tell me about SatCLIP', 'tell me more about the second one': what RS-FMD holds on it
        "profile",
        re.compile(
            r"\btell me (?:a bit |a little |some(?:thing)? |more )*about\b|^\W*describe\b|"
            r"\bmore (?:details|info(?:rmation)?) (?:on|about)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "size",
        re.compile(
            r"\bhow (?:big|large|heavy|small)\b|\bhow many param|\bparameter count\b|"
            r"\bnumber of parameters\b|"
            r"\b(?:what|which)(?:'s| is| are)? (?:the |its |their )?(?:model )?sizes?\b|\bhow many weights\b|"
            # 'which is bigger?', 'which of the two is smaller?'
            rf"\bwhich(?: one| of (?:them|these|those|the two))? is (?:{_COMPARATIVES})\b|"
            # 'which of the first three is smallest?', read as 'which of A, B and C is smallest?'
            rf"\bwhich of [^.?!;]*?\band\b[^.?!;]*? is (?:the )?(?:{_SUPERLATIVES})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "licence",
        re.compile(
            r"\bopen[\s-]?source\b|\blicen[cs]e[ds]?\b|\bcommercial(?:ly)?\b|\bfree to use\b",
            re.IGNORECASE,
        ),
    ),
    (
        "weights",
        re.compile(
            r"\b(?:weights|checkpoints?)\b|\bwhere (?:can|do) (?:i|we) (?:get|download|find)\b|\bdownload",
            re.IGNORECASE,
        ),
    ),
    (
        "pretraining",
        re.compile(
            r"\b(?:pre-?)?trained (?:on|with)\b|\b(?:pre-?)?training data\b|"
            # 'how was it pretrained?'
            r"\bhow (?:was|were|is|are) (?:it|they|this one|that one|[\w.-]+) pre-?trained\b|"
            # ... but 'what datasets was it evaluated on?' asks for its results
            rf"\bwhat (?:data|dataset|imagery)s? (?:was|were|is|did|does)\b(?![^.?!]*{_EVALUATED})",
            re.IGNORECASE,
        ),
    ),
    (
        # 'which one is easiest to use?': judged by what each model has released
        "usability",
        re.compile(
            r"\b(?:easiest|easy|simplest|simple|straightforward|hardest|hard|difficult)\s+(?:one\s+)?to\s+"
            r"(?:use|set\s*up|deploy|run|start\s+with|fine-?tune|get\s+started\s+with|adopt)\b|"
            r"\bready[\s-]to[\s-]use\b|\bout[\s-]of[\s-]the[\s-]box\b|\bplug[\s-]and[\s-]play\b",
            re.IGNORECASE,
        ),
    ),
    (
        # 'what datasets was the top model evaluated on?', 'which benchmarks does it report?'
        "results",
        re.compile(
            rf"{_EVALUATED}\s+(?:on|against|with)\b|\b(?:which|what)\s+(?:benchmarks?|results|scores)\b|"
            r"\b(?:results?|scores?)\s+(?:on|for)\b|"
            r"\bbenchmarks?\s+(?:does|did|do|has|have)\b|\b(?:reported|published)\s+(?:results|scores)\b|"
            r"\bhow\s+(?:well\s+)?(?:does|did|do)\s+(?:it|they|this one|that one|[\w.-]+)\s+"
            r"(?:perform|score)\b",
            re.IGNORECASE,
        ),
    ),
)
QUESTION = re.compile(
    r"\?\s*$|^\W*(?:is|are|does|do|did|has|have|how|what|which|where|can|could|was|were|tell)\b",
    re.IGNORECASE,
)
THESE = re.compile(r"\b(?:these|those|them|they|each|all of them|which ones?|which of)\b", re.IGNORECASE)
_WHICH = re.compile(r"\bwhich\b", re.IGNORECASE)
_COMPARATIVE = re.compile(rf"\bwhich\b[^?]*?\b({_COMPARATIVES}|{_SUPERLATIVES})\b", re.IGNORECASE)
_IT_ALONE = re.compile(r"\b(?:it|its|this one|that one|this model|that model)\b", re.IGNORECASE)


def fact_question(
    text: str,
    selection: Selection | None,
    said_before: str,
    note: str | None,
    read: Reader,
    resources: Resources,
) -> FactQuestion | None:
    """'is it open source?', 'how big is the second one?', 'what was DOFA trained on?' after an
    answer: the topics and models asked about (``note``: how 'the second one' was read). None when
    ``text`` is no such question (or names a task of its own)."""
    topics = [topic for topic, pattern in _FACT_TOPICS if pattern.search(text)]
    shown = selection.models if selection is not None else []
    if not topics or not shown or not QUESTION.search(text):
        return None
    # (read without the model names: 'SARATR-X-v2' names no task)
    query = read.query(resources.model_names().without_names(text))
    on_datasets = query.datasets if topics == ["results"] else []
    # 'was DOFA evaluated on flood mapping?': its results there, not a task to rank it for.
    on_application = query.application if topics == ["results"] and not on_datasets else None
    if (query.application or query.task_type) and not (on_datasets or on_application):
        return None  # 'is it good for flood mapping?': a task to rank it for
    by_id = resources.by_id
    names = resources.model_names()
    # 'the second one, how big?' opens with the name the ordinal stands for, where a capitalised
    # word would otherwise be read as the plain word.
    found = names.find(f"- {text}" if note else text)
    named = [m for m in found.named if m in by_id]
    before = [m for m in names.find(said_before).named if m in by_id] if said_before else []
    if not named and len(before) > 1 and _WHICH.search(text):
        named = before  # 'Prithvi vs TerraMind ...' then 'which is bigger?'
    elif not named and THESE.search(text):
        named = [m.model_id for m in shown if m.model_id in by_id]
    elif not named:
        # 'is it open source?', 'where can I download the weights?': the one model the message
        # before named, or else the first model shown.
        named = before if len(before) == 1 else [shown[0].model_id]
        pronoun = _IT_ALONE.search(text)
        said = f"'{pronoun.group(0)}' read as" if pronoun else "Read as a question about"
        which = "the model named in the message before" if len(before) == 1 else "the first model shown"
        note = f"{said} {by_id[named[0]].model_name}, {which}"
    comparative = _COMPARATIVE.search(text)
    larger = comparative.group(1).lower().startswith(("big", "larg", "heav")) if comparative else None
    return FactQuestion(topics, named, note, on_datasets, on_application, larger if len(named) > 1 else None)


def _largest_or_smallest(question: FactQuestion, resources: Resources) -> str | None:
    """'which is bigger?': the sizes, and which one it is (by its largest variant; by its smallest
    for 'smaller'); None when no model asked about has a size."""
    by_id, larger = resources.by_id, question.larger
    sizes = {
        m: size
        for m in question.named
        if (size := by_id[m].largest_parameters if larger else by_id[m].smallest_parameters)
    }
    if not sizes:
        return None
    best = (max if larger else min)(sizes.values())
    picks = [by_id[m].model_name for m, size in sizes.items() if size == best]
    word = "Largest" if larger else "Smallest"
    each = " each" if len(picks) > 1 else ""
    return f"{word}: {' and '.join(picks)} ({best:g}M{each})"


def model_facts(session: Session, message: Message) -> Selection:
    """'is it open source?', 'how big is the second one?': the same answer, with what RS-FMD holds
    on the models asked about said first."""
    question, previous, by_id = message.facts, session._turn, session.resources.by_id
    assert question is not None and previous is not None
    if question.on_datasets or question.on_application:
        # 'which of these were evaluated on EuroSAT?': the results there, model by model.
        lines = [results_on(by_id[m], question.on_datasets, question.on_application) for m in question.named]
    else:
        lines = [
            model_fact(by_id[m], topic, previous.query) for topic in question.topics for m in question.named
        ]
    if "usability" in question.topics:
        lines.insert(0, "RS-FMD has no measure of ease of use, so here is what each model has released")
    if question.larger is not None and (sized := _largest_or_smallest(question, session.resources)):
        lines.insert(0, sized)
    answer = "; ".join(lines) if len(lines) > 1 else lines[0]
    selection = session._same_task(previous, answer)
    # The answer to this question is the fact asked for; the task's own answers stay in the notes.
    selection.answers = [answer]
    if question.note:
        selection.assumptions.insert(1, question.note)
    return selection


def unknown_model(text: str, read: Reader, resources: Resources) -> str | None:
    """The name in 'why not SAM?' when it is neither a model in RS-FMD nor anything else a task
    can take (a sensor, a region, ...)."""
    name = asked_about_name(text)
    if name is None:
        return None
    mentions = resources.model_names().find(text)
    if mentions.named or mentions.excluded or read.filled(text):
        return None
    return name


def _unknown_model_note(session: Session, name: str) -> str:
    """Says that ``name`` is not in RS-FMD and which models of the ranking are built on it."""
    assert session._turn is not None
    note = f"'{name}' is not a model in RS-FMD, so it was not ranked; the same task as before"
    relatives = {r.model_id for r in built_on(session.resources.records, name)}
    if not relatives:
        return note
    ranked = [
        f"{c.record.model_name} (rank {i + 1})"
        for i, c in enumerate(session._turn.ranked)
        if c.record.model_id in relatives
    ]
    if ranked:
        shown = ", ".join(ranked[:5]) + (f" and {len(ranked) - 5} more" if len(ranked) > 5 else "")
        return f"{note}. Models in this ranking whose backbone or name mentions {name}: {shown}"
    return (
        f"{note}. {len(relatives)} models in RS-FMD have {name} in their backbone or name; "
        "none of them fits this task"
    )


def not_in_rsfmd(session: Session, message: Message) -> Selection:
    """'why not SAM?': no record to rank; the same task, and the models built on it."""
    assert session._turn is not None and message.unknown_model is not None
    selection = session._same_task(session._turn)
    note = _unknown_model_note(session, message.unknown_model)
    selection.assumptions.insert(0, note)
    selection.answers.insert(0, note)
    return selection
