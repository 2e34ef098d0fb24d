"""Watching the library folder: one batch of changed document paths per settled burst.

`watchfiles` (the Rust `notify` crate: inotify on Linux, FSEvents on macOS) collects
file events in a thread of its own, which sleeps in the kernel while nothing changes.
Its Python side wakes every `STEP_MS` to look for collected events and for the stop
event; that wake-up is all watching costs while the folder is idle (measured in
docs/library.md).

A burst of events (an editor's save, a `git checkout` of thousands of files) becomes
one batch once the folder has been quiet for `SETTLE_SECONDS`; a burst that never
settles still gives a batch every `MAX_WAIT_SECONDS`. Only changes that can change the
library count: document files, and folders (a folder moved in or out holds documents),
never hidden names or the data folder when it sits inside the library.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Protocol

import watchfiles

# Quiet time after the last change before a batch is given: an editor's save, or a
# checkout, is over by then.
SETTLE_SECONDS = 1.0
# A folder that never stays quiet that long (a document rewritten every half second)
# still gives a batch this often.
MAX_WAIT_SECONDS = 10.0
# How often the watcher's Python side wakes to collect events and check the stop
# event; also how long stopping it takes at most.
STEP_MS = 100


class StopEvent(Protocol):
    def is_set(self) -> bool: ...


class DocumentChanges:
    """The filter: a change counts when it is to a document or a folder under `folder`,
    not hidden, not under one of `ignored`. Called from the watcher's thread."""

    def __init__(
        self, folder: Path, is_document: Callable[[str], bool], ignored: Iterable[Path] = ()
    ) -> None:
        self.folder = os.path.abspath(folder)
        self.is_document = is_document
        self.ignored = tuple(os.path.abspath(path) for path in ignored)

    def relative(self, path: str) -> str | None:
        """`path` relative to the folder, '/'-separated; None when outside it."""
        relative = os.path.relpath(path, self.folder)
        if relative == "." or relative.startswith(".." + os.sep) or relative == "..":
            return None
        return relative.replace(os.sep, "/")

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        relative = self.relative(path)
        if relative is None or any(part.startswith(".") for part in relative.split("/")):
            return False
        if any(path == ignored or path.startswith(ignored + os.sep) for ignored in self.ignored):
            return False
        name = relative.rsplit("/", 1)[-1]
        if self.is_document(name):
            return True
        if change == watchfiles.Change.deleted:
            # Gone, so its kind is unknown: a name without a suffix is taken for a folder.
            return "." not in name
        return os.path.isdir(path) and not os.path.islink(path)


async def settled_changes(
    folder: Path,
    is_document: Callable[[str], bool],
    *,
    ignored: Iterable[Path] = (),
    stop: StopEvent | None = None,
    settle_seconds: float = SETTLE_SECONDS,
    max_wait_seconds: float = MAX_WAIT_SECONDS,
) -> AsyncIterator[frozenset[str]]:
    """Each settled burst of changes under `folder`, as the set of paths (relative to
    it) that changed. Ends when `stop` is set or the task is cancelled; raises
    `FileNotFoundError` when the folder does not exist and `OSError` (or watchfiles'
    `RuntimeError`) when the system cannot watch it (too many folders for inotify)."""
    changes_filter = DocumentChanges(folder, is_document, ignored)
    settle_ms = max(1, round(settle_seconds * 1000))
    pending: set[str] = set()
    first_seen = 0.0
    async for changes in watchfiles.awatch(
        folder,
        watch_filter=changes_filter,
        stop_event=stop,
        step=STEP_MS,
        debounce=settle_ms,
        # No change for this long ends a `watch` call with an empty set: the burst settled.
        rust_timeout=settle_ms,
        yield_on_timeout=True,
    ):
        if changes:
            if not pending:
                first_seen = time.monotonic()
            for _, path in changes:
                relative = changes_filter.relative(path)
                if relative is not None:
                    pending.add(relative)
            if time.monotonic() - first_seen < max_wait_seconds:
                continue
        if pending:
            batch = frozenset(pending)
            pending.clear()
            yield batch
