"""What every command shares: how it is added to the command line (`add_command`), its
settings, its context opened with progress lines, and the skipped files said as
warnings."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from tui_assistant import PROG
from tui_assistant.compat import LIBRARY_OPTIONS
from tui_assistant.core.display_text import one_line
from tui_assistant.core.library.library import start_warning_lines
from tui_assistant.output import ProgressLine
from tui_assistant.settings import RETRIEVAL_MODES, Settings, load_settings
from tui_assistant.wiring.context import AppContext, open_context

if TYPE_CHECKING:
    from typing import TypeAlias

    Subcommands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

# A command's body: the parsed arguments in, the exit status out.
Handler = Callable[[argparse.Namespace], int]


def add_command(
    subparsers: Subcommands,
    name: str,
    run: Handler,
    json_help: str | None = None,
    *,
    common: bool = True,
    **described: Any,
) -> argparse.ArgumentParser:
    """The subcommand `name`, run by `run`: with `--library` and `--retrieval` unless
    not `common` (a command that reads no library), and `--json` when `json_help` says
    what it prints. `described` is `help`, `description`, `aliases`. The command adds
    its own arguments to the parser returned."""
    command = subparsers.add_parser(name, **described)
    if common:
        add_common_options(command)
    if json_help is not None:
        command.add_argument("--json", action="store_true", help=json_help)
    command.set_defaults(handler=run)
    return command


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """`--library`, `--retrieval` and `--store`, on the program and on each command."""
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
    parser.add_argument(
        "--store",
        metavar="URL",
        default=argparse.SUPPRESS,
        help="sqlite, or a postgresql:// URL of a shared store (overrides TUI_ASSISTANT_STORE)",
    )


def warn_skipped(problems: Iterable[object]) -> None:
    """The library's problems (`FileProblem`s) as warning lines: the new ones in full,
    those met on the previous start as one line (`start_warning_lines`)."""
    for line in start_warning_lines(problems, f"`{PROG} library`"):
        print(f"{PROG}: warning: {one_line(line)}", file=sys.stderr)


def open_for(
    args: argparse.Namespace, answering: bool = True, embed_now: bool = True
) -> AppContext:
    """The context for a command. Commands that answer get the configured retrieval,
    with `hybrid`'s missing vectors computed first unless not `embed_now`; `passages`
    only lists."""
    settings = settings_of(args)
    if not answering:
        settings = settings.model_copy(update={"retrieval": "keyword"})
    with (
        ProgressLine("fetching the embedding model:", "MB", 1 << 20, "MB") as fetching,
        ProgressLine("indexing", "file") as indexing,
        ProgressLine("embedding", "passage") as embedding,
    ):
        context = open_context(
            settings, indexing, embedding, embed_now=embed_now, fetching=fetching
        )
    warn_skipped(context.library.problems)
    return context


def settings_of(args: argparse.Namespace) -> Settings:
    return load_settings(
        getattr(args, "library", None),
        getattr(args, "retrieval", None),
        getattr(args, "store", None),
    )
