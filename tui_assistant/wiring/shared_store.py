"""The PostgreSQL store as the wiring uses it: one per process and URL, migrated on
first use, with a small pool of connections that reconnects by itself.

Readers load each library's current version into memory (`load_part`), read its stored
vectors, append gaps (kept in memory while the database is away) and follow new
versions by `LISTEN` (`follow_versions`). Imported only when the settings name
PostgreSQL: it loads the `postgres` extra's driver.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Final

import psycopg
from psycopg_pool import ConnectionPool

from tui_assistant.core.gaps import Gap
from tui_assistant.core.library.library import Library
from tui_assistant.core.progress import Progress
from tui_assistant.core.words import stem
from tui_assistant.errors import ConfigError, EmbeddingUnavailable
from tui_assistant.settings import Settings
from tui_assistant.store.postgres.connection import application_name, connect, unreachable
from tui_assistant.store.postgres.dense import database_vectors
from tui_assistant.store.postgres.documents import document_text
from tui_assistant.store.postgres.gaps import GapWriter, read_gaps
from tui_assistant.store.postgres.migrations import migrate
from tui_assistant.store.postgres.url import SETTING, StoreUrl
from tui_assistant.store.postgres.vectors import PgVectorTable, stored_models
from tui_assistant.store.postgres.versions import channel, load_version
from tui_assistant.store.vectors import StoredModel
from tui_assistant.wiring.store_setting import store_url

if TYPE_CHECKING:
    from tui_assistant.core.retrieval.dense import PassageVectors
    from tui_assistant.core.retrieval.model_identity import ModelIdentity
    from tui_assistant.providers.embedding import EmbeddingSource

logger = logging.getLogger(__name__)

POOL_SIZE: Final = 4
# Waits between tries to reach the database again: doubling, at most the last.
BACKOFF_SECONDS: Final = (0.2, 0.5, 1.0, 2.0, 5.0)


class SharedStore:
    """One PostgreSQL store as this process uses it."""

    def __init__(self, url: StoreUrl) -> None:
        self.url = url
        first = connect(url, "server")
        try:
            migrate(first, url)
        finally:
            first.close()
        self.pool = ConnectionPool(
            url.conninfo,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={"autocommit": True, "application_name": application_name("server")},
            configure=self._configure,
            check=ConnectionPool.check_connection,
            timeout=5.0,
            reconnect_timeout=0,  # never give up: the database may come back
            open=True,
        )
        self.gaps = GapWriter()
        # The library versions loaded, by name and folder (`load_part`), and their
        # vectors by name and model (`part_vectors`), each with its version id.
        self.parts: dict[tuple[str, Path], _Kept] = {}
        self.vectors: dict[tuple[str, ModelIdentity], tuple[int, PassageVectors]] = {}
        # The version of each library last read from this store, by name (`/health`).
        self.served: dict[str, int] = {}

    def _configure(self, connection: psycopg.Connection) -> None:
        connection.execute(f'SET search_path TO "{self.url.schema}", public')

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """A pooled connection; `ConfigError` (one line) when the database is away."""
        try:
            with self.pool.connection() as connection:
                yield connection
        except psycopg.Error as error:
            raise ConfigError(unreachable(self.url, error)) from None
        except TimeoutError as error:  # the pool's: no connection came in time
            raise ConfigError(unreachable(self.url, error)) from None


_stores: dict[str, SharedStore] = {}
_lock = threading.Lock()


def shared_store(settings: Settings) -> SharedStore:
    """The process's store for the settings' URL, opened (and migrated) on first use."""
    url = store_url(settings)
    with _lock:
        store = _stores.get(url.conninfo + url.schema)
        if store is None:
            store = _stores[url.conninfo + url.schema] = SharedStore(url)
        return store


class _Kept:
    """One library version loaded from the store, shared by every library object that
    serves it (`handle`): a new version of another library reloads only that one. Its
    memory goes once it is no longer current and no handle holds it."""

    def __init__(self, version: int, library: Library) -> None:
        self.version = version
        self.library = library
        self.handles = 0
        self.current = True
        self._lock = threading.Lock()

    def handle(self) -> Library:
        base = self.library
        with self._lock:
            self.handles += 1
        handle = Library(
            base.folder,
            base.passages,
            base.documents,
            base.index,
            _Held(self, lambda number: base.passage(number).text),
            base.problems,
            base.positions,
            base.hidden,
            (),
            name=base.name,
        )
        # The same passages: the tables built from them serve every handle.
        handle.tables = base.tables
        return handle

    def let_go(self, current: bool | None = None) -> None:
        with self._lock:
            if current is None:
                self.handles -= 1
            else:
                self.current = current
            done = not self.current and self.handles <= 0
        if done:
            self.library.close()


class _Held:
    """A handle's passage texts: the kept library's, let go once on close."""

    def __init__(self, kept: _Kept, text: Callable[[int], str]) -> None:
        self._kept = kept
        self._text = text
        self._open = True

    def __call__(self, number: int) -> str:
        return self._text(number)

    def close(self) -> None:
        if self._open:
            self._open = False
            self._kept.let_go()


def load_part(settings: Settings, name: str, folder: Path, progress: Progress | None) -> Library:
    """Library `name`'s current version from the store, as the in-memory library: the
    one loaded already when the store's current version is still the one it holds."""
    store = shared_store(settings)
    with store.connection() as connection:
        row = connection.execute(
            "SELECT current_version FROM libraries WHERE name = %s", (name,)
        ).fetchone()
        kept = store.parts.get((name, folder))
        if kept is None or row is None or row[0] != kept.version:
            stored, library = load_version(connection, name, folder, stem)
            if kept is not None:
                kept.let_go(current=False)
            kept = store.parts[(name, folder)] = _Kept(stored.version_id, library)
    store.served[name] = kept.version
    if progress is not None:
        progress(len(kept.library), len(kept.library))
    return kept.handle()


def stored_document(settings: Settings, name: str, path: str) -> str | None:
    """The text of library `name`'s document at `path`, in the version served; None when
    the store cannot give it now."""
    store = shared_store(settings)
    version = store.served.get(name)
    if version is None:
        return None
    try:
        with store.connection() as connection:
            return document_text(connection, version, path)
    except ConfigError:
        return None


def served_version(settings: Settings, name: str) -> int | None:
    """The version of library `name` this process last read."""
    return shared_store(settings).served.get(name)


def part_vectors(
    settings: Settings,
    part: Library,
    embedder: EmbeddingSource,
    embed_part: Callable[..., PassageVectors],
    progress: Progress,
) -> PassageVectors:
    """Library `part`'s vectors: for one of `pgvector_from` passages or more whose
    vectors are all stored, ranked in the database; else read into memory (a server
    computes what is missing there, never writing it)."""
    store = shared_store(settings)
    version = store.served.get(part.name)
    identity = embedder.identity
    # A follower reloading after another library's new version: this one's are as read.
    kept = store.vectors.get((part.name, identity))
    if kept is not None and version is not None and kept[0] == version:
        progress(len(part), len(part))
        return kept[1]
    with store.connection() as connection:
        found = None
        if version is not None and len(part) >= settings.pgvector_from:
            found = database_vectors(
                connection, partial(_ranking_connection, store), part, identity, version
            )
        if found is None:
            table = PgVectorTable(connection, writable=False)
            found = embed_part(part, embedder, table, progress)
    if version is not None:
        store.vectors[(part.name, identity)] = (version, found)
    progress(len(part), len(part))
    return found


@contextmanager
def _ranking_connection(store: SharedStore) -> Iterator[psycopg.Connection]:
    """A connection for one question's ranking; the database away: answered by words."""
    try:
        with store.connection() as connection:
            yield connection
    except (ConfigError, psycopg.Error) as error:
        raise EmbeddingUnavailable(
            f"{SETTING}: the meaning ranking cannot reach the store ({error})",
            "store unreachable",
            every_text=True,
        ) from None


def stored_vectors(settings: Settings, library: Library) -> list[StoredModel]:
    store = shared_store(settings)
    with store.connection() as connection:
        return stored_models(connection, library)


def keep_gap(settings: Settings, library: str, gap: Gap) -> None:
    """Append `gap`; while the database is away it waits in memory for `flush_gaps`."""
    store = shared_store(settings)
    try:
        with store.connection() as connection:
            store.gaps.add(connection, library, gap)
    except ConfigError:
        store.gaps.add(None, library, gap)


def gaps_of(settings: Settings, library: str) -> list[Gap]:
    store = shared_store(settings)
    with store.connection() as connection:
        return read_gaps(connection, library)


async def follow_versions(
    settings: Settings,
    names: Callable[[], set[str]],
    on_change: Callable[[], Awaitable[None]],
    warn: Callable[[str], None],
) -> None:
    """Until cancelled: listen for new versions on a connection of its own, and await
    `on_change()` when one of `names()` has a version other than the one served. A lost
    connection is opened again with backoff; on every (re)connection the current
    versions are compared (a notice sent meanwhile is not lost) and the gaps kept
    meanwhile are written."""
    store = shared_store(settings)
    failures = 0
    while True:
        try:
            connection = await psycopg.AsyncConnection.connect(
                store.url.conninfo,
                autocommit=True,
                application_name=application_name("listen"),
            )
        except psycopg.Error as error:
            await _backoff(failures, warn, store, error)
            failures += 1
            continue
        try:
            async with connection:
                await connection.execute(f'LISTEN "{channel(store.url)}"')
                await connection.execute(f'SET search_path TO "{store.url.schema}", public')
                if failures:
                    warn("the store answers again")
                failures = 0
                await asyncio.to_thread(_flush_gaps, store)
                await _compare(connection, store, names, on_change)
                async for notice in connection.notifies():
                    library = json.loads(notice.payload).get("library")
                    if library in names():
                        await on_change()
                    await asyncio.to_thread(_flush_gaps, store)
        except psycopg.Error as error:
            await _backoff(failures, warn, store, error)
            failures += 1


async def _compare(
    connection: psycopg.AsyncConnection,
    store: SharedStore,
    names: Callable[[], set[str]],
    on_change: Callable[[], Awaitable[None]],
) -> None:
    rows = await (
        await connection.execute(
            "SELECT name, current_version FROM libraries WHERE current_version IS NOT NULL"
        )
    ).fetchall()
    current = {str(name): int(version) for name, version in rows}
    served = dict(store.served)
    if any(current.get(name) != served.get(name) for name in names() if name in current):
        await on_change()


def _flush_gaps(store: SharedStore) -> None:
    if store.gaps.waiting:
        try:
            with store.connection() as connection:
                store.gaps.flush(connection)
        except ConfigError:
            pass  # still away: they wait for the next try


async def _backoff(
    failures: int, warn: Callable[[str], None], store: SharedStore, error: BaseException
) -> None:
    if failures == 0:
        warn(f"warning: {unreachable(store.url, error)}; serving what was read, trying again")
    await asyncio.sleep(BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS) - 1)])
