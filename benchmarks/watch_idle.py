"""Benchmark: what watch mode costs while the library is idle, and what a checkout gives.

    python -m benchmarks.watch_idle                # 2,000 folders, 20,000 documents
    python -m benchmarks.watch_idle --seconds 30

Writes a library of nested folders in a temporary folder, then measures this process's
CPU time (all threads) over `--seconds` of idle time, first without a watcher and then
with `store.watch.settled_changes` running over the library; then rewrites, removes
and adds documents as fast as it can (a `git checkout`) and counts the batches the
watcher gives and the time from the last write to the batch.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import tempfile
import time
from pathlib import Path

from tui_assistant.store.watch import SETTLE_SECONDS, STEP_MS, settled_changes


def write_library(folder: Path, folders: int, per_folder: int) -> None:
    for number in range(folders):
        sub = folder / f"part-{number // 100}" / f"section-{number}"
        sub.mkdir(parents=True)
        for doc in range(per_folder):
            (sub / f"doc-{doc}.md").write_text(f"# Doc {doc}\n\nText {number} {doc}.\n")


async def idle_cpu(seconds: float) -> float:
    start = time.process_time()
    await asyncio.sleep(seconds)
    return time.process_time() - start


async def measure(folder: Path, seconds: float, checkout: int) -> None:
    baseline = await idle_cpu(seconds)
    batches: asyncio.Queue[frozenset[str]] = asyncio.Queue()
    stop = asyncio.Event()

    async def watch() -> None:
        async for batch in settled_changes(folder, lambda name: name.endswith(".md"), stop=stop):
            await batches.put(batch)

    task = asyncio.create_task(watch())
    await asyncio.sleep(1.0)  # the watcher sets up its inotify watches
    watching = await idle_cpu(seconds)
    print(f"watcher step {STEP_MS} ms, settle {SETTLE_SECONDS:g} s, {seconds:g} s idle:")
    print(f"  CPU without a watcher: {baseline * 1000:8.1f} ms")
    print(f"  CPU with the watcher:  {watching * 1000:8.1f} ms")
    print(f"  per idle second:       {(watching - baseline) / seconds * 1000:8.2f} ms")

    docs = sorted(folder.rglob("*.md"))[:checkout]
    third = len(docs) // 3
    for path in docs[:third]:
        path.write_text("# Changed\n\nnew text\n")
    for path in docs[third : 2 * third]:
        path.unlink()
    for number, path in enumerate(docs[2 * third :]):
        path.with_name(f"new-{number}.md").write_text("# New\n\ntext\n")
    last_write = time.monotonic()
    batch = await asyncio.wait_for(batches.get(), 60)
    delay = time.monotonic() - last_write
    extra = 0
    with contextlib.suppress(TimeoutError):
        while True:
            await asyncio.wait_for(batches.get(), SETTLE_SECONDS * 3)
            extra += 1
    print(f"checkout of {len(docs):,} files: {1 + extra} batch(es), the first of {len(batch):,}")
    print(f"  paths, {delay:.2f} s after the last write")
    stop.set()
    await task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", type=int, default=2000)
    parser.add_argument("--per-folder", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--checkout", type=int, default=5000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="watch-bench-"))
    try:
        write_library(folder, args.folders, args.per_folder)
        asyncio.run(measure(folder, args.seconds, args.checkout))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
