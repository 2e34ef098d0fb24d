"""`ask`: questions answered without the TUI, all of them one conversation."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TextIO

from tui_assistant import PROG
from tui_assistant.commands.common import add_command, open_answering
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.service import PendingAnswer
from tui_assistant.output import print_json, print_readable

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands
    from tui_assistant.core.outcome import Outcome
    from tui_assistant.wiring.context import AppContext

NO_QUESTION = f"{PROG}: no question: give QUESTION arguments or lines on standard input"


def register(subparsers: Subcommands) -> None:
    command = add_command(
        subparsers,
        "ask",
        run,
        "one JSON object per question",
        help="answer questions without the TUI",
        description="Answer questions without the TUI. With no QUESTION, read one per line "
        "from standard input. All questions form one conversation. Under hybrid retrieval, "
        "a library whose vectors are not all computed yet is answered by words at once "
        "while they are computed in the background (--wait: computed first).",
    )
    command.add_argument("questions", nargs="*", metavar="QUESTION")
    command.add_argument(
        "--wait",
        action="store_true",
        help="under hybrid retrieval, compute the library's missing vectors before the "
        "first answer (with progress on stderr)",
    )


def run(args: argparse.Namespace) -> int:
    answering = open_answering(args, wait=args.wait)
    questions: Iterable[str] = args.questions or stdin_questions(sys.stdin)
    asked = 0
    conversation = Conversation()

    def emit(outcome: Outcome, context: AppContext) -> None:
        show = print_json if args.json else print_readable
        with answering.printing():
            show(outcome, context.incomplete_vectors())

    with asyncio.Runner() as runner:
        try:
            for question in questions:
                asked += 1
                # By meaning as soon as the vectors are in (a conversation goes on).
                context = answering.context
                service = context.service
                step = service.start(question, conversation)
                if isinstance(step, PendingAnswer):
                    try:
                        outcome = runner.run(service.finish(step))
                    except KeyboardInterrupt:
                        # Ctrl-C during a provider call: the question ends cancelled.
                        outcome = service.cancelled(step)
                        context.conclude(outcome, conversation)
                        emit(outcome, context)
                        raise
                else:
                    outcome = step
                emit(outcome, context)
                context.conclude(outcome, conversation)
        finally:
            # After the last answer the embedding stops; what it stored is kept.
            answering.finish()
            runner.run(answering.context.aclose())
            answering.close()
    if not asked:
        # Blank lines only: not an error, but an empty output would look like one.
        print(NO_QUESTION, file=sys.stderr)
    return 0


def stdin_questions(stream: TextIO) -> Iterator[str]:
    """Questions from a stream, one per line, read lazily so a pipe can converse."""
    for line in stream:
        question = line.strip()
        if question:
            yield question
