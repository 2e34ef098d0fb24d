"""Watch mode in the app: the library folder watched from an async worker, each
settled batch of changes posted to the app as `LibraryChangedOnDisk`.

The watcher (`store.watch`) waits in watchfiles' thread between events, so the worker
costs the event loop nothing while the folder is idle; cancelling the worker (quitting,
or a new library folder) stops it within watchfiles' step. A folder the system cannot
watch ends the worker with one `WatchFailed`, and the app goes on without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import Worker

from tui_assistant.core.display_text import one_line
from tui_assistant.store.watch import settled_changes

WATCH_GROUP = "watch"


@dataclass
class LibraryChangedOnDisk(Message):
    """Documents or folders of the library changed (paths relative to its folder)."""

    paths: frozenset[str]


@dataclass
class WatchFailed(Message):
    """The library folder cannot be watched; `reason` is one line."""

    reason: str


def start_watching(
    node: DOMNode,
    folder: Path,
    is_document: Callable[[str], bool],
    ignored: Iterable[Path] = (),
) -> Worker[None]:
    """Watch `folder` from a worker of `node`, which gets the messages above."""
    ignored = tuple(ignored)

    async def watch() -> None:
        try:
            async for paths in settled_changes(folder, is_document, ignored=ignored):
                node.post_message(LibraryChangedOnDisk(paths))
        except Exception as error:  # no watching must not end the app: ctrl+r still works
            node.post_message(WatchFailed(_reason(error)))

    # Not exclusive: each library of several has its folder watched by a worker.
    return node.run_worker(watch(), group=WATCH_GROUP, exit_on_error=False)


def _reason(error: Exception) -> str:
    if isinstance(error, FileNotFoundError):
        return "it does not exist"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    # watchfiles' own errors (an inotify limit reached) are plain words.
    return one_line(str(error)).rstrip(".") or type(error).__name__
