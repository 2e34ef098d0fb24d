"""One update of the index store: the files whose stamps changed are read again and
the removed ones dropped, passages and postings together, in one transaction.

A document is read again too when a file it read through its includes or autodoc
directives changed, appeared or went away (the `dependencies` table keeps their stamps).
What a document includes from another document of the library is that document's
passages already: it is not stored twice (`_own_passages`)."""

from __future__ import annotations

import sqlite3
from array import array
from collections.abc import Collection, Iterator
from dataclasses import replace
from pathlib import Path

from tui_assistant.core.documents.passage import Document
from tui_assistant.core.library.library import INCLUDES_ONLY
from tui_assistant.core.progress import Progress
from tui_assistant.core.retrieval.index import (
    COUNT_TYPECODE,
    NUMBER_TYPECODE,
    Postings,
    add_postings,
    new_postings,
)
from tui_assistant.core.words import content_words
from tui_assistant.store.folder import (
    UNREADABLE,
    FileStamp,
    FolderReader,
    Listing,
    current_stamp,
    read_document,
)
from tui_assistant.store.snapshot import FIELDS, WordPostings


def update(
    connection: sqlite3.Connection, folder: Path, listing: Listing, progress: Progress | None
) -> tuple[str, ...]:
    """Read again the files whose stamps changed, drop the removed ones: one transaction.
    Returns their paths (relative to the folder), sorted."""
    stored = {
        path: (size, mtime_ns)
        for path, size, mtime_ns in connection.execute("SELECT path, size, mtime_ns FROM files")
    }
    current = {stamp.path for stamp in listing.files}
    removed = [path for path in stored if path not in current]
    changed = [
        stamp for stamp in listing.files if stored.get(stamp.path) != (stamp.size, stamp.mtime_ns)
    ]
    stale = _with_changed_dependencies(connection, folder) - {stamp.path for stamp in changed}
    changed += [stamp for stamp in listing.files if stamp.path in stale]
    if not removed and not changed:
        return ()
    connection.execute("BEGIN IMMEDIATE")
    try:
        postings = _PostingChanges()
        for path in [*removed, *(stamp.path for stamp in changed if stamp.path in stored)]:
            _forget_passages(connection, path, postings)
        connection.executemany("DELETE FROM files WHERE path = ?", [(path,) for path in removed])
        for done, stamp in enumerate(changed, start=1):
            _read_and_store(connection, folder, stamp, postings, current)
            if progress is not None:
                progress(done, len(changed))
        postings.write(connection)
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return tuple(sorted([*removed, *(stamp.path for stamp in changed)]))


def _read_and_store(
    connection: sqlite3.Connection,
    folder: Path,
    stamp: FileStamp,
    postings: _PostingChanges,
    listed: Collection[str],
) -> None:
    reader = FolderReader(folder)
    read = _own_passages(read_document(folder, stamp.path, reader=reader), listed)
    _store_file(connection, stamp, read, postings)
    connection.executemany(
        "INSERT OR REPLACE INTO dependencies (path, target, size, mtime_ns) VALUES (?, ?, ?, ?)",
        [(stamp.path, target, *found) for target, found in reader.stamps.items()],
    )


def _own_passages(read: Document | str, listed: Collection[str]) -> Document | str:
    """`read` without the passages it includes from other documents of the library
    (`listed`), which are there as those documents' own, citing the same lines."""
    if isinstance(read, str):
        return read
    own = tuple(
        draft
        for draft in read.passages
        if not draft.source or draft.source not in listed or draft.source.endswith(".py")
    )
    if own == read.passages:
        return read
    if not own:
        return INCLUDES_ONLY
    return replace(read, passages=own)


def _with_changed_dependencies(connection: sqlite3.Connection, folder: Path) -> set[str]:
    """The documents one of whose dependencies changed since they were read."""
    return {
        path
        for path, target, size, mtime_ns in connection.execute(
            "SELECT path, target, size, mtime_ns FROM dependencies"
        )
        if current_stamp(folder, target) != (size, mtime_ns)
    }


class _PostingChanges:
    """What one update does to the stored postings, per field and word: passage numbers
    to drop (their files changed or went away) and postings to append (new passages,
    whose numbers are larger than any stored one)."""

    def __init__(self) -> None:
        self.dropped: dict[str, dict[str, set[int]]] = {field: {} for field in FIELDS}
        self.added: WordPostings = {field: {} for field in FIELDS}

    def drop(self, number: int, title: str, text: str) -> None:
        for field, value in zip(FIELDS, (title, text), strict=True):
            dropped = self.dropped[field]
            for word in set(content_words(value)):
                dropped.setdefault(word, set()).add(number)

    def add(self, number: int, title_words: list[str], body_words: list[str]) -> tuple[int, int]:
        return (
            add_postings(self.added["title"], number, title_words),
            add_postings(self.added["body"], number, body_words),
        )

    def write(self, connection: sqlite3.Connection) -> None:
        """Store the postings of every word this update touched."""
        for field in FIELDS:
            emptied: list[tuple[str, str]] = []
            rows = list(self._rows(connection, field, emptied))
            connection.executemany(
                "INSERT OR REPLACE INTO postings (word, field, numbers, counts)"
                " VALUES (?, ?, ?, ?)",
                rows,
            )
            connection.executemany("DELETE FROM postings WHERE word = ? AND field = ?", emptied)
            self.dropped[field].clear()

    def _rows(
        self,
        connection: sqlite3.Connection,
        field: str,
        emptied: list[tuple[str, str]],
    ) -> Iterator[tuple[str, str, bytes, bytes]]:
        """The rows to store for `field`; words left with no passage go to `emptied`."""
        dropped, added = self.dropped[field], self.added[field]
        for word in dropped.keys() | added.keys():
            stored = _stored_postings(connection, word, field)
            postings = _changed(stored, dropped.get(word), added.get(word))
            if postings.numbers:
                yield word, field, postings.numbers.tobytes(), postings.counts.tobytes()
            else:
                emptied.append((word, field))


def _changed(stored: Postings, gone: set[int] | None, extra: Postings | None) -> Postings:
    """`stored` without the passages in `gone`, then with `extra` appended (passages are
    forgotten before any is added, and numbers are never reused)."""
    if gone:
        stored = _without(stored, gone)
    if extra is None:
        return stored
    if not stored.numbers:
        return extra
    return Postings(stored.numbers + extra.numbers, stored.counts + extra.counts)


def _without(postings: Postings, gone: set[int]) -> Postings:
    places = [i for i, number in enumerate(postings.numbers) if number not in gone]
    return Postings(
        array(NUMBER_TYPECODE, map(postings.numbers.__getitem__, places)),
        array(COUNT_TYPECODE, map(postings.counts.__getitem__, places)),
    )


def _stored_postings(connection: sqlite3.Connection, word: str, field: str) -> Postings:
    postings = new_postings()
    row = connection.execute(
        "SELECT numbers, counts FROM postings WHERE word = ? AND field = ?", (word, field)
    ).fetchone()
    if row is not None:
        postings.numbers.frombytes(row[0])
        postings.counts.frombytes(row[1])
    return postings


def _forget_passages(connection: sqlite3.Connection, path: str, postings: _PostingChanges) -> None:
    for number, title, text in connection.execute(
        "SELECT number, title, text FROM passages WHERE path = ?", (path,)
    ).fetchall():
        postings.drop(number, title, text)
    connection.execute("DELETE FROM passages WHERE path = ?", (path,))


def _store_file(
    connection: sqlite3.Connection,
    stamp: FileStamp,
    read: Document | str,
    postings: _PostingChanges,
) -> None:
    problem = read if isinstance(read, str) else None
    title = None if isinstance(read, str) else read.title
    # A file that could not be read (permissions) is tried again at the next start:
    # making it readable does not change its size or mtime.
    size = -1 if problem is not None and problem.startswith(UNREADABLE) else stamp.size
    notes = None if isinstance(read, str) or not read.notes else "\n".join(read.notes)
    connection.execute("DELETE FROM dependencies WHERE path = ?", (stamp.path,))
    connection.execute(
        "INSERT OR REPLACE INTO files (path, size, mtime_ns, title, problem, notes)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (stamp.path, size, stamp.mtime_ns, title, problem, notes),
    )
    if isinstance(read, str):
        return
    for position, draft in enumerate(read.passages):
        title_words, body_words = content_words(draft.title), content_words(draft.text)
        cursor = connection.execute(
            "INSERT INTO passages (path, position, anchor, title, text, line, end_line,"
            " page, end_page, page_starts, source, title_length, body_length, index_terms)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                stamp.path,
                position,
                draft.anchor,
                draft.title,
                draft.text,
                draft.line,
                draft.end_line,
                draft.page,
                draft.end_page,
                " ".join(map(str, draft.page_starts)) if draft.page_starts else None,
                draft.source or None,
                len(title_words),
                len(body_words),
                "\n".join(draft.index_terms) or None,
            ),
        )
        assert cursor.lastrowid is not None
        postings.add(cursor.lastrowid, title_words, body_words)
