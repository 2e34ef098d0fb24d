"""The meaning ranking in the store (pgvector HNSW) against the same ranking in memory:
the same passages first, the same verdicts, whether the sample kept in memory is the
whole library or a small part of it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path

import pytest

from tests.helpers import write_lesson
from tests.helpers.embedding import FakeEmbedder
from tui_assistant.core.retrieval.hybrid import HybridRetriever
from tui_assistant.core.words import stem
from tui_assistant.store.folder import list_library
from tui_assistant.store.index_store import open_library, store_path
from tui_assistant.store.postgres import dense, versions
from tui_assistant.store.postgres.connection import connect
from tui_assistant.store.postgres.migrations import migrate
from tui_assistant.store.postgres.url import parse_store_url
from tui_assistant.store.postgres.vectors import PgVectorTable, build_hnsw
from tui_assistant.store.vectors import embed_library

pytestmark = pytest.mark.postgres

WORDS = (
    "salt pasta water boil egg kettle vinegar oven bread yeast flour knife sharpen pan"
    " butter garlic onion rice steam grill smoke sauce pepper lemon herb basil stock"
).split()
QUESTIONS = [
    "how much salt in pasta water",
    "sharpen the knife",
    "yeast and flour for bread",
    "descale the kettle with vinegar",
    "zorblax calibration",
    "garlic butter sauce",
]


@pytest.fixture
def stored(pg_url: str, tmp_path: Path) -> Iterator[tuple[object, object, object, int]]:
    folder = tmp_path / "cooking"
    folder.mkdir()
    draw = random.Random(7)
    for number in range(300):
        title = " ".join(draw.sample(WORDS, 2))
        write_lesson(folder, f"l{number:03}", title.title(), " ".join(draw.sample(WORDS, 6)))
    url = parse_store_url(pg_url)
    connection = connect(url, "test")
    migrate(connection, url)
    embedder = FakeEmbedder()
    local = open_library(folder, tmp_path / "data", stem)
    embed_library(local, embedder, PgVectorTable(connection, True))
    build_hnsw(connection, embedder.identity)
    local.close()
    written = versions.write_version(
        connection, url, "cooking", store_path(tmp_path / "data", folder), list_library(folder)
    )
    assert written is not None
    _, library = versions.load_version(connection, "cooking", folder, stem)
    yield connection, library, embedder, written.version_id
    library.close()
    connection.close()


@pytest.mark.parametrize("sample", [dense.SAMPLE_PASSAGES, 16])
def test_the_ranking_in_the_store_gives_the_answers_of_the_one_in_memory(
    stored: tuple, sample: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    connection, library, embedder, version = stored
    monkeypatch.setattr(dense, "SAMPLE_PASSAGES", sample)
    in_memory = embed_library(library, embedder, PgVectorTable(connection, False))
    in_store = dense.database_vectors(
        connection, lambda: nullcontext(connection), library, embedder.identity, version
    )
    assert in_store is not None and in_store.search is not None
    assert len(in_store.matrix) < len(in_memory.matrix) or sample > len(library)
    memory = HybridRetriever(library, in_memory, embedder.embed_question)
    database = HybridRetriever(library, in_store, embedder.embed_question)
    assert database.dense.background == memory.dense.background
    for question in QUESTIONS:
        expected, got = memory.search(question, 3, 5), database.search(question, 3, 5)
        assert [n for n, _ in got.scored][:1] == [n for n, _ in expected.scored][:1], question
        if sample > len(library):  # the whole library in the sample: the very same
            assert got == expected, question


def test_a_library_with_a_piece_not_stored_is_ranked_in_memory(stored: tuple) -> None:
    connection, library, embedder, version = stored
    connection.execute(
        "DELETE FROM piece_vectors WHERE ctid IN (SELECT ctid FROM piece_vectors LIMIT 1)"
    )
    found = dense.database_vectors(
        connection, lambda: nullcontext(connection), library, embedder.identity, version
    )
    assert found is None
