"""The two LLM baselines of the paper's comparison (they need a configured LLM).

UNSTRUCTURED-RAG: the raw query and retrieved model descriptions in one prompt (App. F).
REMSA-NAIVE: the same database tools handed to LangChain's default tool-calling agent, no
orchestration. Both return RS-FMD ids only: names the LLM invents are dropped.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler

from agent.errors import LLMError
from agent.resources import Resources, get_resources
from agent.settings import Settings
from prompts import render
from rsfmd.schema import ModelRecord
from rsfmd.vocab import term_key


class CallCounter(BaseCallbackHandler):
    """LLM calls and prompt tokens of one baseline run, failed calls included."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0
        self.prompt_tokens = 0

    def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        """A request starts: it counts whether or not it succeeds."""
        self.calls += 1

    def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        """Add the reply's prompt tokens (the provider's figure)."""
        for generations in getattr(response, "generations", []):
            for generation in generations:
                usage = getattr(getattr(generation, "message", None), "usage_metadata", None) or {}
                self.prompt_tokens += int(usage.get("input_tokens") or 0)

    def on_llm_error(self, error: BaseException, **kwargs: Any) -> None:
        """A failed request (already counted at its start)."""


def _resolve(names: list[str], records: list[ModelRecord]) -> list[str]:
    index: dict[str, str] = {}
    for r in records:
        for name in (r.model_name, r.model_id, *r.aliases):
            index.setdefault(term_key(name), r.model_id)
    ids: list[str] = []
    for name in names:
        found = index.get(term_key(name))
        if found and found not in ids:
            ids.append(found)
    return ids


def parse_ranked_names(text: str) -> list[str]:
    """Names from lines like '1. model: SatMAE' (the App. F output format)."""
    names = []
    for line in text.splitlines():
        head, sep, rest = line.strip().partition("model:")
        if sep and head.rstrip(". ").isdigit():
            names.append(rest.strip().strip("*` "))
    return names


def _describe(record: ModelRecord) -> str:
    return (
        f"{record.model_name}: {record.short_description} Modalities: {', '.join(record.modalities)}. "
        f"Sensors: {', '.join(record.supported_sensors) or 'unknown'}. "
        f"Size: {record.smallest_parameters or 'unknown'}M parameters."
    )


def run_unstructured_rag(
    settings: Settings, query: str, k: int, chat_model: Any = None, counter: CallCounter | None = None
) -> tuple[list[str], int, int]:
    """Model ids picked by an LLM from retrieved descriptions; (ids, calls, prompt tokens).

    ``counter`` keeps counting when the run fails."""
    from agent.llm import make_chat_model, reply_limit

    resources = get_resources(settings)
    hits = resources.retrieval.search(query, 20, -1.0)
    context = "\n\n".join(_describe(h.record) for h in hits)
    prompt = render("unstructured_rag", user_input=query, context_str=context)
    model = chat_model or make_chat_model(settings)
    counter = counter if counter is not None else CallCounter()
    try:  # the App. F answer is k short lines
        reply = model.invoke(prompt, config={"callbacks": [counter]}, **reply_limit(settings, 64 * k))
    except Exception as exc:  # provider errors come in many types; report them typed
        raise LLMError(f"unstructured-rag request failed: {type(exc).__name__}: {exc}") from exc
    if counter.calls == 0:  # a model outside LangChain's callbacks (a test double)
        counter.calls = 1
    text = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
    ids = _resolve(parse_ranked_names(text), resources.records)
    if not ids:
        raise LLMError("unstructured-rag reply named no model from RS-FMD", raw=text)
    tokens = int((getattr(reply, "usage_metadata", None) or {}).get("input_tokens") or len(prompt) // 4)
    return ids[:k], counter.calls, tokens


def _with_content(message: Any) -> Any:
    """An assistant turn that only calls tools, with its calls written as its text."""
    calls = getattr(message, "tool_calls", None)
    if not calls or message.content:
        return message
    names = ", ".join(str(call["name"]) for call in calls)
    return message.model_copy(update={"content": f"Calling {names}."})


def _tools_offered() -> Any:
    """Agent middleware: tool_choice "auto" (OpenAI's default when tools are sent; llama.cpp's
    server offers no tool unless told so), and earlier tool-call turns with text (that server
    rejects a null content)."""
    from langchain.agents.middleware import wrap_model_call

    @wrap_model_call
    def tools_on_offer(request: Any, handler: Any) -> Any:
        messages = [_with_content(m) for m in request.messages]
        return handler(request.override(tool_choice=request.tool_choice or "auto", messages=messages))

    return tools_on_offer


def _database_tools(resources: Resources) -> list[Any]:
    """The naive agent's tools: a search of RS-FMD and one record's details."""
    from langchain_core.tools import tool

    @tool
    def search_models(description: str) -> str:
        """Search RS-FMD for foundation models matching a task description; returns names and summaries."""
        hits = resources.retrieval.search(description, 15, -1.0)
        return "\n".join(_describe(h.record) for h in hits)

    @tool
    def model_details(name: str) -> str:
        """Details of one model in RS-FMD by name."""
        ids = _resolve([name], resources.records)
        if not ids:
            return f"No model named {name!r} in the database."
        return resources.by_id[ids[0]].model_dump_json(
            exclude_defaults=True, exclude={"sources", "benchmarks"}
        )[:3000]

    return [search_models, model_details]


def _final_names(text: str) -> list[str]:
    """The names of the agent's final answer: a JSON list, a ranked list or one name a line."""
    try:
        names = json.loads(text)
    except json.JSONDecodeError:
        names = parse_ranked_names(text) or [line.strip("-* ") for line in text.splitlines() if line.strip()]
    if not isinstance(names, list):
        raise LLMError("remsa-naive final answer was not a list of names", raw=text)
    return [str(n) for n in names]


def run_naive_agent(
    settings: Settings, query: str, k: int, chat_model: Any = None, counter: CallCounter | None = None
) -> tuple[list[str], int, int]:
    """Model ids from LangChain's default tool-calling agent over the database tools.

    ``counter`` keeps counting when the run fails."""
    from langchain.agents import create_agent

    from agent.llm import make_chat_model

    resources = get_resources(settings)
    # Each turn of the agent is a tool call or the final list of names: a few hundred tokens.
    capped = settings.llm.model_copy(update={"max_tokens": min(settings.llm.max_tokens, 384)})
    model = chat_model or make_chat_model(settings.model_copy(update={"llm": capped}))
    agent = create_agent(
        model,
        tools=_database_tools(resources),
        system_prompt=render("naive_agent", k=k),
        middleware=[_tools_offered()],
    )
    counter = counter if counter is not None else CallCounter()
    try:
        result = agent.invoke(
            {"messages": [{"role": "user", "content": query}]}, config={"callbacks": [counter]}
        )
    except Exception as exc:  # provider or agent-loop errors: report them typed
        raise LLMError(f"remsa-naive agent failed: {type(exc).__name__}: {exc}") from exc
    messages = result["messages"]
    final = messages[-1].content if messages else ""
    text = final if isinstance(final, str) else json.dumps(final)
    ids = _resolve(_final_names(text), resources.records)
    if not ids:
        raise LLMError("remsa-naive named no model from RS-FMD", raw=text)
    calls = max(counter.calls, sum(1 for m in messages if getattr(m, "type", "") == "ai"))
    tokens = sum(int((getattr(m, "usage_metadata", None) or {}).get("input_tokens") or 0) for m in messages)
    return ids[:k], calls, tokens
