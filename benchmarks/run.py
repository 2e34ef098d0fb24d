"""Benchmark: our retrieval pipeline against SQLite FTS5, bm25s and tantivy.

    python -m benchmarks.run                 # 20,000 lessons, 500 questions
    python -m benchmarks.run --large         # also 100,000 lessons

Generates the corpora (lesson files in nested folders) deterministically under
benchmarks/data/ (git-ignored), then runs each engine in its own process three times on
the same folder: a cold start (empty work folder: read files, build the index, answer
every question), a warm start (the engine's saved index, after checking every file's
size and mtime), and a warm start after one file was edited (put back afterwards). Prints one
table; every column has its ratio to ours (peer / ours: above 1.00x we are faster
or smaller).

Our side is the real command: `python -m tui_assistant eval CASES.jsonl --library DIR
--json`, with TUI_ASSISTANT_DATA_DIR pointing at a fresh work folder (so the second
run finds the index store the first one wrote). That process gives our pipeline,
warm pipeline and peak-memory columns. It prints no per-question timings, so the
build, median, p95 and warm-start columns for us come from a separate measured driver
(`engine_ours.py`: the same start-up path and the same `AnswerService.ask` per
question, timed), run cold and warm on its own work folder.

Columns: pipeline = wall time of the whole cold process (interpreter start, imports,
reading files, indexing, answering every question); warm pipeline = the same on the
second run; build = cold time to ready after imports; median / p95 = per-question
latency; peak = the cold process's peak resident memory (getrusage maxrss of that
child); warm start = time to ready on the second start, after imports; warm mean
query = mean per-question latency on the second start; 1 file changed: start = time to
ready on the start after one file was edited; picked =
questions for which the engine chose a lesson. Peers whose package is missing
(`pip install -e .[bench]`) are listed as skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.corpus import Corpus, is_complete, locate

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


ENGINES = {
    "tui-assistant": ("benchmarks.engine_ours", None),
    "sqlite-fts5": ("benchmarks.engine_fts5", None),
    "bm25s": ("benchmarks.engine_bm25s", "bm25s"),
    "tantivy": ("benchmarks.engine_tantivy", "tantivy"),
}


@dataclass
class Run:
    wall_seconds: float
    peak_mb: float
    ready_seconds: float
    latencies_ms: list[float]
    answered: int


@dataclass
class Result:
    engine: str
    cold: Run
    warm: Run
    changed: Run  # a warm start right after one file was edited


@dataclass
class Measured:
    """One process: its wall time, its own peak memory, and its last output line as JSON."""

    wall_seconds: float
    peak_mb: float
    report: dict[str, Any]


def prepare(root: Path, size: int) -> Corpus:
    """The corpus, generated first in a child process if missing.

    The generator holds every title and body in memory. Were this process that big, each
    engine's process would start as a fork of it, and `ru_maxrss` counts the pages a
    forked child holds before it execs: every engine would show at least this process's
    size as its peak (165 MB at 100,000 lessons, where our own peak is under 150 MB).
    """
    corpus = locate(root, size)
    if not is_complete(corpus):
        subprocess.run(
            [sys.executable, "-m", "benchmarks.corpus", str(root), str(size)], check=True, cwd=ROOT
        )
    return corpus


def measure_process(command: list[str], env: dict[str, str] | None = None) -> Measured:
    """Run one process; wall time, and its own peak memory from wait4."""
    # The drivers are modules of this package: the child imports them from the root.
    env = {**(os.environ if env is None else env), "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=HERE, env=env
    )
    assert process.stdout is not None and process.stderr is not None
    # stderr drained on a thread so a chatty one cannot block the child; reaping is
    # left to wait4, which reports this child's own resource usage.
    error_chunks: list[bytes] = []
    drain = threading.Thread(target=lambda: error_chunks.append(process.stderr.read()))
    drain.start()
    output = process.stdout.read()
    drain.join()
    errors = b"".join(error_chunks)
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{command[1:4]} failed:\n{errors.decode(errors='replace')[-2000:]}")
    report = json.loads(output.decode().strip().splitlines()[-1])
    # Linux reports ru_maxrss in KiB.
    return Measured(wall, usage.ru_maxrss / 1024, report)


def run_process(command: list[str]) -> Run:
    """A peer engine or our latency driver: everything from the one process."""
    measured = measure_process(command)
    report = measured.report
    return Run(
        measured.wall_seconds,
        measured.peak_mb,
        report["ready_seconds"],
        report["latencies_ms"],
        report["answered"],
    )


@contextmanager
def one_file_edited(lessons: Path) -> Iterator[None]:
    """One lesson file with a line appended, put back exactly (bytes and mtime) after."""
    path = sorted(lessons.rglob("*.md"))[len(list(lessons.rglob("*.md"))) // 2]
    original, info = path.read_bytes(), path.stat()
    path.write_bytes(original + b"\nOne more line about the lesson.\n")
    try:
        yield
    finally:
        path.write_bytes(original)
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def read_every_file(lessons: Path) -> None:
    """Read the corpus once, so each engine's cold start finds the same files in the
    system's page cache: cold means no index, not a cold disk."""
    for path in lessons.rglob("*.md"):
        path.read_bytes()


def run_engine(engine: str, module: str, lessons: Path, cases: Path, work: Path) -> Result:
    read_every_file(lessons)
    shutil.rmtree(work, ignore_errors=True)
    command = [sys.executable, "-m", module, str(lessons), str(cases), str(work)]
    cold = run_process(command)
    warm = run_process(command)
    with one_file_edited(lessons):
        changed = run_process(command)
    return Result(engine, cold, warm, changed)


def eval_picked(report: dict[str, Any]) -> int:
    """Cases for which `eval` retrieved a lesson: the correct ones that expected a
    lesson, plus every failure that got one."""
    failures_with_lesson = sum(1 for failure in report["failures"] if failure["got"] is not None)
    return int(report["answerable"]["correct"]) + failures_with_lesson


def run_ours(lessons: Path, cases: Path, work: Path) -> Result:
    """Pipeline, warm pipeline and peak from the real `tui-assistant eval` process;
    ready, warm-start and per-question latencies from the measured driver."""
    read_every_file(lessons)
    shutil.rmtree(work, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env.update(PYTHONPATH=str(ROOT), TUI_ASSISTANT_DATA_DIR=str(work / "eval-data"))
    # The lexical pipeline against lexical peers; hybrid's cost is benchmarks/embedding.py's.
    env.update(TUI_ASSISTANT_RETRIEVAL="keyword")
    command = [
        sys.executable,
        "-m",
        "tui_assistant",
        "eval",
        str(cases),
        "--library",
        str(lessons),
        "--json",
    ]
    eval_cold = measure_process(command, env)
    eval_warm = measure_process(command, env)
    with one_file_edited(lessons):
        eval_changed = measure_process(command, env)
    driver = [
        sys.executable,
        "-m",
        "benchmarks.engine_ours",
        str(lessons),
        str(cases),
        str(work / "driver-data"),
    ]
    driver_cold = run_process(driver)
    driver_warm = run_process(driver)
    with one_file_edited(lessons):
        driver_changed = run_process(driver)
    cold = Run(
        eval_cold.wall_seconds,
        eval_cold.peak_mb,
        driver_cold.ready_seconds,
        driver_cold.latencies_ms,
        eval_picked(eval_cold.report),
    )
    warm = Run(
        eval_warm.wall_seconds,
        eval_warm.peak_mb,
        driver_warm.ready_seconds,
        driver_warm.latencies_ms,
        eval_picked(eval_warm.report),
    )
    changed = Run(
        eval_changed.wall_seconds,
        eval_changed.peak_mb,
        driver_changed.ready_seconds,
        driver_changed.latencies_ms,
        eval_picked(eval_changed.report),
    )
    if driver_cold.answered != cold.answered:
        raise RuntimeError(
            f"the driver picked {driver_cold.answered} lessons, eval {cold.answered}: "
            "they should run the same path"
        )
    return Result("tui-assistant", cold, warm, changed)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def table(size: int, results: list[Result], skipped: list[str]) -> str:
    ours = results[0]

    def metrics(result: Result) -> list[float]:
        return [
            result.cold.wall_seconds,
            result.cold.ready_seconds,
            statistics.median(result.cold.latencies_ms),
            percentile(result.cold.latencies_ms, 0.95),
            result.cold.peak_mb,
            result.warm.wall_seconds,
            result.warm.ready_seconds,
            statistics.fmean(result.warm.latencies_ms),
            result.changed.ready_seconds,
        ]

    units = [
        "{:.2f} s",
        "{:.2f} s",
        "{:.3f} ms",
        "{:.3f} ms",
        "{:.0f} MB",
        "{:.2f} s",
        "{:.2f} s",
        "{:.3f} ms",
        "{:.2f} s",
    ]
    headers = [
        "engine",
        "pipeline",
        "build",
        "median query",
        "p95 query",
        "peak memory",
        "warm pipeline",
        "warm start",
        "warm mean query",
        "1 file changed: start",
        "picked",
    ]
    base = metrics(ours)
    rows = []
    for result in results:
        cells = [result.engine]
        for value, reference, unit in zip(metrics(result), base, units, strict=True):
            ratio = value / reference if reference else float("inf")
            cells.append(f"{unit.format(value)} ({ratio:.2f}x)")
        cells.append(f"{result.cold.answered}/{len(result.cold.latencies_ms)}")
        rows.append(cells)
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]
    lines = [
        f"{size:,} lessons, {len(ours.cold.latencies_ms)} questions "
        f"(ratios: engine / tui-assistant)"
    ]
    lines.append(
        "tui-assistant: pipeline, peak memory and warm pipeline from the `tui-assistant eval` "
        "process; build, median, p95 and warm start from the measured driver (engine_ours.py)"
    )
    lines.append("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
    if skipped:
        lines.append(f"skipped (not installed): {', '.join(skipped)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true", help="also run 100,000 lessons")
    parser.add_argument("--size", type=int, action="append", help="library size(s) to run")
    parser.add_argument("--engines", help="comma-separated subset of " + ",".join(ENGINES))
    parser.add_argument("--data", type=Path, default=HERE / "data")
    args = parser.parse_args(argv)
    sizes = args.size or [20_000]
    if args.large:
        sizes.append(100_000)
    wanted = args.engines.split(",") if args.engines else list(ENGINES)
    print(
        f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"{time.strftime('%Y-%m-%d')}",
        flush=True,
    )
    for size in sizes:
        corpus = prepare(args.data, size)
        results: list[Result] = []
        skipped: list[str] = []
        for engine in ["tui-assistant", *[e for e in wanted if e != "tui-assistant"]]:
            driver, package = ENGINES[engine]
            if package is not None and importlib.util.find_spec(package) is None:
                skipped.append(engine)
                continue
            print(f"  running {engine} on {size:,} lessons ...", file=sys.stderr, flush=True)
            work = corpus.folder / "work" / engine
            if engine == "tui-assistant":
                results.append(run_ours(corpus.lessons, corpus.cases, work))
            else:
                results.append(run_engine(engine, driver, corpus.lessons, corpus.cases, work))
        print(table(size, results, skipped), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
