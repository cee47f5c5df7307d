"""`remsa memory ...`: export or clear one user's task memory."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agent.memory import MemoryUnavailableError, TaskMemory, memory_dir, open_store


def register(subparsers: Any) -> None:
    """Add the `memory` command group."""
    memory = subparsers.add_parser("memory", help="Export or clear a user's task memory.")
    sub = memory.add_subparsers(dest="memory_command", required=True)

    export = sub.add_parser("export", help="Print (or write) every stored interaction of a user as JSON.")
    export.add_argument("--user", required=True, help="User id whose memory to export.")
    export.add_argument("--out", type=Path, help="Write the JSON to this file instead of standard output.")
    export.set_defaults(handler=_export)

    clear = sub.add_parser("clear", help="Delete every stored interaction of a user.")
    clear.add_argument("--user", required=True, help="User id whose memory to delete.")
    clear.add_argument("--yes", action="store_true", help="Do not ask for confirmation.")
    clear.set_defaults(handler=_clear)


def _open(user: str) -> TaskMemory | None:
    """The configured store, or None when the embedded store was never created (nothing stored)."""
    from agent.settings import Settings

    settings = Settings()
    if settings.memory.backend == "chroma" and not memory_dir(settings).exists():
        return None
    if settings.memory.backend == "in-memory":
        print("note: the in-memory backend keeps nothing between processes", file=sys.stderr)
    return open_store(settings)


def _export(args: argparse.Namespace) -> int:
    try:
        store = _open(args.user)
        interactions = store.export(args.user) if store is not None else []
    except MemoryUnavailableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    document = {
        "user_id": args.user,
        "exported_at": datetime.now(UTC).isoformat(),
        "count": len(interactions),
        "interactions": [i.model_dump(mode="json") for i in interactions],
    }
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
        return 0
    _write_atomically(args.out, text)
    print(f"exported {len(interactions)} interaction(s) of user {args.user!r} to {args.out}", file=sys.stderr)
    return 0


def _write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, so a failure never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _clear(args: argparse.Namespace) -> int:
    try:
        store = _open(args.user)
        stored = store.count(args.user) if store is not None else 0
        if store is None or stored == 0:
            print(f"nothing stored for user {args.user!r}")
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                print("error: refusing to clear without --yes when not run interactively", file=sys.stderr)
                return 2
            reply = input(f"Delete {stored} stored interaction(s) of user {args.user!r}? [y/N] ")
            if reply.strip().lower() not in {"y", "yes"}:
                print("nothing deleted")
                return 1
        deleted = store.clear(args.user)
    except MemoryUnavailableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"cleared {deleted} interaction(s) of user {args.user!r}")
    return 0
