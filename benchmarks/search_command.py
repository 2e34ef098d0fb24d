"""`tui-assistant search` on a warm library: the time from the command to its first line.

    python -m benchmarks.search_command [--passages 20000] [--retrieval ranked] [--runs 10]

Generates the synthetic tree of `corpus.py` (one passage a document), runs the command
once to build the index store (and under `hybrid` the vectors), then runs it `--runs`
times with the corpus's questions, each a fresh process as a person or a script starts
it, timing from the start of the process to the first line it prints and to its end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.corpus import generate

ROOT = Path(__file__).resolve().parent.parent


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Seconds to the first line, to the end, and the exit status."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=ROOT
    )
    assert process.stdout is not None
    process.stdout.readline()
    first = time.perf_counter() - started
    process.stdout.read()
    status = process.wait()
    return first, time.perf_counter() - started, status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=20_000)
    parser.add_argument("--retrieval", default="ranked", choices=("ranked", "hybrid"))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "tui-bench")
    args = parser.parse_args()
    corpus = generate(args.root, args.passages)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env.update(
        TUI_ASSISTANT_DATA_DIR=str(args.root / f"data-search-{args.passages}"),
        TUI_ASSISTANT_RETRIEVAL=args.retrieval,
        TUI_ASSISTANT_GAPS="false",
        PYTHONPATH=str(ROOT),
    )
    lines = corpus.cases.read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["question"] for line in lines][: args.runs]
    base = [sys.executable, "-m", "tui_assistant", "search", "--library", str(corpus.lessons)]
    _, warm_end, _ = timed([*base, questions[0]], env)
    firsts, ends, found = [], [], 0
    for question in questions:
        first, end, status = timed([*base, question], env)
        firsts.append(first * 1000)
        ends.append(end * 1000)
        found += status == 0
    load = os.getloadavg()
    print(
        f"{args.passages:,} passages, {args.retrieval}; {os.cpu_count()} cores, load"
        f" {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; first run (builds the store)"
        f" {warm_end:.1f} s"
    )
    print(
        f"warm, {len(firsts)} runs: first line median {statistics.median(firsts):.0f} ms,"
        f" worst {max(firsts):.0f} ms; whole command median {statistics.median(ends):.0f} ms;"
        f" {found} found (exit 0)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
