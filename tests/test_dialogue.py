"""The dialogue decides a message's intent once, dispatches it to one handler, and reads each text
it looks at once: counted by spying on the rules interpreter wherever it is called from."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable

import pytest

import agent.interpreter
import agent.reading
from agent.api import Session
from agent.dialogue.handlers import HANDLERS
from agent.dialogue.intent import decide
from agent.dialogue.message import EXAMPLES, WHILE_PENDING, Intent
from agent.dialogue.reader import Reader
from agent.selection import Status
from agent.settings import Settings

TASK = "crop type mapping from Sentinel-2 time series in Kenya, a few hundred labelled fields"

Readings = list[tuple[str, str]]  # (the module that read, the text it read)


def _spy(monkeypatch: pytest.MonkeyPatch, name: str, original: Callable[..., object]) -> Readings:
    """Record every call of ``original`` made through any module of the agent that imported it."""
    calls: Readings = []
    for module_name, module in list(sys.modules.items()):
        if module_name.split(".")[0] not in {"agent", "tools"} or getattr(module, name, None) is not original:
            continue

        def spy(text: str, *args: object, _by: str = module_name, **kwargs: object) -> object:
            calls.append((_by, text))
            return original(text, *args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    return calls


Taken = Callable[[], tuple[Readings, Readings]]


@pytest.fixture
def readings(monkeypatch: pytest.MonkeyPatch) -> Taken:
    """Spy on both readings, the rules interpreter and the role reading the orchestrator uses; the
    fixture gives what each read since it was last asked."""
    interpreted = _spy(monkeypatch, "interpret", agent.interpreter.interpret)
    roles = _spy(monkeypatch, "read_roles", agent.reading.read)

    def taken() -> tuple[Readings, Readings]:
        got = (list(interpreted), list(roles))
        interpreted.clear()
        roles.clear()
        return got

    return taken


def _by_dialogue(calls: Readings) -> list[str]:
    return [text for by, text in calls if by.startswith("agent.dialogue")]


def _by_orchestrator(calls: Readings) -> list[str]:
    return [text for by, text in calls if by == "agent.orchestrator"]


def test_each_message_is_read_once(readings: Taken) -> None:
    session = Session(Settings(memory={"enabled": False}), clarify=False)

    # A new task: the orchestrator reads the task's text once (its requirements, with
    # embeddings); the dialogue reads no text twice.
    first = session.ask(TASK)
    interpreted, roles = readings()
    assert first.status == Status.ok and first.models
    assert [text for _, text in roles] == [TASK]
    assert len(_by_orchestrator(interpreted)) == 1
    assert max(Counter(_by_dialogue(interpreted)).values(), default=1) == 1
    assert all(by in {"agent.orchestrator", "agent.dialogue.reader"} for by, _ in interpreted)

    # A change: the dialogue reads the message once, the orchestrator the task it makes (the
    # task before with the change appended) once.
    smaller = session.ask("something smaller?")
    interpreted, roles = readings()
    assert smaller.follow_up and session._turn is not None
    assert _by_dialogue(interpreted).count("something smaller?") == 1
    assert max(Counter(_by_dialogue(interpreted)).values()) == 1
    assert [text for _, text in roles] == [session._turn.text]
    assert session._turn.text.startswith(TASK) and session._turn.text.endswith("something smaller?")
    assert len(_by_orchestrator(interpreted)) == 1

    # A question about the models shown: the dialogue reads it once, without the model it names;
    # the same task is answered again, so the orchestrator reads that task's text, not the question.
    task_text = session._turn.text
    second = smaller.models[1].name
    facts = session.ask("how big is the second one?")
    interpreted, roles = readings()
    assert facts.answers[0].startswith(f"{second}:")
    assert max(Counter(_by_dialogue(interpreted)).values()) == 1
    assert len(_by_dialogue(interpreted)) == 1
    assert [text for _, text in roles] == [task_text]
    assert len(_by_orchestrator(interpreted)) == 1


def test_a_reply_to_questions_reads_each_part_once(readings: Taken) -> None:
    session = Session(Settings(memory={"enabled": False}))
    asked = session.ask("I need a model for my project")
    assert asked.status == Status.needs_clarification
    readings()
    session.ask("flood mapping, Sentinel-1")
    interpreted, _ = readings()
    read = Counter(_by_dialogue(interpreted))
    assert read["flood mapping, Sentinel-1"] == 1
    assert max(read.values()) == 1


def test_every_intent_has_one_handler() -> None:
    assert set(HANDLERS) == set(Intent) == set(EXAMPLES)
    assert all(handler.__doc__ for handler in HANDLERS.values())


@pytest.fixture(scope="module")
def answered() -> Session:
    session = Session(Settings(memory={"enabled": False}), clarify=False)
    assert session.ask(TASK).models
    return session


@pytest.fixture(scope="module")
def asking() -> Session:
    session = Session(Settings(memory={"enabled": False}))
    assert session.ask("I need a model for my project").status == Status.needs_clarification
    return session


@pytest.mark.parametrize("intent", [i for i in Intent if i not in WHILE_PENDING])
def test_the_documented_example_of_each_intent_after_an_answer(answered: Session, intent: Intent) -> None:
    assert decide(EXAMPLES[intent], answered._situation(), Reader()).intent == intent


@pytest.mark.parametrize("intent", sorted(WHILE_PENDING))
def test_the_documented_example_of_each_intent_while_questions_wait(asking: Session, intent: Intent) -> None:
    assert decide(EXAMPLES[intent], asking._situation(), Reader()).intent == intent
