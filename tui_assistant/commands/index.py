"""`index`: read and embed the libraries into the store, then exit (or, with `--watch`,
keep them current). With a PostgreSQL store it is the one writer of each library:
servers read what it writes and follow its new versions."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from tui_assistant import PROG
from tui_assistant.commands.common import add_command, settings_of
from tui_assistant.output import ProgressLine
from tui_assistant.settings import Settings
from tui_assistant.wiring.indexer import Indexed, index_libraries, watch_libraries

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands


def register(subparsers: Subcommands) -> None:
    command = add_command(
        subparsers,
        "index",
        run,
        help="read and embed the libraries into the store (the writer of a shared store)",
    )
    command.add_argument(
        "--watch",
        action="store_true",
        help="keep indexing the libraries as their files change, until interrupted",
    )


def run(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    _index(settings)
    if args.watch:
        print(f"{PROG}: watching the libraries' folders", file=sys.stderr, flush=True)
        asyncio.run(watch_libraries(settings, lambda: _index(settings)))
    return 0


def _index(settings: Settings) -> None:
    with (
        ProgressLine("indexing", "file") as reading,
        ProgressLine("embedding", "passage") as embedding,
    ):
        index_libraries(settings, reading, embedding, _said)


def _said(done: Indexed) -> None:
    if done.version_id is None:
        print(f"{done.library}: {done.passages:,} passages indexed", flush=True)
    elif done.written:
        print(f"{done.library}: version {done.version_id}, {done.passages:,} passages", flush=True)
    else:
        print(f"{done.library}: unchanged, version {done.version_id}", flush=True)
