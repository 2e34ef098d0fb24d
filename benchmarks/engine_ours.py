"""Our side of the benchmark: the app's own start-up path, then every question.

Run by `run.py` in its own process. It does what `tui-assistant eval CASES.jsonl`
does for retrieval: `open_context` (settings, lesson files, the index from the data
folder's cache or built fresh) and then the answer service for each question, in
deterministic mode. Once `tui-assistant eval` is merged, `run.py --eval-command`
times that command as a whole process instead (no per-question latencies there).

Prints one JSON object: ready_seconds, latencies_ms, answered.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    folder, cases, workdir = Path(argv[0]), Path(argv[1]), Path(argv[2])
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tui_assistant.context import open_context
    from tui_assistant.core.conversation import Conversation
    from tui_assistant.core.outcome import Outcome
    from tui_assistant.settings import Settings

    start = time.perf_counter()
    context = open_context(Settings(lessons_dir=folder, data_dir=workdir))
    ready = time.perf_counter() - start
    questions = [json.loads(line)["question"] for line in cases.open(encoding="utf-8")]
    latencies = []
    answered = 0
    for question in questions:
        began = time.perf_counter()
        outcome = context.service.start(question, Conversation())
        latencies.append((time.perf_counter() - began) * 1000)
        answered += isinstance(outcome, Outcome) and outcome.answered
    print(json.dumps({"ready_seconds": ready, "latencies_ms": latencies, "answered": answered}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
