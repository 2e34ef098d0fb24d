"""`status`: what answers now, per library. Embeds nothing."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from tui_assistant.commands.common import add_command, open_for
from tui_assistant.output import format_status
from tui_assistant.wiring.context import with_stored_vectors
from tui_assistant.wiring.status import status_of

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands


def register(subparsers: Subcommands) -> None:
    add_command(
        subparsers,
        "status",
        run,
        "print one JSON object",
        help="what answers now, per library",
        description="Per library: documents, passages, vectors ready and their model, when "
        "the files were read, whether they are watched, and the retrieval that answers "
        "(as the MCP server would serve them). Embeds nothing.",
    )


def run(args: argparse.Namespace) -> int:
    context = with_stored_vectors(open_for(args, embed_now=False))
    try:
        # As the MCP server would serve them: it watches the folders as the setting says.
        status = status_of(context, watching=context.settings.watch)
    finally:
        context.library.close()
    if args.json:
        print(json.dumps(status.model_dump(mode="json"), indent=2))
    else:
        print(format_status(status))
    return 0
