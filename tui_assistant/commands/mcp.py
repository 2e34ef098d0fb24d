"""`mcp`: the library served to coding agents, over stdio or HTTP."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant.commands.common import add_command, open_for, settings_of
from tui_assistant.commands.fetch import project_libraries
from tui_assistant.errors import UsageError
from tui_assistant.mcp.tools import tool_names
from tui_assistant.wiring.context import with_stored_vectors

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands

# The package is installed from its checkout (it is not on PyPI): the extra comes the same way.
MCP_MISSING = (
    "the mcp command needs the MCP SDK (the mcp extra): from the checkout, "
    "pip install -e '.[mcp]', or with pipx, pipx install --force '.[mcp]'"
)


def register(subparsers: Subcommands) -> None:
    command = add_command(
        subparsers,
        "mcp",
        run,
        help="serve the library to coding agents (MCP over stdio or HTTP)",
        description="Serve the library to MCP clients (coding agents) over standard input "
        "and output, or over streamable HTTP at /mcp with --http: the tools "
        f"{', '.join(tool_names())}. Needs the mcp extra.",
    )
    command.add_argument(
        "--library-from",
        type=Path,
        metavar="FILE",
        help="also serve the fetched libraries of FILE's pinned dependencies (see fetch --from)",
    )
    command.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        help="serve over streamable HTTP on HOST (127.0.0.1 unless given) and PORT; any "
        "address but loopback needs TUI_ASSISTANT_MCP_TOKEN",
    )
    command.add_argument(
        "--workers", type=int, default=1, metavar="N", help="with --http: N processes (1-64)"
    )


def run(args: argparse.Namespace) -> int:
    # The MCP SDK (and Starlette) load only for this command, and may not be installed.
    try:
        from tui_assistant.mcp.http import check_token_rule, parse_http_address
        from tui_assistant.mcp.server import serve
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("mcp", "mcp_types", "starlette"):
            raise
        raise UsageError(MCP_MISSING) from None
    if args.library_from is not None:
        args.library = project_libraries(args.library_from, getattr(args, "library", []))
    # An address or token that cannot serve is said before the library is read.
    http = parse_http_address(args.http) if args.http is not None else None
    token = check_token_rule(http, settings_of(args)) if http is not None else None
    if args.workers != 1:
        # Starlette, as above.
        from tui_assistant.mcp import workers

        workers.check_workers(args.workers, http)
        if http is not None:
            chosen = getattr(args, "library", None), getattr(args, "retrieval", None)
            return workers.serve_workers(
                *chosen, http, args.workers, store=getattr(args, "store", None)
            )
    # Standard output is the protocol: nothing printed while loading may reach it.
    with contextlib.redirect_stdout(sys.stderr):
        # Vectors already stored are read before the first call, so a warm server
        # answers with hybrid from it; missing ones are embedded in the background.
        context = with_stored_vectors(open_for(args, embed_now=False))
    return serve(context, http, token)
