"""A read-only follower's steps (`mcp --workers`): what the libraries' stores look like
on disk, and the libraries opened again from them once another process has committed."""

from __future__ import annotations

from tui_assistant.store.index_store import store_path
from tui_assistant.wiring.context import AppContext, load_library, with_stored_vectors

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
