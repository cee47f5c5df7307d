"""``python -m rsfmd [PATH]``: validate RS-FMD JSONL files and print every error."""

from __future__ import annotations

import argparse
import sys

from rsfmd.loader import load_database


def main(argv: list[str]) -> int:
    """Validate the files at PATH (shipped data by default); exit 1 on any error, 2 on a bad path."""
    parser = argparse.ArgumentParser(
        prog="python -m rsfmd",
        description="Validate RS-FMD JSONL files and print every error with file, line and field.",
    )
    parser.add_argument(
        "path", nargs="?", help="a .jsonl file or a folder of them (default: the shipped database)"
    )
    args = parser.parse_args(argv)
    try:
        result = load_database(args.path, strict=False)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for error in result.errors:
        print(error)
    print(
        f"{len(result.records)} valid record(s), {len(result.errors)} error(s) in {len(result.files)} file(s)"
    )
    return 1 if result.errors else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
