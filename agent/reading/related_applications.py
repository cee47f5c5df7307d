"""Applications of the table related to one read: the domain's application for the task said apart
('land cover' classified by patch), the same application with another task noun, the vision-language
form of a task done from text prompts, and a change told in text.
"""

from __future__ import annotations

import re

from rsfmd.vocab import application_domain, get_vocabulary

_TASK_WORDS = re.compile(
    r"\b(?:mapp?(?:ing|s)?|segment\w*|classif\w*|detect\w*|estimat\w*|monitor\w*|extract\w*|"
    r"recogni\w*|count\w*|retriev\w*|caption\w*)\b"
)


def sibling_application(
    application: str, task_type: str, found: tuple[str, int, int], text: str
) -> str | None:
    """The one application of ``application``'s domain for ``task_type``, when the text named the
    domain without a task word ('land cover', not 'land cover mapping'). An application that is a
    task in its own right ('visual grounding', 'change detection') has no sibling: its masks or
    boxes are its own output."""
    table = get_vocabulary("applications")
    if _TASK_WORDS.search(text[found[1] : found[2]]) or table.column(application, "task_type") == application:
        return None
    domain = table.column(application, "domain")
    # The sibling carries the words named ('land cover' in 'land cover classification'); 'floods'
    # said beside change detection is no other disaster application.
    named = text[found[1] : found[2]].lower().replace("-", " ").split()[0].rstrip("s")
    siblings = [
        name
        for name in table.names
        if name != application
        and table.column(name, "domain") == domain
        and table.column(name, "task_type") == task_type
        and named in name
    ]
    return siblings[0] if len(siblings) == 1 else None


def same_with_task(application: str | None, task_type: str) -> str | None:
    """The application of the same name with the other task's noun ('open-vocabulary detection' ->
    'open-vocabulary segmentation'), when the table has it."""
    table = get_vocabulary("applications")
    if not application:
        return None
    noun = table.column(application, "task_type")
    if not application.endswith(" " + noun):
        return None
    other = application[: -len(noun)] + task_type
    return other if table.get(other) is not None and table.column(other, "task_type") == task_type else None


def prompted_with_text(application: str | None, task_type: str | None) -> str | None:
    """The vision-language application of ``task_type`` ('open-vocabulary segmentation'), for an
    application done with no labels from text prompts ('segments icebergs out of the box, from a
    text prompt')."""
    table = get_vocabulary("applications")
    if task_type is None or application is None or application_domain(application) == "vision-language":
        return None
    found = [
        name
        for name in table.names
        if application_domain(name) == "vision-language" and table.column(name, "task_type") == task_type
    ]
    return found[0] if len(found) == 1 else None


def told_in_text(application: str | None, modalities: list[str]) -> tuple[str, str] | None:
    """The vision-language application that tells a change in words ('change captioning') and its
    task type, for change detection (or no task named) whose answer is text about image pairs."""
    table = get_vocabulary("applications")
    # (a change of one kind told in text, 'building damage', stays that application)
    if application not in {None, "change detection"}:
        return None
    if not {"Text", "Multi-temporal"} <= set(modalities):
        return None
    found = [
        name
        for name in table.names
        if application_domain(name) == "vision-language"
        and {"Text", "Multi-temporal"} <= set(table.column(name, "typical_modalities").split("|"))
    ]
    return (found[0], table.column(found[0], "task_type")) if len(found) == 1 else None
