"""Passage vectors in the PostgreSQL store (pgvector), kept like the SQLite store's: by
model and the SHA-256 of each piece's text, so a piece is embedded once whoever asks.

The indexer writes them, a batch per transaction as batches arrive, so an indexer
stopped half-way keeps what it embedded and the next run goes on from there. Servers
only read them (`writable` False): a vector a server has to compute stays in its memory.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

import numpy as np
import psycopg

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.store.postgres.connection import register_vectors
from tui_assistant.store.vectors import ModelRows, StoredModel, content_key, passage_pieces

if TYPE_CHECKING:
    from numpy.typing import NDArray

logger = logging.getLogger(__name__)
# Keys asked for in one query.
_CHUNK: Final = 5000
# The indexer's memory for building an HNSW index: its graph takes about a vector's own
# bytes and 1 KB more a vector (about 2.5 KB a vector of 384, with a quarter to spare),
# between these bounds.
HNSW_BUILD_MEMORY_MB: Final = (64, 8192)


class PgVectorTable:
    """The store's vectors through one connection (`VectorTable` of `store.vectors`)."""

    def __init__(self, connection: psycopg.Connection, writable: bool) -> None:
        register_vectors(connection)
        self.connection = connection
        self.writable = writable

    def open_rows(self, identity: ModelIdentity) -> ModelRows | None:
        try:
            model = model_id(self.connection, identity, create=self.writable)
        except psycopg.Error as error:
            logger.warning("store: vectors are not read (%s)", " ".join(str(error).split()))
            return None
        return _PgRows(self.connection, model, identity, self.writable)


def model_id(connection: psycopg.Connection, identity: ModelIdentity, create: bool) -> int | None:
    """The model's id in the store (made when `create`); None when it has none."""
    name, dimensions, prefix = identity.stored_as
    if create:
        connection.execute(
            "INSERT INTO vector_models (name, dimensions, document_prefix) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            (name, dimensions, prefix),
        )
    row = connection.execute(
        "SELECT id FROM vector_models WHERE name = %s AND dimensions = %s AND document_prefix = %s",
        (name, dimensions, prefix),
    ).fetchone()
    return None if row is None else int(row[0])


class _PgRows:
    def __init__(
        self,
        connection: psycopg.Connection,
        model: int | None,
        identity: ModelIdentity,
        writable: bool,
    ) -> None:
        self.connection = connection
        self.model = model
        self.identity = identity
        self.writable = writable
        self.usable = True

    def read(self, rows_of: dict[bytes, list[int]], matrix: NDArray[np.float32]) -> set[bytes]:
        found: set[bytes] = set()
        if self.model is None:
            return found
        keys = list(rows_of)
        try:
            for start in range(0, len(keys), _CHUNK):
                for key, vector in self.connection.execute(
                    "SELECT content, embedding FROM piece_vectors"
                    " WHERE model = %s AND content = ANY(%s)",
                    (self.model, keys[start : start + _CHUNK]),
                ):
                    values = np.asarray(vector.to_numpy(), dtype=np.float32)
                    if values.shape != (self.identity.dimensions,):
                        continue  # computed again
                    matrix[rows_of[bytes(key)]] = values
                    found.add(bytes(key))
        except psycopg.Error as error:
            logger.warning("store: vectors are not read (%s)", " ".join(str(error).split()))
            self.usable = False
            return set()
        return found

    def save(self, rows: Iterable[tuple[bytes, NDArray[np.float32]]]) -> bool:
        if not self.writable or self.model is None:
            return False
        try:
            with self.connection.transaction(), self.connection.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO piece_vectors (model, content, embedding) VALUES (%s, %s, %s)"
                    " ON CONFLICT DO NOTHING",
                    [(self.model, key, np.asarray(vector, np.float32)) for key, vector in rows],
                )
        except psycopg.Error as error:
            logger.warning("store: vectors not saved (%s)", " ".join(str(error).split()))
            self.usable = False
            return False
        return True

    def close(self) -> None:
        self.usable = False


def stored_models(connection: psycopg.Connection, library: Library) -> list[StoredModel]:
    """Every model with vectors in the store, each with how many of `library`'s passages
    have a vector for every piece (reads only)."""
    texts, owners = passage_pieces(library)
    keys = [content_key(text) for text in texts]
    distinct = list(set(keys))
    models = []
    for model, name, dimensions, prefix in connection.execute(
        "SELECT id, name, dimensions, document_prefix FROM vector_models"
    ).fetchall():
        stored: set[bytes] = set()
        for start in range(0, len(distinct), _CHUNK):
            stored.update(
                bytes(key)
                for (key,) in connection.execute(
                    "SELECT content FROM piece_vectors WHERE model = %s AND content = ANY(%s)",
                    (model, distinct[start : start + _CHUNK]),
                )
            )
        missing = {owner for key, owner in zip(keys, owners, strict=True) if key not in stored}
        models.append(
            StoredModel(str(name), int(dimensions), str(prefix), len(library) - len(missing))
        )
    return models


def hnsw_build_megabytes(vectors: int, dimensions: int) -> int:
    """The memory an HNSW build of `vectors` vectors of `dimensions` is given, in MB:
    enough for its whole graph (`HNSW_BUILD_MEMORY_MB` bounds it)."""
    low, high = HNSW_BUILD_MEMORY_MB
    graph = vectors * (dimensions * 4 + 1024) * 5 // 4
    return max(low, min(high, -(-graph // 2**20)))


def build_hnsw(connection: psycopg.Connection, identity: ModelIdentity) -> None:
    """An HNSW index (cosine) over `identity`'s vectors, made once; the meaning ranking
    then runs in the database for libraries past the size setting."""
    model = model_id(connection, identity, create=True)
    dimensions = int(identity.dimensions)
    row = connection.execute(
        "SELECT count(*) FROM piece_vectors WHERE model = %s", (model,)
    ).fetchone()
    vectors = int(row[0]) if row is not None else 0
    # A graph that outgrows the build's memory is built many times slower (pgvector).
    megabytes = hnsw_build_megabytes(vectors, dimensions)
    connection.execute(f"SET maintenance_work_mem = '{megabytes}MB'")
    try:
        connection.execute(
            f"CREATE INDEX IF NOT EXISTS piece_vectors_hnsw_{model} ON piece_vectors"
            f" USING hnsw ((embedding::vector({dimensions})) vector_cosine_ops)"
            f" WHERE model = {model}"
        )
    finally:
        connection.execute("RESET maintenance_work_mem")
