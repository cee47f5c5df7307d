"""The realistic evaluation set: requests written as practitioners write, judged against sourced gold.

Each request (``benchmark_queries/realistic/requests.jsonl``) carries its hard constraints, 3-6
good picks with the URL of the fact that makes each good, must-nots with the reason, and
acceptable others. A system's top k is judged on:

- violation: a pick is a must-not, or breaks a hard constraint checked against its RS-FMD record
  (accepts none of the required modalities, reads no text when the task needs text, is larger
  than the stated cap in its smallest variant, has no public weights when they are required);
- good@k: at least one good pick in the top k; top-1 good: the first pick is good;
- acceptable fraction: the share of the top k that is good or acceptable.

The split (``split.json``) was fixed with a seed before any system was run on the set: the
held-out quarter is reported, never tuned on.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from benchmark_queries import realistic_dir, realistic_split
from rsfmd.schema import Category, ModelRecord

Split = Literal["held-out", "develop", "all"]


class Constraints(BaseModel):
    """What any recommended model must satisfy."""

    model_config = ConfigDict(extra="forbid")

    modalities_any: list[str] = Field(default_factory=list)
    needs_text: bool = False
    max_params_M: float | None = None  # noqa: N815 (the field name of the data file)
    needs_public_weights: bool = False


class GoodPick(BaseModel):
    """A model an expert would recommend, with the source of the fact that makes it good."""

    model_id: str | None
    why: str
    source_url: str
    name: str | None = None
    absent_from_rsfmd: bool = False


class MustNot(BaseModel):
    """A tempting model that breaks a hard constraint."""

    model_id: str
    reason: str


class Origin(BaseModel):
    """Where the request comes from."""

    kind: str
    url: str
    note: str = ""


class RealisticRequest(BaseModel):
    """One request of the realistic set with its gold."""

    id: str
    text: str
    family: str
    modalities: list[str]
    hardware: str
    origin: Origin
    constraints: Constraints
    good: list[GoodPick]
    must_not: list[MustNot]
    acceptable: list[str] = Field(default_factory=list)
    no_known_fit: bool = False
    decision: str

    @property
    def good_ids(self) -> set[str]:
        """RS-FMD ids of the good picks."""
        return {g.model_id for g in self.good if g.model_id}


class OpinionPick(BaseModel):
    """One pick of a second opinion, with the fact that decided it."""

    model_id: str
    why: str
    source_url: str


class SecondOpinion(BaseModel):
    """Another curator's answer to a request, written without seeing its gold."""

    model_config = ConfigDict(extra="forbid")

    id: str
    expert: str
    constraints: Constraints
    picks: list[OpinionPick]
    note: str

    @property
    def model_ids(self) -> list[str]:
        """The picks' RS-FMD ids, best first."""
        return [p.model_id for p in self.picks]


def load_second_opinions(path: Path | None = None) -> list[SecondOpinion]:
    """The second opinions (``second_opinion.jsonl``), in file order; none when the file is absent."""
    path = path or realistic_dir() / "second_opinion.jsonl"
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [SecondOpinion.model_validate_json(line) for line in lines if line.strip()]


def load_reworded(path: Path | None = None) -> dict[str, str]:
    """Develop requests written again in other words, same facts and asks (``reworded.jsonl``):
    request id -> text; none when the file is absent. Judged on the original's gold, they show how
    far an answer depends on the wording rather than on the request."""
    path = path or realistic_dir() / "reworded.jsonl"
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {row["id"]: row["text"] for row in rows}


class RequestScore(BaseModel):
    """How one system's top k fares on one request."""

    request_id: str
    picks: list[str]
    violations: list[str] = Field(description="'model_id: reason' for each pick that breaks a constraint.")
    good_at_k: bool
    top1_good: bool
    acceptable_fraction: float


def part_prefix(request_id: str) -> str:
    """The part of the set a request belongs to, as an id prefix ('r12a-03' -> 'r12a-'; a reworded
    request, 'r3-10~reworded', belongs to its original's part)."""
    return request_id.split("~", 1)[0].rsplit("-", 1)[0] + "-"


def load_requests(path: Path | None = None) -> list[RealisticRequest]:
    """Every request of the set, in file order."""
    path = path or realistic_dir() / "requests.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [RealisticRequest.model_validate_json(line) for line in lines if line.strip()]


def select_split(requests: Sequence[RealisticRequest], split: Split) -> list[RealisticRequest]:
    """The requests of one part of the seeded split (``all``: every request)."""
    if split == "all":
        return list(requests)
    ids = realistic_split("held_out" if split == "held-out" else "develop")
    return [r for r in requests if r.id in ids]


def constraint_breaks(record: ModelRecord, constraints: Constraints) -> list[str]:
    """The hard constraints ``record`` breaks, in words."""
    out = []
    modalities = set(record.modalities)
    product = record.category == Category.embedding_product  # published embeddings: nothing to run
    if constraints.modalities_any and not modalities & set(constraints.modalities_any):
        out.append(f"takes none of {', '.join(constraints.modalities_any)}")
    if constraints.needs_text and "Text" not in modalities:
        out.append("reads no text")
    size = record.smallest_parameters
    cap = constraints.max_params_M
    if cap is not None and size is not None and size > cap and not product:
        out.append(f"{size:g}M parameters, over the {cap:g}M cap")
    if constraints.needs_public_weights and record.weights_released is not True and not product:
        out.append("no public weights known")
    return out


def score_request(
    request: RealisticRequest, picks: Sequence[str], by_id: dict[str, ModelRecord], k: int = 3
) -> RequestScore:
    """Judge the top ``k`` of ``picks`` against the request's gold."""
    top = list(picks[:k])
    must_not = {m.model_id: m.reason for m in request.must_not}
    violations = []
    for model_id in top:
        reasons = [must_not[model_id]] if model_id in must_not else []
        record = by_id.get(model_id)
        reasons += constraint_breaks(record, request.constraints) if record is not None else ["not in RS-FMD"]
        if reasons:
            violations.append(f"{model_id}: {'; '.join(dict.fromkeys(reasons))}")
    good = request.good_ids
    fine = good | set(request.acceptable)
    return RequestScore(
        request_id=request.id,
        picks=top,
        violations=violations,
        good_at_k=any(m in good for m in top),
        top1_good=bool(top) and top[0] in good,
        acceptable_fraction=sum(m in fine for m in top) / k,
    )


class Summary(BaseModel):
    """Rates over a group of requests, in percent."""

    requests: int
    violation_rate: float
    good_at_3: float
    top1_good: float
    acceptable_fraction: float


def summarise(scores: Sequence[RequestScore]) -> Summary:
    """The four rates over ``scores``."""
    n = len(scores) or 1
    return Summary(
        requests=len(scores),
        violation_rate=round(100 * sum(bool(s.violations) for s in scores) / n, 1),
        good_at_3=round(100 * sum(s.good_at_k for s in scores) / n, 1),
        top1_good=round(100 * sum(s.top1_good for s in scores) / n, 1),
        acceptable_fraction=round(100 * sum(s.acceptable_fraction for s in scores) / n, 1),
    )


def grouped(
    requests: Sequence[RealisticRequest], scores: Sequence[RequestScore], key: Literal["family", "modality"]
) -> dict[str, Summary]:
    """Summaries per template family or per modality of the user's data."""
    by_id = {r.id: r for r in requests}
    groups: dict[str, list[RequestScore]] = defaultdict(list)
    for score in scores:
        request = by_id[score.request_id]
        for name in [request.family] if key == "family" else request.modalities:
            groups[name].append(score)
    return {name: summarise(groups[name]) for name in sorted(groups)}


def top3_appearances(picks: Iterable[Sequence[str]], k: int = 3) -> dict[str, int]:
    """How often each model reaches the top ``k``, most often first."""
    counts: dict[str, int] = defaultdict(int)
    for top in picks:
        for model_id in top[:k]:
            counts[model_id] += 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
