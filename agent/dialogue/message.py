"""What the dialogue decides about one message: its intent, and what deciding it found (the models
it means, the count it asks, the question it asks), for the intent's handler to act on."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from agent.dialogue.reader import Reader


class Intent(StrEnum):
    """What a message does to the conversation."""

    social = "social"
    off_topic = "off_topic"
    why_asked = "why_asked"
    compare_in_reply = "compare_in_reply"
    reply = "reply"
    why_first = "why_first"
    names_no_model = "names_no_model"
    model_facts = "model_facts"
    how_many = "how_many"
    unknown_model = "unknown_model"
    change = "change"
    unread_about = "unread_about"
    unanswerable = "unanswerable"
    new_task = "new_task"


# A message of each intent, said after an answer (or, for the first three, while questions wait).
EXAMPLES: dict[Intent, str] = {
    Intent.why_asked: "why?",
    Intent.compare_in_reply: "compare the top two",
    Intent.reply: "flood mapping with Sentinel-1",
    Intent.social: "thanks!",
    Intent.off_topic: "what's the weather like today?",
    Intent.why_first: "why that one?",
    Intent.names_no_model: "exclude it",
    Intent.model_facts: "how big is the second one?",
    Intent.how_many: "show me 5",
    Intent.unknown_model: "why not SAM?",
    Intent.change: "only open weights",
    Intent.unread_about: "what about infrared?",
    Intent.unanswerable: "which of these is the most elegant?",
    Intent.new_task: "building footprint extraction from aerial RGB",
}
WHILE_PENDING = frozenset({Intent.why_asked, Intent.compare_in_reply, Intent.reply})

# Intents whose text a later 'it' or 'that one' may refer back to.
REMEMBERED = frozenset(
    {
        Intent.model_facts,
        Intent.how_many,
        Intent.unknown_model,
        Intent.change,
        Intent.unread_about,
        Intent.unanswerable,
        Intent.new_task,
    }
)


@dataclass(frozen=True)
class FactQuestion:
    """A question about models shown or named, answered from their records: the topics asked
    ('size', 'licence', ...), the models asked about and, for results, the datasets or application."""

    topics: list[str]
    named: list[str]  # the model ids asked about
    note: str | None = None  # how the models asked about were read
    on_datasets: list[str] = field(default_factory=list)
    on_application: str | None = None
    larger: bool | None = None  # 'which is bigger?' (True) or 'smaller?' (False) of several


@dataclass
class Message:
    """One message, read once, and what deciding its intent found."""

    text: str
    read: Reader
    intent: Intent = Intent.new_task
    resolved: str = ""  # the text with 'the second one' or 'it' replaced by the model's name
    said_before: str = ""  # the message before that named models, for 'it'
    reference_note: str | None = None  # how 'the second one' or 'it' was read
    count: int | None = None  # how many models the text asks to see
    count_only: bool = False  # ... and nothing else
    labels: str | None = None  # 'a few', '500 fields': the labels the task has, as a change
    compared: int | None = None  # 'compare the top two' in reply to a question: 2
    compare_asked: str = ""  # ... the comparison, asked of the answer
    compare_reply: str | None = None  # ... and the rest, answering the questions (None: nothing)
    facts: FactQuestion | None = None
    unknown_model: str | None = None  # 'why not SAM?': a name that is nothing in RS-FMD
    about: str = ""  # 'what about infrared?': the one thing asked about, read as nothing
    size_reference: tuple[str, bool] | None = None  # 'something smaller?': (first model shown, larger)
    asks_size: bool = False  # 'which one is the smallest?'

    @property
    def task_text(self) -> str:
        """The text as the task takes it: the labels it states, or the text with models named."""
        return self.labels if self.labels is not None else self.resolved
