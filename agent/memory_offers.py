"""Task memory proposes, never imposes: what earlier tasks suggest, and what the user accepted.

A request reads the user's similar earlier tasks and turns them into ``MemorySuggestion`` offers
(a region, a device, a sensor, a data regime, the user's ratings). None of them touches the query
or the scores until the user accepts it by id (``Session.accept``, ``remsa ask --accept``, a chip
in the app); with nothing accepted the answer is the answer without memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agent.memory import MemoryAssumption, PastTask
from agent.memory_rules import DEVICE_PHRASES, apply_to_query, feedback_adjustments, suggest_assumptions
from agent.query import StructuredQuery
from agent.selection import MemorySuggestion, SimilarTask

RATINGS = "ratings"
_LABELS = {
    "compute.device_class": "Hardware",
    "deployment_device": "Runs on",
    "region": "Region",
    "sensor": "Sensor",
    "data_regime": "Labels",
}


@dataclass
class MemoryOffers:
    """What memory offered for one task and what the user accepted (kept across its rounds)."""

    offered: dict[str, MemoryAssumption] = field(default_factory=dict)
    ratings: dict[str, float] = field(default_factory=dict)
    accepted: set[str] = field(default_factory=set)

    def accept(self, ids: Sequence[str]) -> None:
        """Mark offers as accepted; ValueError naming the offers when an id is not one of them."""
        known = [*self.offered, *([RATINGS] if self.ratings else [])]
        unknown = [i for i in ids if i not in known]
        if unknown:
            listed = ", ".join(known) or "none"
            raise ValueError(f"no suggestion {', '.join(map(repr, unknown))}; the offered ones are: {listed}")
        self.accepted.update(ids)


def same_text(a: str, b: str) -> bool:
    """Whether two task texts are the same request (case and spacing aside)."""
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def earlier_tasks(past: Sequence[PastTask], text: str) -> list[PastTask]:
    """The earlier tasks worth showing and weighing: never the request itself said again."""
    return [p for p in past if not same_text(p.interaction.query_text, text)]


def update_offers(offers: MemoryOffers, query: StructuredQuery, past: Sequence[PastTask]) -> None:
    """Refresh the offers from this round's query and earlier tasks; accepted ones stay."""
    fresh = {a.field: a for a in suggest_assumptions(query, past)}
    kept = {f: a for f, a in offers.offered.items() if f in offers.accepted}
    offers.offered = {**fresh, **kept}
    offers.ratings = feedback_adjustments(past)


def apply_accepted(offers: MemoryOffers, query: StructuredQuery) -> tuple[StructuredQuery, list[str]]:
    """The query with the accepted offers filled in, and a note for each."""
    accepted = [a for f, a in offers.offered.items() if f in offers.accepted]
    notes = [f"From your earlier tasks, as you accepted: {a.reason}" for a in accepted]
    if RATINGS in offers.accepted and offers.ratings:
        notes.append("From your earlier tasks, as you accepted: your ratings of models weigh in the ranking")
    return apply_to_query(query, accepted), notes


def accepted_deltas(offers: MemoryOffers) -> dict[str, float]:
    """Score changes from the user's ratings, only once the user accepted them."""
    return dict(offers.ratings) if RATINGS in offers.accepted else {}


def suggestions(offers: MemoryOffers, names: dict[str, str]) -> list[MemorySuggestion]:
    """The offers as shown to the user: chips with a label, a reason and whether accepted."""
    out = [
        MemorySuggestion(
            id=f,
            label=f"{_LABELS.get(f, f)}: {DEVICE_PHRASES.get(_value_text(a.value), _value_text(a.value))}",
            reason=a.reason,
            accepted=f in offers.accepted,
        )
        for f, a in offers.offered.items()
    ]
    if offers.ratings:
        liked = [names.get(m, m) for m, d in offers.ratings.items() if d > 0]
        disliked = [names.get(m, m) for m, d in offers.ratings.items() if d < 0]
        parts = [
            f"you liked {', '.join(liked)}" if liked else "",
            f"you disliked {', '.join(disliked)}" if disliked else "",
        ]
        out.append(
            MemorySuggestion(
                id=RATINGS,
                label="Use my ratings",
                reason="In similar earlier tasks " + "; ".join(p for p in parts if p),
                accepted=RATINGS in offers.accepted,
            )
        )
    return out


def similar_tasks(past: Sequence[PastTask]) -> list[SimilarTask]:
    """The earlier tasks as shown under their own heading."""
    return [
        SimilarTask(
            query_text=p.interaction.query_text,
            similarity=round(p.similarity, 3),
            recommended=p.interaction.recommended,
            feedback={m: f.vote for m, f in p.interaction.feedback.items()},
        )
        for p in past
    ]


def _value_text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else ", ".join(value)
