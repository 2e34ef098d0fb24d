"""Passage vectors in the index store: computed once per model, kept by content.

A passage is embedded as pieces (`core.retrieval.fusion.split_pieces`); each piece's
vector is stored under its model and the SHA-256 of the piece's text, so a changed file
re-embeds only the passages whose text changed, a restart embeds nothing, and an
interrupted run keeps every batch that arrived (each is stored as it arrives).

A model is its identity (`ModelIdentity.stored_as`: name, dimensions, document prefix).
Switching to another model, or to a server, and back keeps both models' vectors side by
side and never mixes them; the word index is never touched. The tables sit in the same
SQLite file as the rest of the index (`vector_models`, `piece_vectors`), written through
a connection of their own so the library's read snapshot is untouched. Rows of the wrong
size are dropped with one warning and computed again; a store that cannot be written
keeps the vectors in memory, with one warning.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from tui_assistant.core.library.library import Library
from tui_assistant.core.progress import Progress
from tui_assistant.core.retrieval.dense import PassageVectors
from tui_assistant.core.retrieval.fusion import split_pieces
from tui_assistant.core.retrieval.model_identity import ModelIdentity

if TYPE_CHECKING:
    from numpy.typing import NDArray

logger = logging.getLogger(__name__)


class BatchEmbedder(Protocol):
    """What the store needs of an embedding source (`providers.embedding.EmbeddingSource`
    is one): the store stands below the providers and never imports them."""

    @property
    def identity(self) -> ModelIdentity: ...

    def embed_batches(
        self, texts: Sequence[str]
    ) -> Iterator[tuple[list[int], NDArray[np.float32]]]: ...


class ModelRows(Protocol):
    """One model's stored vectors, in whichever store keeps them (`_ModelRows` here, the
    PostgreSQL store's beside it); `usable` is False once it refused a read or write."""

    usable: bool

    def read(self, rows_of: dict[bytes, list[int]], matrix: NDArray[np.float32]) -> set[bytes]: ...

    def save(self, rows: Iterable[tuple[bytes, NDArray[np.float32]]]) -> bool: ...

    def close(self) -> None: ...


class VectorTable(Protocol):
    """A store of vectors other than an SQLite file: its rows of one model."""

    def open_rows(self, identity: ModelIdentity) -> ModelRows | None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS vector_models (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,             -- a local model's name@weights-hash, or a server's model name
    dimensions INTEGER NOT NULL,
    document_prefix TEXT NOT NULL,  -- put before each piece before it was embedded
    UNIQUE (name, dimensions, document_prefix)
);
CREATE TABLE IF NOT EXISTS piece_vectors (
    model INTEGER NOT NULL REFERENCES vector_models (id),
    content BLOB NOT NULL,          -- SHA-256 of the piece's text
    vector BLOB NOT NULL,           -- float32, the machine's byte order
    PRIMARY KEY (model, content)
) WITHOUT ROWID;
"""
_SCHEMA_STATEMENTS = [part for part in _SCHEMA.split(";") if part.strip()]
_COLUMNS = {
    "vector_models": {"id", "name", "dimensions", "document_prefix"},
    "piece_vectors": {"model", "content", "vector"},
}
# The layout before vectors were kept per model: one model's vectors, named in
# `vector_meta`; moved into the tables above on first use, so none is embedded again.
_SINGLE_MODEL_TABLES = ("vectors", "vector_meta")


@dataclass(frozen=True, slots=True)
class StoredModel:
    """A model whose vectors the store holds, and how many of a library's passages have
    a stored vector for every piece."""

    name: str
    dimensions: int
    document_prefix: str
    embedded: int

    def made(self, identity: ModelIdentity) -> bool:
        """Whether these are `identity`'s vectors."""
        return (self.name, self.dimensions, self.document_prefix) == identity.stored_as


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


def content_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def embed_library(
    library: Library,
    source: BatchEmbedder,
    store: Path | VectorTable | None,
    progress: Progress | None = None,
) -> PassageVectors:
    """The library's vectors of `source`'s model: stored ones read back, missing ones
    computed, each batch stored as it arrives.

    `progress(done, total)` counts the passages with pieces still to embed. With no
    store (a library indexed in memory) everything is computed and kept in memory only.
    Raises what `source` raises (`EmbeddingUnavailable`); what was stored stays.
    """
    identity = source.identity
    texts, owners = passage_pieces(library)
    rows_of: dict[bytes, list[int]] = {}
    for row, text in enumerate(texts):
        rows_of.setdefault(content_key(text), []).append(row)
    matrix = np.empty((len(texts), identity.dimensions), dtype=np.float32)
    table: ModelRows | None = None
    if isinstance(store, Path):
        table = _ModelRows.open(store, identity)
    elif store is not None:
        table = store.open_rows(identity)
    try:
        found = table.read(rows_of, matrix) if table is not None else set()
        if table is not None and not table.usable:
            table = None
        missing = [key for key in rows_of if key not in found]
        # Passages done once their last missing piece is: counted as pieces arrive.
        left: dict[int, int] = {}
        for key in missing:
            for row in rows_of[key]:
                left[owners[row]] = left.get(owners[row], 0) + 1
        total, done = len(left), 0
        if progress is not None:
            progress(0, total)
        batches = source.embed_batches([texts[rows_of[key][0]] for key in missing])
        try:
            for positions, vectors in batches:
                arrived = [missing[position] for position in positions]
                for key, vector in zip(arrived, vectors, strict=True):
                    for row in rows_of[key]:
                        matrix[row] = vector
                        left[owners[row]] -= 1
                        done += not left[owners[row]]
                    found.add(key)
                # After one refused write (one warning) the rest stays in memory.
                if table is not None and not table.save(zip(arrived, vectors, strict=True)):
                    table = None
                if progress is not None:
                    progress(done, total)
        finally:
            close = getattr(batches, "close", None)
            if close is not None:
                close()
        if len(found) < len(rows_of):
            raise RuntimeError(f"{type(source).__name__} left pieces without a vector")
    finally:
        if table is not None:
            table.close()
    return PassageVectors(matrix, np.asarray(owners, dtype=np.int32), identity)


class _ModelRows:
    """One model's rows in the store, through a connection of their own. `usable` turns
    False (the connection closed) once the store refuses a read or a write."""

    def __init__(self, connection: sqlite3.Connection, model: int, identity: ModelIdentity):
        self.connection = connection
        self.model = model
        self.identity = identity
        self.usable = True

    @classmethod
    def open(cls, store: Path, identity: ModelIdentity) -> _ModelRows | None:
        """The store's vector tables for `identity`, made or upgraded as need be; None
        when they cannot be used now (the library still answers, lexically or with
        vectors kept in memory)."""
        try:
            connection = sqlite3.connect(store, isolation_level=None, timeout=5.0)
        except sqlite3.Error as error:
            logger.warning("index store %s: vectors are not kept (%s)", store, error)
            return None
        try:
            # Vectors can always be computed again: a commit need not wait for the disk.
            connection.execute("PRAGMA synchronous = NORMAL")
            connection.execute("BEGIN IMMEDIATE")
            _upgrade(connection, store)
            for statement in _SCHEMA_STATEMENTS:
                connection.execute(statement)
            model = _model_id(connection, identity)
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            _roll_back(connection)
            connection.close()
            logger.warning("index store %s: vectors are not kept (%s)", store, error)
            return None
        return cls(connection, model, identity)

    def read(self, rows_of: dict[bytes, list[int]], matrix: NDArray[np.float32]) -> set[bytes]:
        """Fill `matrix` with this model's stored vectors; their keys. A row of the
        wrong size means this model's rows cannot be trusted: they are deleted, with one
        warning, and everything is embedded again."""
        found: set[bytes] = set()
        size = self.identity.dimensions * 4
        try:
            rows = self.connection.execute(
                "SELECT content, vector FROM piece_vectors WHERE model = ?", (self.model,)
            )
            for key, blob in rows:
                if len(blob) != size:
                    raise ValueError(f"a vector of {len(blob)} bytes")
                places = rows_of.get(bytes(key))
                if places is not None:
                    matrix[places] = np.frombuffer(blob, dtype=np.float32)
                    found.add(bytes(key))
        except (sqlite3.DatabaseError, ValueError) as problem:
            logger.warning("index store vectors are damaged (%s); embedding again", problem)
            try:
                self.connection.execute("DELETE FROM piece_vectors WHERE model = ?", (self.model,))
            except sqlite3.Error:
                self.close()
            return set()
        return found

    def save(self, rows: Iterable[tuple[bytes, NDArray[np.float32]]]) -> bool:
        """Store `rows`; False, with a warning (and closed), when the store refuses."""
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            self.connection.executemany(
                "INSERT OR REPLACE INTO piece_vectors (model, content, vector) VALUES (?, ?, ?)",
                [(self.model, key, vector.astype(np.float32).tobytes()) for key, vector in rows],
            )
            self.connection.execute("COMMIT")
        except sqlite3.Error as error:
            _roll_back(self.connection)
            logger.warning("index store: vectors not saved (%s); they are kept in memory", error)
            self.close()
            return False
        return True

    def close(self) -> None:
        self.usable = False
        self.connection.close()


def _roll_back(connection: sqlite3.Connection) -> None:
    with contextlib.suppress(sqlite3.Error):
        if connection.in_transaction:
            connection.execute("ROLLBACK")


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}


def _columns(connection: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}


def _upgrade(connection: sqlite3.Connection, store: Path) -> None:
    """Inside a transaction: vectors of the single-model layout moved into the per-model
    tables; tables of a shape this code does not know dropped, with one warning."""
    tables = _tables(connection)
    for table, columns in _COLUMNS.items():
        if table in tables and _columns(connection, table) != columns:
            logger.warning("index store %s: vector table %s of another shape dropped", store, table)
            connection.execute("DROP TABLE IF EXISTS piece_vectors")
            connection.execute("DROP TABLE IF EXISTS vector_models")
            break
    if not any(table in tables for table in _SINGLE_MODEL_TABLES):
        return
    single = _single_model(connection)
    for statement in _SCHEMA_STATEMENTS:
        connection.execute(statement)
    if single is None:
        logger.warning("index store %s: vectors of an unreadable layout dropped", store)
    else:
        name, size = single
        model = _model_id(connection, ModelIdentity(name, size // 4))
        connection.execute(
            "INSERT OR IGNORE INTO piece_vectors (model, content, vector)"
            " SELECT ?, content, vector FROM vectors WHERE length(vector) = ?",
            (model, size),
        )
    for table in _SINGLE_MODEL_TABLES:
        connection.execute(f"DROP TABLE IF EXISTS {table}")


def _single_model(connection: sqlite3.Connection) -> tuple[str, int] | None:
    """The model and vector size (bytes) of the single-model layout; None when it is
    not readable."""
    if not {"vectors", "vector_meta"} <= _tables(connection):
        return None
    if _columns(connection, "vectors") != {"content", "vector"}:
        return None
    row = connection.execute("SELECT value FROM vector_meta WHERE key = 'model'").fetchone()
    first = connection.execute("SELECT length(vector) FROM vectors LIMIT 1").fetchone()
    if row is None or first is None or not first[0] or first[0] % 4:
        return None
    return str(row[0]), int(first[0])


def _model_id(connection: sqlite3.Connection, identity: ModelIdentity) -> int:
    name, dimensions, prefix = identity.stored_as
    connection.execute(
        "INSERT OR IGNORE INTO vector_models (name, dimensions, document_prefix) VALUES (?, ?, ?)",
        (name, dimensions, prefix),
    )
    (model,) = connection.execute(
        "SELECT id FROM vector_models WHERE name = ? AND dimensions = ? AND document_prefix = ?",
        (name, dimensions, prefix),
    ).fetchone()
    return int(model)


def stored_vectors(store: Path, library: Library) -> list[StoredModel]:
    """Every model whose vectors `store` holds, each with how many of `library`'s
    passages have a stored vector for every piece. Reads only: nothing is embedded, no
    model is loaded, no table is made or moved."""
    try:
        uri = f"{Path(os.path.abspath(store)).as_uri()}?mode=ro"
        connection = sqlite3.connect(uri, uri=True, timeout=5.0)
    except sqlite3.Error:
        return []
    try:
        keys_of = _stored_keys(connection)
    except sqlite3.Error:  # no vector tables yet, or a store being rebuilt
        return []
    finally:
        connection.close()
    if not keys_of:
        return []
    texts, owners = passage_pieces(library)
    keys = [content_key(text) for text in texts]
    models = []
    for (name, dimensions, prefix), stored in keys_of.items():
        missing = {owner for key, owner in zip(keys, owners, strict=True) if key not in stored}
        models.append(StoredModel(name, dimensions, prefix, len(library) - len(missing)))
    return models


def _stored_keys(connection: sqlite3.Connection) -> dict[tuple[str, int, str], set[bytes]]:
    tables = _tables(connection)
    found: dict[tuple[str, int, str], set[bytes]] = {}
    if {"vector_models", "piece_vectors"} <= tables:
        for model, name, dimensions, prefix in connection.execute(
            "SELECT id, name, dimensions, document_prefix FROM vector_models"
        ):
            keys = connection.execute("SELECT content FROM piece_vectors WHERE model = ?", (model,))
            found[(str(name), int(dimensions), str(prefix))] = {bytes(key) for (key,) in keys}
    single = _single_model(connection)
    if single is not None:
        keys = connection.execute("SELECT content FROM vectors")
        found[(single[0], single[1] // 4, "")] = {bytes(key) for (key,) in keys}
    return found
