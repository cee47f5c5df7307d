"""The `remsa` command line."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from agent.extras import MissingExtraError

# Command groups: (module, function that adds the group to the sub-parsers).
_GROUPS: tuple[str, ...] = (
    "rsfmd.cli",
    "agent.ask_cli",
    "tools.capenc.cli",
    "agent.memory_cli",
    "evaluation.cli",
    "ui.cli",
)


# The group that holds each command, so that `remsa ask` imports only what asking needs.
_COMMAND_GROUP: dict[str, str] = {
    "db": "rsfmd.cli",
    "ask": "agent.ask_cli",
    "chat": "agent.ask_cli",
    "index": "agent.ask_cli",
    "capenc": "tools.capenc.cli",
    "memory": "agent.memory_cli",
    "bench": "evaluation.cli",
    "ui": "ui.cli",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available command group (or only the one ``command`` is in)."""
    parser = argparse.ArgumentParser(
        prog="remsa",
        description="Choose remote-sensing foundation models for a task (RS-FMD + selection agent).",
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    group = _COMMAND_GROUP.get(command or "")
    for module_name in (group,) if group else _GROUPS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue  # optional group not present in this build
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(arguments[0] if arguments else None)
    args = parser.parse_args(arguments)
    handler = getattr(args, "handler", None) or getattr(args, "func", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args) or 0)
    except MissingExtraError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `remsa db list | head`: stop quietly, as other CLI tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    raise SystemExit(main())
