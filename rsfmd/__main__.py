"""``python -m rsfmd [PATH]``: validate RS-FMD JSONL files and print every error."""

from __future__ import annotations

import sys

from rsfmd.loader import load_database


def main(argv: list[str]) -> int:
    """Validate the files at argv[0] (shipped data by default); exit 1 on any error."""
    result = load_database(argv[0] if argv else None, strict=False)
    for error in result.errors:
        print(error)
    print(
        f"{len(result.records)} valid record(s), {len(result.errors)} error(s) in {len(result.files)} file(s)"
    )
    return 1 if result.errors else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
