"""Passage vectors in the index store: computed once, kept by content.

A passage is embedded as pieces (`core.fusion.split_pieces`); each piece's vector is
stored under the SHA-256 of the piece's text, so a changed file re-embeds only the
passages whose text changed, and a restart embeds nothing. The table sits in the same
SQLite file as the rest of the index (`vectors`), written through a connection of its
own so the library's read snapshot is untouched. Vectors of another model, or rows of
the wrong size, are dropped with one warning and computed again.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tui_assistant.core.library.library import Library
from tui_assistant.core.progress import Progress
from tui_assistant.core.retrieval.dense import PassageVectors
from tui_assistant.core.retrieval.fusion import split_pieces

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from tui_assistant.providers.embedding import EmbeddingSource

logger = logging.getLogger(__name__)


# Pieces embedded (and stored) per step: progress moves and an interrupted run keeps
# what it finished.
STEP = 64

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    content BLOB PRIMARY KEY,   -- SHA-256 of the piece's text
    vector BLOB NOT NULL        -- float32, the machine's byte order
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vector_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_SCHEMA_STATEMENTS = [part for part in _SCHEMA.split(";") if part.strip()]


def passage_pieces(library: Library) -> tuple[list[str], list[int]]:
    """The texts embedded for the library, and the passage number of each."""
    texts: list[str] = []
    owners: list[int] = []
    for number in range(len(library)):
        passage = library.passage(number)
        pieces = split_pieces(passage.title, passage.text)
        texts.extend(pieces)
        owners.extend([number] * len(pieces))
    return texts, owners


def embed_library(
    library: Library,
    source: EmbeddingSource,
    store: Path | None,
    progress: Progress | None = None,
) -> PassageVectors:
    """The library's vectors: stored ones read back, missing ones computed and stored.

    `progress(done, total)` counts the passages with pieces still to embed. With no
    store (a library indexed in memory) everything is computed and kept in memory only.
    """
    texts, owners = passage_pieces(library)
    keys = [hashlib.sha256(text.encode("utf-8")).digest() for text in texts]
    connection = _open(store, source) if store is not None else None
    try:
        stored = _stored(connection, keys, source) if connection else {}
        if stored is None:
            assert connection is not None
            connection.close()
            connection = None
        found = stored or {}
        missing = [index for index, key in enumerate(keys) if key not in found]
        # Passages done once their last missing piece is: counted at each step's end.
        last_piece = {owners[index]: place for place, index in enumerate(missing)}
        ends = sorted(last_piece.values())
        if progress is not None:
            progress(0, len(ends))
        for start in range(0, len(missing), STEP):
            step = missing[start : start + STEP]
            vectors = source.embed([texts[index] for index in step])
            rows = [(keys[index], vectors[row]) for row, index in enumerate(step)]
            found.update(rows)
            if connection is not None and not _save(connection, rows):
                # One warning, not one per step: the rest stays in memory.
                connection.close()
                connection = None
            if progress is not None:
                progress(bisect.bisect_left(ends, start + STEP), len(ends))
    finally:
        if connection is not None:
            connection.close()
    matrix = np.empty((len(keys), source.dimensions), dtype=np.float32)
    for row, key in enumerate(keys):
        matrix[row] = found[key]
    return PassageVectors(matrix, np.asarray(owners, dtype=np.int32))


def _open(store: Path, source: EmbeddingSource) -> sqlite3.Connection | None:
    """The store's vector tables, for `source`'s model; None when they cannot be used
    now (the library still answers, lexically or with vectors kept in memory)."""
    try:
        connection = sqlite3.connect(store, isolation_level=None, timeout=5.0)
    except sqlite3.Error as error:
        logger.warning("index store %s: vectors are not kept (%s)", store, error)
        return None
    try:
        connection.executescript(f"BEGIN; {_SCHEMA} COMMIT;")
        row = connection.execute("SELECT value FROM vector_meta WHERE key = 'model'").fetchone()
        if row is None or row[0] != source.model_id:
            if row is not None:
                logger.warning(
                    "index store %s holds vectors of another model (%s); embedding again",
                    store,
                    row[0],
                )
            _reset(connection, source.model_id)
    except sqlite3.Error as error:
        connection.close()
        logger.warning("index store %s: vectors are not kept (%s)", store, error)
        return None
    return connection


def _reset(connection: sqlite3.Connection, model_id: str) -> None:
    """Empty vector tables for `model_id`; dropped and made again, so a table of another
    shape is replaced too."""
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("DROP TABLE IF EXISTS vectors")
        connection.execute("DROP TABLE IF EXISTS vector_meta")
        for statement in _SCHEMA_STATEMENTS:
            connection.execute(statement)
        connection.execute("INSERT INTO vector_meta (key, value) VALUES ('model', ?)", (model_id,))
        connection.execute("COMMIT")
    except sqlite3.Error:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _stored(
    connection: sqlite3.Connection, keys: Sequence[bytes], source: EmbeddingSource
) -> dict[bytes, NDArray[np.float32]] | None:
    """The stored vectors of `keys`. A row of the wrong size means the table cannot be
    trusted: it is emptied, with one warning, and everything is embedded again. None
    when it cannot even be emptied (the vectors are then kept in memory only)."""
    wanted = set(keys)
    found: dict[bytes, NDArray[np.float32]] = {}
    size = source.dimensions * 4
    try:
        for key, blob in connection.execute("SELECT content, vector FROM vectors"):
            if len(blob) != size:
                raise ValueError(f"a vector of {len(blob)} bytes")
            if key in wanted:
                found[key] = np.frombuffer(blob, dtype=np.float32)
    except (sqlite3.DatabaseError, ValueError) as problem:
        logger.warning("index store vectors are damaged (%s); embedding again", problem)
        try:
            _reset(connection, source.model_id)
        except sqlite3.Error:
            return None
        return {}
    return found


def _save(
    connection: sqlite3.Connection, rows: Sequence[tuple[bytes, NDArray[np.float32]]]
) -> bool:
    """Store `rows`; False, with a warning, when the store refuses the write."""
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.executemany(
            "INSERT OR REPLACE INTO vectors (content, vector) VALUES (?, ?)",
            [(key, vector.astype(np.float32).tobytes()) for key, vector in rows],
        )
        connection.execute("COMMIT")
    except sqlite3.Error as error:
        with contextlib.suppress(sqlite3.Error):
            if connection.in_transaction:
                connection.execute("ROLLBACK")
        logger.warning("index store: vectors not saved (%s); they are kept in memory", error)
        return False
    return True


def stored_vectors(store: Path, library: Library) -> tuple[str | None, int]:
    """The model whose vectors `store` holds (None when it holds none) and how many of
    `library`'s passages have a stored vector for every piece. Reads only: nothing is
    embedded, no model is loaded, no table is made."""
    try:
        uri = f"{Path(os.path.abspath(store)).as_uri()}?mode=ro"
        connection = sqlite3.connect(uri, uri=True, timeout=5.0)
    except sqlite3.Error:
        return None, 0
    try:
        row = connection.execute("SELECT value FROM vector_meta WHERE key = 'model'").fetchone()
        if row is None:
            return None, 0
        stored = {bytes(key) for (key,) in connection.execute("SELECT content FROM vectors")}
    except sqlite3.Error:  # no vector tables yet, or a store being rebuilt
        return None, 0
    finally:
        connection.close()
    texts, owners = passage_pieces(library)
    missing = {
        owner
        for text, owner in zip(texts, owners, strict=True)
        if hashlib.sha256(text.encode("utf-8")).digest() not in stored
    }
    return str(row[0]), len(library) - len(missing)
