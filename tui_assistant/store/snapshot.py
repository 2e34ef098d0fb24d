"""The library as read from the index store's snapshot.

After an update, a process starts a read transaction and keeps it (`begin_snapshot`);
`read_library` then builds the in-memory `Library` from it: passages in library order,
the index from the stored postings, and passage texts read in that same snapshot, so
what is answered is what was indexed, whatever other processes write meanwhile.
"""

from __future__ import annotations

import os
import posixpath
import sqlite3
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tui_assistant.core.documents.html import decode_html
from tui_assistant.core.documents.passage import passage_id
from tui_assistant.core.library.built_site import (
    anchor_lines,
    index_links,
    index_targets,
    is_index_page,
)
from tui_assistant.core.library.library import (
    DocumentInfo,
    FileProblem,
    Library,
    PassageInfo,
    document_ids,
    printable_file_name,
    repeated_passages,
    with_site_index_terms,
)
from tui_assistant.core.library.names import library_name
from tui_assistant.core.retrieval.bm25f import path_postings
from tui_assistant.core.retrieval.index import (
    NUMBER_TYPECODE,
    InvertedIndex,
    KeyFunction,
    Postings,
    new_postings,
)
from tui_assistant.core.words import stem
from tui_assistant.errors import LibraryError, NotText
from tui_assistant.store.folder import Listing
from tui_assistant.store.kept_tables import (
    DOCUMENT_IDS,
    PATH_POSTINGS,
    WORD_KEYS,
    fingerprint,
    kept_document_ids,
    kept_path_postings,
    kept_word_keys,
    read_kept,
)
from tui_assistant.store.stored_postings import StoredPostings

# The two fields every passage's words are indexed in.
FIELDS = ("title", "body")

# Per field, per word: its postings, numbered by store row.
WordPostings = dict[str, dict[str, Postings]]
# Given the fingerprint and the tables built again, keeps them in the store.
Keep = Callable[[str, dict[str, object]], None]


def begin_snapshot(connection: sqlite3.Connection) -> None:
    """Start the read transaction this process keeps: its first read fixes the snapshot."""
    connection.execute("BEGIN")
    connection.execute("SELECT count(*) FROM files").fetchone()


class _Texts:
    """Passage texts read from the store's snapshot, by passage number."""

    def __init__(self, connection: sqlite3.Connection, rows: array[int]) -> None:
        self._connection = connection
        self._rows = rows
        # Held for every read of the connection (the postings read on demand too).
        self.lock = threading.Lock()

    def __call__(self, number: int) -> str:
        with self.lock:
            found = self._connection.execute(
                "SELECT text FROM passages WHERE number = ?", (self._rows[number],)
            ).fetchone()
        if found is None:  # cannot happen inside the snapshot
            raise LookupError(f"passage {number} is not in the store")
        return str(found[0])

    def close(self) -> None:
        """End the snapshot: the library's texts can no longer be read."""
        with self.lock:
            self._connection.close()


def _stored_postings(
    connection: sqlite3.Connection,
) -> Iterator[tuple[str, str, array[int], array[int]]]:
    """Every word's postings as stored, numbered by store row."""
    for word, field, numbers, counts in connection.execute(
        "SELECT word, field, numbers, counts FROM postings"
    ):
        postings = new_postings()
        postings.numbers.frombytes(numbers)
        postings.counts.frombytes(counts)
        yield field, word, postings.numbers, postings.counts


def _without(
    rows: array[int], counts: array[int], left_out: set[int]
) -> tuple[array[int], array[int]]:
    """A word's stored postings without the passages the library leaves out."""
    places = [i for i, row in enumerate(rows) if row not in left_out]
    return (
        array(rows.typecode, map(rows.__getitem__, places)),
        array(counts.typecode, map(counts.__getitem__, places)),
    )


def _site_index_targets(folder: Path, documents: Iterable[str]) -> list[tuple[str, str, int]]:
    """The terms of the index pages (`genindex.html`, `Concept-Index.html`) beside the
    library's HTML pages, each with the page and line it points to."""
    pages = {path for path in documents if path.endswith((".html", ".htm"))}
    targets: list[tuple[str, str, int]] = []
    anchors: dict[str, dict[str, int]] = {}
    for directory in sorted({posixpath.dirname(path) for path in pages}):
        try:
            names = sorted(entry.name for entry in os.scandir(folder / directory))
        except OSError:
            continue
        for name in filter(is_index_page, names):
            index_path = posixpath.join(directory, name)
            links = index_links(_page_text(folder / index_path))
            for target in {href.partition("#")[0] for _, href in links}:
                path = posixpath.normpath(posixpath.join(directory, target)) if target else ""
                if path in pages and path not in anchors:
                    anchors[path] = anchor_lines(_page_text(folder / path))
            targets += index_targets(index_path, links, anchors)
    return targets


def _page_text(path: Path) -> str:
    """A page's text as the HTML reader decodes it; "" when it cannot be read."""
    try:
        return decode_html(path.read_bytes())
    except (OSError, NotText):
        return ""


def _field_postings(
    connection: sqlite3.Connection,
    lock: threading.Lock,
    number_of_row: array[int],
    left_out: set[int],
    all_postings: bool,
) -> Mapping[str, Mapping[str, Postings]]:
    """Each field's postings: read word by word when a question asks for them
    (`StoredPostings`), or all at once (`all_postings`)."""
    if not all_postings:
        return {
            field: StoredPostings(connection, lock, field, number_of_row, left_out)
            for field in FIELDS
        }
    fields: WordPostings = {field: {} for field in FIELDS}
    to_number = number_of_row.__getitem__
    with lock:
        stored = list(_stored_postings(connection))
    for field, word, rows, counts in stored:
        if left_out and not left_out.isdisjoint(rows):
            rows, counts = _without(rows, counts, left_out)
            if not rows:
                continue
        fields[field][word] = Postings(array(NUMBER_TYPECODE, map(to_number, rows)), counts)
    return fields


def read_library(
    connection: sqlite3.Connection,
    folder: Path,
    listing: Listing,
    key: KeyFunction,
    reread: tuple[str, ...] = (),
    name: str | None = None,
    all_postings: bool = False,
    keep: Keep | None = None,
) -> Library:
    """The in-memory library and index, from the store's snapshot (`all_postings`:
    every word's postings read now, rather than each when a question needs it). The
    tables kept beside the index (`kept_tables`) are used when they were built from these
    passages; `keep` is given those built again, to keep them.

    In memory, passages are numbered 0, 1, ... in store row order, so the stored
    postings (ascending rows) stay ascending once renumbered; `Library.positions`
    maps a number to the passage's place in library order.
    """
    display_folder = os.path.basename(os.path.abspath(folder))
    if name is None:
        name = library_name(display_folder) or "library"
    problems: list[FileProblem] = list(listing.problems)
    titles: dict[str, str] = {}
    for path, title, problem, notes in connection.execute(
        "SELECT path, title, problem, notes FROM files ORDER BY path"
    ):
        if problem is not None:
            problems.append(FileProblem(path, problem))
        else:
            titles[path] = title
        problems.extend(
            FileProblem(path, note, skipped=False) for note in (notes or "").splitlines()
        )
    infos: list[PassageInfo] = []
    firsts: list[tuple[str, int]] = []  # each document's path and first passage
    # Per passage in library order: its store row and field lengths.
    rows = array("q")
    title_lengths, body_lengths = array(NUMBER_TYPECODE), array(NUMBER_TYPECODE)
    stored = connection.execute(
        "SELECT number, path, anchor, title, line, end_line, page, end_page, page_starts,"
        " source, title_length, body_length, index_terms FROM passages"
        " ORDER BY path, position"
    ).fetchall()
    repeated = repeated_passages([(row[1], row[9] or row[1], row[4]) for row in stored])
    built_from = fingerprint(((row[0], row[1], row[9], row[4]) for row in stored), titles)
    kept = read_kept(connection, built_from)
    found = kept_document_ids(kept, titles)
    if found is None:
        ids, notice_problems = document_ids(titles)
        notices = [(notice.path, notice.reason) for notice in notice_problems]
    else:
        ids, notices = found
    problems.extend(FileProblem(path, reason, skipped=False) for path, reason in notices)
    problems.sort(key=lambda problem: problem.path)
    left_out = {stored[number][0] for number in repeated}
    for (
        row,
        path,
        anchor,
        title,
        line,
        end_line,
        page,
        end_page,
        page_starts,
        source,
        title_length,
        body_length,
        index_terms,
    ) in (row for number, row in enumerate(stored) if number not in repeated):
        if not firsts or firsts[-1][0] != path:
            firsts.append((path, len(infos)))
        infos.append(
            PassageInfo(
                passage_id(ids[path], anchor),
                title,
                f"{display_folder}/{source or path}",
                line,
                end_line,
                path,
                name,
                page,
                end_page,
                tuple(map(int, page_starts.split())) if page_starts else (),
                index_terms=tuple(index_terms.split("\n")) if index_terms else (),
            )
        )
        rows.append(row)
        title_lengths.append(title_length)
        body_lengths.append(body_length)
    ends = [first for _, first in firsts[1:]] + [len(infos)] * bool(firsts)
    documents = [
        DocumentInfo(path, titles[path], first, end - first, name)
        for (path, first), end in zip(firsts, ends, strict=True)
    ]
    if not infos:
        skipped = sum(problem.skipped for problem in problems)
        detail = f" ({skipped} skipped)" if skipped else ""
        raise LibraryError(
            f"library folder {printable_file_name(str(folder))} has no document with text{detail}",
            problems,
        )
    # Number passages in row order, so every stored postings list stays ascending.
    positions = sorted(range(len(rows)), key=rows.__getitem__)
    by_number = array("q", map(rows.__getitem__, positions))
    number_of_row = array("l", [-1]) * (by_number[-1] + 1)
    for number, row in enumerate(by_number):
        number_of_row[row] = number
    texts = _Texts(connection, by_number)
    fields = _field_postings(connection, texts.lock, number_of_row, left_out, all_postings)
    word_keys = kept_word_keys(kept) if key is stem else None
    if word_keys is None and key is stem:
        words = fields["title"].keys() | fields["body"].keys()
        word_keys = {word: word_key for word in words if (word_key := stem(word)) != word}
    index = InvertedIndex(
        fields["title"],
        fields["body"],
        array(NUMBER_TYPECODE, map(title_lengths.__getitem__, positions)),
        array(NUMBER_TYPECODE, map(body_lengths.__getitem__, positions)),
        key,
        word_keys,
    )
    infos = with_site_index_terms(infos, _site_index_targets(folder, titles))
    library = Library(
        folder,
        infos,
        documents,
        index,
        texts,
        problems,
        positions,
        listing.hidden,
        reread,
        name=name,
    )
    _kept_tables(library, kept, built_from, ids, notices, word_keys, keep)
    return library


def _kept_tables(
    library: Library,
    kept: Mapping[str, Any],
    built_from: str,
    ids: dict[str, str],
    notices: Sequence[tuple[str, str]],
    word_keys: dict[str, str] | None,
    keep: Keep | None,
) -> None:
    """The tables kept in the store given to `library`; with `keep`, the ones missing
    built now (a retriever would build them at once) and handed to it to be kept."""
    path_tables = kept_path_postings(kept, len(library))
    if path_tables is None and keep is not None:
        path_tables = path_postings(library, stem)
    if path_tables is not None:
        library.tables[PATH_POSTINGS] = path_tables
    if keep is None or path_tables is None:
        return
    postings, lengths = path_tables
    tables: dict[str, object] = {
        DOCUMENT_IDS: {"ids": ids, "notices": list(notices)},
        PATH_POSTINGS: {"postings": postings, "lengths": lengths},
    }
    if word_keys is not None:
        tables[WORD_KEYS] = word_keys
    if not kept.keys() >= tables.keys():
        keep(built_from, tables)
