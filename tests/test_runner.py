"""Runner end to end with fake systems: picks, resume, skipped and failed systems, report, CLI."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from agent.settings import Settings
from agent.systems import ClarificationQuestion, SelectionSystem, SystemPick, UserSimulator
from benchmark_queries.generate import BenchmarkQuery, load_queries
from evaluation import cli, runner
from evaluation.runner import PicksFileError, read_picks, resolve_systems, run_benchmark
from evaluation.simulated_user import answer_questions
from tests.records import make_record

RECORDS = [
    make_record(
        "alpha", modalities=["Multispectral", "SAR"], num_parameters=20, release_date=dt.date(2025, 1, 1)
    ),
    make_record("beta", modalities=["RGB"], num_parameters=300, release_date=dt.date(2021, 1, 1)),
    make_record("gamma", modalities=["Hyperspectral"], num_parameters=50, release_date=dt.date(2023, 1, 1)),
]


class FakeSystem:
    """A SelectionSystem scripted by a function of the query text."""

    def __init__(
        self,
        name: str,
        picks: Callable[[str], list[str]] = lambda _: ["alpha", "beta", "gamma"],
        reason: str | None = None,
        error: BaseException | None = None,
        questions: Sequence[ClarificationQuestion] = (),
    ) -> None:
        self.name = name
        self.picks = picks
        self.reason = reason
        self.error = error
        self.questions = list(questions)
        self.calls: list[str] = []
        self.answers: list[dict[str, str]] = []

    def unavailable_reason(self) -> str | None:
        return self.reason

    def select(self, query: str, k: int, user: UserSimulator | None = None) -> SystemPick:
        self.calls.append(query)
        if self.error is not None:
            raise self.error
        rounds = 0
        if self.questions and user is not None:
            self.answers.append(user(self.questions))
            rounds = 1
        return SystemPick(
            system=self.name, model_ids=self.picks(query)[:k], latency_s=0.01, clarification_rounds=rounds
        )


QUERIES = load_queries()[:4]


def run(systems: Sequence[SelectionSystem], out: Path, **kwargs: Any) -> runner.Evaluation:
    return run_benchmark(systems, QUERIES, out, RECORDS, progress=False, **kwargs)


def pick_lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "picks.jsonl").read_text(encoding="utf-8").splitlines()]


def test_fake_system_implements_the_protocol() -> None:
    assert isinstance(FakeSystem("x"), SelectionSystem)


def test_end_to_end_writes_picks_scores_metrics_report_and_charts(tmp_path: Path) -> None:
    good = FakeSystem("remsa")
    reverse = FakeSystem("db-retrieval", picks=lambda _: ["gamma", "beta", "alpha"])
    llm = FakeSystem("unstructured-rag", reason="no LLM configured (set REMSA_LLM__PROVIDER)")
    evaluation = run([good, reverse, llm], tmp_path)
    lines = pick_lines(tmp_path)
    assert len(lines) == 12
    assert {line["pick"]["status"] for line in lines if line["system"] == "unstructured-rag"} == {"skipped"}
    assert llm.calls == []
    assert [m.system for m in evaluation.metrics] == ["db-retrieval", "remsa"]
    assert evaluation.skipped == {"unstructured-rag": "no LLM configured (set REMSA_LLM__PROVIDER)"}
    scores = [json.loads(line) for line in (tmp_path / "scores.jsonl").read_text().splitlines()]
    assert len(scores) == 4 * 3 and all(len(s["criteria"]) == 7 for s in scores)
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert {s["system"] for s in metrics["systems"]} == {"remsa", "db-retrieval"}
    assert set(metrics["per_template"]) == {q.template for q in QUERIES}
    report = (tmp_path / "report.md").read_text()
    assert "## Skipped systems" in report and "no LLM configured" in report
    assert "Cross-template ranking" in report and "Sensitivity" in report
    for chart in ("metrics_per_system.png", "template_heatmap.png"):
        assert (tmp_path / chart).read_bytes()[:4] == b"\x89PNG"


def test_rerun_skips_done_pairs(tmp_path: Path) -> None:
    system = FakeSystem("remsa")
    unavailable = FakeSystem("remsa-naive", reason="no LLM")
    run([system, unavailable], tmp_path)
    before = pick_lines(tmp_path)
    again = FakeSystem("remsa")
    run([again, unavailable], tmp_path)
    assert again.calls == []
    assert pick_lines(tmp_path) == before


def test_resume_after_interruption_and_a_torn_last_line(tmp_path: Path) -> None:
    def stop_at_third(query: str) -> list[str]:
        if len(crashing.calls) == 3:
            raise KeyboardInterrupt
        return ["alpha"]

    crashing = FakeSystem("remsa", picks=stop_at_third)
    with pytest.raises(KeyboardInterrupt):
        run([crashing], tmp_path)
    assert len(pick_lines(tmp_path)) == 2
    with (tmp_path / "picks.jsonl").open("a") as handle:
        handle.write('{"system": "remsa", "query_')
    resumed = FakeSystem("remsa")
    run([resumed], tmp_path)
    assert resumed.calls == [q.text for q in QUERIES[2:]]
    assert len(pick_lines(tmp_path)) == 4


def test_a_bad_middle_line_is_an_error_with_its_line_number(tmp_path: Path) -> None:
    run([FakeSystem("remsa")], tmp_path)
    path = tmp_path / "picks.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "{oops", *lines[1:]]) + "\n")
    with pytest.raises(PicksFileError, match=r"picks\.jsonl:2"):
        read_picks(path)


def test_skipped_system_runs_once_it_becomes_available(tmp_path: Path) -> None:
    run([FakeSystem("remsa-naive", reason="no LLM")], tmp_path)
    available = FakeSystem("remsa-naive")
    evaluation = run([available], tmp_path)
    assert len(available.calls) == 4
    assert [m.system for m in evaluation.metrics] == ["remsa-naive"]
    assert evaluation.skipped == {}


def test_crashing_system_is_recorded_as_failed_and_retried_on_request(tmp_path: Path) -> None:
    broken = FakeSystem("remsa", error=RuntimeError("endpoint unreachable"))
    evaluation = run([broken, FakeSystem("db-retrieval")], tmp_path)
    failed = [line for line in pick_lines(tmp_path) if line["system"] == "remsa"]
    assert {line["pick"]["status"] for line in failed} == {"failed"}
    assert "RuntimeError: endpoint unreachable" in failed[0]["pick"]["detail"]
    remsa = next(m for m in evaluation.metrics if m.system == "remsa")
    assert remsa.failed == 4 and remsa.avg_top1 == 0.0
    fixed = FakeSystem("remsa")
    run([fixed], tmp_path)
    assert fixed.calls == []
    run([fixed], tmp_path, retry_failed=True)
    assert len(fixed.calls) == 4


def test_progress_bar_goes_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_benchmark([FakeSystem("remsa")], QUERIES, tmp_path, RECORDS, progress=True, charts=False)
    captured = capsys.readouterr()
    assert "bench" in captured.err and "bench" not in captured.out


def test_clarifications_are_answered_from_the_query_slots(tmp_path: Path) -> None:
    questions = [
        ClarificationQuestion(field="modality", text="Which data?", options=["optical", "SAR"]),
        ClarificationQuestion(field="Deployment device", text="Where will it run?"),
        ClarificationQuestion(field="favourite_colour", text="?"),
    ]
    asking = FakeSystem("remsa", questions=questions)
    queries = [q for q in load_queries() if q.template == "D4"][:1]
    run_benchmark([asking], queries, tmp_path, RECORDS, progress=False, charts=False)
    (answer,) = asking.answers
    assert answer == {"Deployment device": queries[0].slots["device"]}  # D4 states no modality
    assert pick_lines(tmp_path)[0]["pick"]["clarification_rounds"] == 1


def test_simulated_user_maps_fields_to_slots() -> None:
    query = BenchmarkQuery(
        id="q01",
        template="COMPOSITE",
        category="test",
        slots={
            "application": "flood mapping",
            "modality": "SAR",
            "region": "Bangladesh",
            "data_regime": "few-shot",
            "compute": "limited",
        },
        text="I'm doing flood mapping on SAR in Bangladesh with few labels.",
    )
    ask = [
        ClarificationQuestion(field=f, text="?")
        for f in (
            "application",
            "task_type",
            "region",
            "compute",
            "max_parameters",
            "sensor",
            "min_performance",
        )
    ]
    ask.append(ClarificationQuestion(field="modalities", text="?", options=["Multispectral", "SAR"]))
    answers = answer_questions(query, ask)
    assert answers["application"] == "flood mapping"
    assert answers["task_type"] == "segmentation"
    assert answers["region"] == "Bangladesh"
    assert answers["compute"] == answers["max_parameters"] == "limited compute"
    assert answers["modalities"] == "SAR"
    assert "sensor" not in answers and "min_performance" not in answers


def test_resolve_systems_uses_the_factory() -> None:
    made = resolve_systems(["remsa", "db-retrieval"], Settings(), factory=lambda name, _: FakeSystem(name))
    assert [s.name for s in made] == ["remsa", "db-retrieval"]


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="remsa")
    cli.register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def test_cli_run_and_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    made: list[FakeSystem] = []

    def fake_resolve(names: Sequence[str], settings: Settings) -> list[FakeSystem]:
        made.extend(FakeSystem(n, reason="no LLM" if n == "unstructured-rag" else None) for n in names)
        return made

    monkeypatch.setattr(runner, "resolve_systems", fake_resolve)
    monkeypatch.setattr(runner, "load_judge_records", lambda settings: (RECORDS, "abc123", 0))
    out = tmp_path / "bench"
    run_args = [
        "bench",
        "run",
        "--systems",
        "remsa,unstructured-rag",
        "--select",
        "q01,A2",
        "--out",
        str(out),
    ]
    args = parse([*run_args, "--no-progress", "--no-charts"])
    assert args.func(args) == 0
    assert len(pick_lines(out)) == 2 * 6
    assert "unstructured-rag" in (out / "report.md").read_text()
    (out / "report.md").unlink()
    args = parse(["bench", "report", "--out", str(out), "--select", "q01,A2", "--no-charts"])
    assert args.func(args) == 0
    assert (out / "report.md").exists()


def test_cli_rejects_unknown_systems_and_missing_picks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parse(["bench", "run", "--systems", "gpt-oracle", "--out", str(tmp_path)])
    assert args.func(args) == 2
    assert "gpt-oracle" in capsys.readouterr().err
    args = parse(["bench", "report", "--out", str(tmp_path / "empty")])
    assert args.func(args) == 2


def test_the_naive_agent_says_why_it_cannot_run_on_a_model_without_tool_calls() -> None:
    from agent.baselines import get_system
    from agent.settings import Settings

    local = get_system("remsa-naive", Settings(llm={"provider": "llamacpp"}))  # type: ignore[arg-type]
    reason = local.unavailable_reason()
    assert reason is not None and "tool calling" in reason and "--llm openai:" in reason
    pick = local.select("flood mapping with Sentinel-1", 3)
    assert pick.status == "skipped" and pick.detail == reason
    served = Settings(llm={"provider": "openai", "model": "m", "base_url": "http://127.0.0.1:9"})  # type: ignore[arg-type]
    assert get_system("remsa-naive", served).unavailable_reason() is None
    assert get_system("remsa-naive", Settings()).unavailable_reason() is not None  # no LLM at all
