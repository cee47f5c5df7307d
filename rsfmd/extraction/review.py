"""Terminal walk-through of a draft's flagged fields only: accept, choose a candidate, or edit."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rsfmd.extraction.draft import REQUIRED_FIELDS, Draft, DraftError, ReviewItem, set_field, to_json

PROMPT = "  [a]ccept current, [1-{n}] choose a candidate, [e]dit, [s]kip, [q]uit > "


def parse_edit(text: str) -> Any:
    """A reviewer's typed value: JSON when it parses, else the plain text; empty means 'leave out'."""
    text = text.strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def describe_item(item: ReviewItem, index: int, total: int) -> list[str]:
    """Lines showing a flagged field, its candidates and the passages behind them."""
    lines = [
        f"[{index}/{total}] {item.field}: confidence {item.confidence:.2f} ({item.reason})",
        f"  current: {to_json(item.value)}",
    ]
    for number, candidate in enumerate(item.candidates, start=1):
        shown = "(left out)" if candidate.value is None else to_json(candidate.value)
        lines.append(f"  {number}. {shown[:300]}  [{candidate.runs} run(s)]")
        lines.extend(f"       {s.source}: {s.text}" for s in candidate.snippets)
    return lines


def _decide(draft: Draft, item: ReviewItem, answer: str, ask: Callable[[str], str]) -> str | None:
    """Apply one answer; an error message to show, or None when the item is decided."""
    if answer == "a":
        if item.value is None and item.field in REQUIRED_FIELDS:
            return f"{item.field} is required: choose a candidate or edit"
        set_field(draft, item.field, item.value, "accepted")
        return None
    if answer.isdigit() and 1 <= int(answer) <= len(item.candidates):
        value = item.candidates[int(answer) - 1].value
        if value is None and item.field in REQUIRED_FIELDS:
            return f"{item.field} is required: choose a value"
        set_field(draft, item.field, value, "chosen")
        return None
    if answer == "e":
        value = parse_edit(ask(f"  new {item.field} (JSON or plain text; empty leaves it out) > "))
        if value is None and item.field in REQUIRED_FIELDS:
            return f"{item.field} is required"
        try:
            set_field(draft, item.field, value, "edited")
        except DraftError as exc:
            return f"not accepted: {exc}"
        return None
    return "answer a, a candidate number, e, s or q"


def review_draft(
    draft: Draft, *, ask: Callable[[str], str] | None = None, say: Callable[[str], None] | None = None
) -> int:
    """Walk through the unresolved flagged fields; returns how many were decided (draft updated in place)."""
    ask = ask or input
    say = say or print
    items = draft.unresolved()
    if not items:
        say("No flagged fields left to review.")
        return 0
    decided = 0
    for index, item in enumerate(items, start=1):
        for line in describe_item(item, index, len(items)):
            say(line)
        while True:
            try:
                answer = ask(PROMPT.format(n=len(item.candidates))).strip().lower()
            except EOFError:
                return decided
            if answer == "q":
                return decided
            if answer == "s":
                break
            error = _decide(draft, item, answer, ask)
            if error is None:
                decided += 1
                say(f"  -> {item.field} = {to_json(draft.record.get(item.field))} ({item.status})")
                break
            say(f"  {error}")
    return decided
