"""Where the meaning ranking in PostgreSQL pays: at several library sizes, a question's
meaning ranking from vectors in the server's memory (numpy) beside the same ranking by
pgvector's HNSW index, with the memory the vectors take in each server, the index's
build time, and how often the database's nearest passage is the exact one.

    pip install -e '.[test,semantic,postgres]'
    python -m benchmarks.pg_dense_sizes [--sizes 10000,50000,100000] [--questions 200]

Synthetic: 384-dimensional unit vectors around 2,000 topics (as a model's passages
cluster by subject), one piece per passage; questions are noisy copies of passages.
Bounded: one build and `--questions` questions per size.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from benchmarks.pg_server import postgres, with_schema
from tui_assistant.core.retrieval.dense import DenseIndex
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.store.postgres.connection import connect, register_vectors
from tui_assistant.store.postgres.dense import PgDenseSearch
from tui_assistant.store.postgres.migrations import migrate
from tui_assistant.store.postgres.url import parse_store_url
from tui_assistant.store.postgres.vectors import build_hnsw, model_id

if TYPE_CHECKING:
    import psycopg
    from numpy.typing import NDArray

DIMENSIONS = 384
TOPICS = 2000


def unit(rows: NDArray[np.float32]) -> NDArray[np.float32]:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def synthetic(count: int, draw: np.random.Generator) -> NDArray[np.float32]:
    centres = unit(draw.standard_normal((TOPICS, DIMENSIONS), dtype=np.float32))
    topic = draw.integers(0, TOPICS, count)
    noise = draw.standard_normal((count, DIMENSIONS), dtype=np.float32) * 0.06
    return unit(centres[topic] + noise)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def store_size(connection: psycopg.Connection, size: int, matrix: NDArray[np.float32]) -> int:
    """`matrix` as the vectors of one version of library `synthetic-SIZE`: its id."""
    identity = ModelIdentity(f"synthetic-{size}", DIMENSIONS, "", "")
    model = model_id(connection, identity, create=True)
    keys = [hashlib.sha256(f"{size}:{n}".encode()).digest() for n in range(size)]
    name = f"synthetic-{size}"
    with connection.transaction():
        connection.execute("INSERT INTO libraries (name) VALUES (%s)", (name,))
        row = connection.execute(
            "INSERT INTO versions (library, folder, passages, listing, words, parser,"
            " byte_order) VALUES (%s, '', %s, '{}', '', '', '') RETURNING id",
            (name, size),
        ).fetchone()
        assert row is not None
        version = int(row[0])
        with connection.cursor() as cursor:
            with cursor.copy(
                "COPY piece_vectors (model, content, embedding) FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["integer", "bytea", "vector"])
                for key, vector in zip(keys, matrix, strict=True):
                    copy.write_row((model, key, vector))
            with cursor.copy("COPY version_pieces (version, content, number) FROM STDIN") as copy:
                for number, key in enumerate(keys):
                    copy.write_row((version, key, number))
    return version


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,50000,100000")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/tui-assistant-pg-bench"))
    args = parser.parse_args()
    draw = np.random.default_rng(7)
    print(
        "| passages | vectors in memory MB | memory ms p50/p95 | HNSW build s"
        " | database ms p50/p95 | database first = exact first |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    with postgres(args.folder) as server:
        url = parse_store_url(with_schema(server))
        connection = connect(url, "index")
        migrate(connection, url)
        register_vectors(connection)
        for size in [int(value) for value in args.sizes.split(",")]:
            matrix = synthetic(size, draw)
            owners = np.arange(size, dtype=np.int32)
            version = store_size(connection, size, matrix)
            started = time.perf_counter()
            build_hnsw(connection, ModelIdentity(f"synthetic-{size}", DIMENSIONS, "", ""))
            build = time.perf_counter() - started
            model = model_id(
                connection, ModelIdentity(f"synthetic-{size}", DIMENSIONS, "", ""), False
            )
            assert model is not None
            search = PgDenseSearch(
                lambda: nullcontext(connection), model, DIMENSIONS, version, owners.astype(np.int64)
            )
            index = DenseIndex(matrix, owners)
            picks = draw.integers(0, size, args.questions)
            questions = unit(
                matrix[picks]
                + draw.standard_normal((len(picks), DIMENSIONS), dtype=np.float32) * 0.05
            )
            memory_s, database_s, same = [], [], 0
            for question in questions:
                also = draw.integers(0, size, 50).tolist()
                started = time.perf_counter()
                exact = index.best_cosines(question, size)
                memory_s.append(time.perf_counter() - started)
                started = time.perf_counter()
                nearest, _ = search.nearest(question, also)
                database_s.append(time.perf_counter() - started)
                same += max(nearest, key=nearest.__getitem__) == int(np.argmax(exact))
            print(
                f"| {size:,} | {matrix.nbytes / 2**20:,.0f}"
                f" | {np.median(memory_s) * 1000:.1f}/{percentile(memory_s, 0.95) * 1000:.1f}"
                f" | {build:,.0f}"
                f" | {np.median(database_s) * 1000:.1f}/{percentile(database_s, 0.95) * 1000:.1f}"
                f" | {same / len(questions):.3f} |",
                flush=True,
            )
        connection.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
