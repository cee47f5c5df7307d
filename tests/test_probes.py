"""Probes: a pattern is skipped only when it cannot match."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.reading.context import context_table
from agent.reading.probes import Probed, required_literal
from agent.reading.sizes import _bound_backbones


@pytest.mark.parametrize(
    ("pattern", "flags", "probe"),
    [
        (r"(?<![\w'-])most\s+models(?![\w'-])", re.IGNORECASE, "models"),
        (r"(?<![a-z0-9])flood[\s\-_./]*mapping(?:e?s)?(?![a-z0-9]|\.\d)", 0, "mapping"),
        (r"(?<![A-Za-z0-9])ViT[\s\-_]?Ti/16(?![A-Za-z0-9])", 0, "ti/16"),
        (r"(?:pre)?trained on", 0, "trained on"),  # an optional group ends the run before it
        (r"x(?:abc)y", 0, "xabcy"),  # a required group continues the run
        (r"x(abc)yy", 0, "xabc"),
        (r"x(abc|d)yy", 0, "yy"),
        (r"cat|dog", 0, ""),  # a choice requires neither
        (r"[ab]+", 0, ""),
        (r"\bEMIT\b", 0, "emit"),
    ],
)
def test_required_literal(pattern: str, flags: int, probe: str) -> None:
    assert required_literal(re.compile(pattern, flags)) == probe


def test_candidates_keep_order_and_always_run_patterns_without_probe() -> None:
    patterns = [re.compile(p) for p in (r"sar\b", r"cat|dog", r"optical")]
    probed = Probed(patterns, required_literal)
    assert probed.candidates("Optical and SAR") == patterns  # any case, in order
    assert probed.candidates("nothing here") == [patterns[1]]
    assert len(probed) == 3 and list(probed) == patterns


def _shipped_patterns() -> list[re.Pattern[str]]:
    table = context_table()
    return [t.pattern for t in table.triggers] + list(table.pseudo) + [b[0] for b in _bound_backbones()]


_WORDS = sorted({w for p in _shipped_patterns() for w in re.findall(r"[a-z]{2,}", p.pattern.lower())})


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(_WORDS), st.sampled_from([" ", "-", ", ", "'", "/16", "ViT-L", "İ", "ß"])),
        max_size=14,
    ).map("".join),
    st.booleans(),
)
def test_a_pattern_that_matches_is_never_skipped(text: str, upper: bool) -> None:
    text = text.upper() if upper else text
    patterns = _shipped_patterns()
    probed = Probed(patterns, required_literal)
    kept = {id(p) for p in probed.candidates(text)}
    for pattern in patterns:
        if pattern.search(text) or pattern.search(text.lower()):
            assert id(pattern) in kept, (pattern.pattern, text)
