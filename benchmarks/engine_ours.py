"""Our side of the benchmark, latency driver only: per-question timings.

`run.py` times the real `tui-assistant eval CASES.jsonl --library DIR --json` process
for the whole-pipeline, peak-memory and warm-pipeline columns; that process reports
no per-question timings. This driver supplies the columns it cannot: time to ready
after imports (cold and warm) and each question's latency. It runs the same start-up
path as `eval` (`open_context`: settings, lesson files, the index from the data
folder's index store) and then `AnswerService.ask` for each question in a
fresh conversation, exactly as `eval` does, timing each call.

Prints one JSON object: ready_seconds, latencies_ms, answered.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from benchmarks.engine_common import read_questions, report


def main(argv: list[str]) -> int:
    folder, cases, workdir = Path(argv[0]), Path(argv[1]), Path(argv[2])
    from tui_assistant.core.conversation import Conversation
    from tui_assistant.settings import Settings
    from tui_assistant.wiring.context import open_context

    start = time.perf_counter()
    context = open_context(Settings(library=folder, data_dir=workdir, retrieval="keyword"))
    ready = time.perf_counter() - start
    questions = read_questions(cases)
    latencies = []
    answered = 0

    async def ask_all() -> None:
        nonlocal answered
        for question in questions:
            began = time.perf_counter()
            outcome = await context.service.ask(question, Conversation())
            latencies.append((time.perf_counter() - began) * 1000)
            answered += outcome.evidence is not None

    asyncio.run(ask_all())
    report(ready, latencies, answered)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
