"""The realistic set: sourced gold that names RS-FMD records, a fixed split, and a judge that can fail."""

from __future__ import annotations

import json
from collections import Counter

from evaluation.realistic import (
    Constraints,
    constraint_breaks,
    load_requests,
    load_reworded,
    load_second_opinions,
    realistic_dir,
    score_request,
    select_split,
    summarise,
    top3_appearances,
)
from rsfmd.loader import load_records
from rsfmd.vocab import get_vocabulary

FAMILIES = {
    "A1",
    "A2",
    "A3",
    "A4",
    "A5",
    "B1",
    "B2",
    "B3",
    "C1",
    "C2",
    "C3",
    "D1",
    "D2",
    "D3",
    "D4",
    "COMPOSITE",
}


def test_every_gold_pick_and_must_not_names_an_rsfmd_record_and_good_picks_are_sourced() -> None:
    ids = {r.model_id for r in load_records()}
    requests = load_requests()
    assert len(requests) >= 80
    assert len({r.id for r in requests}) == len(requests)
    for request in requests:
        # Where RS-FMD holds no model known to do the task, the good picks are the closest models that
        # meet its hard constraints, which may be fewer than three; they may all be absent from it.
        assert (1 if request.no_known_fit else 3) <= len(request.good) <= 6, request.id
        assert request.good_ids or request.no_known_fit, request.id
        for good in request.good:
            assert good.source_url.startswith("http"), (request.id, good)
            assert (good.model_id in ids) if good.model_id else good.absent_from_rsfmd, (request.id, good)
        for bad in request.must_not:
            assert bad.model_id in ids and bad.reason, (request.id, bad)
        assert set(request.acceptable) <= ids, request.id
        assert not request.good_ids & {m.model_id for m in request.must_not}, request.id
        assert request.origin.url.startswith("http") and request.decision


def test_hard_constraints_name_modalities_of_rsfmd() -> None:
    # A modality the vocabulary does not hold could never be met, so every pick would break it.
    names = set(get_vocabulary("modalities").rows)
    for request in load_requests():
        assert set(request.constraints.modalities_any) <= names, request.id


def test_the_set_covers_every_family_modality_and_hardware_case() -> None:
    requests = load_requests()
    assert {r.family for r in requests} == FAMILIES
    modalities = Counter(m for r in requests for m in r.modalities)
    for modality in ("Multispectral", "SAR", "RGB", "Hyperspectral", "Multi-temporal", "Text", "LiDAR"):
        assert modalities[modality] >= 1, modality
    assert {"cpu", "edge", "single-gpu"} <= {r.hardware for r in requests}


def test_second_opinions_answer_requests_of_the_set_with_sourced_rsfmd_picks() -> None:
    ids = {r.model_id for r in load_records()}
    requests = {r.id for r in load_requests()}
    opinions = load_second_opinions()
    assert len(opinions) >= 30 and len({o.id for o in opinions}) == len(opinions)
    for opinion in opinions:
        assert opinion.id in requests, opinion.id
        assert len(opinion.picks) == 3 and opinion.note, opinion.id
        for pick in opinion.picks:
            assert pick.model_id in ids and pick.why and pick.source_url.startswith("http"), (
                opinion.id,
                pick,
            )


def test_the_split_is_fixed_disjoint_and_a_quarter() -> None:
    split = json.loads((realistic_dir() / "split.json").read_text(encoding="utf-8"))
    requests = load_requests()
    held, develop = select_split(requests, "held-out"), select_split(requests, "develop")
    assert split["seed"] == 2027
    assert len(held) == len(requests) // 4
    assert not {r.id for r in held} & {r.id for r in develop}
    assert len(held) + len(develop) == len(requests)
    # The first held-out quarter, whose aggregates were seen, is develop now; none of it is held out.
    assert set(split["retired_held_out"]["ids"]) <= {r.id for r in develop}
    # Held-out requests whose text was seen are develop now, replaced by as many drawn with a seed.
    seen = split["seen_held_out"]
    assert set(seen["moved_to_develop"]) <= {r.id for r in develop}
    assert set(seen["replacements"]) <= {r.id for r in held}
    assert len(seen["replacements"]) == len(seen["moved_to_develop"])


def test_constraint_breaks_read_the_record() -> None:
    by_id = {r.model_id: r for r in load_records()}
    strict = Constraints(modalities_any=["SAR"], needs_text=True, max_params_M=5, needs_public_weights=True)
    breaks = constraint_breaks(by_id["prithvi-eo-2.0"], strict)
    assert any("takes none of SAR" in b for b in breaks)
    assert "reads no text" in breaks
    assert any("over the 5M cap" in b for b in breaks)
    assert constraint_breaks(by_id["prithvi-eo-2.0"], Constraints(modalities_any=["Multispectral"])) == []


def test_score_request_counts_violations_good_and_acceptable() -> None:
    by_id = {r.model_id: r for r in load_records()}
    request = next(r for r in load_requests() if r.must_not and r.acceptable)
    good = sorted(request.good_ids)
    bad = request.must_not[0].model_id
    right = score_request(request, [good[0], request.acceptable[0], good[1]], by_id)
    assert right.top1_good and right.good_at_k and right.acceptable_fraction == 1.0
    wrong = score_request(request, [bad, bad, bad], by_id)
    assert wrong.violations and not wrong.good_at_k and not wrong.top1_good
    assert summarise([right, wrong]).violation_rate == 50.0


def test_top3_appearances_counts_and_orders() -> None:
    assert top3_appearances([["a", "b", "c", "d"], ["b", "a", "e"]]) == {"a": 2, "b": 2, "c": 1, "e": 1}


def test_bench_realistic_runs_and_judges_only_the_requests_selected(tmp_path, monkeypatch) -> None:
    from agent.cli import main

    monkeypatch.setenv("REMSA_DATA_DIR", str(tmp_path / "data"))
    out = tmp_path / "out"
    args = ["bench", "realistic", "--systems", "db-retrieval", "--no-dominance", "--out", str(out)]
    assert main([*args, "--select", "r1-01,r1-02"]) == 0
    metrics = json.loads((out / "realistic_metrics.json").read_text(encoding="utf-8"))
    assert metrics["summary"]["db-retrieval"]["all"]["requests"] == 2
    assert metrics["second_opinion"] == {}  # neither request has a second opinion
    opinion = load_second_opinions()[0]
    assert main([*args, "--select", f"r1-01,{opinion.id}"]) == 0
    metrics = json.loads((out / "realistic_metrics.json").read_text(encoding="utf-8"))
    by_id = {r.model_id: r for r in load_records()}
    request = next(r for r in load_requests() if r.id == opinion.id)
    expected = summarise([score_request(request, opinion.model_ids, by_id)]).model_dump()
    assert metrics["second_opinion"]["all"]["second opinion"] == expected
    assert metrics["second_opinion"]["all"]["db-retrieval"]["requests"] == 1
    assert "A second curator on the same requests" in (out / "realistic_report.md").read_text(
        encoding="utf-8"
    )
    # The develop requests among them are run reworded too, and judged on the original's gold.
    develop = {r.id for r in select_split(load_requests(), "develop")}
    chosen = sorted({"r1-01", opinion.id} & develop & set(load_reworded()))
    assert chosen
    rows = [
        json.loads(line) for line in (out / "realistic_picks.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    again = {row["id"]: row["pick"]["model_ids"] for row in rows}
    requests = {r.id: r for r in load_requests()}
    expected = summarise([score_request(requests[i], again[f"{i}~reworded"], by_id) for i in chosen])
    assert metrics["reworded"]["db-retrieval"]["reworded"] == expected.model_dump()
    assert metrics["reworded"]["db-retrieval"]["as written"]["requests"] == len(chosen)
    assert "in other words" in (out / "realistic_report.md").read_text(encoding="utf-8")
    assert main([*args, "--select", "r1-01,nope"]) == 2


def test_reworded_requests_are_develop_requests_in_other_words() -> None:
    reworded = load_reworded()
    requests = {r.id: r for r in load_requests()}
    held_out = {r.id for r in select_split(load_requests(), "held-out")}
    assert len(reworded) >= 200 and not set(reworded) & held_out  # the held-out quarter is never reworded
    for request_id, text in reworded.items():
        original = requests[request_id].text
        assert text.strip() and text != original
        assert 0.5 < len(text) / len(original) < 1.8, request_id
