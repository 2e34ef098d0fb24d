"""The MCP server's `search` on a 3,500-passage tree, beside `ask`.

    python -m benchmarks.mcp_search [--passages 3500] [--questions 200] [--retrieval ranked]

Generates the synthetic tree of `corpus.py` (one passage per file), starts
`tui-assistant mcp` on it through the SDK's own stdio client, as a coding agent does,
and once the server is warm (the index store built, under `hybrid` the vectors in, one
call made) times each `search`
call from the client's request to its parsed result, over the corpus's questions.
Beside it: the same questions through the `ask` tool, and `tui-assistant ask --json`'s
own per-question time (`elapsed_ms`, in process, no protocol). Prints medians and 90th
percentiles in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from benchmarks.corpus import generate

ROOT = Path(__file__).resolve().parent.parent


def environment(data_dir: Path, retrieval: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env.update(TUI_ASSISTANT_DATA_DIR=str(data_dir), TUI_ASSISTANT_RETRIEVAL=retrieval)
    return env


def summary(name: str, milliseconds: list[float]) -> str:
    ordered = sorted(milliseconds)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"{name:<34} median {statistics.median(ordered):7.1f} ms   p90 {p90:7.1f} ms"


async def through_the_server(
    library: Path, env: dict[str, str], questions: list[str], wanted: str
) -> tuple[list[float], list[float], str]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tui_assistant", "mcp", "--library", str(library)],
        env=env,
    )
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            retrieval = ""
            while retrieval != wanted:  # hybrid answers once the vectors are in
                warm = await session.call_tool("search", {"question": questions[0]})
                retrieval = str(warm.structured_content["retrieval"])  # type: ignore[index]
                if retrieval != wanted:
                    await asyncio.sleep(1.0)
            searches, asks = [], []
            for question in questions:
                started = time.perf_counter()
                result = await session.call_tool("search", {"question": question, "limit": 5})
                searches.append((time.perf_counter() - started) * 1000)
                assert not result.is_error
            for question in questions:
                started = time.perf_counter()
                result = await session.call_tool("ask", {"question": question})
                asks.append((time.perf_counter() - started) * 1000)
                assert not result.is_error
    return searches, asks, retrieval


def in_process_ask(library: Path, env: dict[str, str], questions: list[str]) -> list[float]:
    printed = subprocess.run(
        [sys.executable, "-m", "tui_assistant", "ask", "--json", "--library", str(library)],
        input="\n".join(questions) + "\n",
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=ROOT,
    )
    return [float(json.loads(line)["elapsed_ms"]) for line in printed.stdout.splitlines()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=3500)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--retrieval", default="ranked", choices=("keyword", "ranked", "hybrid"))
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "tui-bench")
    args = parser.parse_args()
    corpus = generate(args.root, args.passages)
    with corpus.cases.open(encoding="utf-8") as stream:
        questions = [json.loads(line)["question"] for line in stream][: args.questions]
    # The index store (and under hybrid the vectors) are kept for the next run.
    env = environment(args.root / f"data-{args.passages}", args.retrieval)
    searches, asks, retrieval = asyncio.run(
        through_the_server(corpus.lessons, env, questions, args.retrieval)
    )
    in_process = in_process_ask(corpus.lessons, env, questions)
    print(f"{args.passages:,} passages, {len(questions)} questions, retrieval {retrieval}")
    print(summary("mcp search (limit 5), round trip", searches))
    print(summary("mcp ask, round trip", asks))
    print(summary("ask --json, elapsed_ms", in_process))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
