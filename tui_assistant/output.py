"""What the headless commands print: outcomes (readable or JSON) and progress lines.

Everything printed from a document or a model goes through `clean_display_text` or
JSON's escapes, so no text can drive the terminal or forge an output line.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable

from tui_assistant.core.display_text import clean_display_text, one_line, shortened
from tui_assistant.core.documents.passage import line_range
from tui_assistant.core.outcome import Outcome, Reason
from tui_assistant.core.record import OutcomeRecord

MAX_ECHOED_QUESTION_CHARS = 500


class ProgressLine:
    """`indexing 1,200/20,000 files` on stderr, redrawn in place, once the work has
    taken a second, and only when stderr is a terminal; erased when the work ends."""

    DELAY_SECONDS = 1.0

    def __init__(self, verb: str, unit: str, scale: int = 1) -> None:
        self.verb, self.unit, self.scale = verb, unit, scale
        self.shown = False
        self.started = time.monotonic()
        self.last = 0.0
        self.enabled = sys.stderr.isatty()

    def __enter__(self) -> Callable[[int, int], None] | None:
        return self if self.enabled else None

    def __call__(self, done: int, total: int | None) -> None:
        now = time.monotonic()
        finished = total is not None and done >= total
        if now - self.started < self.DELAY_SECONDS or (now - self.last < 0.1 and not finished):
            return
        self.last = now
        self.shown = True
        count = f"{done // self.scale:,}" + ("" if total is None else f"/{total // self.scale:,}")
        line = f"\r{self.verb} {count} {self.unit}\x1b[K"
        print(line, end="", file=sys.stderr, flush=True)

    def __exit__(self, *_: object) -> None:
        if self.shown:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def question_line(question: str) -> str:
    """The question echoed on one line (a newline in it cannot forge an output line),
    shortened when huge: the full text is in `--json` output."""
    line = one_line(question)
    if len(line) > MAX_ECHOED_QUESTION_CHARS:
        line = f"{shortened(line, MAX_ECHOED_QUESTION_CHARS)} ({len(question):,} characters)"
    return line


def print_json(outcome: Outcome) -> None:
    # ensure_ascii escapes every control and bidi character: safe on any terminal.
    print(json.dumps(OutcomeRecord.of(outcome).to_json()), flush=True)


def print_readable(outcome: Outcome) -> None:
    lines: list[str] = [f"? {question_line(outcome.question)}"]
    evidence = outcome.evidence
    if outcome.answered and evidence is not None:
        lines.append(f"answered from {evidence.passage.title} [{evidence.passage.id}]")
        lines.append("")
        lines.append(outcome.answer or "")
        lines.append("")
        lines.append(f"source: {evidence.passage.location}")
        other = [passage for passage in outcome.passages if passage.id != evidence.passage.id]
        # A deterministic answer is its passage's text; the others are runners-up.
        also = "runner-up" if outcome.answer == evidence.passage.text else "also sent"
        lines.extend(f"{also}: {passage.location} [{passage.id}]" for passage in other)
        for quote in outcome.quotes:
            where = f"{quote.passage_id}, lines {line_range(quote.line, quote.end_line)}"
            lines.append(f'quote: "{one_line(quote.text)}" ({where})')
        if outcome.support and outcome.support.unsupported_sentences:
            lines.append("not backed by the passage:")
            lines.extend(f"  ! {sentence}" for sentence in outcome.support.unsupported_sentences)
    else:
        lines.append(outcome.describe())
        if evidence is not None:
            lines.append(f"passage: {evidence.passage.location}")
        if outcome.nearest:
            ambiguous = outcome.reason is Reason.AMBIGUOUS
            lines.append(
                "candidates (one of these may answer it):"
                if ambiguous
                else "not an answer: closest passages"
            )
            lines.extend(
                f"  {passage.location} [{passage.id}] {one_line(passage.title)}"
                for passage in outcome.nearest
            )
    print(clean_display_text("\n".join(lines)) + "\n", flush=True)
