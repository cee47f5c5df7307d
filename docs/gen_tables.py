"""Write the documentation's generated pages from what they describe: every setting (from the
settings tree), every reading trigger (from agent/reading/context.csv), every intent of a
message and its handler (from agent/dialogue) and the front page (from the README). ``--check``
fails when a committed page is out of date.

Run: ``python docs/gen_tables.py [--check]``.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from pydantic import BaseModel

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent


def _settings_rows(model: type[BaseModel], prefix: str) -> list[tuple[str, str, str]]:
    rows = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            rows += _settings_rows(annotation, f"{prefix}{name.upper()}__")
            continue
        default = field.get_default(call_default_factory=False)
        shown = "-" if default is None else ("(per user)" if callable(default) else f"`{default}`")
        if field.default_factory is not None:
            shown = "(computed)"
        rows.append((f"`{prefix}{name.upper()}`", shown, (field.description or "").replace("|", "/")))
    return rows


def settings_table() -> str:
    """Markdown table of every setting and its environment variable."""
    from agent.settings import Settings

    lines = [
        "# Every setting",
        "",
        "Generated from `agent/settings.py` by `docs/gen_tables.py`; each is read from the environment.",
        "",
        "| variable | default | meaning |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {v} | {d} | {m} |" for v, d, m in _settings_rows(Settings, "REMSA_")]
    return "\n".join(lines) + "\n"


def triggers_table() -> str:
    """Markdown tables of the reading triggers, terminators and pseudo-triggers."""
    rows = list(
        csv.DictReader((ROOT / "agent" / "reading" / "context.csv").read_text(encoding="utf-8").splitlines())
    )
    lines = [
        "# Reading triggers",
        "",
        "Generated from `agent/reading/context.csv` by `docs/gen_tables.py`. A trigger gives the words in",
        "its scope (after it for `forward`, the same without its own words for `after`, before it for",
        "`backward`; to the end of the clause or the sentence) a role other than the user's own",
        "requirement; a terminator ends a scope (one with a role ends only forward scopes of that",
        "role); a resume phrase opens its role again after such an early end; a continuation carries",
        "a clause scope over a comma into a relative clause; a pseudo-trigger blocks a trigger that",
        "would match inside it. Add a row to add a phrasing. In a phrase, `*` stands for up to four",
        "words and `<class>` for any phrase of that class of",
        "`agent/reading/word_classes.csv` (listed at the end). Two roles keep part of their scope:",
        "`output` (what the model should produce) sets aside only the data named in it, and",
        "`current` (what the user runs today) keeps the task and data named in it.",
        "",
        "| phrase | role | direction | scope | example |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if row["kind"] == "trigger":
            cells = [f"`{row['phrase']}`", *(row[k] for k in ("role", "direction", "scope", "example"))]
            lines.append("| " + " | ".join(cells) + " |")
    for kind, title in (
        ("terminator", "Terminators"),
        ("resume", "Resume phrases"),
        ("continuation", "Continuations"),
        ("pseudo", "Pseudo-triggers"),
    ):
        phrases = ", ".join(
            f"`{r['phrase']}`"
            + (f" ({r['role']} only)" if kind == "terminator" and r["role"] else "")
            + (f" ({r['role']})" if kind == "resume" else "")
            for r in rows
            if r["kind"] == kind
        )
        lines += ["", f"**{title}:** {phrases}"]
    classes = csv.DictReader(
        (ROOT / "agent" / "reading" / "word_classes.csv").read_text(encoding="utf-8").splitlines()
    )
    lines += ["", "## Word classes", "", "| class | phrases | example |", "| --- | --- | --- |"]
    for row in classes:
        lines.append(f"| `<{row['class']}>` | {row['phrases'].replace('|', ', ')} | {row['example']} |")
    return "\n".join(lines) + "\n"


def intents_table() -> str:
    """Markdown table of the intents a message can have, an example of each, and its handler."""
    from agent.dialogue.handlers import HANDLERS
    from agent.dialogue.message import EXAMPLES, WHILE_PENDING

    lines = [
        "# Intents and their handlers",
        "",
        "Generated from the dispatch table in `agent/dialogue/handlers.py` by `docs/gen_tables.py`.",
        "The intent of a message is decided once (`agent/dialogue/intent.py`); its handler answers it.",
        "The first intents apply while clarification questions wait for an answer, the others after one.",
        "",
        "| intent | example | handler | what it does |",
        "| --- | --- | --- | --- |",
    ]
    ordered = sorted(HANDLERS, key=lambda intent: intent not in WHILE_PENDING)
    for intent in ordered:
        handler = HANDLERS[intent]
        doc = " ".join((handler.__doc__ or "").split("\n\n")[0].split()).replace("|", "/")
        where = f"`{handler.__module__.removeprefix('agent.dialogue.')}.{handler.__name__}`"
        lines.append(f"| `{intent.value}` | {EXAMPLES[intent]} | {where} | {doc} |")
    return "\n".join(lines) + "\n"


def index_page() -> str:
    """The site's front page: the README, with its links made relative to docs/."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = text.replace("](docs/img/", "](img/").replace("](docs/", "](")
    return text.replace("(`rsfmd/CURATION.md`)", "([RS-FMD](rsfmd.md))")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Fail if a committed table is out of date.")
    args = parser.parse_args(argv)
    stale = []
    pages = {
        "settings.md": settings_table(),
        "triggers.md": triggers_table(),
        "intents.md": intents_table(),
        "index.md": index_page(),
    }
    for name, text in pages.items():
        path = DOCS / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"out of date: {', '.join(stale)}; run python docs/gen_tables.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
