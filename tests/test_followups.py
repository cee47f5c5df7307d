"""Follow-ups after an answer: what they change is said first, constraints carry over, and the
terminal chat answers them in a few lines."""

from __future__ import annotations

import io

import pytest

from agent import Session
from agent.chat_render import chat_markdown
from agent.cli import main
from agent.query import ComputeBudget, Exclusions, StructuredQuery
from agent.selection import Selection
from agent.settings import Settings
from tools.changes import task_change
from ui.cards import chat_summary, selection_html

TASK = "Flood mapping with Sentinel-1 SAR, few labels, one GPU"


def _session() -> Session:
    return Session(Settings(memory={"enabled": False}), clarify=False, k=3)


@pytest.fixture(scope="module")
def smaller() -> tuple[Session, Selection, Selection]:
    """A session after the task and 'something smaller?': (session, first answer, smaller answer)."""
    session = _session()
    first = session.ask(TASK)
    return session, first, session.ask("something smaller?")


def test_compare_after_something_smaller_keeps_the_size_budget_and_compares_the_models_shown(
    smaller: tuple[Session, Selection, Selection],
) -> None:
    session, first, shown = smaller
    budget = shown.query.compute.max_parameters_m
    assert budget is not None and first.query.compute.max_parameters_m is None
    top_two = [m.model_id for m in shown.models[:2]]
    compared = session.ask("compare the top two")
    # The comparison is asked of the answer shown: the same task, the same budget, the same models.
    assert compared.query.compute.max_parameters_m == budget
    assert compared.query.compute.below_limit
    assert [m.model_id for m in compared.models[:2]] == top_two
    assert [m.model_id for m in compared.models] == [m.model_id for m in shown.models]
    names = [m.name for m in shown.models[:2]]
    [answer] = compared.answers
    assert answer.index(names[0]) < answer.index(names[1]) and "points behind" in answer
    assert compared.change is None  # nothing of the task changed


def test_a_later_change_keeps_the_relative_size_asked_before() -> None:
    session = _session()
    session.ask(TASK)
    budget = session.ask("something smaller?").query.compute.max_parameters_m
    opened = session.ask("only open weights")
    assert opened.query.open_weights and opened.query.compute.max_parameters_m == budget
    assert opened.change == "Now also open weights"
    bigger = session.ask("a bigger one")  # a new relative size replaces the old one
    assert bigger.query.compute.max_parameters_m is None and bigger.query.compute.min_parameters_m


def test_a_follow_up_says_what_it_changed_and_a_question_changes_nothing(
    smaller: tuple[Session, Selection, Selection],
) -> None:
    _, first, shown = smaller
    assert not first.follow_up and first.change is None
    budget = shown.query.compute.max_parameters_m
    assert shown.follow_up and shown.change is not None
    assert shown.change.startswith(f"Now fewer than {budget:g}M parameters")
    assert shown.change.endswith("instead of one GPU (about 1500M parameters)")
    session = _session()
    session.ask(TASK)
    asked = session.ask("how big is the second one?")
    assert asked.follow_up and asked.change is None and len(asked.answers) == 1
    fresh = session.ask("ship detection in SAR images")
    assert not fresh.follow_up and fresh.change is None


def test_task_change_names_what_was_added_and_what_it_replaced() -> None:
    gpu = StructuredQuery(application="flood mapping", compute=ComputeBudget(device_class="single-gpu"))
    small = gpu.model_copy(update={"compute": ComputeBudget(device_class="single-gpu", max_parameters_m=50)})
    assert task_change(gpu, small) == "Now at most 50M parameters instead of one GPU (about 1500M parameters)"
    opened = gpu.model_copy(update={"open_weights": True, "region": ["Kenya"]})
    assert task_change(gpu, opened) == "Now also region: Kenya and open weights"
    assert task_change(opened, gpu) == "No longer region: Kenya and open weights"
    assert task_change(gpu, gpu.model_copy()) is None
    excluded = gpu.model_copy(update={"exclusions": Exclusions(models=["dofa"])})
    assert task_change(gpu, excluded, {"dofa": "DOFA"}) == "Now also not DOFA"


def test_the_chat_bubble_and_the_results_say_the_change_first(
    smaller: tuple[Session, Selection, Selection],
) -> None:
    _, first, shown = smaller
    assert shown.change is not None
    assert chat_summary(shown).startswith(f"**{shown.change}.**\n\n")
    assert chat_summary(first).startswith("Top 3 for your task:")
    html = selection_html(shown)
    assert 'class="remsa-change"' in html
    assert html.index("remsa-change") < html.index("remsa-card")
    assert shown.to_markdown().count(shown.change) == 1


def test_terminal_follow_ups_are_short_and_reprint_no_card(
    smaller: tuple[Session, Selection, Selection],
) -> None:
    _, first, shown = smaller
    full = chat_markdown(first, None)
    assert full.count("### ") == len(first.models)  # a new task: every card
    changed = chat_markdown(shown, first)
    assert changed.startswith(f"**{shown.change}.**")
    # Only models new to the conversation get a card; those shown before get one line.
    new = [m for m in shown.models if m.model_id not in {f.model_id for f in first.models}]
    assert changed.count("#### ") == len(new)


def _chat(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *lines: str) -> list[str]:
    """Drive `remsa chat` through its standard input; the printed reply to each line, in order."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["chat", "--no-memory", "--k", "3"]) == 0
    out = capsys.readouterr().out
    return [part.strip() for part in out.split("> ")[1 : len(lines) + 1]]


@pytest.mark.slow
def test_terminal_chat_answers_follow_up_questions_in_a_few_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first, smaller, compared, size, why_not = _chat(
        monkeypatch,
        capsys,
        TASK,
        "something smaller?",
        "compare the top two",
        "how big is the second one?",
        "why not Copernicus-FM?",
    )
    assert "Understood:" in first and first.count("Links:") == 3 and "###" not in first  # rendered
    assert smaller.splitlines()[0].startswith("Now fewer than")
    for reply in (compared, size, why_not):
        lines = [line for line in reply.splitlines() if line.strip()]
        assert len(lines) <= 8, reply
        assert "Links:" not in reply and "Understood:" not in reply  # no card reprinted
        assert "Same models as before" in reply
    assert "points behind" in compared
    assert "Copernicus-FM" in why_not
