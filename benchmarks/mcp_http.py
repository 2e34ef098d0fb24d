"""Fifty agents calling `search` at once, over streamable HTTP and over stdio, on three
libraries searched together.

    python -m benchmarks.mcp_http [--agents 50] [--calls 20] [--think 1.0] [--retrieval ranked]

The libraries: the synthetic tree of `corpus.py` (3,500 passages), and the development
sets eval/fastify-docs and eval/undici-docs (about 440 and 430 passages). The questions:
the corpus's own and the two sets' cases, in turn. One server process answers each
transport; once it is warm (index stores built, under `hybrid` the vectors in):

- every question is searched once, one call at a time, for the reference answer;
- HTTP: `--agents` sessions of the SDK's streamable HTTP client, each its own agent,
  call `search` `--calls` times each, all agents at once, on loopback;
- stdio: one session of the SDK's stdio client carrying the same agents' calls at once
  (the stdio transport serves one client).

An agent thinks between its calls, as a coding agent does between tool calls: a pause
drawn from an exponential distribution of mean `--think` seconds (so fifty agents offer
about fifty calls a second); `--think 0` sends every call the moment the last one is
answered, which measures the server saturated rather than agents served.

Each call is timed from the client's request to its parsed result. A call is lost when it
fails or never returns, mixed up when its passages are not the reference answer's for its
own question. Prints medians, 95th and 99th percentiles in milliseconds and calls per
second. Client and server share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import httpx2
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from benchmarks.corpus import generate

ROOT = Path(__file__).resolve().parent.parent
SETS = ("fastify-docs", "undici-docs")

Call = Callable[[str], Awaitable[tuple[float, list[str]]]]


def environment(data_dir: Path, retrieval: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env.update(
        TUI_ASSISTANT_DATA_DIR=str(data_dir),
        TUI_ASSISTANT_RETRIEVAL=retrieval,
        PYTHONPATH=str(ROOT),
    )
    return env


def questions_of(synthetic: Path, count: int) -> list[str]:
    """The corpus's questions and the sets' cases, interleaved, `count` of them."""
    sources = [synthetic, *(ROOT / "eval" / f"{name}.jsonl" for name in SETS)]
    lists = [
        [json.loads(line)["question"] for line in path.read_text(encoding="utf-8").splitlines()]
        for path in sources
    ]
    mixed = [question for group in zip(*lists, strict=False) for question in group]
    return (mixed * (count // len(mixed) + 1))[:count]


def library_options(synthetic_lessons: Path) -> list[str]:
    options = ["--library", f"synthetic={synthetic_lessons}"]
    for name in SETS:
        options += ["--library", str(ROOT / "eval" / name)]
    return options


async def timed(session: ClientSession, question: str) -> tuple[float, list[str]]:
    started = time.perf_counter()
    result = await session.call_tool("search", {"question": question, "limit": 5})
    elapsed = (time.perf_counter() - started) * 1000
    if result.is_error or not isinstance(result.structured_content, dict):
        raise RuntimeError(f"search failed: {result.content}")
    return elapsed, [passage["id"] for passage in result.structured_content["passages"]]


async def warm(session: ClientSession, question: str, wanted: str) -> None:
    """Until the server answers with `wanted` (hybrid, once the vectors are in)."""
    while True:
        result = await session.call_tool("search", {"question": question})
        if result.structured_content and result.structured_content["retrieval"] == wanted:
            return
        await asyncio.sleep(1.0)


async def reference(session: ClientSession, questions: list[str]) -> dict[str, list[str]]:
    answers: dict[str, list[str]] = {}
    for question in dict.fromkeys(questions):
        answers[question] = (await timed(session, question))[1]
    return answers


def stdio_session(args: list[str], env: dict[str, str]) -> AbstractAsyncContextManager[Any]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "tui_assistant", "mcp", *args], env=env, cwd=ROOT
    )
    return stdio_client(params, errlog=sys.stderr)


class Tally:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.lost = 0
        self.mixed = 0

    def line(self, name: str, seconds: float) -> str:
        if not self.times:
            return f"{name:<42} no call answered (lost {self.lost})"
        ordered = sorted(self.times)

        def at(share: float) -> float:
            return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

        return (
            f"{name:<42} median {statistics.median(ordered):6.1f}  p95 {at(0.95):6.1f}"
            f"  p99 {at(0.99):6.1f} ms  {len(ordered) / seconds:6.1f} calls/s"
            f"  lost {self.lost}  mixed up {self.mixed}"
        )


async def agents_at_once(
    calls: list[tuple[Call, list[str]]], expected: dict[str, list[str]], think: float
) -> tuple[Tally, float]:
    """Every agent runs its questions one after another, thinking `think` seconds on
    average before each, all agents at once."""
    tally = Tally()

    async def agent(call: Call, questions: list[str]) -> None:
        pauses = random.Random(len(tally.times) + id(questions))
        for question in questions:
            if think:
                await asyncio.sleep(pauses.expovariate(1 / think))
            try:
                elapsed, passages = await asyncio.wait_for(call(question), 120)
            except Exception:
                tally.lost += 1
                continue
            tally.times.append(elapsed)
            tally.mixed += passages != expected[question]

    started = time.perf_counter()
    await asyncio.gather(*(agent(call, questions) for call, questions in calls))
    return tally, time.perf_counter() - started


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def over_http(
    options: list[str], env: dict[str, str], work: list[list[str]], wanted: str, think: float
) -> tuple[Tally, float]:
    port = free_port()
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - read only if the server fails
    server = subprocess.Popen(
        [sys.executable, "-m", "tui_assistant", "mcp", *options, "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=errors,
        env=env,
        cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        while True:  # until it listens
            if server.poll() is not None:
                errors.seek(0)
                raise RuntimeError(errors.read().decode())
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                await asyncio.sleep(0.1)
        async with (
            httpx2.AsyncClient(timeout=120) as first,
            streamable_http_client(url, http_client=first) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await warm(session, work[0][0], wanted)
            expected = await reference(session, [q for questions in work for q in questions])
        clients = [httpx2.AsyncClient(timeout=120) for _ in work]
        sessions: list[ClientSession] = []
        async with contextlib.AsyncExitStack() as stack:
            for client in clients:
                await stack.enter_async_context(client)
                read, write = await stack.enter_async_context(
                    streamable_http_client(url, http_client=client)
                )
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                sessions.append(session)
            calls = [
                (lambda q, s=session: timed(s, q), questions)
                for session, questions in zip(sessions, work, strict=True)
            ]
            tally, seconds = await agents_at_once(calls, expected, think)  # type: ignore[arg-type]
        return tally, seconds
    finally:
        server.terminate()
        server.wait(30)


async def over_stdio(
    options: list[str], env: dict[str, str], work: list[list[str]], wanted: str, think: float
) -> tuple[Tally, float, Tally, float]:
    async with stdio_session(options, env) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await warm(session, work[0][0], wanted)
        expected = await reference(session, [q for questions in work for q in questions])
        one_by_one, alone = await agents_at_once(
            [(lambda q: timed(session, q), [q for questions in work for q in questions][:200])],
            expected,
            think=0,
        )
        calls = [(lambda q: timed(session, q), questions) for questions in work]
        tally, seconds = await agents_at_once(calls, expected, think)  # type: ignore[arg-type]
    return tally, seconds, one_by_one, alone


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--calls", type=int, default=20, help="searches per agent")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds an agent thinks between calls"
    )
    parser.add_argument("--passages", type=int, default=3500)
    parser.add_argument("--retrieval", default="ranked", choices=("keyword", "ranked", "hybrid"))
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "tui-bench")
    args = parser.parse_args()
    corpus = generate(args.root, args.passages)
    env = environment(args.root / f"data-http-{args.passages}", args.retrieval)
    options = library_options(corpus.lessons)
    questions = questions_of(corpus.cases, args.agents * args.calls)
    work = [questions[agent :: args.agents] for agent in range(args.agents)]
    http, http_seconds = asyncio.run(over_http(options, env, work, args.retrieval, args.think))
    stdio, stdio_seconds, one, one_seconds = asyncio.run(
        over_stdio(options, env, work, args.retrieval, args.think)
    )
    load = os.getloadavg()[0]
    print(
        f"libraries: synthetic {args.passages:,} + {' + '.join(SETS)}; retrieval"
        f" {args.retrieval}; {args.agents} agents x {args.calls} searches (limit 5),"
        f" thinking {args.think:g} s on average between calls;"
        f" {os.cpu_count()} cores, load {load:.1f}"
    )
    print(http.line(f"http, {args.agents} agents (sessions)", http_seconds))
    print(stdio.line(f"stdio, {args.agents} agents on one session", stdio_seconds))
    print(one.line("stdio, one call at a time", one_seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
