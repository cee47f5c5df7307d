"""Reading a message: which of its mentions are the user's requirements, and which play another role.

``read(text)`` returns a ``Reading``: the role spans of the context algorithm (``context.py``),
the text the structured query is built from (those spans blanked, so background, tried models,
labels' sources, hypotheticals and quoted examples never become requirements), and the mentions
set aside with their role, which the answer shows ("read as background: Landsat, NAIP").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources

from agent.reading.classes import class_list_spans, is_land_legend
from agent.reading.context import ROLE_WORDS, Role, RoleSpan, role_spans
from agent.reading.sizes import names_size
from agent.reading.tables import cue_pattern, model_noun_after

__all__ = ["Reading", "RoleSpan", "not_held", "on_subject", "read"]

_MENTION_VOCABULARIES = ("sensors", "modalities", "applications")
_DATA_VOCABULARIES = ("sensors", "modalities")
# Roles that set aside only the data said in them: what a model should produce names the task too.
_DATA_ONLY: frozenset[Role] = frozenset({"output"})
# Roles that set aside all but the task and data said in them: what the user runs today ('today we
# run a U-Net on our Sentinel-2 tiles for flood mapping') is no wish for its model, but its data
# and task are the user's.
_KEEP_MENTIONS: frozenset[Role] = frozenset({"current"})
# (and the metric its result is given in, the place and the hardware it runs on: 'a U-Net gets about
# 0.6 IoU on our tiles of Kenya' still says the user's metric and region)
_CURRENT_VOCABULARIES = (*_MENTION_VOCABULARIES, "metrics", "regions")


@dataclass(frozen=True)
class Reading:
    """One message read once: its role spans, the text of its requirements, mentions set aside."""

    text: str
    spans: tuple[RoleSpan, ...]
    set_aside: dict[Role, tuple[str, ...]] = field(default_factory=dict)

    @cached_property
    def required_text(self) -> str:
        """The message with every stretch of another role blanked (same offsets); what it rules
        out ('a GPU is out of the question') is restated after it as a negation ('no GPU'), which
        the reader of requirements already understands."""
        ruled_out = [
            words
            for s in self.spans
            if s.role == "excluded"
            for words in _ruled_out(_subject(self.text[s.start : s.end], s.cue))
        ]
        # 'ViT-L backbones were too slow': a size tried and found too slow or too big is ruled out.
        too_much = cue_pattern("size_limit", "too_much")
        ruled_out += [
            subject
            for s in self.spans
            if s.role == "reference"
            and too_much.search(s.cue)
            and names_size(subject := _subject(self.text[s.start : s.end], s.cue))
        ]
        # A restatement is read like any text: 'no 7B chat model' is itself set aside by its row.
        restated = "".join(
            _blank(f"; no {words}", role_spans(f"; no {words}"))
            for words in dict.fromkeys(ruled_out)
            if words
        )
        legends = [
            s for s in self.spans if s.role == "classes" and is_land_legend(self.text[s.start : s.end])
        ]
        return _blank(self.text, self._blanked) + restated + ("; land cover classes" if legends else "")

    @cached_property
    def _blanked(self) -> tuple[RoleSpan, ...]:
        """The stretches kept out of the requirements: whole spans, but of a span that says what the
        model should produce ('turn orthophotos into building vector layers') only its data, and of
        one that says what the user runs today all but its task and data."""
        data = tuple(
            RoleSpan(a, b, s.role, s.cue)
            for s in self.spans
            if s.role in _DATA_ONLY
            for a, b in self._mentions(s, _DATA_VOCABULARIES)
        )
        around = tuple(
            piece
            for s in self.spans
            if s.role in _KEEP_MENTIONS
            for piece in _around(s, self._mentions(s, _CURRENT_VOCABULARIES) + self._devices(s))
        )
        whole = tuple(s for s in self.spans if s.role not in _DATA_ONLY | _KEEP_MENTIONS)
        return whole + data + around

    def _mentions(self, span: RoleSpan, vocabularies: tuple[str, ...]) -> list[tuple[int, int]]:
        """Where the stretch of ``span`` names a term of ``vocabularies`` (offsets in the text)."""
        from agent.reading.terms import find_terms

        stretch = self.text[span.start : span.end]
        return [(span.start + a, span.start + b) for v in vocabularies for _, a, b in find_terms(stretch, v)]

    def _devices(self, span: RoleSpan) -> list[tuple[int, int]]:
        """Where the stretch of ``span`` names the hardware it runs on ('on a 4xA100 node'): the
        user's own."""
        from agent.reading.compute import device_spans

        return [(span.start + a, span.start + b) for a, b in device_spans(self.text[span.start : span.end])]

    def role_of(self, start: int, end: int) -> Role | None:
        """The role of the stretch [start, end) when a role span covers it, else None (required); of
        spans inside one another, the innermost says it ('Google Earth Engine' in a tried workflow is
        a tool)."""
        covering = [s for s in self.spans if s.start <= start and end <= s.end]
        return min(covering, key=lambda s: s.end - s.start).role if covering else None

    def models_in(self, roles: Collection[Role], spans: list[tuple[int, int, tuple[str, ...]]]) -> list[str]:
        """The model ids of ``spans`` (names' positions in the text) said in one of ``roles``:
        'reference' for 'we tried X', 'background' for 'unlike X, which ...'."""
        found = [ids for start, end, ids in spans if self.role_of(start, end) in roles]
        return list(dict.fromkeys(model_id for ids in found for model_id in ids))

    def notes(self) -> list[str]:
        """What was set aside, by role, for the answer."""
        return [
            f"Read as {ROLE_WORDS[role]}: {', '.join(names)}"
            for role, names in self.set_aside.items()
            if names
        ]


_ACTIVITY = re.compile(
    r"^(?:(?:so|then)\s+)?(?:fine[\s-]?tuning|training|running|using|deploying|hosting)\s+(?=\S)",
    re.IGNORECASE,
)
_ARTICLE = re.compile(
    r"^(?:(?:and|or|but|so|also|then|where|when|a|an|the|any|our|my|their|these|those)\s+)+", re.IGNORECASE
)


def _around(span: RoleSpan, mentions: list[tuple[int, int]]) -> list[RoleSpan]:
    """The stretches of ``span`` outside ``mentions``, in its role."""
    pieces, start = [], span.start
    for a, b in sorted(mentions):
        if a > start:
            pieces.append(RoleSpan(start, a, span.role, span.cue))
        start = max(start, b)
    if start < span.end:
        pieces.append(RoleSpan(start, span.end, span.role, span.cue))
    return pieces


def _blank(text: str, spans: Iterable[RoleSpan]) -> str:
    """``text`` with the stretches of ``spans`` blanked (same length, same offsets)."""
    chars = list(text)
    for span in spans:
        end = min(span.end, len(chars))
        chars[span.start : end] = " " * (end - span.start)
    return "".join(chars)


def _subject(stretch: str, cue: str) -> str:
    """What a ruled-out stretch names: 'a GPU is out of the question' -> 'GPU'."""
    words = re.sub(re.escape(cue), " ", stretch, flags=re.IGNORECASE).strip(" ,;:.")
    # 'fine-tuning anything in the billion-parameter range is out': the thing is ruled out, not the
    # activity ('no fine-tuning' would read as no training at all).
    return _ACTIVITY.sub("", _ARTICLE.sub("", words))


# A subject longer than this is restated by the data it names: 'a backbone that only accepts RGB or
# the fixed Sentinel-2 band set' rules out RGB and Sentinel-2, not the sentence.
_LONG_SUBJECT = 6
# A subject opened by a phrase of time or place ('during the monsoon optical imagery', 'in winter
# Sentinel-2') is restated by the data it names too: 'no during ...' would name nothing.
_OPTICAL = re.compile(r"\boptical(?:\s+(?:imagery|images|data|bands|scenes))?\b", re.IGNORECASE)
_LEADING_PHRASE = re.compile(
    r"(?:during|in|at|for|over|on|after|before|since|from|with|under|throughout|across|outside|between|"
    r"until|within|when)\s",
    re.IGNORECASE,
)


def _ruled_out(subject: str) -> list[str]:
    """What to restate as ruled out: the subject, or when it is long, each kind of data it names."""
    from agent.reading.terms import find_terms

    if len(subject.split()) <= _LONG_SUBJECT and not _LEADING_PHRASE.match(subject):
        return [subject]
    # (kept with the model noun it qualifies: 'SAR models' rules out a kind of model, 'SAR' the data)
    named = [
        subject[s : (m.end() if (m := model_noun_after().match(subject, e)) else e)]
        for vocabulary in ("modalities", "sensors")
        for _, s, e in find_terms(subject, vocabulary)
    ]
    # 'optical' stands for either kind of optical imagery, which no vocabulary term names.
    named += [m.group(0) for m in _OPTICAL.finditer(subject)]
    return list(dict.fromkeys(named)) or [subject]


def read(text: str) -> Reading:
    """Read ``text`` once: role spans (the class lists among them) and the vocabulary mentions they
    set aside."""
    from agent.reading.terms import find_terms

    spans = tuple(role_spans(text)) + tuple(class_list_spans(text))
    reading = Reading(text, spans)
    aside: dict[Role, list[str]] = {}
    if spans:
        for vocabulary in _MENTION_VOCABULARIES:
            found = find_terms(text, vocabulary)
            # A mention also made as the user's own ('drop thermal' beside 'our thermal band') stays theirs.
            required = {name for name, start, end in found if reading.role_of(start, end) is None}
            for name, start, end in found:
                role = reading.role_of(start, end)
                if (role in _DATA_ONLY and vocabulary not in _DATA_VOCABULARIES) or role in _KEEP_MENTIONS:
                    continue
                if role is not None and name not in required and name not in aside.setdefault(role, []):
                    aside[role].append(name)
    return Reading(text, spans, {role: tuple(names) for role, names in aside.items()})


@cache
def _domain_words() -> re.Pattern[str]:
    lines = (resources.files("agent.reading") / "domain_words.txt").read_text(encoding="utf-8").splitlines()
    words = [w.strip() for w in lines if w.strip() and not w.startswith("#")]
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])", re.IGNORECASE)


def on_subject(text: str) -> bool:
    """Whether ``text`` speaks of remote sensing at all (a vague task is on the subject; a recipe not)."""
    return bool(_domain_words().search(text))


@cache
def _not_held() -> tuple[tuple[re.Pattern[str], str], ...]:
    import csv

    text = (resources.files("agent.reading") / "not_held.csv").read_text(encoding="utf-8")
    rows = []
    for row in csv.DictReader(text.splitlines()):
        phrases = [p.strip() for p in row["phrases"].split("|") if p.strip()]
        pattern = re.compile(
            r"(?<![\w-])(?:" + "|".join(map(re.escape, phrases)) + r")(?![\w-])", re.IGNORECASE
        )
        rows.append((pattern, row["note"]))
    return tuple(rows)


def not_held(text: str) -> list[str]:
    """What the text asks for that no model in RS-FMD takes, said so it is not silently dropped."""
    return [note for pattern, note in _not_held() if pattern.search(text)]
