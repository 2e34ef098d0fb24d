"""What every command shares: how it is added to the command line (`add_command`), its
settings, its context opened with progress lines, and the skipped files said as
warnings."""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui_assistant import PROG
from tui_assistant.compat import LIBRARY_OPTIONS
from tui_assistant.core.display_text import one_line
from tui_assistant.core.library.library import warning_lines
from tui_assistant.core.library.start_warnings import start_warning_lines
from tui_assistant.core.progress import Progress
from tui_assistant.core.progress_text import counted
from tui_assistant.errors import EmbeddingUnavailable
from tui_assistant.output import ProgressLine
from tui_assistant.settings import RETRIEVAL_MODES, Settings, load_settings
from tui_assistant.wiring.context import AppContext, open_context, with_stored_vectors

if TYPE_CHECKING:
    from typing import TypeAlias

    Subcommands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

# A command's body: the parsed arguments in, the exit status out.
Handler = Callable[[argparse.Namespace], int]
# How long a command's end waits for the embedding batch under way to be stored: a
# local model's batch can take seconds, and nobody waits at the end for vectors.
STOP_SECONDS = 1.0

logger = logging.getLogger(__name__)


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


def warn_skipped(problems: Iterable[object], every: bool = False) -> None:
    """The library's problems (`FileProblem`s) as at most one warning line
    (`start_warning_lines`); `every`: a line each (`warning_lines`), for a library left
    with no document, which the report cannot show either."""
    lines = warning_lines(problems) if every else start_warning_lines(problems, f"`{PROG} library`")
    for line in lines:
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
        ProgressLine("reading", "file") as reading,
        ProgressLine("embedding", "passage") as embedding,
    ):
        context = open_context(settings, reading, embedding, embed_now=embed_now, fetching=fetching)
    warn_skipped(context.library.problems)
    return context


def open_answering(args: argparse.Namespace, wait: bool, background: bool = True) -> Answering:
    """The context a command answers from, at once: under `hybrid`, with the stored
    vectors when every passage has them, else by words (`ranked`) while the missing
    ones are computed in the background (unless not `background`); with `wait`, they
    are computed first."""
    context = with_stored_vectors(open_for(args, embed_now=False))
    if context.choice.mode != "hybrid" or context.vectors is not None:
        return Answering(context)
    progress = ProgressLine("embedding", "passage")
    if wait:
        with progress:
            return Answering(embedded_now(context, progress))
    if not background:
        return Answering(context)
    return Answering(context, EmbeddingInBackground(context, progress), progress)


def embedded_now(context: AppContext, progress: Progress | None = None) -> AppContext:
    """`context` answering by meaning once its missing vectors are computed; as it is
    when the embedding source fails (said once: what was embedded is stored, and the
    next run goes on from there)."""
    try:
        embedded = context.embed(context.library, progress)
    except EmbeddingUnavailable as error:
        logger.warning("%s; answering by words (ranked)", error)
        return context
    return context.with_vectors(embedded) or context


class _Stopped(Exception):
    """Raised from a progress report to stop an embedding nobody waits for any more."""


class EmbeddingInBackground:
    """`context`'s missing vectors computed in a daemon thread, each batch stored as it
    arrives, while the command answers by words; `current()` is the context answering
    by meaning once they are in. `stop()` ends the run after the batch under way."""

    def __init__(self, context: AppContext, progress: Progress | None = None) -> None:
        self.context = context
        self._progress = progress
        self._hybrid: AppContext | None = None
        # The run ended on a problem (said as a warning): nothing more to say of it.
        self.failed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="embedding", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        def told(done: int, total: int) -> None:
            if self._stop.is_set() and done < total:
                raise _Stopped
            if self._progress is not None:
                self._progress(done, total)

        try:
            embedded = self.context.embed(self.context.library, told)
        except _Stopped:
            return
        except Exception as error:  # the command goes on answering by words
            self.failed = True
            logger.warning("%s; answering by words (ranked)", one_line(str(error)))
            return
        self._hybrid = self.context.with_vectors(embedded)

    def current(self) -> AppContext:
        return self._hybrid or self.context

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        """Stop after the batch under way (kept in the store), waiting for it at most
        `STOP_SECONDS`."""
        self._stop.set()
        self._thread.join(STOP_SECONDS)


@dataclass
class Answering:
    """What a command answers from: the context, and the embedding under way."""

    start: AppContext
    background: EmbeddingInBackground | None = None
    progress: ProgressLine | None = None

    @property
    def context(self) -> AppContext:
        """The context answering now: by meaning once the background run is done."""
        return self.background.current() if self.background is not None else self.start

    def printing(self) -> contextlib.AbstractContextManager[None]:
        """The progress line set aside while an answer is printed on lines of its own."""
        if self.progress is None:
            return contextlib.nullcontext()
        return self.progress.set_aside()

    def close(self) -> None:
        """Close the library, unless the embedding still reads it (it ends with the
        process)."""
        if self.background is None or not self.background.running:
            self.start.library.close()

    def finish(self) -> None:
        """Stop the embedding still under way; say how far it got and how to finish it."""
        if self.background is None:
            return
        self.background.stop()
        if self.progress is not None:
            self.progress.clear()
        left = self.context.incomplete_vectors()
        if left is not None and left.done < left.total and not self.background.failed:
            print(
                f"{PROG}: embedding stopped at {left.done:,}/{counted(left.total, 'passage')}"
                f" (kept; `{PROG} ask --wait` finishes it)",
                file=sys.stderr,
                flush=True,
            )


def settings_of(args: argparse.Namespace) -> Settings:
    return load_settings(
        getattr(args, "library", None),
        getattr(args, "retrieval", None),
        getattr(args, "store", None),
    )
