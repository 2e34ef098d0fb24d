"""Benchmark: our retrieval pipeline against SQLite FTS5, bm25s and tantivy.

    python benchmarks/run.py                 # 20,000 lessons, 500 questions
    python benchmarks/run.py --stretch       # also 100,000 lessons

Generates the corpora deterministically under benchmarks/data/ (git-ignored), then
runs each engine in its own process twice on the same folder: a cold start (empty
work folder: read files, build the index, answer every question) and a warm start
(the engine's saved index, after checking every file's size and mtime). Prints one
table; every column has its ratio to ours (peer / ours: above 1.00x we are faster
or smaller).

Columns: pipeline = wall time of the whole cold process (interpreter start, imports,
reading files, indexing, answering every question); build = cold time to ready after
imports; median / p95 = per-question latency; peak = the process's peak resident
memory (getrusage maxrss of that child); warm = time to ready on the second start.
Peers whose package is missing (`pip install -e .[bench]`) are listed as skipped.
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
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import QUESTION_COUNT, generate  # noqa: E402

ENGINES = {
    "tui-assistant": ("engine_ours.py", None),
    "sqlite-fts5": ("engine_fts5.py", None),
    "bm25s": ("engine_bm25s.py", "bm25s"),
    "tantivy": ("engine_tantivy.py", "tantivy"),
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


def run_process(command: list[str]) -> Run:
    """Run one engine process; wall time, and its own peak memory from wait4."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=HERE)
    assert process.stdout is not None and process.stderr is not None
    output = process.stdout.read()
    errors = process.stderr.read()
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{command[1]} failed:\n{errors.decode(errors='replace')[-2000:]}")
    report = json.loads(output.decode().strip().splitlines()[-1])
    # Linux reports ru_maxrss in KiB.
    return Run(
        wall,
        usage.ru_maxrss / 1024,
        report["ready_seconds"],
        report["latencies_ms"],
        report["answered"],
    )


def run_engine(engine: str, script: str, lessons: Path, cases: Path, work: Path) -> Result:
    shutil.rmtree(work, ignore_errors=True)
    command = [sys.executable, str(HERE / script), str(lessons), str(cases), str(work)]
    cold = run_process(command)
    warm = run_process(command)
    return Result(engine, cold, warm)


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
            result.warm.ready_seconds,
        ]

    units = ["{:.2f} s", "{:.2f} s", "{:.3f} ms", "{:.3f} ms", "{:.0f} MB", "{:.2f} s"]
    headers = [
        "engine",
        "pipeline",
        "build",
        "median query",
        "p95 query",
        "peak memory",
        "warm start",
        "answered",
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
    lines.append("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
    if skipped:
        lines.append(f"skipped (not installed): {', '.join(skipped)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stretch", action="store_true", help="also run 100,000 lessons")
    parser.add_argument("--size", type=int, action="append", help="library size(s) to run")
    parser.add_argument("--engines", help="comma-separated subset of " + ",".join(ENGINES))
    parser.add_argument("--data", type=Path, default=HERE / "data")
    args = parser.parse_args(argv)
    sizes = args.size or [20_000]
    if args.stretch:
        sizes.append(100_000)
    wanted = args.engines.split(",") if args.engines else list(ENGINES)
    print(
        f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"{time.strftime('%Y-%m-%d')}",
        flush=True,
    )
    for size in sizes:
        corpus = generate(args.data, size, QUESTION_COUNT)
        results: list[Result] = []
        skipped: list[str] = []
        for engine in ["tui-assistant", *[e for e in wanted if e != "tui-assistant"]]:
            script, module = ENGINES[engine]
            if module is not None and importlib.util.find_spec(module) is None:
                skipped.append(engine)
                continue
            print(f"  running {engine} on {size:,} lessons ...", file=sys.stderr, flush=True)
            results.append(
                run_engine(
                    engine, script, corpus.lessons, corpus.cases, corpus.folder / "work" / engine
                )
            )
        print(table(size, results, skipped), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
