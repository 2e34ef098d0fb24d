"""The meaning ranking in the PostgreSQL store, for a library too large to keep its
vectors in every server's memory: pgvector's HNSW index finds the pieces nearest a
question among the version's, and exact cosines are read for the passages the word
ranking puts first. In memory stay a sample of the passages' vectors (the spread of a
question's cosines) and the library's background, read exactly as from all vectors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Final

import numpy as np
import psycopg

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.dense import (
    NEAREST_PASSAGES,
    PassageVectors,
    background_between,
    background_pieces,
)
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.store.postgres.connection import register_vectors
from tui_assistant.store.postgres.vectors import model_id
from tui_assistant.store.vectors import content_key, passage_pieces

if TYPE_CHECKING:
    from numpy.typing import NDArray

Connect = Callable[[], AbstractContextManager[psycopg.Connection]]
# Passages whose vectors stay in memory for the spread of a question's cosines.
SAMPLE_PASSAGES: Final = 2048
# Pieces asked of the index per question (a passage has one or a few), and how many
# candidates the index weighs to find them (pgvector's `hnsw.ef_search`).
NEAREST_PIECES: Final = 2 * NEAREST_PASSAGES
EF_SEARCH: Final = 200
_CHUNK: Final = 5000


class PgDenseSearch:
    """`DenseSearch` over one version's pieces in the store."""

    def __init__(
        self, connect: Connect, model: int, dimensions: int, version: int, rows: NDArray[np.int64]
    ) -> None:
        self.connect = connect
        self.version = version
        # The store's passage numbers in order: a passage's place here is its number.
        self.rows = rows
        vector = f"vector({int(dimensions)})"
        # The model's id is written out, so the planner matches the index's predicate.
        self._nearest = (
            f"SELECT vp.number, 1 - (pv.embedding::{vector} <=> %(q)s::{vector})"
            f" FROM piece_vectors pv JOIN version_pieces vp ON vp.content = pv.content"
            f" WHERE pv.model = {int(model)} AND vp.version = %(v)s"
            f" ORDER BY pv.embedding::{vector} <=> %(q)s::{vector} LIMIT {NEAREST_PIECES}"
        )
        self._exact = (
            f"SELECT vp.number, max(1 - (pv.embedding::{vector} <=> %(q)s::{vector}))"
            f" FROM version_pieces vp JOIN piece_vectors pv"
            f" ON pv.content = vp.content AND pv.model = {int(model)}"
            f" WHERE vp.version = %(v)s AND vp.number = ANY(%(n)s) GROUP BY vp.number"
        )

    def nearest(
        self, question: NDArray[np.float32], also: Sequence[int]
    ) -> tuple[dict[int, float], dict[int, float]]:
        values = {"q": np.asarray(question, np.float32), "v": self.version}
        with self.connect() as connection, connection.transaction():
            register_vectors(connection)
            connection.execute(f"SET LOCAL hnsw.ef_search = {EF_SEARCH}")
            connection.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            found = connection.execute(self._nearest, values).fetchall()
            given = (
                connection.execute(
                    self._exact, {**values, "n": self.rows[list(also)].tolist()}
                ).fetchall()
                if also
                else []
            )
        return self._numbered(found), self._numbered(given)

    def _numbered(self, rows: list[tuple[int, float]]) -> dict[int, float]:
        best: dict[int, float] = {}
        for row, cosine in rows:
            number = int(np.searchsorted(self.rows, row))
            best[number] = max(best.get(number, -1.0), float(cosine))
        return best


def database_vectors(
    connection: psycopg.Connection,
    connect: Connect,
    library: Library,
    identity: ModelIdentity,
    version: int,
) -> PassageVectors | None:
    """`library`'s vectors for a ranking in the store (version `version`); None when
    some of its pieces have no stored vector of `identity`'s model (ranked in memory)."""
    model = model_id(connection, identity, create=False)
    if model is None:
        return None
    missing = connection.execute(
        "SELECT count(*) FROM version_pieces vp WHERE vp.version = %s AND NOT EXISTS"
        " (SELECT 1 FROM piece_vectors pv WHERE pv.model = %s AND pv.content = vp.content)",
        (version, model),
    ).fetchone()
    if missing is None or missing[0]:
        return None
    rows = np.fromiter(
        (
            int(number)
            for (number,) in connection.execute(
                "SELECT number FROM passages WHERE version = %s ORDER BY number", (version,)
            )
        ),
        np.int64,
    )
    texts, owner_list = passage_pieces(library)
    owners = np.asarray(owner_list, np.int32)
    sampled = np.unique(np.linspace(0, len(library) - 1, SAMPLE_PASSAGES).astype(np.int32))
    in_sample = np.flatnonzero(np.isin(owners, sampled))
    row_pieces, column_pieces = background_pieces(owners)
    wanted = np.unique(np.concatenate([in_sample, row_pieces, column_pieces]))
    vectors = _read(connection, model, [content_key(texts[piece]) for piece in wanted])
    place = {int(piece): index for index, piece in enumerate(wanted)}

    def matrix(pieces: NDArray[np.intp]) -> NDArray[np.float32]:
        return vectors[[place[int(piece)] for piece in pieces]]

    background = background_between(
        matrix(row_pieces), owners[row_pieces], matrix(column_pieces), owners[column_pieces]
    )
    search = PgDenseSearch(connect, model, identity.dimensions, version, rows)
    return PassageVectors(matrix(in_sample), owners[in_sample], identity, search, background)


def _read(connection: psycopg.Connection, model: int, keys: list[bytes]) -> NDArray[np.float32]:
    register_vectors(connection)
    found: dict[bytes, NDArray[np.float32]] = {}
    distinct = list(set(keys))
    for start in range(0, len(distinct), _CHUNK):
        for key, vector in connection.execute(
            "SELECT content, embedding FROM piece_vectors WHERE model = %s AND content = ANY(%s)",
            (model, distinct[start : start + _CHUNK]),
        ):
            found[bytes(key)] = np.asarray(vector.to_numpy(), np.float32)
    return np.stack([found[key] for key in keys]) if keys else np.zeros((0, 0), np.float32)
