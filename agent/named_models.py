"""Models a task names, read into its query: those ruled out or asked for alternatives to are left
out, and 'like Prithvi but smaller' (or 'something smaller?' after an answer) becomes a size bound."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent.reading import Reading
from agent.reading.context import sentence_spans
from agent.reading.tables import cue_pattern
from agent.resources import Resources

if TYPE_CHECKING:
    from agent.turn import Turn


def read_model_names(turn: Turn, resources: Resources, reading: Reading) -> None:
    """Models the task names: the ones ruled out become exclusions, the others are shown.
    ``reading`` is the task's reading (its roles say which names were tried)."""
    mentions = resources.model_names().find(turn.text)
    _size_reference(turn, resources, mentions.smaller_than, larger=False)
    _size_reference(turn, resources, mentions.larger_than, larger=True)
    if turn.size_reference and not (mentions.smaller_than or mentions.larger_than):
        # 'what about something smaller?': smaller than what was shown first.
        model_id, larger = turn.size_reference
        _size_reference(turn, resources, [model_id], larger=larger, shown_first=True)
    # A model named only as a size reference ('smaller than DOFA') is not one the user asks about.
    references = {*mentions.smaller_than, *mentions.larger_than, *mentions.similar_to}
    turn.named_models = [m for m in mentions.named if m not in references]
    turn.references = [m for m in mentions.named if m in references]
    similar = [m for m in mentions.alternative_to if m not in turn.query.exclusions.models]
    if similar:
        # 'alternatives to DOFA': others than it.
        names = _leave_out(turn, resources, similar)
        turn.say(f"Alternatives to {names} asked for: {names} left out")
    if mentions.excluded:
        turn.say(f"Left out as asked: {_leave_out(turn, resources, mentions.excluded)}")
    said_of = [m for m in reading.models_in({"background"}, mentions.spans) if m in turn.named_models]
    if said_of:
        # 'unlike Prithvi, which only takes optical bands, ...': a model named as background is
        # not one the user asks about.
        turn.named_models = [m for m in turn.named_models if m not in said_of]
        names = ", ".join(resources.by_id[m].model_name for m in said_of)
        turn.say(f"Read as said of other models, not asked about: {names}")
    # (a model the user runs today is one tried, unless they ask whether it is the right choice)
    tried = [m for m in reading.models_in({"reference", "current"}, mentions.spans) if m in turn.named_models]
    tried += [m for m in _judged_poor(turn.text, mentions.spans) if m in turn.named_models and m not in tried]
    current = [m for m in reading.models_in({"current"}, mentions.spans) if m in tried]
    if current and cue_pattern("current_model", "judged").search(turn.text.lower()):
        tried = [m for m in tried if m not in current]
        names = ", ".join(resources.by_id[m].model_name for m in current)
        turn.say(f"{names}: what you use today, judged with the others as you ask if it is the right choice")
    if stuck := _stuck_setting_up(turn.text, mentions.spans, tried):
        # 'I tried RSPrompter but got an error': its trouble was running it, not its results.
        tried = [m for m in tried if m not in stuck]
        names = ", ".join(resources.by_id[m].model_name for m in stuck)
        turn.say(
            f"{names}: tried, but not yet running for you or held back by your setup, "
            "so judged with the others"
        )
    if tried:
        # 'we tried Prithvi ... something else?': the tried model is not offered again.
        turn.named_models = [m for m in turn.named_models if m not in tried]
        turn.say(f"Left out as already tried: {_leave_out(turn, resources, tried)}")


# Where the clause after a model's name ends: 'SatMAE gave mush, so ...' judges SatMAE alone.
_CLAUSE_END = re.compile(r"[,;:.?!()]|\s(?:but|while|whereas|although|though)\s")


def _judged_poor(text: str, spans: list[tuple[int, int, tuple[str, ...]]]) -> list[str]:
    """Models the task states a poor result of, in the clause that names them ('plain OpenAI CLIP
    gave mush', 'SatMAE performed poorly for us'): tried, though no 'tried' says so. A question
    ('did Prithvi do badly because of the bands?') states nothing."""
    verdict = cue_pattern("setup_trouble", "verdict")
    judged: list[str] = []
    for start, end in sentence_spans(text):
        if text[start:end].rstrip().endswith("?"):
            continue
        for s, e, ids in spans:
            if start <= s < end:
                after = text[e:end]
                clause = after[: m.start()] if (m := _CLAUSE_END.search(after)) else after
                if verdict.match(clause.lower()):
                    judged += ids
    return list(dict.fromkeys(judged))


def _stuck_setting_up(
    text: str, spans: list[tuple[int, int, tuple[str, ...]]], tried: list[str]
) -> list[str]:
    """The tried models whose sentence tells of trouble running them (an error, not loading, not yet
    training) and of no poor result, or blames a poor result on the user's own setup ('results were
    disappointing, possibly my preprocessing')."""
    trouble = cue_pattern("setup_trouble", "trouble")
    poor = cue_pattern("setup_trouble", "poor_result")
    own = cue_pattern("setup_trouble", "self_doubt")
    stuck = []
    for start, end in sentence_spans(text):
        said = text[start:end].lower()
        if (trouble.search(said) and not poor.search(said)) or own.search(said):
            stuck += [m for s, _, ids in spans if start <= s < end for m in ids if m in tried]
    return list(dict.fromkeys(stuck))


def _leave_out(turn: Turn, resources: Resources, model_ids: list[str]) -> str:
    """Adds ``model_ids`` to the query's excluded models; returns their names."""
    excluded = list(dict.fromkeys([*turn.query.exclusions.models, *model_ids]))
    exclusions = turn.query.exclusions.model_copy(update={"models": excluded})
    turn.query = turn.query.model_copy(update={"exclusions": exclusions})
    return ", ".join(resources.by_id[m].model_name for m in model_ids)


def _size_reference(
    turn: Turn, resources: Resources, model_ids: list[str], *, larger: bool, shown_first: bool = False
) -> None:
    """'like Prithvi but smaller': fewer parameters than the named model's smallest variant;
    'like CROMA but bigger': more than its largest. A size the user stated wins.
    ``shown_first``: the model is the previous answer's first pick, not one the task names."""
    compute = turn.query.compute
    if (compute.min_parameters_m if larger else compute.max_parameters_m) is not None:
        return
    records = [resources.by_id[m] for m in model_ids]
    sizes = {
        r.model_id: s for r in records if (s := r.largest_parameters if larger else r.smallest_parameters)
    }
    if not sizes:
        return
    model_id = (max if larger else min)(sizes, key=sizes.__getitem__)
    if larger:
        update: dict[str, object] = {"min_parameters_m": sizes[model_id], "above_floor": True}
    else:
        update = {"max_parameters_m": sizes[model_id], "below_limit": True}
    turn.query = turn.query.model_copy(update={"compute": compute.model_copy(update=update)})
    word, bound, variant = ("Larger", "more", "largest") if larger else ("Smaller", "fewer", "smallest")
    name = resources.by_id[model_id].model_name
    if shown_first:
        name += ", the first model shown before,"
    size = f"{sizes[model_id]:g}M parameters, the size of its {variant} variant"
    turn.say(f"{word} than {name} read as {bound} than {size}")
