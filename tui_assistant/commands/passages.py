"""`passages`: the library's passages in library order."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from tui_assistant.commands.common import add_command, open_for
from tui_assistant.compat import PASSAGES_COMMAND_ALIASES
from tui_assistant.core.display_text import clean_display_text, one_line
from tui_assistant.core.record import PassageRef

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands


def register(subparsers: Subcommands) -> None:
    add_command(
        subparsers,
        "passages",
        run,
        "print one JSON array",
        aliases=list(PASSAGES_COMMAND_ALIASES),
        help="list the library's passages",
    )


def run(args: argparse.Namespace) -> int:
    context = open_for(args, answering=False)
    if args.json:
        rows = [PassageRef.of(passage).model_dump() for passage in context.library]
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(passage.id) for passage in context.library)
    for passage in context.library:
        # The source path starts with the user's folder name, which may hold anything.
        line = (
            f"{passage.id:<{width}}  {one_line(passage.title)}  "
            f"({passage.source_path}:{passage.line})"
        )
        print(clean_display_text(line))
    return 0
