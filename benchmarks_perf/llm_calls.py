"""LLM calls and tokens per query on the LLM path.

Run: ``.venv/bin/python benchmarks_perf/llm_calls.py [--queries N]``: a schema-filling fake model
answers each step with valid JSON built from the prompt (no network; tokens = characters / 4).

``--real``: the configured local model (``llamacpp``; the packaged GGUF by default) answers for
real; prints tokens and seconds per step, and the decoding speed under the JSON schema against
plain generation of the same prompt.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage

from agent.api import Session
from agent.llm_steps import LLMSteps
from agent.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


class SchemaFillingChat:
    """Replies with minimal valid JSON for each prompt kind and counts prompt characters."""

    def __init__(self) -> None:
        self.prompt_chars: list[int] = []

    def invoke(self, prompt: Any, **_: Any) -> AIMessage:
        text = str(prompt)
        self.prompt_chars.append(len(text))
        if "Convert the user's task description" in text:
            return AIMessage(content="{}")
        if "produce a ranked list" in text:
            block = text.split("Candidate Models:\n")[-1]
            names = [line.split(". ", 1)[1].split(" | ")[0] for line in block.splitlines() if " | " in line]
            return AIMessage(
                content=json.dumps(
                    [{"model": n, "rank": i + 1, "reason": ["fits"]} for i, n in enumerate(names)]
                )
            )
        models = json.loads(text.split("metadata and evidence are:\n", 1)[1].split("\nYour task:")[0])
        return AIMessage(
            content=json.dumps([{"model_name": m["model_name"], "explanation": ["fits"]} for m in models])
        )


def _per_step(trace: list[Any], table: dict[str, list[tuple[int, int, float]]]) -> None:
    """Add (prompt tokens, reply tokens, seconds) of each LLM request in ``trace`` to ``table``."""
    for step in trace:
        found = re.match(r"(\d+) prompt tokens, (\d+) reply tokens", step.detail)
        if step.step.startswith("llm:") and found:
            name = step.step[4:].removesuffix("-retry")
            table.setdefault(name, []).append((int(found[1]), int(found[2]), step.ms / 1000))


def _decoding_speed(llm: LLMSteps, prompt: str, schema: dict[str, Any]) -> tuple[float, float]:
    """Reply tokens per second for ``prompt``, under ``schema`` and plain (same token limit); each
    is timed on its second run, so both find the prompt already evaluated."""
    speeds = []
    for options in ({"response_format": {"type": "json_object", "schema": schema}}, {}):
        for _ in range(2):
            start = time.perf_counter()
            reply = llm.model.invoke(prompt, max_tokens=200, **options)
            seconds = time.perf_counter() - start
        speeds.append((reply.usage_metadata or {}).get("output_tokens", 0) / seconds)
    return speeds[0], speeds[1]


def real(texts: list[str]) -> int:
    """Tokens and seconds per step with the local model, and the cost of schema decoding."""
    from pydantic import TypeAdapter

    from agent.llm_reading import LLMQuery
    from agent.llm_steps import bounded
    from prompts import render
    from rsfmd.vocab import get_vocabulary

    settings = Settings(memory={"enabled": False}, llm={"provider": "llamacpp"})  # type: ignore[arg-type]
    start = time.perf_counter()
    llm = LLMSteps.from_settings(settings)
    print(f"model: {llm.engine_name}, loaded in {time.perf_counter() - start:.1f} s")
    table: dict[str, list[tuple[int, int, float]]] = {}
    totals = []
    for text in texts:
        start = time.perf_counter()
        selection = Session(settings, k=3, clarify=False, llm=llm).ask(text)
        totals.append(time.perf_counter() - start)
        _per_step(selection.trace, table)
    print(
        f"queries: {len(texts)}; seconds per query: "
        f"median {statistics.median(totals):.1f}, max {max(totals):.1f}"
    )
    print(
        "| step | requests | prompt tokens (median) | reply tokens (median) "
        "| seconds (median) | seconds (max) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name, rows in table.items():
        p, r, sec = (statistics.median(col) for col in zip(*rows, strict=True))
        print(f"| {name} | {len(rows)} | {p:.0f} | {r:.0f} | {sec:.1f} | {max(row[2] for row in rows):.1f} |")
    prompt = render(
        "interpret",
        query=texts[0],
        modalities=", ".join(get_vocabulary("modalities").names),
        task_types=", ".join(get_vocabulary("task_types").names),
    )
    schema_speed, plain_speed = _decoding_speed(llm, prompt, bounded(TypeAdapter(LLMQuery).json_schema()))
    print(
        f"decoding (interpret prompt): {schema_speed:.1f} tokens/s under the JSON schema, "
        f"{plain_speed:.1f} tokens/s plain; plain / schema = {plain_speed / max(schema_speed, 1e-9):.2f}"
    )
    return 0


def main() -> int:
    """Print calls and estimated prompt tokens per query (or, with --real, measure a real model)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--real", action="store_true", help="Use the local GGUF model (llamacpp).")
    args = parser.parse_args()
    settings = Settings(memory={"enabled": False})  # type: ignore[arg-type]
    lines = (ROOT / "benchmark_queries" / "queries.jsonl").read_text().splitlines()
    texts = [json.loads(line)["text"] for line in lines if line.strip()][: args.queries]
    if args.real:
        return real(texts)
    calls, tokens = [], []
    for text in texts:
        chat = SchemaFillingChat()
        Session(settings, clarify=False, llm=LLMSteps(chat, "fake")).ask(text)
        calls.append(len(chat.prompt_chars))
        tokens.append(sum(chat.prompt_chars) // 4)
    print(f"queries: {len(texts)}")
    print(f"LLM calls per query: min {min(calls)}, max {max(calls)}")
    print(f"prompt tokens per query (chars/4): median {statistics.median(tokens):.0f}, max {max(tokens)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
