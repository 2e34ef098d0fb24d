"""One warm `search`'s time, as a server's tools answer it: the ranking part of the limit
L(n) that `mcp_agents.py` sets beside its agents."""

from __future__ import annotations

import contextlib
import itertools
import os
import statistics
import sys
import time

from tui_assistant.settings import load_settings
from tui_assistant.wiring.context import open_context, with_stored_vectors
from tui_assistant.wiring.library_tools import LibraryTools


def ranking_time(
    options: list[str], env: dict[str, str], questions: list[str]
) -> tuple[float, float]:
    """Seconds of one warm `search` (limit 5) with its question's vector cached, as a
    server's tools answer it (gaps written on their own thread): the median over
    `questions`, in this process, on the libraries the servers read; and the CPU
    seconds of a call (the process's, gap writing included), which a busy machine does
    not stretch as it stretches the wall clock."""
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        libraries = [value for flag, value in itertools.pairwise(options) if flag == "--library"]
        settings = load_settings(libraries, "hybrid")
        with contextlib.redirect_stdout(sys.stderr):
            context = with_stored_vectors(open_context(settings, embed_now=False))
        assert context.choice.mode == "hybrid" and context.vectors is not None
        tools = LibraryTools.serving(context)
        times = []
        for question in questions:
            tools.search(question, 5)
        tools.written_gaps()
        cpu_started = time.process_time()
        for question in questions:
            started = time.perf_counter()
            tools.search(question, 5).model_dump_json()
            times.append(time.perf_counter() - started)
        tools.close()
        return statistics.median(times), (time.process_time() - cpu_started) / len(questions)
    finally:
        os.environ.clear()
        os.environ.update(saved)
