"""Tables a library opened from its store would otherwise build again at every open,
kept in the store beside the index: each document's id, the words whose key is not
the word itself, and the path field's postings of the ranked retriever.

Each is kept with the fingerprint of what it was built from (every passage's store row,
path, cited file and first line, and every read document's path), read in the same
snapshot as the library. A table whose fingerprint differs, or that cannot be read as
what it should hold, is built again as before, so a kept table can only save time,
never change an answer. The first open after the store changed writes them; a store
that cannot take them now leaves them to the next open.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from tui_assistant.core.retrieval import bm25f

# Named by what they hold; a change of what one holds renames it (`:2`), so a value
# another version kept is never read as this one.
DOCUMENT_IDS = "document_ids"
PATH_POSTINGS = bm25f.PATH_POSTINGS
WORD_KEYS = "word_keys:stem"

# The migration that adds the table to a store made before it (schema 5): additive, so
# the version before still reads the store, and drops the table with the word tables.
CREATE = """
CREATE TABLE IF NOT EXISTS kept_tables (
    name TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,  -- of the passages and documents it was built from
    value TEXT NOT NULL         -- JSON
) WITHOUT ROWID;
"""

DocumentIds = tuple[dict[str, str], list[tuple[str, str]]]
PathPostings = tuple[dict[str, list[int]], list[int]]


def add_kept_tables(connection: sqlite3.Connection) -> None:
    """Migration: the `kept_tables` table in a store made without it."""
    present = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kept_tables'"
    ).fetchone()
    if present is None:
        connection.executescript(f"BEGIN; {CREATE} COMMIT;")


def fingerprint(passages: Iterable[Sequence[Any]], documents: Iterable[str]) -> str:
    """What the kept tables are built from: each passage as (row, path, cited file, first
    line), in library order, and the paths of the documents read."""
    digest = hashlib.sha256()
    rows = "\n".join(f"{row[0]}\t{row[1]}\t{row[2]}\t{row[3]}" for row in passages)
    digest.update(rows.encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    digest.update("\n".join(documents).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def read_kept(connection: sqlite3.Connection, built_from: str) -> dict[str, Any]:
    """The kept tables built from what `built_from` fingerprints, by name; none from a store
    without the table (an in-memory one made before it, or one that cannot be read)."""
    try:
        rows = connection.execute(
            "SELECT name, value FROM kept_tables WHERE fingerprint = ?", (built_from,)
        ).fetchall()
    except sqlite3.Error:
        return {}
    kept: dict[str, Any] = {}
    for name, value in rows:
        with contextlib.suppress(ValueError, TypeError):
            kept[str(name)] = json.loads(value)
    return kept


def kept_document_ids(kept: Mapping[str, Any], paths: Iterable[str]) -> DocumentIds | None:
    """The documents' ids and the notices of ids that had to change, as kept for
    exactly `paths`; None when they are not kept as that."""
    value = kept.get(DOCUMENT_IDS)
    if not isinstance(value, dict):
        return None
    ids, notices = value.get("ids"), value.get("notices")
    if not isinstance(ids, dict) or not isinstance(notices, list):
        return None
    if list(ids) != list(paths) or not _all_of(str, ids.values()):
        return None
    if not all(
        isinstance(n, list) and len(n) == 2 and all(isinstance(p, str) for p in n) for n in notices
    ):
        return None
    return ids, [(path, reason) for path, reason in notices]


def kept_path_postings(kept: Mapping[str, Any], passages: int) -> PathPostings | None:
    """The path field's postings and lengths as kept for `passages` passages; None when
    they are not kept as that."""
    value = kept.get(PATH_POSTINGS)
    if not isinstance(value, dict):
        return None
    postings, lengths = value.get("postings"), value.get("lengths")
    if not isinstance(postings, dict) or not isinstance(lengths, list):
        return None
    if len(lengths) != passages or not _all_of(int, lengths):
        return None
    if not _all_of(list, postings.values()):
        return None
    numbers = list(chain.from_iterable(postings.values()))
    if not _all_of(int, numbers) or (numbers and not 0 <= min(numbers) <= max(numbers) < passages):
        return None
    return postings, lengths


def _all_of(kind: type, values: Iterable[object]) -> bool:
    """Whether every value is exactly of `kind` (`True` is no int here), checked at C
    speed: a kept table has tens of thousands of values."""
    return set(map(type, values)) <= {kind}


def kept_word_keys(kept: Mapping[str, Any]) -> dict[str, str] | None:
    """The words whose `stem` is not the word itself, with it, as kept; None when they
    are not kept as that."""
    value = kept.get(WORD_KEYS)
    if not isinstance(value, dict):
        return None
    if not _all_of(str, value.values()):
        return None
    return value


def write_kept(
    connection: sqlite3.Connection, built_from: str, tables: Mapping[str, object]
) -> None:
    """Keep `tables` (name: JSON-able value) as built from what `built_from` fingerprints,
    in place of any kept before."""
    rows = [
        (name, built_from, json.dumps(value, separators=(",", ":")))
        for name, value in tables.items()
    ]
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.executemany(
            "INSERT OR REPLACE INTO kept_tables (name, fingerprint, value) VALUES (?, ?, ?)", rows
        )
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
