"""Which of many patterns can match a text, found without running them.

Every match of a pattern contains its *probe*, a run of characters the pattern requires (for
``(?<!\\w)most\\s+models``: 'models'). A text that lacks the probe cannot match, and a plain
substring search rules it out far faster than the pattern would: a pattern that opens with a
look-behind, or ignores case, is tried at every position of the text. The reading's tables hold
hundreds of patterns and a long request names few of their words, so most are never run.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")

# The standard library's own parser of patterns (``re`` compiles with it), and its step names.
sre_parse: Any = importlib.import_module("re._parser")
sre: Any = importlib.import_module("re._constants")
# Steps that match no character: the characters on either side of them are adjacent in the text.
_ZERO_WIDTH = {sre.AT, sre.ASSERT, sre.ASSERT_NOT}


def _runs(items: Any) -> Iterator[str]:
    """The runs of required literal characters in a parsed pattern, in order."""
    run: list[str] = []
    for op, arg in items:
        if op is sre.LITERAL:
            run.append(chr(arg))
        elif op in _ZERO_WIDTH:
            continue
        elif op is sre.SUBPATTERN:  # a group, not repeated: its steps are required too
            yield from _joined(run, _runs(arg[-1]))
            run = []
        else:  # a choice, a class or a repeat: nothing certain, and the run ends
            yield "".join(run)
            run = []
    yield "".join(run)


def _joined(run: list[str], inner: Iterator[str]) -> Iterator[str]:
    """The runs of a group, the first continuing ``run`` (a group's last run is yielded as is:
    what follows the group starts a new one, which only shortens probes, never makes them wrong)."""
    first = next(inner, "")
    yield "".join(run) + first
    yield from inner


def required_literal(pattern: re.Pattern[str]) -> str:
    """The longest run of characters every match of ``pattern`` contains, case-folded ('' when the
    pattern requires none: it is then always run)."""
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    except (re.error, TypeError, ValueError):
        return ""
    return max(_runs(parsed), key=len, default="").casefold()


class Probed(Generic[T]):
    """Items (patterns, or rows holding one), in order, each with its probe."""

    def __init__(self, items: Iterable[T], probe: Callable[[T], str]) -> None:
        self.items = tuple(items)
        by_probe: dict[str, list[int]] = {}
        for i, item in enumerate(self.items):
            by_probe.setdefault(probe(item).casefold(), []).append(i)
        self._always = tuple(by_probe.pop("", ()))
        self._by_probe = {p: tuple(rows) for p, rows in by_probe.items()}

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def candidates(self, text: str) -> list[T]:
        """The items whose probe is in ``text`` (any case), in their order: the only ones that can
        match it."""
        folded = text.casefold()
        rows = [i for probe, ix in self._by_probe.items() if probe in folded for i in ix]
        rows.extend(self._always)
        return [self.items[i] for i in sorted(rows)]
