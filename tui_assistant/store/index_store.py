"""The index store: one SQLite database per library folder, in the data folder.

It keeps every document file's stamp (path, size, mtime in nanoseconds) and the
passages the file split into, and the postings of their content words. Opening a
library compares the folder with the stamps and reads again only the files that
changed, were added or were removed, in one transaction (`updates.py`);
`snapshot.read_library` then
builds the in-memory library and index from what is stored. A database that is
damaged or not ours is rebuilt with a one-line warning, never trusted; one from another
version of the word index (schema, words or parser) has its word tables rebuilt and
keeps its vectors, which are keyed by the content they were computed from.

Several processes share one store: a lock file beside the database lets one of them
update it at a time, and each process then reads in its own snapshot (SQLite's WAL
mode), which it keeps open, so the passage text it shows is the text it indexed even
when another process updates the store meanwhile.

The database is a plain SQLite file: `sqlite3 <data dir>/libraries/<name>.sqlite3`
opens it (`files`, `passages`, `postings`, `dependencies`, `meta`, `kept_tables`;
`vector_models` and `piece_vectors` for hybrid retrieval).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import sys
from collections.abc import Collection
from pathlib import Path

from tui_assistant.core.documents.formats import DEFAULT_DOCUMENT_KINDS
from tui_assistant.core.documents.split import PARSER_VERSION
from tui_assistant.core.library.library import Library, marked_new, problem_keys
from tui_assistant.core.progress import Progress as Progress
from tui_assistant.core.retrieval.index import (
    KeyFunction,
)
from tui_assistant.core.words import NORMALISER_VERSION
from tui_assistant.errors import StoreProblem, os_error_words
from tui_assistant.store import kept_tables, updates
from tui_assistant.store.atomic_files import locked
from tui_assistant.store.folder import Listing, list_library
from tui_assistant.store.snapshot import Keep, begin_snapshot, read_library

logger = logging.getLogger(__name__)

# Bump when the tables change meaning: an older store is then rebuilt (as it is when the
# documents' passage rules, PARSER_VERSION, or the stored words, NORMALISER_VERSION, do).
SCHEMA_VERSION = 5  # 2: HTML comments are not text; titles are plain; rst and txt documents
# 3: passages' pages (PDF); 4: passages cite the file they come from (`source`), files keep
# notes and dependencies; 5: passages keep their index terms
# "TUIA": marks the file as ours, so a foreign database at our path is never read.
APPLICATION_ID = 0x54554941
STORE_FOLDER = "libraries"
# The `meta` row that keeps the problems (file, message) the last start met.
PROBLEMS_SEEN = "problems_seen"
# How long to wait for another program's transaction before indexing in memory instead.
BUSY_TIMEOUT_SECONDS = 5.0

_SCHEMA = (
    f"""
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    path TEXT PRIMARY KEY,      -- relative to the library folder, '/'-separated
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    title TEXT,                 -- the document title; NULL when skipped
    problem TEXT,               -- why the file was skipped; NULL when read
    notes TEXT                  -- what it names and could not be read, one per line
);
-- The other files a document read (includes, autodoc sources) with their stamps when it
-- was read ((-1, -1): there was none): the document is read again when one changes.
CREATE TABLE dependencies (
    path TEXT NOT NULL REFERENCES files (path) ON DELETE CASCADE,
    target TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    PRIMARY KEY (path, target)
) WITHOUT ROWID;
CREATE TABLE passages (
    number INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, so postings stay sorted
    path TEXT NOT NULL REFERENCES files (path),
    position INTEGER NOT NULL,  -- order within the document
    anchor TEXT NOT NULL,       -- id part after '#'; '' for the document's first passage
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    page INTEGER,               -- first and last page (1-based) of a PDF passage; else NULL
    end_page INTEGER,
    page_starts TEXT,           -- the lines where its later pages begin ('140 171'), PDF
    source TEXT,                -- the file it cites when not its document; NULL else
    title_length INTEGER NOT NULL,  -- content words in the title
    body_length INTEGER NOT NULL,   -- content words in the text
    index_terms TEXT                -- words a reader looks it up by, one a line; NULL: none
);
CREATE INDEX passages_in_order ON passages (path, position);
-- Per content word and field: the passage numbers holding it (unsigned 32-bit) and its
-- count in each (unsigned 16-bit), as arrays in the machine's byte order.
CREATE TABLE postings (
    word TEXT NOT NULL,
    field TEXT NOT NULL CHECK (field IN ('title', 'body')),
    numbers BLOB NOT NULL,
    counts BLOB NOT NULL,
    PRIMARY KEY (word, field)
) WITHOUT ROWID;
"""
    + kept_tables.CREATE
)


def store_path(data_dir: Path, folder: Path) -> Path:
    """`<data dir>/libraries/<folder name>-<hash of its absolute path>.sqlite3`."""
    absolute = os.path.abspath(folder)
    digest = hashlib.sha256(os.fsencode(absolute)).hexdigest()[:16]
    name = "".join(c if c.isalnum() else "-" for c in os.path.basename(absolute))[:40]
    return data_dir / STORE_FOLDER / f"{name or 'library'}-{digest}.sqlite3"


def open_library(
    folder: Path,
    data_dir: Path | None,
    key: KeyFunction,
    progress: Progress | None = None,
    kinds: Collection[str] = DEFAULT_DOCUMENT_KINDS,
    name: str | None = None,
) -> Library:
    """The library at `folder`, its store in `data_dir` brought up to date first;
    its documents are the files of the `kinds` asked for (`md`, `rst`, `txt`), its
    name `name` (by default its folder's, as a slug).

    Raises `LibraryError` when the folder is unusable or holds no passage. With no data
    folder the library is indexed in memory; so it is, with a one-line warning, when
    the store cannot be written or stays busy (another program holds it locked, the
    disk is full): a store is replaced only when it is damaged, never because it is busy.
    """
    folder = Path(folder)
    listing = list_library(folder, kinds)
    if data_dir is None:
        return _in_memory(folder, listing, key, progress, name)
    keep = _keeper(path := store_path(data_dir, folder))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked(f"{path}.lock"):
            connection, reread = _current(path, folder, listing, progress)
        try:
            library = read_library(connection, folder, listing, key, reread, name, keep=keep)
        except sqlite3.DatabaseError as error:
            # Damage the checks did not reach (a scrambled page of passages) shows only
            # when every row is read: rebuild rather than fail to start.
            connection.close()
            if not is_damage(error):
                raise
            with locked(f"{path}.lock"):
                connection, reread = _current(path, folder, listing, progress, damage=error)
            library = read_library(connection, folder, listing, key, reread, name, keep=keep)
        return _with_known_problems(path, connection, library)
    except OSError as error:
        logger.warning(
            "index store folder %s cannot be written (%s); indexing in memory",
            path.parent,
            os_error_words(error),
        )
    except sqlite3.Error as error:
        logger.warning(
            "index store %s cannot be used now (%s); indexing in memory, the store is kept",
            path,
            error,
        )
    return _in_memory(folder, listing, key, progress, name)


def _keeper(path: Path) -> Keep:
    """Keeps the tables an open built again; a store that cannot take them now is fine."""

    def keep(built_from: str, tables: dict[str, object]) -> None:
        with contextlib.suppress(OSError, sqlite3.Error), locked(f"{path}.lock"):
            writer = _connect(path)
            try:
                kept_tables.write_kept(writer, built_from, tables)
            finally:
                writer.close()

    return keep


def _with_known_problems(path: Path, snapshot: sqlite3.Connection, library: Library) -> Library:
    """`library` with each problem marked new unless the previous start met it too, and
    this start's problems kept for the next (`meta` row `problems_seen`). The record is
    a nicety: a store that cannot take it now leaves every problem new next time."""
    row = snapshot.execute("SELECT value FROM meta WHERE key = ?", (PROBLEMS_SEEN,)).fetchone()
    seen: list[tuple[str, str]] = []
    with contextlib.suppress(ValueError, TypeError):
        seen = [(str(p), str(r)) for p, r in json.loads(row[0])] if row is not None else []
    library.problems = marked_new(library.problems, seen)
    now = problem_keys(library.problems)
    if now != seen:
        with contextlib.suppress(OSError, sqlite3.Error), locked(f"{path}.lock"):
            writer = _connect(path)
            try:
                writer.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                    (PROBLEMS_SEEN, json.dumps(now, ensure_ascii=False)),
                )
            finally:
                writer.close()
    return library


def is_damage(error: sqlite3.Error) -> bool:
    """Whether SQLite says the file is damaged or not a database, as opposed to busy,
    locked, full or failing to read or write, which a later start may not meet."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _current(
    path: Path,
    folder: Path,
    listing: Listing,
    progress: Progress | None,
    damage: sqlite3.Error | None = None,
) -> tuple[sqlite3.Connection, tuple[str, ...]]:
    """The store brought up to date, in this process's snapshot (the lock held), and
    the paths of the documents read again or dropped.

    A store that cannot be trusted, or that shows damage while it is updated, is
    rebuilt; any other error is raised and the file is left as it is.
    """
    if damage is None:
        connection = _open_trusted(path, folder)
    else:
        connection = _rebuilt(path, folder, f"is damaged ({damage})")
    try:
        reread = updates.update(connection, folder, listing, progress)
        begin_snapshot(connection)
    except sqlite3.DatabaseError as error:
        connection.close()
        if damage is not None or not is_damage(error):
            raise
        return _current(path, folder, listing, progress, damage=error)
    except BaseException:
        connection.close()
        raise
    return connection, reread


def _in_memory(
    folder: Path,
    listing: Listing,
    key: KeyFunction,
    progress: Progress | None,
    name: str | None = None,
) -> Library:
    connection = _connect(":memory:")
    _create(connection, folder)
    reread = updates.update(connection, folder, listing, progress)
    return read_library(connection, folder, listing, key, reread, name)


def memory_store(folder: Path) -> sqlite3.Connection:
    """An empty store in memory, its tables made (a shared store's version is read into
    one, then `read_library` builds the library from it as from a file)."""
    connection = _connect(":memory:")
    _create(connection, folder)
    return connection


def _connect(path: Path | str) -> sqlite3.Connection:
    # Autocommit: transactions are begun and ended here, explicitly. The connection
    # may serve a UI thread after a worker thread opened it (never both at once).
    connection = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_SECONDS
    )
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


def _open_trusted(path: Path, folder: Path) -> sqlite3.Connection:
    """The store at `path`, created when missing and rebuilt when it cannot be trusted."""
    connection = _connect(path)
    try:
        _check(connection, folder)
    except _StaleWords as problem:
        return _words_rebuilt(connection, path, folder, str(problem))
    except StoreProblem as problem:
        connection.close()
        return _rebuilt(path, folder, str(problem))
    except sqlite3.DatabaseError as error:
        connection.close()
        if not is_damage(error):
            raise
        return _rebuilt(path, folder, f"is damaged ({error})")
    return connection


def _check(connection: sqlite3.Connection, folder: Path) -> None:
    """Create the schema in an empty database; raise StoreProblem for one not ours."""
    application_id = connection.execute("PRAGMA application_id").fetchone()[0]
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if application_id == 0 and version == 0 and tables == 0:
        _create(connection, folder)
        return
    if application_id != APPLICATION_ID:
        raise StoreProblem("is not a tui-assistant index store")
    if version != SCHEMA_VERSION:
        raise _StaleWords(f"is from another version (schema {version})")
    meta = dict(connection.execute("SELECT key, value FROM meta"))
    if meta.get("byte_order") != sys.byteorder:
        raise StoreProblem(f"was written on a {meta.get('byte_order')}-endian machine")
    if meta.get("words") != str(NORMALISER_VERSION):
        raise _StaleWords("holds words from another version")
    if meta.get("parser") != str(PARSER_VERSION):
        raise _StaleWords("holds passages read by another version")
    # Read every table once, so a damaged file fails here rather than mid-answer.
    connection.execute("SELECT count(*), max(mtime_ns) FROM files").fetchone()
    connection.execute("SELECT max(number) FROM passages").fetchone()
    connection.execute("SELECT count(*) FROM postings").fetchone()
    kept_tables.add_kept_tables(connection)


def _create(connection: sqlite3.Connection, folder: Path) -> None:
    # WAL lets other processes read while one writes (an in-memory store stays "memory").
    connection.execute("PRAGMA journal_mode = WAL").fetchone()
    # One transaction: a store is never left with its tables but without its meta rows.
    connection.executescript(
        f"BEGIN; {_SCHEMA} INSERT INTO meta (key, value) VALUES {_meta_rows(folder)}; COMMIT;"
    )


def _meta_rows(folder: Path) -> str:
    """The meta table's rows, as SQL values."""
    meta = {
        "words": str(NORMALISER_VERSION),
        "parser": str(PARSER_VERSION),
        "byte_order": sys.byteorder,
        "folder": os.path.abspath(folder),
    }
    return ", ".join(f"({_quoted(key)}, {_quoted(value)})" for key, value in meta.items())


def _quoted(value: str) -> str:
    """`value` as an SQL string literal (for the script, which takes no parameters)."""
    return "'" + value.replace("'", "''") + "'"


class _StaleWords(StoreProblem):
    """The word tables are of another version; the vectors beside them still hold,
    keyed by the content they were computed from."""


# The tables (and index) of the word index, rebuilt on a version change.
_WORD_TABLES = ("kept_tables", "postings", "passages", "dependencies", "files", "meta")


def _words_rebuilt(
    connection: sqlite3.Connection, path: Path, folder: Path, problem: str
) -> sqlite3.Connection:
    """The word tables dropped and made again, empty, in one transaction; the vectors'
    tables are left as they are, so nothing is embedded again."""
    try:
        order = connection.execute("SELECT value FROM meta WHERE key = 'byte_order'").fetchone()
    except sqlite3.DatabaseError:
        order = None
    if order is None or order[0] != sys.byteorder:  # the vectors cannot be read either
        connection.close()
        return _rebuilt(path, folder, problem)
    logger.warning("index store %s %s; rebuilding its word index (vectors kept)", path, problem)
    try:
        connection.execute("PRAGMA journal_mode = WAL").fetchone()
        drops = " ".join(f"DROP TABLE IF EXISTS {table};" for table in _WORD_TABLES)
        meta = _meta_rows(folder)
        connection.executescript(
            f"BEGIN; DROP INDEX IF EXISTS passages_in_order; {drops} {_SCHEMA}"
            f" INSERT INTO meta (key, value) VALUES {meta}; COMMIT;"
        )
    except sqlite3.DatabaseError as error:
        connection.close()
        if not is_damage(error):
            raise
        return _rebuilt(path, folder, f"is damaged ({error})")
    return connection


def _rebuilt(path: Path, folder: Path, problem: str) -> sqlite3.Connection:
    logger.warning("index store %s %s; rebuilding it", path, problem)
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
    connection = _connect(path)
    _create(connection, folder)
    return connection
