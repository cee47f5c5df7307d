"""Where the user's data is: the regions named (not a dataset's name, nor a language such as
'Portuguese'), and the languages named, which RS-FMD cannot check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from agent.reading.tables import word_list
from agent.reading.terms import find_terms, overlaps
from rsfmd.regions import region_ancestors


@cache
def _languages() -> str:
    """The languages of ``languages.txt`` as one alternation."""
    return "|".join(word_list("languages.txt"))


@cache
def _language_after() -> re.Pattern[str]:
    languages = _languages()
    return re.compile(
        rf"\s*(?:$|[.,;:!?)]|(?:and|or)\s+(?:{languages})\b\s*(?:$|[.,;:!?)])|languages?\b|text\b|speakers?\b|"
        r"(?:please|only|too|also|as\s+well)\b)",
        re.IGNORECASE,
    )


def _names_a_language(text: str, start: int, end: int) -> bool:
    """'captions in Portuguese and English': the word names a language, not where the data is."""
    word = text[start:end].lower()
    languages = _languages()
    if not re.fullmatch(languages, word):
        return False
    # 'in English or French': the languages listed after 'in' are languages too.
    before = rf"\b(?:in|into|to)\s+(?:(?:{languages})\s*(?:,|and|or)\s+)*$"
    return bool(re.search(before, text[:start], re.IGNORECASE)) and bool(_language_after().match(text, end))


def _languages_named(plain: str, notes: list[str]) -> None:
    """Says in ``notes`` which languages other than English the task names: RS-FMD cannot check them."""
    languages = list(
        dict.fromkeys(
            m.group(0).capitalize()
            for m in re.finditer(rf"\b(?:{_languages()})\b", plain, re.IGNORECASE)
            if _names_a_language(plain, m.start(), m.end())
        )
    )
    if languages and languages != ["English"]:
        named = " and ".join(languages)
        kind = "languages" if len(languages) > 1 else "a language"
        notes.append(
            f"{named} named as {kind}: RS-FMD does not record which languages a model reads or writes, "
            "so this is not checked"
        )


# Band names around a word: 'coastal, blue, green' or 'the coastal band' name bands, not coasts.
_BAND_AFTER = re.compile(
    r"\s*(?:(?:aerosol|blue)\b|bands?\b|,\s*(?:blue|green|red|yellow|nir\d?|red\s+edge)\b)", re.IGNORECASE
)
_BAND_BEFORE = re.compile(r"\b(?:blue|green|red|yellow|nir\d?|edge)\s*(?:,|and)\s*$", re.IGNORECASE)


def _names_a_band(text: str, start: int, end: int) -> bool:
    """'coastal' in a list of band names is the coastal (aerosol) band."""
    return bool(_BAND_AFTER.match(text, end) or _BAND_BEFORE.search(text[:start]))


def read_regions(
    plain: str, dataset_ranges: Sequence[tuple[int, int]], excluded: Sequence[str], notes: list[str]
) -> list[str]:
    """The regions of the user's data named in ``plain`` (not inside a dataset's name at
    ``dataset_ranges``, not ``excluded``), the most specific of each; ``notes`` says what cannot count."""
    found = list(
        dict.fromkeys(
            r
            for r, start, end in find_terms(plain, "regions")
            # 'Indian Pines' and 'California Housing' are datasets, not places of the user's data.
            if not overlaps(start, end, dataset_ranges)
            and not _names_a_language(plain, start, end)
            and not _names_a_band(plain, start, end)
            # 'the Global South' is no global scope.
            and not (r == "Global" and re.match(r"\s+(?:south|north)\b", plain[end:], re.IGNORECASE))
        )
    )
    if hemisphere := re.search(r"\bglobal\s+(?:south|north)\b", plain, re.IGNORECASE):
        notes.append(
            f"'{hemisphere.group(0)}' is no region RS-FMD places: models are not weighed by region for it"
        )
    _languages_named(plain, notes)
    # 'the U.S. Midwest' is the Midwest: a region that contains another one named is dropped.
    found = [r for r in found if r not in excluded]  # 'anywhere except Europe'
    return [r for r in found if not any(o != r and r in region_ancestors(o) for o in found)]
