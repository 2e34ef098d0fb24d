"""`eval`: every case of a JSON-lines file through the same path as `ask`, and the
report. (The module is not named `eval`, which would shadow the builtin.)"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant import PROG
from tui_assistant.commands.common import add_command, open_answering
from tui_assistant.core.display_text import clean_display_text
from tui_assistant.core.eval_record import EvalRecord
from tui_assistant.core.evaluation import (
    EvalCase,
    check_expected_passages,
    evaluate,
    parse_cases,
)
from tui_assistant.core.progress_text import words_only
from tui_assistant.errors import CasesError, UsageError, unreadable_file_words
from tui_assistant.output import format_eval_report

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands


def register(subparsers: Subcommands) -> None:
    command = add_command(
        subparsers,
        "eval",
        run,
        "print one JSON object",
        help="measure retrieval on a file of cases",
        description="Run every case of a JSON-lines file through the same path as `ask` "
        "and report how often the expected passage (or, for null, no passage) was retrieved. "
        "Under hybrid retrieval it first computes the library's missing vectors (--no-wait: "
        "answers by words at once).",
    )
    command.add_argument("cases", type=Path, metavar="CASES.jsonl")
    command.add_argument(
        "--no-wait",
        dest="wait",
        action="store_false",
        help="under hybrid retrieval, do not wait for the library's missing vectors: every "
        "case is answered by words (ranked) while they are computed in the background",
    )


def run(args: argparse.Namespace) -> int:
    # Everything that can fail with exit 2 happens before anything is printed.
    cases = read_cases(args.cases)
    answering = open_answering(args, wait=args.wait)
    # Every case from the context of the start: one report measures one retrieval.
    context = answering.start
    try:
        check_expected_passages(cases, (passage.id for passage in context.library))
    except CasesError as error:
        raise UsageError(f"cases file {args.cases}: {error}") from None
    # Model calls can take minutes: show progress, but only to a person watching.
    progress = _show_progress if context.service.provider and sys.stderr.isatty() else None
    left = context.incomplete_vectors()
    if left is not None:
        print(f"{PROG}: {words_only(left.done, left.total)}", file=sys.stderr, flush=True)
    with asyncio.Runner() as runner:
        try:
            report = runner.run(evaluate(cases, context.service, progress))
        finally:
            if progress is not None:
                print("\r\x1b[K", end="", file=sys.stderr, flush=True)
            answering.finish()
            runner.run(answering.context.aclose())
    retrieval, mode = context.retrieval, context.mode_label
    if args.json:
        print(json.dumps(EvalRecord.of(report, retrieval, mode).model_dump(mode="json")))
    else:
        shown = ", ".join(str(part.folder) for part in context.library.parts.values())
        print(clean_display_text(format_eval_report(report, shown, retrieval, mode)))
    return 0


def _show_progress(done: int, total: int) -> None:
    print(f"\rcase {done}/{total}", end="", file=sys.stderr, flush=True)


def read_cases(path: Path) -> list[EvalCase]:
    try:
        with path.open(encoding="utf-8-sig") as stream:
            return parse_cases(stream)
    except CasesError as error:
        raise UsageError(f"cases file {path}: {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cases file {path} {unreadable_file_words(error)}") from None
