"""`tui-assistant search` on a warm library: the time from the command to its first line.

    python -m benchmarks.search_command [--passages 20000] [--retrieval ranked] [--runs 10]
        [--baseline GIT_REF]

Generates the synthetic tree of `corpus.py` (one passage a document), runs the command
once to build the index store (and under `hybrid` the vectors), then runs it `--runs`
times with the corpus's questions, each a fresh process as a person or a script starts
it, timing from the start of the process to the first line it prints and to its end,
with the CPU time it used.
`--baseline`: the same runs, interleaved, with the code of GIT_REF (`git archive`ed into
a temporary folder, its own store), side by side with this checkout's.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from benchmarks.corpus import generate

ROOT = Path(__file__).resolve().parent.parent


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, int, float]:
    """Seconds to the first line, to the end, the exit status, and the process's CPU
    seconds (user + system: on a shared machine, what load changes least)."""
    before = children_cpu()
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=ROOT
    )
    assert process.stdout is not None
    process.stdout.readline()
    first = time.perf_counter() - started
    process.stdout.read()
    status = process.wait()
    return first, time.perf_counter() - started, status, children_cpu() - before


def children_cpu() -> float:
    """CPU seconds of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def exported(ref: str, folder: Path) -> Path:
    """The `tui_assistant` package of git `ref`, written under `folder`."""
    archive = subprocess.run(
        ["git", "archive", ref, "tui_assistant"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def report(
    name: str, firsts: list[float], ends: list[float], cpus: list[float], found: int
) -> None:
    print(
        f"{name}, {len(firsts)} runs: first line median {statistics.median(firsts):.0f} ms,"
        f" worst {max(firsts):.0f} ms; whole command median {statistics.median(ends):.0f} ms;"
        f" CPU median {statistics.median(cpus):.0f} ms; {found} found (exit 0)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=20_000)
    parser.add_argument("--retrieval", default="ranked", choices=("ranked", "hybrid"))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "tui-bench")
    parser.add_argument("--baseline", metavar="GIT_REF", help="compare with this commit's code")
    args = parser.parse_args()
    corpus = generate(args.root, args.passages)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env.update(TUI_ASSISTANT_RETRIEVAL=args.retrieval, TUI_ASSISTANT_GAPS="false")
    codes = {"this checkout": ROOT}
    if args.baseline:
        codes[f"baseline {args.baseline}"] = exported(
            args.baseline, Path(tempfile.mkdtemp(prefix="tui-baseline-"))
        )
    envs = {
        name: {
            **env,
            "PYTHONPATH": str(code),
            "TUI_ASSISTANT_DATA_DIR": str(args.root / f"data-search-{args.passages}-{number}"),
        }
        for number, (name, code) in enumerate(codes.items())
    }
    lines = corpus.cases.read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["question"] for line in lines][: args.runs]
    base = [sys.executable, "-m", "tui_assistant", "search", "--library", str(corpus.lessons)]
    warm = {name: timed([*base, questions[0]], envs[name])[1] for name in codes}
    firsts: dict[str, list[float]] = {name: [] for name in codes}
    ends: dict[str, list[float]] = {name: [] for name in codes}
    cpus: dict[str, list[float]] = {name: [] for name in codes}
    found = dict.fromkeys(codes, 0)
    load_before = os.getloadavg()
    for question in questions:
        for name in codes:
            first, end, status, cpu = timed([*base, question], envs[name])
            firsts[name].append(first * 1000)
            ends[name].append(end * 1000)
            cpus[name].append(cpu * 1000)
            found[name] += status == 0
    load = os.getloadavg()
    built = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in warm.items())
    print(
        f"{args.passages:,} passages, {args.retrieval}; {os.cpu_count()} cores, load (1 min)"
        f" {load_before[0]:.1f} before, {load[0]:.1f} after; first run (builds the store): {built}"
    )
    for name in codes:
        report(f"warm, {name}", firsts[name], ends[name], cpus[name], found[name])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
