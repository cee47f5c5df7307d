"""How many models a message asks to see: 'top 5', 'show me ten options', 'show more'."""

from __future__ import annotations

import re

from agent.dialogue.reader import Reader
from agent.dialogue.references import NUMBER_WORDS
from agent.selection import Selection

# 'the top 5', 'show me 10 models', 'give me five options': how many models to show.
MAX_SHOWN = 20
# ('the top one' is the first model shown, not a count of one; '60% top-1' and 'top-5 accuracy'
# are a metric)
_COUNT = rf"(\d{{1,2}}|{'|'.join(w for w in NUMBER_WORDS if w != 'one')})"
_COUNT_ASKED = re.compile(
    rf"(?<!%\s)(?<!%)\btop[\s-]?{_COUNT}\b"
    r"(?!\s*(?:%|percent|m\b|km|cm|gb|bands?|classes|years?|accuracy|acc\b|error|oa\b))"
    rf"|\b(?:show|give|list|recommend|suggest|return)\s+(?:me\s+|us\s+)?(?:the\s+)?(?:top\s+|best\s+)?{_COUNT}"
    r"(?:\s+(?:more|other|best))?\s+(?:models|options|candidates|picks|recommendations|suggestions|choices|"
    r"alternatives|ones|results)\b"
    rf"|\b(?:show|give|list)\s+(?:me\s+|us\s+)?{_COUNT}\s*\W*$"
    rf"|\bthe\s+{_COUNT}\s+best\s+(?:models|options|candidates)\b",
    re.IGNORECASE,
)
# 'show more', 'more options', 'any others?': the next models after those shown.
_MORE = re.compile(
    r"^\W*(?:(?:please|can you|could you)\s+)?(?:(?:show|give|list)(?:\s+me|\s+us)?\s+)?"
    r"(?:some\s+|a\s+few\s+)?more(?:\s+(?:models|options|results|ones|candidates|alternatives|suggestions))?"
    r"(?:\s+please)?\W*$"
    r"|^\W*(?:any|what about|are there(?: any)?)?\s*(?:others|other (?:models|options)|alternatives)\W*$"
    r"|^\W*(?:the\s+)?next\s+(?:ones|page|few|three|3)\W*$",
    re.IGNORECASE,
)


def requested_count(text: str, selection: Selection | None, k: int) -> int | None:
    """How many models the text asks to see ('top 5', 'show me ten options'; 'show more' after an
    answer: ``k`` more than it showed), at most MAX_SHOWN; None when it asks no number."""
    if match := _COUNT_ASKED.search(text):
        word = next(g for g in match.groups() if g).lower()
        count = NUMBER_WORDS.get(word) or int(word)
        return min(count, MAX_SHOWN) if count >= 1 else None
    if selection is not None and selection.models and _MORE.search(text):
        return min(selection.top_count() + k, MAX_SHOWN)
    return None


def only_a_count(text: str, read: Reader) -> bool:
    """Whether the text asks only for a number of models, with nothing else for the task."""
    rest = _COUNT_ASKED.sub(" ", text)
    if _MORE.search(text) or not re.search(r"[a-z]{3,}", rest, re.IGNORECASE):
        return True
    return not read.filled(rest) and not re.search(r"\b(?:for|with|in|on|using|about)\b", rest, re.IGNORECASE)
