"""LLM calls and prompt tokens per query on the LLM path, measured with a schema-filling fake model.

Run: ``.venv/bin/python benchmarks_perf/llm_calls.py [--queries N]``. The fake answers each step
with valid JSON built from the prompt (no network); tokens are estimated as characters / 4, which
is what a real endpoint's usage figures would replace.
"""

from __future__ import annotations

import argparse
import json
import statistics
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

    def invoke(self, prompt: Any) -> AIMessage:
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


def main() -> int:
    """Print calls and estimated prompt tokens per query."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=20)
    args = parser.parse_args()
    settings = Settings(memory={"enabled": False})  # type: ignore[arg-type]
    lines = (ROOT / "benchmark_queries" / "queries.jsonl").read_text().splitlines()
    texts = [json.loads(line)["text"] for line in lines if line.strip()][: args.queries]
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
