"""`ask`: questions answered without the TUI, all of them one conversation."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterable, Iterator
from typing import TextIO

from tui_assistant.commands.common import open_for
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.service import PendingAnswer
from tui_assistant.output import print_json, print_readable


def run(args: argparse.Namespace) -> int:
    context = open_for(args)
    questions: Iterable[str] = args.questions or stdin_questions(sys.stdin)
    emit = print_json if args.json else print_readable
    conversation = Conversation()
    service = context.service
    with asyncio.Runner() as runner:
        try:
            for question in questions:
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
    return 0


def stdin_questions(stream: TextIO) -> Iterator[str]:
    """Questions from a stream, one per line, read lazily so a pipe can converse."""
    for line in stream:
        question = line.strip()
        if question:
            yield question
