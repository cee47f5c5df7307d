"""`remsa db extract|review|add|pending`: populate RS-FMD from papers with confidence-guided review."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pydantic import ValidationError

from agent.errors import ConfigurationError, LLMError
from agent.settings import Settings
from rsfmd.extraction.draft import (
    DraftError,
    add_record,
    final_record,
    load_draft,
    record_summary,
    save_draft,
)
from rsfmd.extraction.extract import build_extraction_chat, extract_draft
from rsfmd.extraction.pending import PendingQueue
from rsfmd.extraction.review import review_draft
from rsfmd.extraction.settings import ExtractionSettings
from rsfmd.extraction.sources import SourceError, read_sources
from rsfmd.loader import DatabaseError
from rsfmd.schema import Source


def register(subparsers: Any) -> None:
    """Add extract, review, add and pending to the `db` group's sub-parsers."""
    extract = subparsers.add_parser(
        "extract", help="Draft a record from papers/READMEs with an LLM; flag uncertain fields."
    )
    extract.add_argument("sources", nargs="+", metavar="SOURCE", help="Text, Markdown, HTML or PDF file.")
    extract.add_argument("--out", required=True, help="Draft file to write (JSON).")
    extract.add_argument("--runs", type=int, help="Extraction runs (default REMSA_EXTRACTION__RUNS or 3).")
    extract.add_argument(
        "--source-url",
        action="append",
        default=[],
        metavar="URL",
        help="Address the record cites for the sources (required; repeat for several).",
    )
    extract.set_defaults(handler=_extract)

    review = subparsers.add_parser("review", help="Walk through a draft's flagged fields in the terminal.")
    review.add_argument("draft", help="Draft file from `remsa db extract`.")
    review.set_defaults(handler=_review)

    add = subparsers.add_parser("add", help="Validate a reviewed draft and add it to RS-FMD.")
    add.add_argument("draft", help="Reviewed draft file.")
    add.add_argument("--path", help="Database folder or JSONL file (default: configured or shipped).")
    add.set_defaults(handler=_add)

    pending = subparsers.add_parser("pending", help="Submissions from the app awaiting a maintainer.")
    actions = pending.add_subparsers(dest="pending_command", required=True)
    listing = actions.add_parser("list", help="List submissions.")
    listing.add_argument("--status", choices=["pending", "accepted", "rejected"], help="Only this status.")
    listing.set_defaults(handler=_pending_list)
    accept = actions.add_parser("accept", help="Add a submission to RS-FMD.")
    accept.add_argument("id", help="Submission id from `remsa db pending list`.")
    accept.add_argument("--path", help="Database folder or JSONL file (default: configured or shipped).")
    accept.set_defaults(handler=_pending_accept)
    reject = actions.add_parser("reject", help="Reject a submission.")
    reject.add_argument("id", help="Submission id from `remsa db pending list`.")
    reject.add_argument("--reason", help="Why (kept with the submission).")
    reject.set_defaults(handler=_pending_reject)


def _fail(message: object, code: int = 1) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def _extract(args: argparse.Namespace) -> int:
    if not args.source_url:
        return _fail(
            "give --source-url URL (the paper, README or model card the sources came from) so the "
            "record can cite it",
            2,
        )
    try:
        urls = [Source(url=url).url for url in dict.fromkeys(args.source_url)]
        extraction = ExtractionSettings()
        settings = Settings()
    except ValidationError as exc:
        return _fail(exc, 2)
    try:
        sources = read_sources(
            args.sources, max_bytes=extraction.max_source_bytes, max_chars=extraction.max_source_chars
        )
        chat = build_extraction_chat(settings, extraction)
        draft = extract_draft(chat, sources, urls, extraction, runs=args.runs)
    except (SourceError, ConfigurationError, DraftError, ValueError) as exc:
        return _fail(exc, 2)
    except LLMError as exc:
        return _fail(exc)
    save_draft(draft, args.out)
    print(f"draft: {record_summary(draft.record)} -> {args.out}")
    print(f"{draft.runs_usable} of {draft.runs_requested} runs usable; confidence: {draft.confidence_method}")
    for notice in draft.notices:
        print(f"note: {notice}")
    for name, score in draft.fields.items():
        mark = "FLAG" if score.flagged else "ok  "
        print(f"  {mark} {name:<26} {score.confidence:.2f}")
    flagged = len(draft.review)
    print(f"{flagged} field(s) flagged: run `remsa db review {args.out}`" if flagged else "nothing flagged")
    return 0


def _review(args: argparse.Namespace) -> int:
    try:
        draft = load_draft(args.draft)
    except DraftError as exc:
        return _fail(exc, 2)
    try:
        decided = review_draft(draft)
    finally:
        save_draft(draft, args.draft)
    left = len(draft.unresolved())
    print(f"{decided} field(s) decided, {left} left" + ("" if left else f"; next: remsa db add {args.draft}"))
    return 0 if not left else 1


def _add(args: argparse.Namespace) -> int:
    try:
        record = final_record(load_draft(args.draft))
        target = add_record(record, args.path or Settings().database.path)
    except (DraftError, DatabaseError, FileNotFoundError) as exc:
        return _fail(exc)
    print(f"added {record.model_id} to {target}")
    return 0


def _pending_list(args: argparse.Namespace) -> int:
    submissions = PendingQueue.from_settings().submissions(args.status)
    for s in submissions:
        flags = len(s.draft.review)
        print(f"{s.id}  {s.status:<8}  {record_summary(s.draft.record)}  ({flags} flagged field(s))")
    print(f"{len(submissions)} submission(s)")
    return 0


def _pending_accept(args: argparse.Namespace) -> int:
    try:
        target = PendingQueue.from_settings().accept(args.id, args.path or Settings().database.path)
    except (DraftError, DatabaseError, FileNotFoundError) as exc:
        return _fail(exc)
    print(f"accepted {args.id}: added to {target}")
    return 0


def _pending_reject(args: argparse.Namespace) -> int:
    try:
        PendingQueue.from_settings().reject(args.id, args.reason)
    except DraftError as exc:
        return _fail(exc)
    print(f"rejected {args.id}")
    return 0
