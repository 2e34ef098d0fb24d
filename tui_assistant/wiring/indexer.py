"""`tui-assistant index`: the writer of the libraries' index.

Each library is read into its SQLite store in the data folder, as every command reads
it, and under `hybrid` its missing vectors are embedded into the store. With a
PostgreSQL store, its vectors go to the database (each batch as it arrives, so a run
stopped half-way goes on where it stopped), then the library is written there as a new
version in one transaction (`store.postgres.versions`), readers told by `NOTIFY`. One
writer per library at a time: the second says who holds it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant.core.library.library import Library
from tui_assistant.core.progress import Progress
from tui_assistant.core.words import stem
from tui_assistant.errors import ConfigError
from tui_assistant.registry.libraries import document_kinds_of
from tui_assistant.settings import Settings
from tui_assistant.store.folder import list_library
from tui_assistant.store.index_store import open_library, store_path
from tui_assistant.wiring.library_vectors import close_embedder
from tui_assistant.wiring.retrieval_choice import choose_retrieval, load_embedder
from tui_assistant.wiring.store_setting import store_url, uses_postgres

if TYPE_CHECKING:
    from tui_assistant.providers.embedding import EmbeddingSource


@dataclass(frozen=True, slots=True)
class Indexed:
    """What one run did to one library: `version_id` is None for an SQLite store."""

    library: str
    passages: int
    version_id: int | None
    written: bool


def index_libraries(
    settings: Settings,
    reading: Progress | None = None,
    embedding: Progress | None = None,
    say: Callable[[Indexed], None] = lambda _: None,
) -> list[Indexed]:
    """Read and embed every library of the settings into the store; `ConfigError` when
    another writer holds one of them, or the store cannot be used."""
    choice = choose_retrieval(settings, settings.data_dir)
    embedder = load_embedder(choice) if choice.mode == "hybrid" else None
    try:
        if not uses_postgres(settings):
            return [
                _into_sqlite(settings, spec.name, spec.folder, embedder, reading, embedding, say)
                for spec in settings.libraries
            ]
        return _into_postgres(settings, embedder, reading, embedding, say)
    finally:
        close_embedder(embedder)


def _read(settings: Settings, name: str, folder: Path, reading: Progress | None) -> Library:
    if not settings.data_dir:
        raise ConfigError("TUI_ASSISTANT_DATA_DIR: the indexer needs a data folder")
    return open_library(
        folder,
        settings.data_dir,
        stem,
        reading,
        document_kinds_of(folder, settings.document_kinds),
        name=name,
    )


def _into_sqlite(
    settings: Settings,
    name: str,
    folder: Path,
    embedder: EmbeddingSource | None,
    reading: Progress | None,
    embedding: Progress | None,
    say: Callable[[Indexed], None],
) -> Indexed:
    # numpy loads with the first vectors, never for a run that reads words only.
    from tui_assistant.store.vectors import embed_library

    library = _read(settings, name, folder, reading)
    try:
        if embedder is not None:
            embed_library(library, embedder, store_path(settings.data_dir, folder), embedding)
        done = Indexed(name, len(library), None, True)
    finally:
        library.close()
    say(done)
    return done


def _into_postgres(
    settings: Settings,
    embedder: EmbeddingSource | None,
    reading: Progress | None,
    embedding: Progress | None,
    say: Callable[[Indexed], None],
) -> list[Indexed]:
    # psycopg loads only for a PostgreSQL store.
    from tui_assistant.store.postgres.connection import connect
    from tui_assistant.store.postgres.lock import take_writer
    from tui_assistant.store.postgres.migrations import migrate
    from tui_assistant.store.postgres.vectors import PgVectorTable, build_hnsw
    from tui_assistant.store.postgres.versions import write_version
    from tui_assistant.store.vectors import embed_library

    url = store_url(settings)
    holder = connect(url, "index")
    done: list[Indexed] = []
    try:
        migrate(holder, url)
        for spec in settings.libraries:
            take_writer(holder, url, spec.name)
        writer = connect(url, "index")
        try:
            for spec in settings.libraries:
                library = _read(settings, spec.name, spec.folder, reading)
                try:
                    if embedder is not None:
                        embed_library(library, embedder, PgVectorTable(writer, True), embedding)
                        # Servers rank such a library by meaning in the database.
                        if len(library) >= settings.pgvector_from:
                            build_hnsw(writer, embedder.identity)
                    listing = list_library(
                        spec.folder, document_kinds_of(spec.folder, settings.document_kinds)
                    )
                    version = write_version(
                        writer, url, spec.name, store_path(settings.data_dir, spec.folder), listing
                    )
                finally:
                    library.close()
                if version is None:
                    row = writer.execute(
                        "SELECT current_version FROM libraries WHERE name = %s", (spec.name,)
                    ).fetchone()
                    result = Indexed(spec.name, len(library), int(row[0]) if row else None, False)
                else:
                    result = Indexed(spec.name, version.passages, version.version_id, True)
                say(result)
                done.append(result)
        finally:
            writer.close()
    finally:
        holder.close()  # the writer locks go with the connection
    return done


async def watch_libraries(settings: Settings, again: Callable[[], object]) -> None:
    """Until cancelled: call `again()` (off the event loop) after each settled burst of
    changes in the libraries' folders."""
    # watchfiles loads only when folders are watched.
    from tui_assistant.store.watch import settled_changes

    changed = asyncio.Event()

    async def watch(folder: Path) -> None:
        async for _ in settled_changes(folder, lambda name: True, ignored=[settings.data_dir]):
            changed.set()

    watchers = [asyncio.create_task(watch(spec.folder)) for spec in settings.libraries]
    try:
        while True:
            await changed.wait()
            changed.clear()
            await asyncio.to_thread(again)
    finally:
        for watcher in watchers:
            watcher.cancel()
