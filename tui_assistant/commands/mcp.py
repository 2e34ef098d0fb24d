"""`mcp`: the library served to coding agents, over stdio or HTTP."""

from __future__ import annotations

import argparse
import contextlib
import sys

from tui_assistant.commands.common import open_for, settings_of
from tui_assistant.errors import UsageError
from tui_assistant.wiring.context import with_stored_vectors

# The package is installed from its checkout (it is not on PyPI): the extra comes the same way.
MCP_MISSING = (
    "the mcp command needs the MCP SDK (the mcp extra): from the checkout, "
    "pip install -e '.[mcp]', or with pipx, pipx install --force '.[mcp]'"
)


def run(args: argparse.Namespace) -> int:
    try:
        from tui_assistant.mcp.http import check_token_rule, parse_http_address
        from tui_assistant.mcp.server import serve
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("mcp", "mcp_types", "starlette"):
            raise
        raise UsageError(MCP_MISSING) from None
    if args.library_from is not None:
        from tui_assistant.commands.fetch import project_libraries

        args.library = project_libraries(args.library_from, getattr(args, "library", []))
    # An address or token that cannot serve is said before the library is read.
    http = parse_http_address(args.http) if args.http is not None else None
    token = check_token_rule(http, settings_of(args)) if http is not None else None
    if args.workers != 1:
        from tui_assistant.mcp import workers

        workers.check_workers(args.workers, http)
        if http is not None:
            chosen = getattr(args, "library", None), getattr(args, "retrieval", None)
            return workers.serve_workers(*chosen, http, args.workers)
    # Standard output is the protocol: nothing printed while loading may reach it.
    with contextlib.redirect_stdout(sys.stderr):
        # Vectors already stored are read before the first call, so a warm server
        # answers with hybrid from it; missing ones are embedded in the background.
        context = with_stored_vectors(open_for(args, embed_now=False))
    return serve(context, http, token)
