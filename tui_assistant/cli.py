"""Command line: the TUI (default), `ask`, `eval`, `passages`, `library`, `status`,
`gaps`, `mcp`, `fetch`, `changes`, `search` and `index`.

Each command is its module in `tui_assistant.commands`: its `register` adds it to the
command line, its `run` is its body. Here are only the parser, the commands in the
order `--help` lists them, `main` and the one error boundary. Exit status: 0 when the
command ran, 2 for a usage or configuration error (one line on stderr, no traceback),
130 when interrupted. The headless commands never import Textual.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from typing import NoReturn

from tui_assistant import PROG, __version__
from tui_assistant.commands import tui
from tui_assistant.commands.common import add_common_options, warn_skipped
from tui_assistant.compat import PASSAGES_COMMAND_ALIASES
from tui_assistant.core.display_text import one_line
from tui_assistant.errors import LibraryError, StartupError, UsageError

DESCRIPTION = (
    "Answers questions from a library of Markdown, reStructuredText, text, HTML, PDF and "
    "manual-page documents, and from packages' documentation fetched into the data folder."
)
# The subcommands' modules (`tui_assistant.commands.NAME`), in the order `--help` lists
# them; the TUI is the default, not one.
COMMANDS = (
    "ask",
    "evaluate",
    "passages",
    "library",
    "status",
    "gaps",
    "mcp",
    "fetch",
    "changes",
    "search",
    "index",
)
# What a command line starting with a subcommand's name (or old name) runs: its module.
COMMAND_OF = {
    **{name: name for name in COMMANDS if name != "evaluate"},
    "eval": "evaluate",
    **dict.fromkeys(PASSAGES_COMMAND_ALIASES, "passages"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; with `command` (a name of `COMMAND_OF`), that subcommand alone,
    which parses its own arguments exactly as the whole parser does."""
    parser = _Parser(prog=PROG, description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    add_common_options(parser)
    parser.set_defaults(handler=tui.run)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS if command is None else (COMMAND_OF[command],):
        # Imported here: a command imports no other command's dependencies at its start.
        importlib.import_module(f"tui_assistant.commands.{module}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    _never_fail_on_encoding()
    _show_core_warnings()
    arguments = sys.argv[1:] if argv is None else argv
    # A command line that starts with a subcommand needs that one alone.
    command = arguments[0] if arguments and arguments[0] in COMMAND_OF else None
    try:
        args = build_parser(command).parse_args(arguments)
        return int(args.handler(args))
    except StartupError as error:
        if isinstance(error, LibraryError):
            # When no document is left, the skipped files are the explanation.
            warn_skipped(error.problems, every=True)
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
