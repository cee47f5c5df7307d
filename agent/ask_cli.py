"""`remsa ask` (one question) and `remsa chat` (terminal conversation)."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from agent.errors import RemsaError
from agent.selection import Selection, Status
from agent.settings import Settings

# `remsa ask --json` exits with this code when the text holds nothing to read as a task.
NOT_UNDERSTOOD_EXIT = 3
# In `remsa chat`: 'accept region' or 'accept region, ratings' applies suggestions of earlier tasks.
_ACCEPT = re.compile(r"accept\s+([\w.]+(?:\s*,\s*[\w.]+)*)", re.IGNORECASE)


def register(subparsers: Any) -> None:
    """Add the `ask` and `chat` commands."""
    ask = subparsers.add_parser("ask", help="Recommend foundation models for a task described in words.")
    ask.add_argument("query", help='e.g. "flood mapping with Sentinel-1, few labels, CPU laptop"')
    ask.add_argument(
        "--k", type=_positive_int, default=None, help="How many models (default: REMSA_TOP_K or 3)."
    )
    ask.add_argument("--json", action="store_true", help="Print one JSON object (the Selection).")
    ask.add_argument("--no-clarify", action="store_true", help="Never ask back; answer with assumptions.")
    ask.add_argument(
        "--show-code",
        action="store_true",
        help="Print the code that loads each model under it, with its source.",
    )
    ask.add_argument(
        "--user", help="Read and write this user's task memory (default: REMSA_USER_ID; unset: no memory)."
    )
    ask.add_argument("--no-memory", action="store_true", help="No task memory, even with REMSA_USER_ID.")
    ask.add_argument(
        "--accept",
        metavar="IDS",
        default="",
        help="Apply these suggestions of your earlier tasks (comma-separated ids, e.g. region,ratings; "
        "'all' for every one offered). Without it they are listed, never applied.",
    )
    ask.set_defaults(handler=_ask)

    chat = subparsers.add_parser("chat", help="Multi-turn conversation in the terminal.")
    chat.add_argument("--k", type=_positive_int, default=None, help="How many models per answer.")
    chat.add_argument("--user", help="Read and write this user's task memory (default: REMSA_USER_ID).")
    chat.add_argument("--no-memory", action="store_true", help="No task memory, even with REMSA_USER_ID.")
    chat.set_defaults(handler=_chat)

    index = subparsers.add_parser("index", help="Build the retrieval index (record embeddings) now.")
    index.add_argument("--out", help="Also write the embeddings (.npy) and ids (.json) under this stem.")
    index.add_argument(
        "--package",
        action="store_true",
        help="Write the record vectors and the capabilities fit into the package (rsfmd/data/derived), "
        "so that a fresh install answers at once.",
    )
    index.set_defaults(handler=_index)


def _settings(args: argparse.Namespace) -> Settings:
    settings = Settings()
    updates: dict[str, Any] = {}
    if args.user:
        updates["user_id"] = args.user
    if args.no_memory:
        updates["user_id"] = None
    if args.k is not None:
        updates["top_k"] = args.k
    return settings.model_copy(update=updates) if updates else settings


def _positive_int(value: str) -> int:
    """``--k``: a whole number of models, at least 1."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a whole number; give how many models, e.g. 3"
        ) from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} models: give at least 1, e.g. --k 3")
    return number


def _ask(args: argparse.Namespace) -> int:
    from agent.api import Session

    try:
        settings = _settings(args)
        session = Session(settings, clarify=not args.no_clarify)
        selection = session.ask(args.query)
        accept = _accepted_ids(args.accept, selection)
        if accept:
            selection = session.accept(*accept)
    except (RemsaError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(selection.model_dump_json(indent=2))
    else:
        print(render_text(selection, show_code=args.show_code))
        if selection.status == Status.needs_clarification:
            print(
                "\nAdd these details to your query and ask again, answer them one by one in "
                "`remsa chat`, or add --no-clarify for an answer built on stated assumptions."
            )
    return NOT_UNDERSTOOD_EXIT if selection.status == Status.not_understood else 0


def _accepted_ids(option: str, selection: Selection) -> list[str]:
    """The suggestion ids ``--accept`` names ('all': every one offered)."""
    ids = [i.strip() for i in option.split(",") if i.strip()]
    if ids == ["all"]:
        return [s.id for s in selection.suggestions]
    return ids


def render_text(selection: Selection, show_code: bool = False) -> str:
    """Terminal rendering of a Selection; ``show_code`` prints the code that loads each model."""
    lines: list[str] = []
    if selection.status == Status.not_understood:
        return "\n".join(selection.assumptions)
    if selection.status == Status.needs_clarification:
        understood = selection.understood()
        if understood:
            lines.append(f"Understood: {'; '.join(understood)}")
        lines.extend(f"Noted: {note}" for note in selection.assumptions)
        lines.append("I need a little more to go on:")
        for q in selection.questions:
            options = f"  [{' / '.join(q.options)}]" if q.options else ""
            lines.append(f"  - {q.text}{options}")
        return "\n".join(lines)
    lines.append(selection.to_markdown(show_code=show_code).rstrip())
    lines.append(f"(engine: {selection.engine}; overall confidence {selection.overall_confidence:.2f})")
    lines.extend(_memory_lines(selection))
    return "\n".join(lines)


def _memory_lines(selection: Selection) -> list[str]:
    """Earlier tasks and their suggestions, under their own heading; never applied unasked."""
    lines: list[str] = []
    if selection.similar_tasks:
        lines.append("\nFrom your earlier tasks:")
        lines.extend(f"  - {t.query_text!r} (similarity {t.similarity:.2f})" for t in selection.similar_tasks)
    offered = [s for s in selection.suggestions if not s.accepted]
    if offered:
        lines.append("Suggested by them (not applied; add --accept ID, or 'accept ID' in the chat):")
        lines.extend(f"  - {s.id}: {s.label} ({s.reason})" for s in offered)
    return lines


def _index(args: argparse.Namespace) -> int:
    import json as json_module
    import time
    from pathlib import Path

    import numpy as np

    from agent.resources import get_resources

    start = time.perf_counter()
    resources = get_resources(Settings())
    resources.retrieval.ensure_built()
    vectors = resources.retrieval.vectors()
    encoded = resources.retrieval.encoded
    source = "all from cache" if not encoded else f"{encoded} encoded, the rest from cache"
    print(
        f"{len(resources.records)} records, {vectors.shape[1]}-d ({source}) in "
        f"{time.perf_counter() - start:.1f} s "
        f"(database {resources.database_version[:12]})"
    )
    if args.package:
        for written in _package_derived(resources):
            print(f"wrote {written}")
    if args.out:
        stem = Path(args.out)
        stem.parent.mkdir(parents=True, exist_ok=True)
        np.save(stem.with_suffix(".npy"), vectors)
        ids = [r.model_id for r in resources.records]
        stem.with_suffix(".json").write_text(
            json_module.dumps({"database": resources.database_version, "ids": ids})
        )
    return 0


def _package_derived(resources: Any) -> list[str]:
    """Replace the shipped record and precedent vectors and the capabilities fit with those of the
    current database and realistic set."""
    from rsfmd.loader import derived_dir

    vectors = resources.retrieval.write_shipped()
    precedents = resources.precedents().write_shipped()
    for stale in derived_dir().glob("fit-*.npz"):
        stale.unlink()
    predictor = resources.capabilities(Settings())
    fit = derived_dir() / f"fit-{predictor.key[:20]}.npz"
    predictor.save(fit)
    return [str(vectors), str(precedents), str(fit)]


def _chat(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markdown import Markdown

    from agent.api import Session
    from agent.chat_render import chat_markdown

    settings = _settings(args)
    session = Session(settings)
    console = Console(highlight=False)
    print(
        "Describe your remote-sensing task (empty line, 'quit' or Ctrl-D to quit; 'new' starts a new task;\n"
        "after an answer, 'only open weights' or 'what about Bangladesh?' changes the task just answered)."
    )
    while True:
        try:
            text = input("> ").strip()
        except EOFError:
            break
        if not text or text.lower() in {"quit", "exit", "q", ":q"}:
            break
        if text.lower() == "new":
            session = Session(settings)
            continue
        before = session.last_selection
        try:
            accept = _ACCEPT.fullmatch(text)
            if accept and before is not None:
                selection = session.accept(*_accepted_ids(accept.group(1), before))
            else:
                selection = session.ask(text)
        except (RemsaError, ValueError) as exc:
            print(f"error: {exc}")
            continue
        console.print(Markdown(chat_markdown(selection, before)))
        if not selection.follow_up:
            console.print("\n".join(_memory_lines(selection)), markup=False)
    return 0
