"""How long hostile questions take: each must be handled in well under a second.

Run from the repository root:

    python -m benchmarks.hostile_inputs

For each input it times the steps a question goes through (tokenising, the whole
service call over the bundled lessons, and cleaning the text for the terminal), then
the real CLI end to end with a megabyte question on standard input. Unit tests check
behaviour only; the speed goal lives here, where a slow machine cannot make a test
flaky. The exit status is 1 when any step takes a second or more.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tui_assistant.core.conversation import Conversation
from tui_assistant.core.display_text import clean_display_text
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.service import MAX_QUESTION_CHARS, AnswerService
from tui_assistant.core.words import match_keys, stem
from tui_assistant.store.index_store import open_library

ROOT = Path(__file__).resolve().parent.parent


MEGABYTE = 1024 * 1024  # a "1M characters" input is 1 MiB of characters (more bytes in UTF-8)
LIMIT_SECONDS = 1.0

INPUTS: dict[str, str] = {
    "1M characters of lesson words": "salting pasta water " * (MEGABYTE // 20),
    "1M characters of distinct made-up words": " ".join(
        f"w{number:x}q" for number in range(MEGABYTE // 8)
    ),
    "1M characters of one letter": "x" * MEGABYTE,
    "1M characters of NUL": "\x00" * MEGABYTE,
    "1M characters of control characters": "".join(chr(code) for code in range(32))
    * (MEGABYTE // 32),
    "1M characters of C1 controls": "".join(chr(code) for code in range(0x80, 0xA0))
    * (MEGABYTE // 32),
    "1M characters of ESC [": "\x1b[" * (MEGABYTE // 2),
    "1M characters of CSI parameters, no final": "\x1b[" + "0;" * (MEGABYTE // 2),
    "1M characters of unclosed OSC": "\x1b]0;" + "title " * (MEGABYTE // 6),
    "1M characters of RTL overrides": "\u202e\u2066" * (MEGABYTE // 2),
    "1M characters of emoji": "🍝👨‍👩‍👧" * (MEGABYTE // 6),
    "1M characters of stopwords": "what is the how and of it " * (MEGABYTE // 26),
    "1M characters of punctuation": "?!.,;:-()[]{}'\"" * (MEGABYTE // 15),
    "1M characters of 'hm' (follow-up rule)": "hm" * (MEGABYTE // 2),
    "1M characters of 'please ' (follow-up rule)": "please " * (MEGABYTE // 7),
}


_NOT_IN_A_LINE = str.maketrans({"\n": " ", "\r": " ", "\x00": " "})


def made_up_words(characters: int) -> str:
    """Words of five to nine letters that no lesson holds, `characters` in all."""
    rng = random.Random(0)
    text = ""
    while len(text) < characters:
        text += "".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(rng.randint(5, 9)))
        text += " "
    return text[:characters]


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> int:
    library = open_library(ROOT / "lessons", None, stem)  # indexed in memory
    service = AnswerService(KeywordRetriever(library))
    slowest = 0.0
    print(f"{'input':<44} {'normalise':>10} {'ask':>8} {'clean':>8}  outcome")
    for name, question in INPUTS.items():
        outcomes = []
        normalise_time = timed(lambda: match_keys(question))  # noqa: B023
        ask_time = timed(
            lambda: outcomes.append(asyncio.run(service.ask(question, Conversation())))  # noqa: B023
        )
        clean_time = timed(lambda: clean_display_text(question))  # noqa: B023
        slowest = max(slowest, normalise_time, ask_time, clean_time)
        print(
            f"{name:<44} {normalise_time:>9.3f}s {ask_time:>7.3f}s {clean_time:>7.3f}s"
            f"  {outcomes[0].describe()}"
        )

    # Just under the question limit, every word made up: the word ranking looks for a
    # library word one slip from each (the key, then the word as typed).
    made_up = made_up_words(MAX_QUESTION_CHARS - 1)
    ranked = RankedRetriever(library)
    rank_time = timed(lambda: ranked.rank(made_up))
    slowest = max(slowest, rank_time)
    print(f"{'4,000 characters of made-up words, ranked':<44} {'':>10} {rank_time:>7.3f}s")

    with tempfile.TemporaryDirectory() as data_dir:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
        env |= {"PYTHONPATH": str(ROOT), "TUI_ASSISTANT_DATA_DIR": data_dir}
        # One question per line: line breaks and NUL (which no terminal can type) out.
        lines = [question.translate(_NOT_IN_A_LINE) for question in INPUTS.values()]
        stdin = ("\n".join(lines) + "\n").encode("utf-8", errors="surrogateescape")
        for mode in ((), ("--json",)):
            started = time.perf_counter()
            process = subprocess.run(
                [sys.executable, "-m", "tui_assistant", "ask", *mode],
                input=stdin,
                capture_output=True,
                env=env,
                timeout=120,
                check=True,
            )
            elapsed = time.perf_counter() - started
            per_question = elapsed / len(INPUTS)
            slowest = max(slowest, per_question)
            label = "CLI ask " + " ".join(mode)
            print(
                f"{label:<44} {len(INPUTS)} questions, {len(stdin) / MEGABYTE:.1f} MB in, "
                f"{len(process.stdout) / MEGABYTE:.1f} MB out: {elapsed:.2f}s "
                f"({per_question:.3f}s per question, start-up included)"
            )

    verdict = "ok" if slowest < LIMIT_SECONDS else "TOO SLOW"
    print(f"slowest step: {slowest:.3f}s (limit {LIMIT_SECONDS:.0f}s): {verdict}")
    return 0 if slowest < LIMIT_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
