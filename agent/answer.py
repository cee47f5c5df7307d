"""The answer a finished turn gives (the explain state's work): RankedModel entries for the top k,
rewritten by the LLM when configured; the models the task names beyond them, with their rank or why
they were set aside, and how they compare; and the assumptions, as a Selection."""

from __future__ import annotations

import re
import uuid
from typing import TYPE_CHECKING, Any

from agent import answer_notes
from agent.prediction import capabilities_predictor
from agent.resources import Resources
from agent.selection import RankedModel, Selection, Status
from agent.settings import Settings
from tools.candidate import Candidate
from tools.explanation import explain, why_behind, why_ranked
from tools.filtering import violations
from tools.ranking import score_candidates

if TYPE_CHECKING:
    from agent.turn import Turn

_WHY = re.compile(r"\bwhy\b", re.IGNORECASE)
_WHY_SENTENCE = re.compile(r"\bwhy\b[^.?!;]*", re.IGNORECASE)


def selection_of(turn: Turn, resources: Resources, settings: Settings, llm: Any = None) -> Selection:
    """The Selection for ``turn``: its top k explained, then the models it names beyond them."""
    top = turn.ranked[: turn.k] if turn.status != Status.needs_clarification else []
    models = explain(top, turn.query)
    if llm is not None and models:
        models = llm.explain(turn.query, models, top)
        turn.trace.extend(llm.drain())
        turn.llm_fallbacks.extend(llm.take_fallbacks())
    assumptions = list(dict.fromkeys(turn.notes))
    if turn.status != Status.needs_clarification:
        named_notes: list[str] = []
        models += _named_beyond_top(turn, top, named_notes, resources, settings)
        assumptions.extend(named_notes)
        turn.answers.extend(named_notes)
    engine = turn.engine
    if turn.llm_fallbacks:
        stages = list(dict.fromkeys(turn.llm_fallbacks))
        assumptions.insert(0, answer_notes.llm_fell_back(turn.engine, stages))
        engine = f"{turn.engine}, offline fallback for {', '.join(stages)}"
    if (
        turn.outcome
        and turn.outcome.relaxed
        and top
        and (note := answer_notes.relaxed(turn.outcome.strict_count, top))
    ):
        assumptions.append(note)
    if turn.outcome and turn.outcome.short and 0 < len(top) < turn.k:
        assumptions.append(answer_notes.fewer_than_asked(len(top), turn.k))
    for c in top:
        if c.memory_note is None and turn.memory_deltas.get(c.record.model_id):
            c.memory_note = "You rated this model before"
    return Selection(
        status=turn.status,
        query=turn.query,
        query_text=turn.text,
        models=models,
        questions=turn.questions if turn.status == Status.needs_clarification else [],
        assumptions=assumptions,
        answers=[a for a in dict.fromkeys(turn.answers) if a in assumptions],
        overall_confidence=turn.confidence,
        clarification_rounds=turn.rounds,
        engine=engine,
        similar_tasks=turn.similar,
        suggestions=turn.suggestions,
        trace=turn.trace,
        database_version=resources.database_version,
        interaction_id=uuid.uuid4().hex,
        model_names={
            m: resources.by_id[m].model_name for m in turn.query.exclusions.models if m in resources.by_id
        },
    )


def _named_beyond_top(
    turn: Turn, top: list[Candidate], notes: list[str], resources: Resources, settings: Settings
) -> list[RankedModel]:
    """Models the task names that missed the top k: shown after it with their rank, or the
    reason they were set aside; then where the one asked about ranks, and how those named compare."""
    shown = {c.record.model_id for c in top}
    extra: list[RankedModel] = []
    positions = {c.record.model_id: i for i, c in enumerate(turn.ranked)}
    for model_id in sorted(turn.named_models, key=lambda m: positions.get(m, len(positions))):
        if model_id in shown:
            continue
        name = resources.by_id[model_id].model_name
        position = positions.get(model_id)
        if position is not None:
            ranked = explain([turn.ranked[position]], turn.query)[0]
            extra.append(ranked.model_copy(update={"rank": position + 1}))
            notes.append(
                f"You named {name}: ranked {position + 1} of {len(turn.ranked)} for this task, "
                f"shown after the top {len(top)}"
            )
        elif turn.outcome is not None and model_id in turn.outcome.rejected:
            lifted = _set_aside(turn, model_id, len(top), notes, resources, settings)
            extra.extend([lifted] if lifted is not None else [])
    ranked_named = [m for m in turn.named_models if m in positions]
    _where_named_rank(turn, ranked_named, shown, positions, notes, resources)
    if len(ranked_named) >= 2:  # 'DOFA vs CROMA': say which of them fits the task better
        notes.append(_head_to_head(turn, ranked_named, positions, resources))
    return extra


def _set_aside(
    turn: Turn, model_id: str, shown: int, notes: list[str], resources: Resources, settings: Settings
) -> RankedModel | None:
    """Why a named model was set aside; one that breaks only the sensor is also shown, with where
    it would rank were that lifted ('RGB aerial images ... SatMAE or Scale-MAE')."""
    assert turn.outcome is not None
    name = resources.by_id[model_id].model_name
    why = "; ".join(turn.outcome.rejected[model_id])
    lifted = _ranked_without_sensor(turn, model_id, resources, settings)
    if lifted is None:
        notes.append(f"You named {name}: set aside because {why}")
        return None
    would = sum(c.score > lifted.score for c in turn.ranked) + 1
    notes.append(
        f"You named {name}: set aside because {why}; were the sensor not required, it "
        f"would rank {would} of {len(turn.ranked) + 1} for this task, shown after the top "
        f"{shown}"
    )
    return explain([lifted], turn.query)[0].model_copy(update={"rank": would})


def _ranked_without_sensor(
    turn: Turn, model_id: str, resources: Resources, settings: Settings
) -> Candidate | None:
    """A named model that breaks the sensor constraint and nothing else, scored for the task
    with the sensor lifted; None when it breaks anything else."""
    record = resources.by_id[model_id]
    if set(violations(record, turn.query)) != {"sensor"}:
        return None
    lifted = Candidate(record=record, similarity=turn.similarity.get(model_id, 0.0), relaxed=["sensor"])
    pool = [*turn.candidates, lifted]
    scored = score_candidates(
        pool, turn.query, resources.evidence, capabilities_predictor(resources, settings)
    )
    return next(c for c in scored if c.record.model_id == model_id)


def _where_named_rank(
    turn: Turn,
    ranked_named: list[str],
    shown: set[str],
    positions: dict[str, int],
    notes: list[str],
    resources: Resources,
) -> None:
    """Where the one model asked about ranks ('is DOFA good for hyperspectral?'), and with 'why',
    what puts it there."""
    subject = None
    if len(ranked_named) == 1 and ranked_named[0] in shown and not turn.named_only:
        (subject,) = ranked_named  # 'is DOFA good for hyperspectral?'
    elif len(ranked_named) > 1 and (asked := _WHY_SENTENCE.findall(turn.text)):
        # 'DOFA vs CROMA ... why is DOFA first?': the one model the last 'why' names.
        in_why = [m for m in resources.model_names().find(asked[-1]).named if m in positions]
        subject = in_why[0] if len(in_why) == 1 else None
    if subject is None:
        return
    position = positions[subject]
    name = resources.by_id[subject].model_name
    note = f"You named {name}: ranked {position + 1} of {len(turn.ranked)} for this task"
    if _WHY.search(turn.text):
        # 'why is Clay first?': what puts it there, and by how much; 'why is the second
        # one ranked lower?': also what puts the model before it first.
        if position > 0:
            note += why_behind(turn.ranked[position], turn.ranked[position - 1])
        pair = explain(turn.ranked[position : position + 2], turn.query)
        note += why_ranked(pair[0], pair[1] if len(pair) > 1 else None)
    if len(ranked_named) > 1:
        notes.insert(0, note)  # the answer to the 'why' asked, before where the others rank
    else:
        notes.append(note)


def _head_to_head(
    turn: Turn, ranked_named: list[str], positions: dict[str, int], resources: Resources
) -> str:
    """Which of the models named fits better ('DOFA vs CROMA'), and where the second of two falls short."""
    fit = "on general-purpose capability" if turn.named_only else "for this task"
    order = sorted(ranked_named, key=positions.__getitem__)
    head_to_head = ", then ".join(f"{resources.by_id[m].model_name} (rank {positions[m] + 1})" for m in order)
    note = f"Of the models you named, the best fit {fit}: {head_to_head}"
    if len(order) == 2:
        # 'compare the top two': where the second falls short of the first.
        upper, lower = (turn.ranked[positions[m]] for m in order)
        note += f"; {lower.record.model_name} is" + why_behind(lower, upper).removeprefix(",")
    return note
