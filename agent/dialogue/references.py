"""Which models a message means: 'the second one', 'the top two', 'it' resolved to the names of the
models shown or named before, with a note saying how each was read."""

from __future__ import annotations

import re

from agent.mentions import DROP
from agent.resources import Resources
from agent.selection import Selection

# 'the first one', 'the second model', '#2', 'option 3': a model of the answer just given, by rank.
_ORDINAL_WORDS = {"first": 1, "1st": 1, "top": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "last": -1}
NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_ORDINAL = re.compile(
    r"\b(?:the\s+)?(first|1st|second|2nd|third|3rd|last)\s+"
    r"(?:one|model|pick|option|recommendation|result|suggestion|choice)\b"
    # Not 'the top model for SAR', a question of its own.
    r"|\b(?:the\s+)?(top)\s+(?:one|pick|recommendation|result|suggestion|choice)\b"
    r"|#\s?([1-9])\b|\b(?:number|no\.|option|model|pick)\s+([1-9]|one|two|three|four|five)\b(?!\s*(?:m\b|%|[a-z]))"
    # 'how many parameters does the third have?', 'and the last?': the ordinal alone, before a verb
    r"|\bthe\s+(first|1st|second|2nd|third|3rd|last)\b(?=\s*(?:[?.!,;]|$)|\s+(?:have|has|is|was|take|takes|"
    r"support|supports|need|needs|use|uses|run|runs|cost|costs|handle|handles)\b)"
    # ... or asked of: 'is the second open source?', 'does the third take SAR?'
    r"|(?:(?<=\bis\s)|(?<=\bwas\s)|(?<=\bdoes\s)|(?<=\bdid\s)|(?<=\bcan\s)|(?<=\bhas\s))the\s+"
    r"(first|1st|second|2nd|third|3rd|last)\b(?!\s+(?:time|step|stage|phase|place|year|half|round|layer)s?\b)"
    # ... 'was the top model evaluated on EuroSAT?', 'is the top model open source?'
    r"|(?:(?<=\bis\s)|(?<=\bwas\s)|(?<=\bdoes\s)|(?<=\bdid\s)|(?<=\bcan\s)|(?<=\bhas\s))the\s+(top)\s+model\b",
    re.IGNORECASE,
)


# 'exclude it', 'not that one', 'drop this model': the model the message before named.
_RULED_OUT = rf"(?:\bexclude|{DROP}|\bnot|\bno|\bwithout)"
_IT = r"(?:it|that\s+one|this\s+one|that\s+model|this\s+model)"
_PRONOUN_RULED_OUT = re.compile(rf"({_RULED_OUT})\s+({_IT})\b", re.IGNORECASE)
# 'how does it compare to CROMA?', 'is it good for SAR?': asked about the model named before.
_PRONOUN_ASKED_ABOUT = re.compile(
    rf"(\b(?:how\s+(?:does|would|will)|is|does|can|could|would|will|compare)\s+)({_IT})\b", re.IGNORECASE
)
# ... and a message that is nothing else: 'exclude it', 'not that one, please.'
ONLY_PRONOUN = re.compile(
    rf"\s*(?:please\s+)?{_RULED_OUT}\s+{_IT}(?:,?\s+please)?\s*[.!?]*\s*", re.IGNORECASE
)
# The notes saying which model a message's 'it' or 'the second one' stood for.
REFERENCE_NOTE = re.compile(
    r"(?:, as shown in the answer before|, the first model shown|, the model named in the message before)$"
)

# 'compare the top two', 'which of the first three ...': the models shown first, by number.
_COMPARE = re.compile(
    r"\b(?:compare|comparing|comparison|difference|differences|differ|versus|vs\.?|between|which of)\b",
    re.IGNORECASE,
)
_FIRST_FEW = re.compile(
    r"\b(?:the\s+)?(?:top|first)\s+(two|three|four|five|[2-5])\b(?:\s+(?:models|ones|options|picks|results))?",
    re.IGNORECASE,
)


# ... and a clause of its own: 'compare the top two', 'the differences between the first three'.
COMPARE_FIRST_FEW = re.compile(
    rf"\b(?:compare|comparing|(?:the\s+)?differences?\s+between)\s+{_FIRST_FEW.pattern}", re.IGNORECASE
)


def _first_few_count(match: re.Match[str]) -> int:
    """How many models a ``_FIRST_FEW`` match counts ('the top two': 2)."""
    word = match.group(1).lower()
    return NUMBER_WORDS.get(word) or int(word)


def compared_first_few(text: str) -> int | None:
    """How many of the first models 'compare the top two' or 'which of the first three ...' asks
    about; None when the text asks no such thing."""
    if not _COMPARE.search(text) or not (match := _FIRST_FEW.search(text)):
        return None
    return _first_few_count(match)


def name_ordinals(text: str, selection: Selection | None) -> tuple[str, str | None]:
    """``text`` with 'the first one', '#2', 'the top two' and the like replaced by the names of the
    models shown at those ranks in the answer just given, and a note saying so (None when there is
    nothing to name)."""
    if selection is None or not selection.models:
        return text, None
    shown = selection.models
    names: list[tuple[str, str]] = []

    def first_few(match: re.Match[str]) -> str:
        count = _first_few_count(match)
        models = [m for m in shown if m.rank <= count]
        if len(models) < 2:
            return match.group(0)
        said = ", ".join(m.name for m in models[:-1]) + f" and {models[-1].name}"
        names.append((match.group(0), said))
        return said

    if _COMPARE.search(text):  # 'show me the top 5' asks for more models, not for those shown
        text = _FIRST_FEW.sub(first_few, text)

    def name(match: re.Match[str]) -> str:
        word = next(g for g in match.groups() if g).lower()
        rank = _ORDINAL_WORDS.get(word) or NUMBER_WORDS.get(word) or int(word)
        # By rank: a model named by the user may be shown after the top ones at a lower rank.
        model = shown[-1] if rank < 0 else next((m for m in shown if m.rank == rank), None)
        if model is None:
            return match.group(0)
        names.append((match.group(0), model.name))
        return model.name

    if not names:  # (none named yet by 'the top two')
        text = _ORDINAL.sub(name, text)
    if not names:
        return text, None
    said = "; ".join(f"'{written}' read as {model}" for written, model in names)
    return text, f"{said}, as shown in the answer before"


def name_pronoun(
    text: str, selection: Selection | None, said_before: str, resources: Resources
) -> tuple[str, str | None]:
    """'exclude it', 'not that one' or 'how does it compare to CROMA?' after a message that named
    one model ('why is GFM first?'): ``text`` with that model's name, and a note saying so."""
    match = _PRONOUN_RULED_OUT.search(text) or _PRONOUN_ASKED_ABOUT.search(text)
    if match is None or selection is None or not said_before:
        return text, None
    named = resources.model_names().find(said_before).named
    if len(named) != 1:
        return text, None
    name = resources.by_id[named[0]].model_name
    start, end = match.span(2)
    note = f"'{match.group(2)}' read as {name}, the model named in the message before"
    return f"{text[:start]}{name}{text[end:]}", note
