"""What every command shares: its settings, its context opened with progress lines,
and the skipped files said as warnings."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from tui_assistant import PROG
from tui_assistant.core.display_text import one_line
from tui_assistant.core.library.library import warning_lines
from tui_assistant.output import ProgressLine
from tui_assistant.settings import Settings, load_settings
from tui_assistant.wiring.context import AppContext, open_context


def warn_skipped(problems: Iterable[object]) -> None:
    """The skipped files (`FileProblem`s) as warning lines (`warning_lines`)."""
    for line in warning_lines(problems):
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
        ProgressLine("fetching the embedding model:", "MB", scale=1 << 20) as fetching,
        ProgressLine("indexing", "files") as indexing,
        ProgressLine("embedding", "passages") as embedding,
    ):
        context = open_context(
            settings, indexing, embedding, embed_now=embed_now, fetching=fetching
        )
    warn_skipped(context.library.problems)
    return context


def settings_of(args: argparse.Namespace) -> Settings:
    return load_settings(getattr(args, "library", None), getattr(args, "retrieval", None))
