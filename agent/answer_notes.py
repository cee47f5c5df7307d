"""What an answer says of how it was reached: the inputs assumed when none were stated, what RS-FMD
cannot show for the task, constraints relaxed for closest matches and LLM steps the offline engine
did instead. Each function returns the wording; the orchestrator decides when it is said."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from agent.resources import Resources
from agent.wording import with_article
from rsfmd.datasets import described_for, find_dataset
from rsfmd.vocab import typical_modalities
from tools.candidate import Candidate
from tools.inputs import NOT_IMAGERY

if TYPE_CHECKING:
    from agent.turn import Turn

# 'how does this work?', 'what does the confidence mean?': a question about remsa itself.
_ABOUT_REMSA = re.compile(
    r"\bhow (?:does|do) (?:this|it|you|remsa)(?: \w+)? work\b|\bhow (?:are|do you|does remsa) "
    r"(?:the )?(?:models? )?(?:scored?|rank(?:ed)?|chosen|choose|select(?:ed)?)\b|"
    r"\bwhat (?:does|do|is) (?:the |a |this )?(?:confidence|scores?)(?: \w+)? mean\b|"
    r"\bwhat can (?:you|remsa|this|it) do\b",
    re.IGNORECASE,
)
_HOW_IT_WORKS = (
    "How remsa works: describe what you want to map or detect, with which imagery or sensor, how many "
    "labels you have and where the model will run. remsa reads these as constraints, keeps the models "
    "in RS-FMD that meet them, and ranks them on reported results for your task and data, size, "
    "pretraining coverage and recency, with every reason shown. Each score is out of 100; the "
    "confidence (0 to 1) grows with how much of the score rests on documented evidence and with the "
    "lead over the next model"
)

_NO_APPLICATION = "No application of RS-FMD recognised in the task: ranked on general-purpose capability"
NOT_UNDERSTOOD = (
    "Nothing in this text reads as a remote-sensing task, so no model is ranked. Describe what to map, "
    "detect or measure, which imagery you have (sensor or modality), how many labels, and where it "
    "must run, e.g. 'flood mapping with Sentinel-1, few labels, CPU laptop'"
)


# Applications RS-FMD covers only at its edge: said in the answer so nobody mistakes the best
# match for a dedicated system.
SCOPE_NOTES: dict[str, str] = {
    "weather forecasting": (
        "Dedicated weather forecasting models (e.g. Aurora, GraphCast) are outside RS-FMD's scope: "
        "these are Earth-observation models that take climate variables, not forecasting systems"
    ),
}


def how_it_works(text: str) -> str | None:
    """How remsa works, when the text asks ('how does this work?', 'what does the confidence mean?')."""
    return _HOW_IT_WORKS if _ABOUT_REMSA.search(text) else None


def named_only(names: str) -> str:
    """Models named with no task ('tell me about TerraMind', 'CROMA vs DOFA?')."""
    return (
        f"No task stated: shown are the models you named ({names}), ranked on general-purpose "
        "capability; describe your task to rank them for it"
    )


def assume_inputs(turn: Turn, resources: Resources, missing: list[str], catalogue: bool) -> None:
    """No input modality stated: prefer (not require) the inputs of the models the task refers to,
    the usual inputs of its application or the imagery of the benchmarks it names, and say so."""
    for name in missing:
        if name == "application":
            if not catalogue:  # a question about the catalogue asks for none
                turn.notes.append(_NO_APPLICATION)
            continue
        typical = typical_modalities(turn.query.application)
        reference_inputs = [
            m
            for r in turn.references
            for m in resources.by_id[r].modalities
            if m not in NOT_IMAGERY and m != "Multi-temporal"
        ]
        if reference_inputs and not typical:
            # 'like Prithvi-EO-2.0 but smaller': models for the imagery that model takes.
            inputs = list(dict.fromkeys(reference_inputs))
            turn.query = turn.query.model_copy(update={"assumed_modality": inputs})
            names = ", ".join(resources.by_id[r].model_name for r in turn.references)
            turn.notes.append(
                f"No input modality stated: preferred the inputs of {names} ({', '.join(inputs)}) "
                "without excluding others"
            )
        elif typical:
            turn.query = turn.query.model_copy(update={"assumed_modality": typical})
            turn.notes.append(
                f"No input modality stated: preferred the usual inputs for {turn.query.application} "
                f"({', '.join(typical)}) without excluding others"
            )
        else:
            turn.notes.append("No input modality stated: models for any imagery were considered")
    if not turn.query.modality and turn.query.datasets:
        infos = [i for d in turn.query.datasets if (i := find_dataset(d)) is not None]
        imagery = list(dict.fromkeys(m for i in infos for m in i.modalities))
        if imagery:
            turn.query = turn.query.model_copy(update={"assumed_modality": imagery})
            benchmarks = (
                f"the datasets of {', '.join(turn.query.suites)}"
                if turn.query.suites
                else ", ".join(i.name for i in infos)
            )
            turn.notes.append(
                f"No input modality stated: preferred the imagery of {benchmarks} "
                f"({', '.join(imagery)}) without excluding others"
            )


def retrieved(above: int, threshold: float, more: Sequence[str], with_results: Collection[str]) -> str:
    """The retrieve step: hits by text similarity, then those that came in on their results on the
    task (``with_results``) or as documented for the user's sensor."""
    detail = f"{above} candidates above similarity {threshold}"
    if results := sum(m in with_results for m in more):
        detail += f", {results} more with results on the task"
    if for_sensor := len(more) - results:
        detail += f", {for_sensor} more documented for your sensor"
    return detail


def no_result_on(application: str, task: str | None) -> str:
    """'chlorophyll-a from Sentinel-3': understood, but no model has a result to show for it."""
    return (
        f"No model in RS-FMD reports a result on {application}: ranked on how well each "
        f"handles {task or 'its task type'} with this data"
    )


def no_licence_stated(licences: list[str]) -> str:
    """No model left states the licence asked for."""
    return (
        f"No model left states {with_article(' or '.join(licences))} licence: those shown state none "
        "for their weights, or are closest matches"
    )


def built_for(ranked: list[Candidate], application: str) -> str | None:
    """'archaeological sites': a model built for them but with no result recorded is pointed to,
    wherever general-purpose capability ranks it."""
    built = [
        f"{c.record.model_name} (rank {i})"
        for i, c in enumerate(ranked, 1)
        if described_for(c.record, application)
    ]
    if not built:
        return None
    return f"Described as built for {application}, with no result recorded: {', '.join(built)}"


def relaxed(met: int, top: list[Candidate]) -> str | None:
    """Closest matches shown, and which constraints they relax, when any of ``top`` relaxes one."""
    constraints = sorted({c for cand in top for c in cand.relaxed})
    if not constraints:
        return None
    which = ", ".join(r.replace("_", " ") for r in constraints)
    if met >= len(top):
        # (more models met every constraint than are shown: a closest match ranked above them)
        names = [c.record.model_name for c in top if c.relaxed]
        return (
            f"{', '.join(names)}: {'a closest match' if len(names) == 1 else 'closest matches'} with "
            f"{which} relaxed, ranked above {met} models that met every constraint"
        )
    return (
        f"Only {met} {'model' if met == 1 else 'models'} met every constraint; the others "
        f"shown are closest matches with {which} relaxed"
        if met > 0
        else f"No model met every constraint; closest matches shown with {which} relaxed"
    )


def fewer_than_asked(shown: int, asked: int) -> str:
    """Fewer models shown than asked for: every other one breaks what no closest match bends."""
    return (
        f"Only {shown} of the {asked} models asked for can be shown: every other model in RS-FMD "
        "misses your kind of data, a size limit you stated, weights you need, or the output your task "
        "asks for"
    )


def llm_fell_back(engine: str, stages: list[str]) -> str:
    """Visible, not only in the trace: the answer says which steps the LLM did not do."""
    return (
        f"The LLM ({engine}) failed at {', '.join(stages)}; the offline engine did "
        f"{'that step' if len(stages) == 1 else 'those steps'} instead (details in the trace)"
    )


def not_widened(entries: list[str]) -> list[str]:
    """The LLM's reading named more inputs than the text's own words: kept out of the search."""
    if not entries:
        return []
    return [
        f"The LLM's reading also named {', '.join(entries)}; the task's own words name other inputs, "
        "so only those are searched"
    ]


def not_english(language: str) -> str:
    """The task seems written in another language, which only an LLM reads."""
    return (
        f"The task seems to be written in {language}; without an LLM remsa reads English "
        "only: describe the task in English, or configure an LLM (see the README)"
    )


ANSWERED_AT_ONCE = "Answered at once, as you asked about models by name"
# What a question left unasked would have found out, for the note that says so.
_REFINING = {
    "application": "what the model should do",
    "modality": "what imagery you have",
    "sensor": "which sensor your data comes from",
    "data_regime": "how much labelled data you have",
    "deployment_device": "where the model will run",
    "region": "which region your data is from",
}


def answered_at_once(unasked: list[str]) -> str:
    """Models asked about by name are ranked at once; what the questions left unasked would add."""
    wished = ", ".join(_REFINING.get(f, f.replace("_", " ")) for f in unasked)
    return f"{ANSWERED_AT_ONCE}; to sharpen it, say {wished}"
