"""What every engine script of `run.py` shares, so the engines differ only in the index.

Each engine runs in its own process as `python -m benchmarks.engine_X LESSONS CASES
WORKDIR`, reads the lesson files the same way (`*.md` at any depth, title = first `# `
line, text = the rest, id = the path without `.md`), keeps its saved index only while
every file's size and mtime match, times the start-up to ready and each question, and
prints one JSON object: ready_seconds, latencies_ms, answered.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

TOKEN = re.compile(r"\w+")

# Answers one question with a lesson id, or None when it picks no lesson.
Answer = Callable[[str], str | None]


def signature(folder: Path) -> list[tuple[str, int, int]]:
    """(path relative to `folder`, size, mtime in ns) of every lesson file at any depth,
    sorted: what a saved index must still match to be reused."""
    rows = []
    for root, _folders, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            if name.endswith(".md") and not os.path.islink(path):
                info = os.stat(path, follow_symlinks=False)
                rows.append((os.path.relpath(path, folder), info.st_size, info.st_mtime_ns))
    rows.sort()
    return rows


def lesson_id(relative_path: str) -> str:
    """The id our app gives a single-passage document of the corpus: its path without `.md`."""
    return relative_path[: -len(".md")]


def read_lesson(path: str) -> tuple[str, str]:
    """(title, text) of one lesson file."""
    with open(path, encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    for number, line in enumerate(lines):
        if line.startswith("# "):
            return line[2:].strip(), "\n".join(lines[:number] + lines[number + 1 :]).strip()
    return "", "\n".join(lines)


def stamp_matches(stamp_file: Path, stamp: str) -> bool:
    """Whether the index saved next to `stamp_file` was built from these very files."""
    return stamp_file.exists() and stamp_file.read_text() == stamp


def read_questions(cases: Path) -> list[str]:
    return [json.loads(line)["question"] for line in cases.open(encoding="utf-8")]


def report(ready_seconds: float, latencies_ms: list[float], answered: int) -> None:
    """Print the one JSON object `run.py` reads from an engine."""
    print(
        json.dumps(
            {"ready_seconds": ready_seconds, "latencies_ms": latencies_ms, "answered": answered}
        )
    )


def run_engine(open_engine: Callable[[Path, Path], Answer]) -> int:
    """Run an engine over `sys.argv[1:]` (LESSONS CASES WORKDIR): time `open_engine`
    (build or reopen the index, up to ready), then each question, and report."""
    folder, cases, workdir = (Path(argument) for argument in sys.argv[1:4])
    workdir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    answer = open_engine(folder, workdir)
    ready = time.perf_counter() - start
    latencies = []
    answered = 0
    for question in read_questions(cases):
        began = time.perf_counter()
        found = answer(question)
        latencies.append((time.perf_counter() - began) * 1000)
        answered += found is not None
    report(ready, latencies, answered)
    return 0
