"""A read-only follower's steps (`mcp --workers`): what the libraries' stores look like
on disk, and the libraries opened again from them once another process has committed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Final

from tui_assistant.store.index_store import store_path
from tui_assistant.wiring.context import AppContext, with_stored_vectors
from tui_assistant.wiring.libraries import load_library
from tui_assistant.wiring.lifecycle import LibraryLifecycle

# How often a follower looks at the stores' files for the writer's commits.
FOLLOW_SECONDS: Final = 0.5

StoreStamps = tuple[tuple[int, int] | None, ...]


def store_stamps(context: AppContext) -> StoreStamps:
    """What the libraries' stores look like on disk now: each store file's and its
    write-ahead log's (modification time, size). A commit by another process changes it."""
    stamps: list[tuple[int, int] | None] = []
    for part in context.library.parts.values():
        store = store_path(context.settings.data_dir, part.folder)
        for path in (store, store.with_name(store.name + "-wal")):
            try:
                found = path.stat()
            except OSError:
                stamps.append(None)
            else:
                stamps.append((found.st_mtime_ns, found.st_size))
    return tuple(stamps)


def reopened(context: AppContext) -> AppContext:
    """`context`'s libraries opened again from their stores as the writer left them,
    with their stored vectors under `hybrid` (none computed here)."""
    reloaded = context.with_library(load_library(context.settings))
    return with_stored_vectors(reloaded)


async def follow_writer(
    lifecycle: LibraryLifecycle, warn: Callable[[str], None], interval: float = FOLLOW_SECONDS
) -> None:
    """While a follower serves: whenever the writer commits to a store, answer from the
    libraries as stored now. A reopening that fails keeps what was served before (`warn`
    is told why)."""
    stamps = store_stamps(lifecycle.context)
    while True:
        await asyncio.sleep(interval)
        now = await asyncio.to_thread(store_stamps, lifecycle.context)
        if now == stamps:
            continue
        stamps = now
        try:
            context = await asyncio.to_thread(reopened, lifecycle.context)
        except Exception as error:  # a commit caught half-way: the next look mends it
            warn(f"warning: could not follow the writer yet ({error})")
            continue
        lifecycle.follow(context)
