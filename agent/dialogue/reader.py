"""The rules reading of one message, kept: each text the dialogue looks at while deciding and
answering a message (the message, a part of it, a sentence of the task so far) is read once."""

from __future__ import annotations

from agent.interpreter import Interpretation, interpret
from agent.query import StructuredQuery


class Reader:
    """Reads texts with the rules interpreter (no embeddings), each distinct text once."""

    def __init__(self) -> None:
        self._read: dict[str, Interpretation] = {}

    def __call__(self, text: str) -> Interpretation:
        """The reading of ``text``, read on first use."""
        reading = self._read.get(text)
        if reading is None:
            reading = self._read[text] = interpret(text)
        return reading

    def query(self, text: str) -> StructuredQuery:
        """The structured query ``text`` states on its own."""
        return self(text).query

    def filled(self, text: str) -> list[str]:
        """The fields of the query ``text`` states on its own."""
        return self(text).query.filled_fields()
