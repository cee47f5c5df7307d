"""Every LLM prompt as a template file, checked for its variables when loaded."""

from __future__ import annotations

import string
from functools import cache
from importlib import resources

# Template name -> the variables it must use, no more and no fewer.
PROMPT_VARIABLES: dict[str, frozenset[str]] = {
    "interpret": frozenset({"query", "modalities", "task_types"}),
    "rerank": frozenset({"query", "candidates"}),
    "explain": frozenset({"query", "ranked_models"}),
    "unstructured_rag": frozenset({"user_input", "context_str"}),
    "naive_agent": frozenset({"k"}),
    "extract": frozenset({"modalities", "task_types", "sensors", "categories", "sources"}),
    "extract_retry": frozenset({"prompt", "error"}),
}


class PromptError(ValueError):
    """A template is missing, or its variables differ from what the code fills."""


def template_variables(text: str) -> frozenset[str]:
    """Names of the ``{fields}`` in a format string."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


@cache
def load_prompt(name: str) -> str:
    """A template's text, after checking its variables."""
    if name not in PROMPT_VARIABLES:
        raise PromptError(f"unknown prompt {name!r}; known: {', '.join(sorted(PROMPT_VARIABLES))}")
    text = resources.files("prompts").joinpath(f"{name}.txt").read_text(encoding="utf-8")
    found = template_variables(text)
    if found != PROMPT_VARIABLES[name]:
        raise PromptError(
            f"prompts/{name}.txt uses {sorted(found)} but the code fills {sorted(PROMPT_VARIABLES[name])}"
        )
    return text


def render(name: str, **values: object) -> str:
    """A filled template; every variable must be given."""
    missing = PROMPT_VARIABLES.get(name, frozenset()) - set(values)
    if missing:
        raise PromptError(f"prompt {name!r} needs values for {sorted(missing)}")
    return load_prompt(name).format(**values)
