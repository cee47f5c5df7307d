"""What an LLM may not change in a ranking: the tiers the evidence and the offline reading set.

An LLM's reading fills what the rules left empty but does not widen a list they filled: requested
modalities and sensors are alternatives (a model fits if it takes any), so an entry only the LLM
read lets in, and scores up, models the rules' reading keeps out.

An LLM orders candidates only within these tiers, never across them: models that meet every hard
constraint before closest matches; models that meet what the offline rules read in the task before
those that pass only because the LLM's reading widened it (an extra modality lets a model in); and
models whose weights are public before the others.
"""

from __future__ import annotations

from agent.query import StructuredQuery
from tools.candidate import Candidate
from tools.filtering import violations
from tools.fit import availability_fit
from tools.inputs import requested_modalities

# Query lists whose entries are alternatives (tools/filtering.py: a model takes any of them).
WIDENING = ("modality", "sensor")


def within_rules(
    parsed: StructuredQuery | None, rules: StructuredQuery
) -> tuple[StructuredQuery | None, list[str]]:
    """The LLM's reading (None: none) without the entries that would widen a list the rules
    filled, and those entries (said in the answer's notes)."""
    updates: dict[str, list[str]] = {}
    dropped: list[str] = []
    if parsed is None:
        return None, dropped
    inputs = requested_modalities(parsed)  # 'Multi-temporal' is a preference, not an alternative
    for name in WIDENING:
        theirs, ours = getattr(parsed, name), getattr(rules, name)
        extra = [v for v in theirs if v not in ours and (name != "modality" or v in inputs)]
        if ours and extra:
            updates[name] = [v for v in theirs if v not in extra]
            dropped += extra
    return parsed.model_copy(update=updates), dropped


def copied(lines: list[str], prompt: str) -> bool:
    """Whether every line (of some length) is text of the prompt itself: an echo, not a judgment."""
    said = [" ".join(line.lower().split()) for line in lines if len(line.strip()) >= 12]
    return bool(said) and all(line in prompt for line in said)


def guarded(ranked: list[Candidate], offline: StructuredQuery | None) -> list[Candidate]:
    """``ranked`` in its order within the tiers, the tiers in order (``offline``: the rules' reading)."""

    def tier(c: Candidate) -> tuple[bool, bool, bool]:
        widened = offline is not None and bool(violations(c.record, offline))
        return bool(c.relaxed), widened, availability_fit(c.record)[0] < 1.0

    return sorted(ranked, key=tier)
