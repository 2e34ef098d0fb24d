"""One writer per library: a session-level advisory lock on the library's key, held by
the indexer's own connection for as long as it writes (PostgreSQL lets it go when that
connection ends, however the indexer ends). The holder records who it is, so a second
writer can say who holds the library."""

from __future__ import annotations

import hashlib

import psycopg

from tui_assistant.errors import ConfigError
from tui_assistant.store.postgres.url import SETTING, StoreUrl


def library_key(store: StoreUrl, library: str) -> int:
    """The library's advisory-lock key: a signed 64-bit hash of schema and name."""
    digest = hashlib.sha256(f"{store.schema}\0{library}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def take_writer(connection: psycopg.Connection, store: StoreUrl, library: str) -> None:
    """Hold library `library`'s writer lock on `connection` (autocommit); `ConfigError`
    naming the holder when another writer has it."""
    key = library_key(store, library)
    (taken,) = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone() or (False,)
    if not taken:
        row = connection.execute(
            "SELECT holder, since FROM writers WHERE library = %s", (library,)
        ).fetchone()
        holder = f"{row[0]} since {row[1]:%Y-%m-%d %H:%M:%S %Z}" if row else "another writer"
        raise ConfigError(
            f"{SETTING}: library {library} is being indexed by {holder}; one writer at a time"
        )
    connection.execute(
        "INSERT INTO writers (library, holder) VALUES (%s, current_setting('application_name'))"
        " ON CONFLICT (library) DO UPDATE SET holder = EXCLUDED.holder, since = now()",
        (library,),
    )


def release_writer(connection: psycopg.Connection, store: StoreUrl, library: str) -> None:
    connection.execute("SELECT pg_advisory_unlock(%s)", (library_key(store, library),))
