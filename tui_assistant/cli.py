"""Command line: the TUI (default), `ask`, `eval`, `passages`, `library`, `status`,
`gaps`, `mcp` and `fetch`.

Each command's body is its module in `tui_assistant.commands`; here are the parser,
`main` and the one error boundary. Exit status: 0 when the command ran, 2 for a usage
or configuration error (one line on stderr, no traceback), 130 when interrupted. The
headless commands never import Textual.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from tui_assistant import PROG, __version__
from tui_assistant.commands import (
    ask,
    eval,
    fetch,
    gaps,
    library,
    mcp,
    passages,
    search,
    status,
    tui,
)
from tui_assistant.commands.common import warn_skipped
from tui_assistant.compat import LIBRARY_OPTIONS, PASSAGES_COMMAND_ALIASES
from tui_assistant.core.display_text import one_line
from tui_assistant.errors import LibraryError, StartupError, UsageError
from tui_assistant.settings import RETRIEVAL_MODES


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG, description="Answers questions from a library of Markdown documents."
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    _add_common_options(parser)
    parser.set_defaults(handler=tui.run)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_Parser)

    ask_parser = _command(
        commands,
        "ask",
        ask.run,
        "one JSON object per question",
        help="answer questions without the TUI",
        description="Answer questions without the TUI. With no QUESTION, read one per line "
        "from standard input. All questions form one conversation.",
    )
    ask_parser.add_argument("questions", nargs="*", metavar="QUESTION")
    eval_parser = _command(
        commands,
        "eval",
        eval.run,
        "print one JSON object",
        help="measure retrieval on a file of cases",
        description="Run every case of a JSON-lines file through the same path as `ask` "
        "and report how often the expected passage (or, for null, no passage) was retrieved.",
    )
    eval_parser.add_argument("cases", type=Path, metavar="CASES.jsonl")
    _command(
        commands,
        "passages",
        passages.run,
        "print one JSON array",
        aliases=list(PASSAGES_COMMAND_ALIASES),
        help="list the library's passages",
    )
    _command(
        commands,
        "library",
        library.run,
        "print one JSON object",
        help="report what the library holds",
        description="Report the library's documents and passages by kind, the files skipped "
        "and why, the index store's place and size, and the vectors' state. Embeds nothing.",
    )
    _command(
        commands,
        "status",
        status.run,
        "print one JSON object",
        help="what answers now, per library",
        description="Per library: documents, passages, vectors ready and their model, when "
        "the files were read, whether they are watched, and the retrieval that answers "
        "(as the MCP server would serve them). Embeds nothing.",
    )
    _command(
        commands,
        "gaps",
        gaps.run,
        "print one JSON object",
        help="the questions the library could not answer",
        description="List the questions that ended unsure or with nothing (in the TUI, ask "
        "and the MCP server), per library, grouped by the passage each came nearest to, most "
        "asked first: what the documentation should say next. Reads no document.",
    )
    mcp_parser = _command(
        commands,
        "mcp",
        mcp.run,
        None,
        help="serve the library to coding agents (MCP over stdio or HTTP)",
        description="Serve the library to MCP clients (coding agents) over standard input "
        "and output, or over streamable HTTP at /mcp with --http: the tools search, read, "
        "check, status, gaps and ask. Needs the mcp extra.",
    )
    mcp_parser.add_argument(
        "--library-from",
        type=Path,
        metavar="FILE",
        help="also serve the fetched libraries of FILE's pinned dependencies (see fetch --from)",
    )
    mcp_parser.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        help="serve over streamable HTTP on HOST (127.0.0.1 unless given) and PORT; any "
        "address but loopback needs TUI_ASSISTANT_MCP_TOKEN",
    )
    fetch.register(commands)
    mcp_parser.add_argument(
        "--workers", type=int, default=1, metavar="N", help="with --http: N processes (1-64)"
    )
    search.register(commands, _command)
    return parser


def _command(
    commands: argparse._SubParsersAction[_Parser],
    name: str,
    handler: Callable[[argparse.Namespace], int],
    json_help: str | None,
    **described: Any,
) -> argparse.ArgumentParser:
    """A subcommand with the common options, `--json` when `json_help` says what it
    prints, and its handler."""
    command = commands.add_parser(name, **described)
    _add_common_options(command)
    if json_help is not None:
        command.add_argument("--json", action="store_true", help=json_help)
    command.set_defaults(handler=handler)
    return command


def _add_common_options(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS keeps a subcommand's unset option from hiding the top-level one.
    parser.add_argument(
        *LIBRARY_OPTIONS,
        dest="library",
        action="append",
        metavar="[NAME=]DIR",
        default=argparse.SUPPRESS,
        help="library folder, named NAME or after the folder; give it again to search "
        "several libraries (overrides TUI_ASSISTANT_LIBRARY)",
    )
    parser.add_argument(
        "--retrieval",
        choices=RETRIEVAL_MODES,
        metavar="MODE",
        default=argparse.SUPPRESS,
        help="auto, keyword, ranked or hybrid (overrides TUI_ASSISTANT_RETRIEVAL)",
    )


def main(argv: list[str] | None = None) -> int:
    _never_fail_on_encoding()
    _show_core_warnings()
    try:
        args = build_parser().parse_args(argv)
        return int(args.handler(args))
    except StartupError as error:
        if isinstance(error, LibraryError):
            # When no document is left, the skipped files are the explanation.
            warn_skipped(error.problems)
        _error_line(str(error))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`); nothing left to say to it.
        sys.stderr.close()
        return 0


def _never_fail_on_encoding() -> None:
    """A character the terminal's encoding lacks (an emoji on an ASCII terminal, a
    question's undecodable byte) is written as an escape instead of a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


class _WarningLines(logging.Handler):
    """The core's logged warnings (such as a damaged call ledger) as the CLI's own
    one-line `warning:` messages, instead of logging's bare last-resort output."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"{PROG}: warning: {one_line(record.getMessage())}", file=sys.stderr)


def _show_core_warnings() -> None:
    logger = logging.getLogger("tui_assistant")
    if not any(isinstance(handler, _WarningLines) for handler in logger.handlers):
        logger.addHandler(_WarningLines(logging.WARNING))


def _error_line(message: str) -> None:
    print(f"{PROG}: error: {one_line(message)}", file=sys.stderr)
