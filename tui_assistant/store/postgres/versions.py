"""Whole versions of a library in the store: written in one transaction, read whole.

The indexer reads the folder into its SQLite store as every command does
(`index_store.open_library`), then copies that store's rows here as a new version of
the library, moves the library's `current_version` to it and notifies readers, all in
one transaction: a reader sees the old version or the new one, never half of one, and
an indexer stopped half-way leaves nothing. A passage's text is stored once by its
SHA-256, however many versions hold it. Only the current version and the one before
it are kept.

A reader copies the current version into an SQLite store in memory and builds the
library from it with `snapshot.read_library`, exactly as from a file: the same
passages, ids and word index, so the same answers.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import psycopg

from tui_assistant.core.documents.split import PARSER_VERSION
from tui_assistant.core.library.library import FileProblem, Library
from tui_assistant.core.retrieval.fusion import split_pieces
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.words import NORMALISER_VERSION
from tui_assistant.errors import ConfigError
from tui_assistant.store.folder import FolderProblem, Listing
from tui_assistant.store.index_store import memory_store
from tui_assistant.store.postgres.documents import drop_versions, write_documents
from tui_assistant.store.postgres.url import SETTING, StoreUrl
from tui_assistant.store.snapshot import read_library

# How many versions of a library are kept: the current one and the one before it.
KEPT_VERSIONS: Final = 2


@dataclass(frozen=True, slots=True)
class StoredVersion:
    library: str
    version_id: int
    passages: int


def channel(store: StoreUrl) -> str:
    """The notification channel of `store`'s deployment (one per schema)."""
    return f"{store.schema}_versions"


def current_versions(connection: psycopg.Connection) -> dict[str, int]:
    """Every library's current version id, by name."""
    rows = connection.execute(
        "SELECT name, current_version FROM libraries WHERE current_version IS NOT NULL"
    )
    return {str(name): int(version) for name, version in rows}


def write_version(
    connection: psycopg.Connection,
    store: StoreUrl,
    name: str,
    sqlite_path: Path,
    listing: Listing,
) -> StoredVersion | None:
    """Copy the SQLite store at `sqlite_path` as a new version of library `name`, made
    current and announced in one transaction; None when the current version was read
    from the same files already (nothing written)."""
    source = sqlite3.connect(f"{Path(os.path.abspath(sqlite_path)).as_uri()}?mode=ro", uri=True)
    try:
        source.execute("BEGIN")  # one snapshot of the SQLite store for the whole copy
        files = source.execute(
            "SELECT path, size, mtime_ns, title, problem, notes FROM files ORDER BY path"
        ).fetchall()
        folder = dict(source.execute("SELECT key, value FROM meta")).get("folder", "")
        listed = _listing_json(listing)
        with connection.transaction():
            connection.execute(
                "INSERT INTO libraries (name) VALUES (%s) ON CONFLICT DO NOTHING", (name,)
            )
            current = connection.execute(
                "SELECT current_version FROM libraries WHERE name = %s FOR UPDATE", (name,)
            ).fetchone()
            if (
                current is not None
                and current[0] is not None
                and _same(connection, int(current[0]), files, listed)
            ):
                return None
            version = _copy(connection, source, name, folder, listed, files)
            connection.execute(
                "UPDATE libraries SET current_version = %s, updated_at = now() WHERE name = %s",
                (version.version_id, name),
            )
            drop_versions(connection, name, KEPT_VERSIONS)
            payload = json.dumps({"library": name, "version_id": version.version_id})
            connection.execute("SELECT pg_notify(%s, %s)", (channel(store), payload))
        return version
    finally:
        source.close()


def _same(
    connection: psycopg.Connection, version: int, files: list[tuple[object, ...]], listed: str
) -> bool:
    row = connection.execute(
        "SELECT listing, words, parser, byte_order FROM versions WHERE id = %s", (version,)
    ).fetchone()
    if row is None or json.dumps(row[0], sort_keys=True) != listed:
        return False
    if tuple(row[1:]) != (str(NORMALISER_VERSION), str(PARSER_VERSION), sys.byteorder):
        return False
    stored = connection.execute(
        "SELECT path, size, mtime_ns, title, problem, notes FROM files WHERE version = %s"
        " ORDER BY path",
        (version,),
    ).fetchall()
    return [tuple(row) for row in stored] == [tuple(row) for row in files]


def _copy(
    connection: psycopg.Connection,
    source: sqlite3.Connection,
    name: str,
    folder: str,
    listed: str,
    files: list[tuple[object, ...]],
) -> StoredVersion:
    (count,) = source.execute("SELECT count(*) FROM passages").fetchone()
    row = connection.execute(
        "INSERT INTO versions (library, folder, passages, listing, words, parser, byte_order)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
        (name, folder, count, listed, str(NORMALISER_VERSION), str(PARSER_VERSION), sys.byteorder),
    ).fetchone()
    assert row is not None
    version = int(row[0])
    with connection.cursor() as cursor:
        _copy_rows(
            cursor,
            "files (version, path, size, mtime_ns, title, problem, notes)",
            ((version, *row) for row in files),
        )
        _copy_rows(
            cursor,
            "dependencies (version, path, target, size, mtime_ns)",
            (
                (version, *row)
                for row in source.execute("SELECT path, target, size, mtime_ns FROM dependencies")
            ),
        )
        cursor.execute("CREATE TEMPORARY TABLE new_texts (content BYTEA, text TEXT) ON COMMIT DROP")
        passages: list[tuple[object, ...]] = []
        texts: dict[bytes, str] = {}
        pieces: set[tuple[int, bytes, int]] = set()
        for number, path, position, anchor, title, text, *rest in source.execute(
            "SELECT number, path, position, anchor, title, text, line, end_line, page,"
            " end_page, page_starts, source, title_length, body_length, index_terms"
            " FROM passages"
        ):
            content = _content_key(text)
            texts[content] = text
            passages.append((version, number, path, position, anchor, title, content, *rest))
            pieces.update(
                (version, _content_key(piece), number) for piece in split_pieces(title, text)
            )
        _copy_rows(cursor, "new_texts (content, text)", texts.items())
        cursor.execute(
            "INSERT INTO texts (content, text) SELECT content, text FROM new_texts"
            " ON CONFLICT DO NOTHING"
        )
        _copy_rows(
            cursor,
            "passages (version, number, path, position, anchor, title, content, line,"
            " end_line, page, end_page, page_starts, source, title_length, body_length,"
            " index_terms)",
            passages,
        )
        _copy_rows(cursor, "version_pieces (version, content, number)", pieces)
        readable = (str(row[0]) for row in files if row[4] is None)
        write_documents(cursor, version, Path(folder), readable)
        _copy_rows(
            cursor,
            "postings (version, word, field, numbers, counts)",
            (
                (version, *row)
                for row in source.execute("SELECT word, field, numbers, counts FROM postings")
            ),
        )
    return StoredVersion(name, version, int(count))


def _copy_rows(cursor: psycopg.Cursor, table: str, rows: Iterable[Sequence[object]]) -> None:
    with cursor.copy(f"COPY {table} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def _content_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def _listing_json(listing: Listing) -> str:
    problems = [
        [problem.path, problem.reason, problem.skipped, isinstance(problem, FolderProblem)]
        for problem in listing.problems
    ]
    return json.dumps({"problems": problems, "hidden": list(listing.hidden)}, sort_keys=True)


def _listing(value: dict[str, list[list[object]]]) -> Listing:
    problems: list[FileProblem] = []
    for path, reason, skipped, is_folder in value.get("problems", []):
        kind = FolderProblem if is_folder else FileProblem
        problems.append(kind(str(path), str(reason), bool(skipped)))
    hidden = tuple(str(name) for name in value.get("hidden", []))
    return Listing((), tuple(problems), hidden)


def load_version(
    connection: psycopg.Connection,
    name: str,
    folder: Path,
    key: KeyFunction,
    version: int | None = None,
) -> tuple[StoredVersion, Library]:
    """Library `name`'s current version (or `version`), as the in-memory library;
    `ConfigError` when the store holds none yet."""
    with connection.transaction():
        connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        if version is None:
            found = connection.execute(
                "SELECT current_version FROM libraries WHERE name = %s", (name,)
            ).fetchone()
            if found is None or found[0] is None:
                raise ConfigError(
                    f"{SETTING}: the store holds no version of library {name} yet"
                    f" (run tui-assistant index --library {name}=DIR)"
                )
            version = int(found[0])
        row = connection.execute(
            "SELECT listing, passages FROM versions WHERE id = %s", (version,)
        ).fetchone()
        if row is None:
            raise ConfigError(f"{SETTING}: version {version} of library {name} is gone")
        listing, count = _listing(row[0]), int(row[1])
        memory = memory_store(folder)
        try:
            _fill(connection, memory, version)
        except BaseException:
            memory.close()
            raise
    memory.execute("BEGIN")
    library = read_library(memory, folder, listing, key, (), name)
    return StoredVersion(name, version, count), library


def _fill(connection: psycopg.Connection, memory: sqlite3.Connection, version: int) -> None:
    """Copy version `version`'s rows into the SQLite store `memory`."""
    memory.execute("BEGIN")
    memory.executemany(
        "INSERT INTO files (path, size, mtime_ns, title, problem, notes) VALUES (?, ?, ?, ?, ?, ?)",
        connection.execute(
            "SELECT path, size, mtime_ns, title, problem, notes FROM files WHERE version = %s",
            (version,),
        ),
    )
    memory.executemany(
        "INSERT INTO dependencies (path, target, size, mtime_ns) VALUES (?, ?, ?, ?)",
        connection.execute(
            "SELECT path, target, size, mtime_ns FROM dependencies WHERE version = %s",
            (version,),
        ),
    )
    memory.executemany(
        "INSERT INTO passages (number, path, position, anchor, title, text, line, end_line,"
        " page, end_page, page_starts, source, title_length, body_length, index_terms)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        connection.execute(
            "SELECT p.number, p.path, p.position, p.anchor, p.title, t.text, p.line,"
            " p.end_line, p.page, p.end_page, p.page_starts, p.source, p.title_length,"
            " p.body_length, p.index_terms FROM passages p JOIN texts t ON t.content = p.content"
            " WHERE p.version = %s",
            (version,),
        ),
    )
    memory.executemany(
        "INSERT INTO postings (word, field, numbers, counts) VALUES (?, ?, ?, ?)",
        connection.execute(
            "SELECT word, field, numbers, counts FROM postings WHERE version = %s", (version,)
        ),
    )
    memory.execute("COMMIT")
