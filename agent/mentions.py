"""Models named in a task description: "compare DOFA and CROMA", "anything but TerraMind".

Names and aliases come from RS-FMD. A name after "pretrained on" is the pretraining data, not the
model (the interpreter reads it). A name that is also an ordinary English word ("Clay", "RANGE",
"Falcon") or has three letters or fewer ("MTP") counts only when written as the record writes it;
other names count in any case. Names that are vocabulary terms (a sensor, a benchmark dataset) never
count; a pretraining corpus that shares its model's name (SeCo, SSL4EO-S12) is the model.
A name after "not" (but not "why not"), "no", "except", "without", "excluding", "other than",
"besides", "but", "drop", "remove", "skip" or "leave out" is an exclusion. A model named twice
takes its later reading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from wordfreq import zipf_frequency

from agent.reading.probes import Probed
from rsfmd.datasets import find_dataset, get_dataset_table
from rsfmd.schema import ModelRecord
from rsfmd.vocab import get_vocabulary, list_vocabularies

_COMMON_WORD_ZIPF = 3.0
# 'not', but not in 'why not DOFA?', which asks about DOFA without ruling it out.
NOT = r"(?<!\bwhy )\bnot"
# Verbs that leave a model out: 'drop the first one' (read as 'drop GFM'), 'remove Clay too'.
DROP = r"\b(?:drop|remove|skip|ignore|leave\s+out|take\s+out|get\s+rid\s+of)"
_NEGATION = re.compile(
    rf"(?:{NOT}|\bno|\bexcept|\bwithout|\bexcluding|\bexclude|\bother than|\bbesides|\bbut|\bavoid|"
    rf"{DROP}|\bminus)"
    r"(?:\s+(?:using|use|with|the|a|an|any|for|even|including))*\s*$",
    re.IGNORECASE,
)


def _size_reference(comparative: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Patterns for a named model as a size reference: after the name ('Prithvi but smaller',
    'CROMA, only much bigger') and before it ('something lighter than DOFA'). Not the question
    'is DOFA smaller than CROMA?'."""
    after = re.compile(
        rf"^[\s,]*(?:but|only|just|and|yet)\s+(?:a\s+bit\s+|much\s+|slightly\s+|a\s+)?{comparative}\b",
        re.IGNORECASE,
    )
    before = re.compile(
        rf"\b(?:a|an|something|anything|one|model|models|option|alternatives?)\s+"
        rf"(?:much\s+|slightly\s+|a\s+bit\s+)?{comparative}\s+(?:models?\s+)?than\s+(?:the\s+)?$",
        re.IGNORECASE,
    )
    return after, before


# Words that ask for a smaller or a larger model ('smaller', 'lighter'; 'bigger').
SMALLER_WORDS = r"(?:smaller|lighter|more\s+compact|tinier|leaner|less\s+heavy)"
LARGER_WORDS = r"(?:larger|bigger|heavier)"
_SMALLER_AFTER, _SMALLER_BEFORE = _size_reference(SMALLER_WORDS)
_ALTERNATIVE = r"\b(?:alternatives?|replacements?|substitutes?)\s+(?:to|for)\s+(?:the\s+)?$"
# 'something like Prithvi-EO-2.0 but under 50M', 'alternatives to DOFA': a model named as the
# reference for others, not one the user asks about.
_SIMILAR_BEFORE = re.compile(
    r"(?:^|\b(?:something|anything|a\s+model|models?|one|ones|alternatives?|options?|others?|"
    r"encoders?|backbones?))\s*(?:just\s+|much\s+)?like\s+(?:the\s+)?$|"
    r"\b(?:similar\s+to|comparable\s+to|akin\s+to)\s+(?:the\s+)?$|" + _ALTERNATIVE,
    re.IGNORECASE,
)
# 'alternatives to DOFA', 'a replacement for CROMA': others than that model.
_ALTERNATIVE_BEFORE = re.compile(_ALTERNATIVE, re.IGNORECASE)
_LARGER_AFTER, _LARGER_BEFORE = _size_reference(LARGER_WORDS)
LIST_GAP = re.compile(r"^(?:\s*(?:,|and|or|nor|/)\s*)+$", re.IGNORECASE)
# 'pretrained on SSL4EO-S12', 'trained mainly on MillionAID': what follows is pretraining data,
# even when a model shares its name.
PRETRAINED_ON = re.compile(
    r"\b(?:pre-?trained|trained|pre-?training|learned|learnt)\s+"
    r"(?:(?:only|mostly|mainly|exclusively|entirely|largely)\s+)?(?:on|with|using|from)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


@dataclass
class Mentions:
    """Model ids named in the text, in order of first mention: asked about, and ruled out."""

    named: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    smaller_than: list[str] = field(default_factory=list)
    """Named models the task asks to undercut in size ("like Prithvi but smaller", "lighter than DOFA")."""
    larger_than: list[str] = field(default_factory=list)
    """Named models the task asks to exceed in size ("like CROMA but bigger", "larger than DOFA")."""
    alternative_to: list[str] = field(default_factory=list)
    """Named models the task wants others than ("alternatives to DOFA"): left out of the answer."""
    similar_to: list[str] = field(default_factory=list)
    """Named models others should resemble ("like Prithvi but under 50M", "alternatives to DOFA")."""
    spans: list[tuple[int, int, tuple[str, ...]]] = field(default_factory=list)
    """(start, end, model ids) of every name in the text, in order."""


class ModelNames:
    """Finds RS-FMD model names in free text."""

    def __init__(self, records: Sequence[ModelRecord]) -> None:
        reserved = _vocabulary_keys()
        # (pattern source, flags, model ids, name length, probe): a pattern is compiled the first
        # time a text holds its probe, the name's longest part in lower case, which every match
        # contains; most of the several hundred names are never written in a session.
        patterns: list[tuple[str, int, tuple[str, ...], int, str]] = []
        families = _families(records)
        for record in records:
            for name in dict.fromkeys([record.model_name, *record.aliases]):
                name = name.strip()
                if len(name) < 3 or name.lower() in reserved:
                    continue
                exact = len(name) <= 3 or (
                    " " not in name and zipf_frequency(name.lower(), "en") >= _COMMON_WORD_ZIPF
                )
                parts = re.split(r"[\s\-_]+", name)
                body = r"[\s\-_]*".join(re.escape(part) for part in parts)
                flags = 0 if exact else re.IGNORECASE
                ids: tuple[str, ...] = (record.model_id,)
                if name != record.model_name:
                    # An alias that begins other models' names is their family's name: 'Prithvi'
                    # is Prithvi-EO-1.0 and Prithvi-EO-2.0 alike.
                    ids += tuple(r.model_id for r in families.get(name.lower(), ()) if r is not record)
                probe = max(parts, key=len).lower()  # ('' when the name is all separators)
                patterns.append((rf"(?<![\w^]){body}(?![\w^²])", flags, ids, len(name), probe))
        patterns.sort(key=lambda item: -item[3])  # longest first: 'DOFA-CLIP' before 'DOFA'
        self._patterns = Probed(patterns, lambda item: item[4])

    def compile(self) -> int:
        """Compiles every name's pattern now, and says how many (see ``compile_patterns``)."""
        for source, flags, *_ in self._patterns:
            _regex(source, flags)
        return len(self._patterns)

    def without_names(self, text: str, *, keep_datasets: bool = False) -> str:
        """``text`` with every model name blanked out, of the same length: what else it says
        ('SARATR-X-v2' names a model, not SAR target recognition). ``keep_datasets`` keeps a name
        that is also a dataset's ('pretrained on SSL4EO-S12')."""
        for start, end, _ in self.spans(text):
            if keep_datasets and find_dataset(text[start:end]) is not None:
                continue
            text = text[:start] + " " * (end - start) + text[end:]
        return text

    def spans(self, text: str) -> list[tuple[int, int, tuple[str, ...]]]:
        """(start, end, model ids) of every name in ``text``, in order; a name read as part of a
        longer one is not counted twice."""
        spans: list[tuple[int, int, tuple[str, ...]]] = []
        for source, flags, ids, _, _ in self._patterns.candidates(text):
            for match in _regex(source, flags).finditer(text):
                start, end = match.span()
                if start == 0 and flags & re.IGNORECASE == 0 and len(match.group(0)) > 3:
                    continue  # a capitalised common word opening the text is the word, not the model
                if not any(start < e and s < end for s, e, _ in spans):
                    spans.append((start, end, ids))
        spans.sort()
        return spans

    def find(self, text: str) -> Mentions:
        """Model ids named in ``text``; a name read as part of a longer one is not counted twice."""
        spans = self.spans(text)
        mentions = Mentions(spans=spans)
        negated_run = False
        previous_end = 0
        data_end: int | None = None  # where the last name read as pretraining data ends
        for start, end, ids in spans:
            before = text[:start]
            if PRETRAINED_ON.search(before[-80:]) or (
                data_end is not None and LIST_GAP.match(text[data_end:start])
            ):
                data_end = previous_end = end  # the corpus, not the model: 'pretrained on SeCo'
                continue
            if _NEGATION.search(before):
                negated_run = True
            elif not (negated_run and LIST_GAP.match(text[previous_end:start])):
                negated_run = False  # "not DOFA or CROMA": the whole list is ruled out
            target = mentions.excluded if negated_run else mentions.named
            smaller = _SMALLER_AFTER.match(text[end : end + 40]) or _SMALLER_BEFORE.search(text[:start])
            larger = _LARGER_AFTER.match(text[end : end + 40]) or _LARGER_BEFORE.search(text[:start])
            for model_id in ids:
                # The later mention decides, as a conversation goes: 'why is GFM first? ... not GFM'
                # rules GFM out, and 'not DOFA ... what about DOFA?' brings it back.
                other = mentions.named if negated_run else mentions.excluded
                if model_id in other:
                    other.remove(model_id)
                if model_id not in target:
                    target.append(model_id)
                if (
                    _SIMILAR_BEFORE.search(text[:start])
                    and not negated_run
                    and model_id not in mentions.similar_to
                ):
                    mentions.similar_to.append(model_id)
                    if _ALTERNATIVE_BEFORE.search(text[:start]):
                        mentions.alternative_to.append(model_id)
                if smaller and not negated_run and model_id not in mentions.smaller_than:
                    mentions.smaller_than.append(model_id)
                if larger and not negated_run and model_id not in mentions.larger_than:
                    mentions.larger_than.append(model_id)
            previous_end = end
        return mentions


@cache
def _regex(source: str, flags: int) -> re.Pattern[str]:
    """``source`` compiled with ``flags``, once per process."""
    return re.compile(source, flags)


def _families(records: Sequence[ModelRecord]) -> dict[str, list[ModelRecord]]:
    """Records by every lower-case beginning of their name that a space, hyphen or underscore
    follows: 'Prithvi-EO-2.0' is of the families 'prithvi' and 'prithvi-eo'."""
    out: dict[str, list[ModelRecord]] = {}
    for record in records:
        name = record.model_name.lower()
        for i, char in enumerate(name):
            if char.isspace() or char in "-_":
                out.setdefault(name[:i], []).append(record)
    return out


def _vocabulary_keys() -> set[str]:
    """Every sensor, modality, task, application, region, metric and benchmark name, lower-case."""
    keys: set[str] = set()
    for name in list_vocabularies():
        table = get_vocabulary(name)
        for canonical in table.names:
            keys.update(term.lower() for term in table.terms(canonical))
    datasets = get_dataset_table()
    for canonical in datasets.names:
        if datasets.column(canonical, "task_type"):  # benchmarks; not pretraining corpora
            keys.update(term.lower() for term in datasets.terms(canonical))
    return keys


# 'why not SAM?', 'what about CLIP?': a name asked about on its own, after an answer.
_ASKED_ABOUT = re.compile(
    r"^\W*(?:and\s+|so\s+)?(?:why\s+not|what\s+about|how\s+about)\s+(?:using\s+|plain\s+)?(?:the\s+)?"
    r"([A-Za-z][\w.+]*(?:-[\w.+]+)*)(?:\s+(?:model|instead|then))?\W*$",
    re.IGNORECASE,
)


def asked_about_name(text: str) -> str | None:
    """The name in 'why not SAM?' or 'what about DINOv2?' when it is written as a model's name is
    (capitals after the first letter, or digits) or is no ordinary English word; else None."""
    match = _ASKED_ABOUT.match(text)
    if match is None:
        return None
    name = match.group(1)
    written_as_a_name = bool(re.search(r"\d|.[A-Z]", name))
    if not written_as_a_name and zipf_frequency(name.lower(), "en") >= _COMMON_WORD_ZIPF:
        return None
    return name


def built_on(records: Sequence[ModelRecord], name: str) -> list[ModelRecord]:
    """Records whose backbone or name mentions ``name``: 'SAM' in 'SAM ViT-H image encoder' and in
    'RingMo-SAM', not in 'SAMRS' or 'SatMAE'."""
    flags = 0 if len(name) <= 4 else re.IGNORECASE  # 'SAM', not 'Sam'; 'llava' is LLaVA
    pattern = re.compile(rf"(?<![^\W_]){re.escape(name)}(?![^\W_])", flags)
    return [r for r in records if pattern.search(f"{r.backbone or ''} | {r.model_name}")]
