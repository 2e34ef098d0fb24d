"""`gaps`: the questions the library could not answer. Reads no document."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from tui_assistant.commands.common import add_command, settings_of
from tui_assistant.output import format_gaps
from tui_assistant.wiring.gaps import list_gaps

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands


def register(subparsers: Subcommands) -> None:
    add_command(
        subparsers,
        "gaps",
        run,
        "print one JSON object",
        help="the questions the library could not answer",
        description="List the questions that ended unsure or with nothing (in the TUI, ask "
        "and the MCP server), per library, grouped by the passage each came nearest to, most "
        "asked first: what the documentation should say next. Reads no document.",
    )


def run(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    gaps = list_gaps(settings)
    if args.json:
        print(json.dumps(gaps.model_dump(mode="json"), indent=2))
    else:
        print(format_gaps(gaps, recording=settings.gaps))
    return 0
