"""Three `mcp --http` servers sharing one PostgreSQL store beside one server on the SQLite
store with the same total workers: the same answers, the p95 of a search under many
agents, how soon an edit indexed once is served by all three, and each server's memory.

    pip install -e '.[test,mcp,postgres]'
    python -m benchmarks.pg_servers [--agents 150] [--calls 4] [--questions 600]

Loopback only, every loop bounded. The libraries are the development sets (their
questions are the ones asked) and a small `edits` library the run changes; retrieval is
`ranked`, so no model is loaded and the figures are the stores'. In one run:

- the indexer writes every library to the store (`tui-assistant index`);
- a SQLite server answers each question once, one at a time: the reference; then,
  started afresh, the three servers (separate processes, separate data folders, one worker
  each) answer them under `--agents` agents in all, split evenly, and a SQLite server
  with `--workers 3` under the same agents: calls lost, answers that differ from the reference, p95;
- an edit to `edits`, indexed once: the time from the store's commit until each
  server's `/health` names the new version (polled every 10 ms, at most 30 s);
- each server's resident memory (RSS, with its workers) after the load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import psutil
import psycopg

from benchmarks.mcp_agents import agents, p95, server, session_call, split, until_serving
from benchmarks.mcp_http import environment, free_port
from benchmarks.pg_server import postgres, with_schema
from scripts.devsets.sets import available
from tui_assistant.core.evaluation import parse_cases


def questions_of(sets: list[tuple[str, Path, Path]], count: int) -> list[str]:
    found: dict[str, None] = {}
    for _, cases, _ in sets:
        for case in parse_cases(cases.read_text(encoding="utf-8").splitlines()):
            found[case.question] = None
    return list(found)[:count]


def index(env: dict[str, str], options: list[str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tui_assistant", "index", *options],
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )
    if done.returncode:
        raise SystemExit(f"index failed: {done.stderr.strip()}")
    return done.stdout


def memory_mb(port: int) -> float:
    """The RSS of the server listening on `port`, with its children (workers)."""
    for process in psutil.process_iter(["cmdline"]):
        cmdline = process.info["cmdline"] or []
        if "--http" in cmdline and str(port) in cmdline:
            tree = [process, *process.children(recursive=True)]
            return sum(p.memory_info().rss for p in tree) / 2**20
    return 0.0


def edit_reaches_servers(
    env: dict[str, str], edits: Path, urls: list[str], store: str, schema: str
) -> list[float]:
    """Seconds from the commit of an edit's version until each server serves it."""
    health = [url.removesuffix("/mcp") + "/health" for url in urls]

    def served(url: str) -> object:
        entries = httpx.get(url, timeout=5).json()["libraries"]
        return next(entry["version_id"] for entry in entries if entry["name"] == "edits")

    before = {url: served(url) for url in health}
    (edits / "kettle.md").write_text(
        f"# Descaling the kettle\n\nBoil vinegar ({time.time()}).\n", encoding="utf-8"
    )
    indexer = subprocess.Popen(
        [sys.executable, "-m", "tui_assistant", "index", "--library", f"edits={edits}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    with psycopg.connect(store, autocommit=True) as watcher:
        query = f"SELECT current_version FROM \"{schema}\".libraries WHERE name = 'edits'"
        old = watcher.execute(query).fetchone()
        deadline = time.monotonic() + 120
        while watcher.execute(query).fetchone() == old and time.monotonic() < deadline:
            time.sleep(0.01)
        committed = time.monotonic()
    seen: dict[str, float] = {}
    while len(seen) < len(health) and time.monotonic() < committed + 30:
        for url in health:
            if url not in seen and served(url) != before[url]:
                seen[url] = time.monotonic() - committed
        time.sleep(0.01)
    indexer.wait(120)
    return [seen.get(url, float("inf")) for url in health]


async def run(args: argparse.Namespace, root: Path, url: str) -> None:
    sets = available()
    edits = root / "edits"
    edits.mkdir(exist_ok=True)
    (edits / "kettle.md").write_text("# Descaling the kettle\n\nBoil vinegar.\n", "utf-8")
    options = [arg for name, _, folder in sets for arg in ("--library", f"{name}={folder}")]
    options += ["--library", f"edits={edits}"]
    questions = questions_of(sets, args.questions)
    schema = "servers"
    store = with_schema(url, schema)
    sqlite_env = environment(root / "data-sqlite", "ranked")
    shared_env = {**sqlite_env, "TUI_ASSISTANT_STORE": store}
    started = time.monotonic()
    index(shared_env, options)
    print(f"indexed {len(sets) + 1} libraries in {time.monotonic() - started:.0f} s", flush=True)
    # The reference answers come from a server of their own, so that the timed SQLite
    # server starts as cold as the PostgreSQL ones (nothing asked before).
    expected: dict[str, list[str]] = {}
    with server(options, sqlite_env, free_port()) as reference:
        await asyncio.wait_for(until_serving(reference, "ranked"), 600)
        for question in questions:
            found = await session_call(reference, question)
            expected[question] = [p["id"] for p in found["passages"]]  # type: ignore[index, union-attr]
    ports = [free_port() for _ in range(4)]
    with ExitStack() as stack:
        reference_url = stack.enter_context(
            server(options, sqlite_env, ports[0], "--workers", str(args.servers))
        )
        urls = [
            stack.enter_context(
                server(
                    options,
                    {**shared_env, "TUI_ASSISTANT_DATA_DIR": str(root / f"data-pg-{n}")},
                    port,
                )
            )
            for n, port in enumerate(ports[1 : 1 + args.servers])
        ]
        for each in [reference_url, *urls]:
            await asyncio.wait_for(until_serving(each, "ranked"), 600)
        work = split(questions, args.agents, args.calls)
        shares = [work[n :: len(urls)] for n in range(len(urls))]
        started = time.perf_counter()
        results = await asyncio.gather(
            *(agents(each, share, expected) for each, share in zip(urls, shares, strict=True))
        )
        shared_seconds = time.perf_counter() - started
        times = [t for tally, _, _ in results for t in tally.times]
        lost = sum(tally.lost for tally, _, _ in results)
        mixed = sum(tally.mixed for tally, _, _ in results)
        shared_p95 = sorted(times)[int(0.95 * len(times))] if times else 0.0
        single, single_seconds, _ = await agents(reference_url, work, expected)
        print(
            f"{len(questions)} questions, {args.agents} agents x {args.calls} calls:\n"
            f"  PostgreSQL, {len(urls)} servers x 1 worker: p95 {shared_p95:.1f} ms,"
            f" {len(times) / shared_seconds:.1f} calls/s, lost {lost}, differing {mixed}\n"
            f"  SQLite, 1 server x {args.servers} workers: p95 {p95(single):.1f} ms,"
            f" {len(single.times) / single_seconds:.1f} calls/s, lost {single.lost},"
            f" differing {single.mixed}\n"
            f"  p95 ratio PostgreSQL / SQLite: {shared_p95 / max(p95(single), 1e-9):.2f}",
            flush=True,
        )
        memory = [memory_mb(port) for port in ports[: 1 + len(urls)]]
        print(
            f"  memory: SQLite server {memory[0]:.0f} MB;"
            f" PostgreSQL servers {', '.join(f'{m:.0f}' for m in memory[1:])} MB",
            flush=True,
        )
        reached = edit_reaches_servers(shared_env, edits, urls, url, schema)
        print(
            "  an edit indexed once, served after its commit in "
            + ", ".join(f"{seconds:.2f}" for seconds in reached)
            + " s",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=150)
    parser.add_argument("--calls", type=int, default=4, help="searches per agent")
    parser.add_argument("--questions", type=int, default=600)
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument(
        "--root", type=Path, default=Path(tempfile.gettempdir()) / "tui-assistant-pg-servers"
    )
    args = parser.parse_args()
    args.root.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()
    print(f"{os.cpu_count()} cores, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}", flush=True)
    with postgres(args.root) as url:
        asyncio.run(run(args, args.root, url))
    print(json.dumps({"load_after": os.getloadavg()}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
