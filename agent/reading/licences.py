"""Licence and weights wishes: permissive licences named ('Apache-2.0 or MIT only'), commercial use
asked for or ruled out, and open weights.
"""

from __future__ import annotations

import re

from rsfmd.licenses import LICENSE_FAMILIES, license_family

_NOT_COMMERCIAL = re.compile(r"non[\s-]?commercial|not (?:for )?commercial|no commercial|research[\s-]only")
# 'I can't use anything non-commercial', 'no CC-BY-NC weights': non-commercial ruled out, so
# commercial use is asked for.
_NO_NON_COMMERCIAL = re.compile(
    r"\b(?:can'?t|cannot|can not|won'?t|must ?n[o']t|mustn'?t|not allowed to|no|not|avoid|exclude|excluding|"
    r"without|nothing|never|rule out)\s+(?:(?:use|using|accept|take|touch|any|anything|a|the|models?|"
    r"weights|with|under|that is|that are|which is|which are|licensed)\s+){0,4}"
    r"(?:non[\s-]?commercial|research[\s-]only|cc[\s-]by[\s-]nc[\w.-]*|nc)\b"
)
_COMMERCIAL = re.compile(
    r"\bcommercial|for (?:a|our|my) (?:company|startup|business|client|product)|business use|"
    r"permissive licen[cs]e|sell (?:the|a|our) (?:product|service)"
)


def licence_spans(lowered: str) -> list[tuple[int, int]]:
    """Where the text speaks of licences, commercial use or open weights."""
    patterns = (_OPEN_WEIGHTS, _COMMERCIAL, _NOT_COMMERCIAL, _NO_NON_COMMERCIAL, _PERMISSIVE_NAMED)
    return [m.span() for pattern in patterns for m in pattern.finditer(lowered)]


def asks_commercial_use(lowered: str, permissive: bool) -> bool:
    """Commercial use asked for, and not undone by a non-commercial wish ('non-commercial research
    is fine'); 'nothing non-commercial' asks for it."""
    if _NO_NON_COMMERCIAL.search(lowered):
        return True
    return bool(_COMMERCIAL.search(lowered) or permissive) and not _NOT_COMMERCIAL.search(lowered)


# 'Apache-2.0 or MIT only', 'BSD-licensed': a named permissive licence.
_CC = r"cc[\s-]?by(?![\s-]*(?:nc|sa|nd)\b)(?:[\s-]*4(?:\.0)?)?|cc[\s-]?0"
_LICENCE_NAME = rf"(?:apache(?:[\s-]*2(?:\.0)?)?|mit|bsd(?:[\s-]*[23](?:[\s-]clause)?)?|{_CC})\b"
_PERMISSIVE_NAMED = re.compile(
    # 'CC-BY-4.0', 'CC0': a Creative Commons name is a licence on its own.
    rf"\b(?:{_CC})\b|"
    rf"\b{_LICENCE_NAME}"
    r"(?=[^.]{0,40}\blicen[cs](?:e|ed|ing)\b|\s*(?:or|/|,)\s*(?:apache|mit|bsd|cc)\b|[\s-]licen[cs]ed\b"
    r"|\s*or\s+(?:anything\s+|something\s+)?(?:more\s+permissive|less\s+restrictive)\b)"
    r"|\blicen[cs]ed? (?:under )?(?:apache|mit|bsd)\b|\bapache[\s-]2(?:\.0)?\b"
    # 'SAR ship detection, under 30M params, Apache': a bare licence name closing a list of constraints.
    rf"|(?:(?<=,)|(?<=;))\s*{_LICENCE_NAME}(?=\s*(?:only)?\s*(?:$|[.;!?)]))"
)
_MORE_PERMISSIVE = re.compile(
    r"\bor\s+(?:anything\s+|something\s+)?(?:more\s+permissive|less\s+restrictive)\b"
)
_LICENCE_RUN = re.compile(rf"(?:[\s-]*2(?:\.0)?\b)?(?:\s*(?:,|/|or|and)\s*{_LICENCE_NAME})*")
_LICENCE_LIST = re.compile(rf"\b{_LICENCE_NAME}")
_OPEN_WEIGHTS = re.compile(
    r"open[\s-]?weights?|open[\s-]source (?:[\w-]+\s+){0,3}?(?:models?|weights|checkpoints?)\b|"
    r"downloadable (?:weights|checkpoints?)|"
    r"(?:weights|checkpoints?) (?:must|need to|should|have to) be (?:publicly )?"
    r"(?:available|downloadable|released|public|open)|"
    r"(?:publicly )?(?:available|released|public) (?:pretrained )?(?:weights|checkpoints?)|"
    r"pretrained (?:weights|checkpoints?) (?:available|released|i can download)|"
    # 'ViT-L models with weights', 'ones that have released checkpoints'; not 'with weights frozen'
    r"\b(?:with|have|has|having)\s+(?:pretrained\s+|released\s+|public\s+|downloadable\s+)?"
    r"(?:weights|checkpoints)\b(?!\s+(?:frozen|fixed|locked|kept))|"
    # 'weights on Hugging Face', 'checkpoints released on GitHub'
    r"(?:weights|checkpoints?|models?)\s+(?:\w+\s+){0,2}?on\s+(?:hugging\s?face|the\s+hf\s+hub|hf|github|zenodo)\b"
)


def asks_open_weights(lowered: str) -> bool:
    """Whether the task wants weights it can download."""
    return bool(_OPEN_WEIGHTS.search(lowered))


def read_licences(lowered: str, notes: list[str]) -> tuple[list[str], bool]:
    """The licence families the task allows (empty: any) and whether it named a permissive licence,
    saying in ``notes`` how they were read."""
    licence_at: dict[int, str] = {}  # start -> licence as written
    for match in _PERMISSIVE_NAMED.finditer(lowered):
        # 'apache-2.0 or mit only': the licences listed after a named one are named too.
        run = _LICENCE_RUN.match(lowered, match.end())  # matches, if only the empty string
        end = run.end() if run else match.end()
        licence_at.update(
            (m.start(), m.group(0)) for m in _LICENCE_LIST.finditer(lowered, match.start(), end)
        )
    named_licences = list(dict.fromkeys(licence_at[k] for k in sorted(licence_at)))
    permissive = bool(named_licences)
    licences = list(dict.fromkeys(f for m in named_licences if (f := license_family(m))))
    more = _MORE_PERMISSIVE.search(lowered) if licences else None
    if more:
        # 'CC-BY-4.0 or more permissive': that licence and the others asking attribution at most.
        licences = list(dict.fromkeys([*licences, *(name for name, _ in LICENSE_FAMILIES)]))
    if licences:
        named = ", ".join(repr(m) for m in named_licences) + (f" {more.group(0)}" if more else "")
        notes.append(
            f"{named} read as: only models licensed {' or '.join(licences)}, which allow commercial use"
        )
    return licences, permissive
