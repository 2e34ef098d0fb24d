"""The index store: one SQLite database per library folder, in the data folder.

It keeps every document file's stamp (path, size, mtime in nanoseconds) and the
passages the file split into, with their content words. Opening a library compares
the folder with the stamps and reads again only the files that changed, were added or
were removed, in one transaction; the query structures are then built in memory from
the stored words. A database that is damaged, from another schema version or not
ours is rebuilt with a one-line warning, never trusted.

Several processes share one store: a lock file beside the database lets one of them
update it at a time, and each process then reads in its own snapshot (SQLite's WAL
mode), which it keeps open, so the passage text it shows is the text it indexed even
when another process updates the store meanwhile.

The database is a plain SQLite file: `sqlite3 <data dir>/libraries/<name>.sqlite3`
opens it (`files`, `passages`, `meta`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from array import array
from collections.abc import Callable
from pathlib import Path

from filelock import FileLock

from tui_assistant.core.index import IndexBuilder, KeyFunction
from tui_assistant.core.library import (
    DocumentInfo,
    FileProblem,
    FileStamp,
    Library,
    LibraryError,
    Listing,
    PassageInfo,
    document_ids,
    list_library,
    printable_file_name,
    read_document,
)
from tui_assistant.core.passages import Document, passage_id
from tui_assistant.core.text import NORMALISER_VERSION, content_words

logger = logging.getLogger(__name__)

# Bump when the tables, the passage rules or the stored words change meaning: an older
# store is then rebuilt.
SCHEMA_VERSION = 3  # 3: lines end at newlines only; 2: only a level-1 heading names a document
# "TUIA": marks the file as ours, so a foreign database at our path is never read.
APPLICATION_ID = 0x54554941
STORE_FOLDER = "libraries"

# Called with (files read, files to read) while changed files are indexed.
Progress = Callable[[int, int], None]

_SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    path TEXT PRIMARY KEY,      -- relative to the library folder, '/'-separated
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    title TEXT,                 -- the document title; NULL when skipped
    problem TEXT                -- why the file was skipped; NULL when read
);
CREATE TABLE passages (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL REFERENCES files (path),
    position INTEGER NOT NULL,  -- order within the document
    anchor TEXT NOT NULL,       -- id part after '#'; '' for the document's first passage
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    title_words TEXT NOT NULL,  -- content words, space-separated
    body_words TEXT NOT NULL
);
CREATE INDEX passages_in_order ON passages (path, position);
"""


class StoreProblem(Exception):
    """The database cannot be trusted; the message says why."""


def store_path(data_dir: Path, folder: Path) -> Path:
    """`<data dir>/libraries/<folder name>-<hash of its absolute path>.sqlite3`."""
    absolute = os.path.abspath(folder)
    digest = hashlib.sha256(os.fsencode(absolute)).hexdigest()[:16]
    name = "".join(c if c.isalnum() else "-" for c in os.path.basename(absolute))[:40]
    return data_dir / STORE_FOLDER / f"{name or 'library'}-{digest}.sqlite3"


def open_library(
    folder: Path, data_dir: Path | None, key: KeyFunction, progress: Progress | None = None
) -> Library:
    """The library at `folder`, its store in `data_dir` brought up to date first.

    Raises `LibraryError` when the folder is unusable or holds no passage. With no data
    folder, or one that cannot be written, the library is indexed in memory (the
    latter with a warning).
    """
    folder = Path(folder)
    listing = list_library(folder)
    if data_dir is None:
        return _in_memory(folder, listing, key, progress)
    path = store_path(data_dir, folder)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(f"{path}.lock")
        lock.acquire()
    except OSError as error:
        logger.warning(
            "index store folder %s cannot be written (%s); indexing in memory",
            path.parent,
            error.strerror or error,
        )
        return _in_memory(folder, listing, key, progress)
    try:
        connection = _open_trusted(path, folder)
        try:
            _update(connection, folder, listing, progress)
            _begin_snapshot(connection)
        except sqlite3.DatabaseError as error:
            connection.close()
            connection = _rebuilt_and_updated(path, folder, listing, progress, error)
    finally:
        lock.release()
    try:
        return _load(connection, folder, listing, key)
    except sqlite3.DatabaseError as error:
        # Damage the checks above did not reach (a scrambled page of passages) shows
        # only when every row is read: rebuild rather than fail to start.
        connection.close()
        with lock:
            connection = _rebuilt_and_updated(path, folder, listing, progress, error)
        return _load(connection, folder, listing, key)


def _rebuilt_and_updated(
    path: Path,
    folder: Path,
    listing: Listing,
    progress: Progress | None,
    error: sqlite3.DatabaseError,
) -> sqlite3.Connection:
    """A fresh store in place of a damaged one, indexed and in its snapshot (the
    caller holds the lock)."""
    connection = _rebuilt(path, folder, f"is damaged ({error})")
    _update(connection, folder, listing, progress)
    _begin_snapshot(connection)
    return connection


def _in_memory(
    folder: Path, listing: Listing, key: KeyFunction, progress: Progress | None
) -> Library:
    connection = _connect(":memory:")
    _create(connection, folder)
    _update(connection, folder, listing, progress)
    return _load(connection, folder, listing, key)


def _connect(path: Path | str) -> sqlite3.Connection:
    # Autocommit: transactions are begun and ended here, explicitly. The connection
    # may serve a UI thread after a worker thread opened it (never both at once).
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=60)
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


def _open_trusted(path: Path, folder: Path) -> sqlite3.Connection:
    """The store at `path`, created when missing and rebuilt when it cannot be trusted."""
    connection = _connect(path)
    try:
        _check(connection, folder)
    except (StoreProblem, sqlite3.DatabaseError) as problem:
        connection.close()
        return _rebuilt(path, folder, str(problem))
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
        raise StoreProblem(f"is from another version (schema {version})")
    meta = dict(connection.execute("SELECT key, value FROM meta"))
    if meta.get("words") != str(NORMALISER_VERSION):
        raise StoreProblem("holds words from another version")
    # Read every table once, so a damaged file fails here rather than mid-answer.
    connection.execute("SELECT count(*), max(mtime_ns) FROM files").fetchone()
    connection.execute("SELECT max(number) FROM passages").fetchone()


def _create(connection: sqlite3.Connection, folder: Path) -> None:
    # WAL lets other processes read while one writes (an in-memory store stays "memory").
    connection.execute("PRAGMA journal_mode = WAL").fetchone()
    connection.executescript(f"BEGIN; {_SCHEMA} COMMIT;")
    connection.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [("words", str(NORMALISER_VERSION)), ("folder", os.path.abspath(folder))],
    )


def _rebuilt(path: Path, folder: Path, problem: str) -> sqlite3.Connection:
    logger.warning("index store %s %s; rebuilding it", path, problem)
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.unlink(f"{path}{suffix}")
        except FileNotFoundError:
            pass
    connection = _connect(path)
    _create(connection, folder)
    return connection


def _update(
    connection: sqlite3.Connection, folder: Path, listing: Listing, progress: Progress | None
) -> None:
    """Read again the files whose stamps changed, drop the removed ones: one transaction."""
    stored = {
        path: (size, mtime_ns)
        for path, size, mtime_ns in connection.execute("SELECT path, size, mtime_ns FROM files")
    }
    current = {stamp.path for stamp in listing.files}
    removed = [path for path in stored if path not in current]
    changed = [
        stamp for stamp in listing.files if stored.get(stamp.path) != (stamp.size, stamp.mtime_ns)
    ]
    if not removed and not changed:
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        for path in removed:
            connection.execute("DELETE FROM passages WHERE path = ?", (path,))
            connection.execute("DELETE FROM files WHERE path = ?", (path,))
        for done, stamp in enumerate(changed, start=1):
            _store_file(connection, stamp, read_document(folder, stamp.path))
            if progress is not None:
                progress(done, len(changed))
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _store_file(connection: sqlite3.Connection, stamp: FileStamp, read: Document | str) -> None:
    connection.execute("DELETE FROM passages WHERE path = ?", (stamp.path,))
    problem = read if isinstance(read, str) else None
    title = None if isinstance(read, str) else read.title
    connection.execute(
        "INSERT OR REPLACE INTO files (path, size, mtime_ns, title, problem) VALUES (?, ?, ?, ?, ?)",
        (stamp.path, stamp.size, stamp.mtime_ns, title, problem),
    )
    if isinstance(read, str):
        return
    connection.executemany(
        "INSERT INTO passages (path, position, anchor, title, text, line, end_line,"
        " title_words, body_words) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                stamp.path,
                position,
                draft.anchor,
                draft.title,
                draft.text,
                draft.line,
                draft.end_line,
                " ".join(content_words(draft.title)),
                " ".join(content_words(draft.text)),
            )
            for position, draft in enumerate(read.passages)
        ],
    )


def _begin_snapshot(connection: sqlite3.Connection) -> None:
    """Start the read transaction this process keeps: its first read fixes the snapshot."""
    connection.execute("BEGIN")
    connection.execute("SELECT count(*) FROM files").fetchone()


class _Texts:
    """Passage texts read from the store's snapshot, by passage number."""

    def __init__(self, connection: sqlite3.Connection, rows: array[int]) -> None:
        self._connection = connection
        self._rows = rows
        self._lock = threading.Lock()

    def __call__(self, number: int) -> str:
        with self._lock:
            found = self._connection.execute(
                "SELECT text FROM passages WHERE number = ?", (self._rows[number],)
            ).fetchone()
        if found is None:  # cannot happen inside the snapshot
            raise LookupError(f"passage {number} is not in the store")
        return str(found[0])


def _load(
    connection: sqlite3.Connection, folder: Path, listing: Listing, key: KeyFunction
) -> Library:
    """The in-memory library and index, from the store's snapshot."""
    display_folder = os.path.basename(os.path.abspath(folder))
    problems: list[FileProblem] = list(listing.problems)
    titles: dict[str, str] = {}
    for path, title, problem in connection.execute(
        "SELECT path, title, problem FROM files ORDER BY path"
    ):
        if problem is not None:
            problems.append(FileProblem(path, problem))
        else:
            titles[path] = title
    ids, notices = document_ids(titles)
    problems.extend(notices)
    builder = IndexBuilder(key)
    infos: list[PassageInfo] = []
    documents: list[DocumentInfo] = []
    rows = array("q")
    for number, path, anchor, title, line, end_line, title_words, body_words in connection.execute(
        "SELECT number, path, anchor, title, line, end_line, title_words, body_words"
        " FROM passages ORDER BY path, position"
    ):
        if not documents or documents[-1].path != path:
            documents.append(DocumentInfo(path, titles[path], len(infos), 0))
        document = documents[-1]
        documents[-1] = DocumentInfo(document.path, document.title, document.first, document.count + 1)
        infos.append(
            PassageInfo(
                passage_id(ids[path], anchor),
                title,
                f"{display_folder}/{path}",
                line,
                end_line,
                document.path,
            )
        )
        rows.append(number)
        builder.add(title_words.split(), body_words.split())
    problems.sort(key=lambda problem: problem.path)
    if not infos:
        skipped = sum(problem.skipped for problem in problems)
        detail = f" ({skipped} skipped)" if skipped else ""
        raise LibraryError(
            f"lessons folder {printable_file_name(str(folder))} has no Markdown document "
            f"with text{detail}",
            problems,
        )
    return Library(
        folder, infos, documents, builder.finish(), _Texts(connection, rows), problems
    )
