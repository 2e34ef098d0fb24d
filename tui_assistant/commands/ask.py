"""`ask`: questions answered without the TUI, all of them one conversation."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TextIO

from tui_assistant import PROG
from tui_assistant.commands.common import add_command, open_for
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.service import PendingAnswer
from tui_assistant.output import print_json, print_readable

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands

NO_QUESTION = f"{PROG}: no question: give QUESTION arguments or lines on standard input"


def register(subparsers: Subcommands) -> None:
    command = add_command(
        subparsers,
        "ask",
        run,
        "one JSON object per question",
        help="answer questions without the TUI",
        description="Answer questions without the TUI. With no QUESTION, read one per line "
        "from standard input. All questions form one conversation.",
    )
    command.add_argument("questions", nargs="*", metavar="QUESTION")


def run(args: argparse.Namespace) -> int:
    context = open_for(args)
    questions: Iterable[str] = args.questions or stdin_questions(sys.stdin)
    asked = 0
    emit = print_json if args.json else print_readable
    conversation = Conversation()
    service = context.service
    with asyncio.Runner() as runner:
        try:
            for question in questions:
                asked += 1
                step = service.start(question, conversation)
                if isinstance(step, PendingAnswer):
                    try:
                        outcome = runner.run(service.finish(step))
                    except KeyboardInterrupt:
                        # Ctrl-C during a provider call: the question ends cancelled.
                        outcome = service.cancelled(step)
                        context.conclude(outcome, conversation)
                        emit(outcome)
                        raise
                else:
                    outcome = step
                emit(outcome)
                context.conclude(outcome, conversation)
        finally:
            runner.run(context.aclose())
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
