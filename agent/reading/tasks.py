"""What the task is: its application (named, by its verb, mended from a slip, or read from a
benchmark named) and its task type (the application's, or one the text says apart: 'segment',
'classify patches', 'multi-label'); a model to chat with is visual question answering.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from agent.query import Exclusions
from agent.reading.imagery import add_usual_imagery
from agent.reading.licences import licence_spans
from agent.reading.preferences import in_question, wished, words_before
from agent.reading.related_applications import same_with_task, sibling_application
from agent.reading.slips import find_terms_fuzzy
from agent.reading.tables import cue_pattern
from agent.reading.task_forms import is_closest_for, with_other_task_noun
from agent.reading.terms import TermSpan, blank_spans, find_terms
from agent.wording import query_language, read_slips
from rsfmd.vocab import TEXT_ANSWER_TASKS, get_vocabulary

# '(visual grounding)', 'i.e. visual grounding', 'known as change detection': the task's name.
# 'our Sentinel-2 field parcels': words after a possessive describe the user's data, not the task.
_OWN_DATA = re.compile(r"\b(?:our|my)\s+(?:[\w-]+\s+){0,2}$")
# 'one that takes the night lights directly', 'pretrained on night lights': an input, not the task.
_AS_INPUT = re.compile(
    r"\b(?:takes?|taking|ingests?|accepts?|reads?|(?:pre-?)?trained\s+on)\s+(?:the\s+|our\s+|my\s+)?(?:[\w-]+\s+){0,2}$"
)
_NAMING = re.compile(r"(?:\(|\bi\.?e\.?,?|\bnamely|\bcalled|\bknown as|\bso-called)\s*$")

# Masks asked for as the output: 'segment solar farms', 'a binary mask', 'two-class masks'.
_ASKS_MASKS = re.compile(
    r"\bsegment(?:s|ing|ed)?\b|\b(?:binary|two[\s-]class|pixel[\s-]wise|per[\s-]pixel|plain)\s+masks?\b"
    r"|\b(?:get|gives?|returns?|outputs?|produces?|predicts?)\s+(?:back\s+)?(?:[\w-]+\s+){0,2}?masks?\s+(?:out|back)\b"
)


# A label for each pixel ('per-pixel classes', 'pixel-wise'), not for each patch ('64x64-pixel chips').
_PER_PIXEL = re.compile(
    r"\b(?:each|every|per)[\s-]pixel\b|\bpixel[\s-]?(?:wise|level|by[\s-]pixel|classification)\b"
    r"|\blabell?ed pixels\b|\bpixels (?:per|of each) class\b"
)
# A ground size per pixel is the resolution, not a per-pixel output: '25 cm per pixel', 'a few
# centimetres per pixel'.
_GROUND_PER_PIXEL = re.compile(
    r"(?:\d\s*|\bfew\s+|\bone\s+|\bhalf\s+a\s+)"
    r"(?:cm|mm|m|km|(?:centi|milli|kilo)?met(?:re|er)s?)\s+(?:per|a|each)\s+pixel\b"
)


@cache
def _classify_whole() -> re.Pattern[str]:
    """A label given to each patch, tile or scene as a whole ('classify patches', 'score each tile')."""
    return cue_pattern("whole_image", "classification")


def whole_image_task(task_text: str) -> list[TermSpan]:
    """Classification as the task, when the text gives each patch or tile one label and names no
    per-pixel output; no task otherwise."""
    if (found := _classify_whole().search(task_text)) and not _PER_PIXEL.search(
        _GROUND_PER_PIXEL.sub(" ", task_text)
    ):
        return [("classification", *found.span())]
    return []


@dataclass
class TaskReading:
    """The task's application and type, and the texts they are read from."""

    application: str | None
    apps: list[TermSpan]
    """The applications named, the one read first."""
    task_text: str
    """The lower-cased text, its slips mended when that names a task."""
    similar_text: str
    """The text an application is guessed from by similarity (licence wishes blanked)."""
    language: str | None
    """Set when the text reads as another language than English."""
    task_type: str | None = None

    def domains(self) -> list[str]:
        """The application's domain ('agriculture'), as the query's domain keywords."""
        table = get_vocabulary("applications")
        domain = table.column(self.application, "domain") if self.application else ""
        return [domain] if domain else []


def _wanted(text: str, at: int) -> bool:
    """Whether a want ('I want', 'what we need is', ``cues.csv`` field ``task_lead``) leads, in the
    same sentence, up to the words at ``at``."""
    return bool(cue_pattern("task_lead", "want").search(words_before(text, at, 30, ends=r"[.;:!?]")))


def _called_first(apps: list[TermSpan], task_text: str) -> list[TermSpan]:
    """``apps`` with an application the task names as what it describes first."""
    table = get_vocabulary("applications")
    scene = cue_pattern("scene_lead", "place")
    if len(apps) > 1 and scene.search(words_before(task_text, apps[0][1], 60, ends=r"[.;:!?]")):
        # 'we fly a drone over farmland to detect people and livestock': the land the imagery lies
        # over is the scene; an application said elsewhere is the task.
        said = [
            a
            for a in apps[1:]
            if a[0] != apps[0][0] and not scene.search(words_before(task_text, a[1], 60, ends=r"[.;:!?]"))
        ]
        if said:
            apps = [said[0], *(a for a in apps if a is not said[0])]
    if len(apps) > 1 and table.get(task_text[apps[0][1] : apps[0][2]]) is None:
        # 'locate objects described in text (visual grounding)': an application the task names
        # as the name of what it describes outweighs one read from a verb ('locate objects').
        called = [
            a
            for a in apps[1:]
            if a[0] != apps[0][0]
            and table.get(task_text[a[1] : a[2]])
            and _NAMING.search(task_text[max(0, a[1] - 12) : a[1]])
        ]
        if called:
            apps = [called[0], *(a for a in apps if a is not called[0])]
    if len(apps) > 1 and table.column(apps[0][0], "domain") != "vision-language":
        # 'a map of buildings, roads and water from a list of class names': a vision-language
        # application of the same task type says how the task is done, from text.
        # Answers in words ('ask the images questions: is this road flooded?') are the task whatever
        # they are about: the other application is the subject of the questions.
        kind = table.column(apps[0][0], "task_type")
        how = [
            a
            for a in apps[1:]
            if table.column(a[0], "domain") == "vision-language"
            and table.column(a[0], "task_type") in {kind, *TEXT_ANSWER_TASKS}
        ]
        if how:
            apps = [how[0], *(a for a in apps if a is not how[0])]
    if len(apps) > 1 and table.column(apps[0][0], "task_type") != "retrieval":
        # 'click a solar farm and get every visually similar tile back': images found by their
        # likeness are the task whatever they show.
        found = [
            a
            for a in apps[1:]
            if table.column(a[0], "task_type") == "retrieval"
            and table.column(a[0], "domain") != "vision-language"  # (found from text: how it is done)
        ]
        if found:
            apps = [found[0], *(a for a in apps if a is not found[0])]
    if len(apps) > 1 and not in_question(task_text, apps[0][1]):
        # 'I need footprints plus damage grades ... Which backbones are strongest on building
        # change?': the application the question asks about is the task.
        asked = [
            a
            for a in apps[1:]
            if a[0] != apps[0][0]
            and in_question(task_text, a[1])
            and not _AS_INPUT.search(task_text[max(0, a[1] - 30) : a[1]])
        ]
        # (unless the question names the first one again: 'describe ... land-use changes in text')
        again = any(a[0] == apps[0][0] and in_question(task_text, a[1]) for a in apps[1:])
        if asked and not again:
            apps = [asked[0], *(a for a in apps if a is not asked[0])]
    if len(apps) > 1 and not _wanted(task_text, apps[0][1]) and not in_question(task_text, apps[0][1]):
        # 'I do solar nowcasting with SEVIRI ... I want per-pixel cloud masks': the application the
        # user says they want is the task, not one named as their line of work.
        wanted = [a for a in apps[1:] if a[0] != apps[0][0] and _wanted(task_text, a[1])]
        if wanted:
            apps = [wanted[0], *(a for a in apps if a is not wanted[0])]
    if (
        len(apps) > 1
        and table.column(apps[0][0], "domain") != "vision-language"
        and _OWN_DATA.search(task_text[max(0, apps[0][1] - 40) : apps[0][1]])
    ):
        # 'I tried SatMAE on our field parcels; what could work for crop type mapping?': an
        # application said of the user's data gives way to one said as the task (how the task is
        # done, from text, is said of no data: 'point it at my orthophotos with a class list').
        tasks = [a for a in apps if not _OWN_DATA.search(task_text[max(0, a[1] - 40) : a[1]])]
        apps = [*tasks, *(a for a in apps if a not in tasks)]
    return apps


_LIST_LINK = re.compile(r"^\s*(?:,|,?\s+and|,?\s+or|/|;)\s*(?:then\s+)?$")


def _listed_applications(apps: list[TermSpan], text: str) -> list[str]:
    """Three or more different applications named one after another as a list ('cloud-gap filling,
    crop mapping and flood segmentation'): a backbone for several tasks, not one."""
    ordered = sorted(apps, key=lambda a: a[1])
    run: list[TermSpan] = ordered[:1]
    for app in ordered[1:]:
        if _LIST_LINK.match(text[run[-1][2] : app[1]]):
            run.append(app)
        elif len({a[0] for a in run}) < 3:
            run = [app]
    names = list(dict.fromkeys(a[0] for a in run))
    return names if len(names) >= 3 else []


def _qualifies(first: TermSpan, second: TermSpan, lowered: str) -> bool:
    """Whether ``first`` is written right before ``second``, a noun phrase (not 'in plain words')."""
    return (
        second[1] > first[2]
        and not lowered[first[2] : second[1]].strip(" -")
        and lowered[second[1] : second[2]].split()[0] not in _FUNCTION_WORDS
    )


_FUNCTION_WORDS = frozenset({"in", "on", "of", "for", "with", "from", "to", "by", "at", "as", "into"})


def name_application(text: str, lowered: str, apps: list[TermSpan], notes: list[str]) -> TaskReading:
    """The application the task names (``apps``: those found in ``lowered``), or one mended from a
    slip; ``notes`` says how it was read."""
    # 'the nightlights-transfer approach to poverty mapping', 'a cloud-free composite': an
    # application joined by a hyphen to such a word describes something else.
    modifier = cue_pattern("app_modifier", "description")
    apps = [a for a in apps if not modifier.match(lowered, a[2])]
    # 'marsh deer', 'forest fire detection': of two applications named back to back, the first
    # qualifies the second, which is what the words name.
    apps = [a for a in apps if not any(_qualifies(a, b, lowered) for b in apps)]
    language = None if apps else query_language(text)
    task_text, similar_text = lowered, text
    if len(text) == len(lowered):
        # Licence and weights wishes say nothing of the application: 'an open-source model for
        # semantic segmentation' is not open-vocabulary segmentation.
        similar_text = blank_spans(text, licence_spans(lowered))
    mended: list[tuple[str, str]] = []
    if not apps and language is None:
        mended_text, mended = read_slips(lowered)
        if mended and (find_terms(mended_text, "applications") or find_terms(mended_text, "task_types")):
            task_text = similar_text = mended_text
            apps = find_terms(mended_text, "applications")
        else:
            mended = []
    apps = _called_first(apps, task_text)
    application = apps[0][0] if apps else None
    if listed := _listed_applications(apps, task_text):
        # An application named apart from the list ('... where I type the class names') stays the task.
        apps = [a for a in apps if a[0] not in listed]
        application = apps[0][0] if apps else None
        if application is None:
            listing = ", ".join(listed)
            notes.append(f"several applications listed ({listing}): read as a general-purpose backbone")
    if apps and is_closest_for(application, task_text[apps[0][1] : apps[0][2]]):
        notes.append(
            f"'{task_text[apps[0][1] : apps[0][2]]}' has no application of its own in RS-FMD: "
            f"read as the closest one, '{application}'"
        )
    if application is None and (slips := find_terms_fuzzy(lowered, "applications")):
        application, phrase = slips[0]
        notes.append(f"read '{phrase}' as '{application}'")
        mended = [(written, read) for written, read in mended if written not in phrase]
    notes.extend(f"read '{written}' as '{read}'" for written, read in mended)
    return TaskReading(application, apps, task_text, similar_text, language)


def read_task_type(
    task: TaskReading,
    task_terms: list[TermSpan],
    lowered: str,
    modalities: list[str],
    exclusions: Exclusions,
    notes: list[str],
) -> None:
    """Sets the task's type (and a sibling application a task said apart asks for); adds the
    application's usual imagery to ``modalities`` when the imagery named has no kind."""
    application, apps, task_text = task.application, task.apps, task.task_text
    task_type = None
    if application:
        task_type = get_vocabulary("applications").column(application, "task_type")
        add_usual_imagery(application, task_type, lowered, modalities, exclusions, notes)
    # A task named inside the application's own name ('image classification' in 'hyperspectral
    # image classification', a per-pixel task) is the application's, not a task of its own.
    # Named with another task noun ('ship segmentation'), the noun written is the task.
    app_spans = [(a, b) for app, a, b in apps if app == application]
    # So is a task in a phrase the application stands in for ('detect individual trees': forest
    # mapping, for want of an application of its own, by detection).
    swapped = [
        (a, b)
        for a, b in app_spans
        if with_other_task_noun(application or "", lowered[a:b]) or is_closest_for(application, lowered[a:b])
    ]
    explicit_tasks = [
        t
        for t, s, e in task_terms
        if any(a <= s and e <= b for a, b in swapped)
        or ((e - s > 12 or not application) and not any(a <= s and e <= b for a, b in app_spans))
    ]
    if not explicit_tasks and whole_image_task(task_text):
        # 'classify Sentinel-2 patches into land cover classes': one label per patch.
        explicit_tasks = ["classification"]
    if explicit_tasks and explicit_tasks[0] != task_type:
        task_type = explicit_tasks[0]
        if (
            application
            and apps
            and (sibling := sibling_application(application, task_type, apps[0], task_text))
        ):
            # 'classification of patches into land cover classes': the domain named bare, with the
            # task said apart, is the domain's application for that task.
            notes.append(f"'{task_text[apps[0][1] : apps[0][2]]}' with {task_type} read as '{sibling}'")
            application = sibling
    if task_type in {"detection", "classification"} and _ASKS_MASKS.search(task_text):
        # 'segment solar farms', 'a plain two-class mask': the user wants masks, whatever the
        # application's usual output.
        task_type = "segmentation"
        # ('class names as text ... get masks out': open-vocabulary segmentation, not detection)
        application = same_with_task(application, "segmentation") or application
    if application == "image-text retrieval" and cue_pattern("located", "box_or_mask").search(task_text):
        # 'type a description ... and get the exact object back as a box': the object located in the
        # image, not images found in an archive.
        application, task_type = "visual grounding", "visual grounding"
    if (
        application is None
        and task_type is None
        and re.search(
            r"pixel[\s-]level|per[\s-]pixel|\bsegment(?:s|ing|ed)?\b", _GROUND_PER_PIXEL.sub(" ", lowered)
        )
    ):
        task_type = "segmentation"
    if re.search(r"multi[\s-]?label", lowered) and task_type == "classification":
        task_type = "multi-label classification"
    task.application, task.task_type = application, task_type


def read_chat(lowered: str, task: TaskReading, notes: list[str]) -> bool:
    """Whether the task wants a model to talk with; with no task named, that is visual question
    answering."""
    conversational = wished(lowered, "conversational")
    if conversational and task.application is None and task.task_type is None:
        task.application, task.task_type = "visual question answering", "vqa"
        notes.append(
            "a model to chat with read as visual question answering, by a model that writes free text"
        )
    return conversational
