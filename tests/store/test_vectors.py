"""Passage vectors kept in the index store: computed once per model, by content, stored
as they arrive, two models' vectors side by side and never mixed, never a crash."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

# The `semantic` extra (CI installs it); without it these tests cannot run.
pytest.importorskip("numpy")

import numpy as np
from numpy.typing import NDArray

from tests.helpers.embedding import FakeEmbedder, word_vector
from tests.helpers.store_files import open_, store_file, write
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.fusion import split_pieces
from tui_assistant.core.retrieval.hybrid import HybridRetriever
from tui_assistant.store import vectors as vectors_module
from tui_assistant.store.vectors import (
    PassageVectors,
    StoredModel,
    embed_library,
    passage_pieces,
    stored_vectors,
)


def stored_rows(store: Path) -> int:
    with contextlib.closing(sqlite3.connect(store)) as connection:
        (count,) = connection.execute("SELECT count(*) FROM piece_vectors").fetchone()
    return int(count)


def word_index(store: Path) -> list[tuple[object, ...]]:
    """The stored passages and postings, as rows: the word index."""
    with contextlib.closing(sqlite3.connect(store)) as connection:
        passages = connection.execute("SELECT * FROM passages ORDER BY number").fetchall()
        postings = connection.execute("SELECT count(*) FROM postings").fetchall()
    return [*passages, *postings]


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == vectors_module.__name__ and record.levelno >= logging.WARNING
    ]


def pieces_of(library: Library, passage_id: str) -> list[str]:
    passage = library.get(passage_id)
    assert passage is not None
    return split_pieces(passage.title, passage.text)


def assert_vectors_of(library: Library, vectors: PassageVectors, dimensions: int) -> None:
    """Every row is the vector of its piece, and rows follow the library's pieces."""
    texts, owners = passage_pieces(library)
    assert vectors.passages.tolist() == owners
    expected = np.stack([word_vector(text, dimensions) for text in texts])
    np.testing.assert_allclose(vectors.matrix, expected, atol=1e-6)


@pytest.fixture
def library(folder: Path, data_dir: Path) -> Library:
    return open_(folder, data_dir)


@pytest.fixture
def store(folder: Path, data_dir: Path, library: Library) -> Path:
    path = store_file(folder, data_dir)
    assert path.is_file()
    return path


def test_the_first_run_embeds_every_piece_and_stores_it(library: Library, store: Path) -> None:
    source = FakeEmbedder()
    vectors = embed_library(library, source, store)
    texts, _ = passage_pieces(library)
    assert sorted(source.texts) == sorted(texts)
    assert stored_rows(store) == len(set(texts))
    assert_vectors_of(library, vectors, source.dimensions)


def test_a_restart_embeds_nothing(folder: Path, data_dir: Path, store: Path) -> None:
    first = embed_library(open_(folder, data_dir), FakeEmbedder(), store)
    again = FakeEmbedder()
    second = embed_library(open_(folder, data_dir), again, store)
    assert again.texts == []
    np.testing.assert_array_equal(second.matrix, first.matrix)
    assert second.passages.tolist() == first.passages.tolist()


def test_a_changed_document_re_embeds_only_its_passages(
    folder: Path, data_dir: Path, store: Path
) -> None:
    embed_library(open_(folder, data_dir), FakeEmbedder(), store)
    write(
        folder,
        "kitchen/knife-care.md",
        "# Knife care\n\nDry the blade at once.\n\n## Storage\n\nUse a magnetic strip.\n",
    )
    changed = open_(folder, data_dir)
    source = FakeEmbedder()
    vectors = embed_library(changed, source, store)
    expected = pieces_of(changed, "kitchen/knife-care") + pieces_of(
        changed, "kitchen/knife-care#storage"
    )
    assert sorted(source.texts) == sorted(expected)
    assert_vectors_of(changed, vectors, source.dimensions)


def test_switching_models_and_back_keeps_both_models_vectors_apart(
    folder: Path, data_dir: Path, store: Path, caplog: pytest.LogCaptureFixture
) -> None:
    library = open_(folder, data_dir)
    index_before = word_index(store)
    texts, _ = passage_pieces(library)
    with caplog.at_level(logging.WARNING):
        first = embed_library(library, FakeEmbedder("local-model@1"), store)
        server = FakeEmbedder("server-model", dimensions=32)
        other = embed_library(open_(folder, data_dir), server, store)
        back = FakeEmbedder("local-model@1")
        again = embed_library(open_(folder, data_dir), back, store)
        server_again = FakeEmbedder("server-model", dimensions=32)
        embed_library(open_(folder, data_dir), server_again, store)
    assert warnings_of(caplog) == []
    # The second model embedded everything; switching back embedded nothing.
    assert sorted(server.texts) == sorted(texts)
    assert back.texts == [] and server_again.texts == []
    assert_vectors_of(library, other, 32)
    np.testing.assert_array_equal(again.matrix, first.matrix)
    assert again.model == back.identity and other.model == server.identity
    assert stored_rows(store) == 2 * len(set(texts))
    assert sorted(stored_vectors(store, library), key=lambda model: model.name) == [
        StoredModel("local-model@1", 64, "", len(library)),
        StoredModel("server-model", 32, "", len(library)),
    ]
    # The word index was never rebuilt or touched.
    assert word_index(store) == index_before


def test_the_same_name_with_another_document_prefix_or_size_is_another_model(
    library: Library, store: Path
) -> None:
    embed_library(library, FakeEmbedder("e5"), store)
    prefixed = FakeEmbedder("e5", document_prefix="passage: ")
    vectors = embed_library(library, prefixed, store)
    texts, _ = passage_pieces(library)
    assert sorted(prefixed.texts) == sorted(f"passage: {text}" for text in texts)
    expected = np.stack([word_vector(f"passage: {text}", 64) for text in texts])
    np.testing.assert_allclose(vectors.matrix, expected, atol=1e-6)
    wider = FakeEmbedder("e5", dimensions=96)
    embed_library(library, wider, store)
    assert len(wider.texts) == len(texts)
    # The query prefix is not part of a stored vector: changing it embeds nothing.
    asked_otherwise = FakeEmbedder("e5", query_prefix="query: ", document_prefix="passage: ")
    embed_library(library, asked_otherwise, store)
    assert asked_otherwise.texts == []
    assert len(stored_vectors(store, library)) == 3


def test_vectors_of_the_single_model_layout_are_kept_and_used(
    library: Library, store: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A store written before vectors were kept per model: its vectors are moved into
    the per-model tables, not embedded again."""
    source = FakeEmbedder("all-MiniLM-L6-v2@53aa51172d142c89", dimensions=16)
    texts, _ = passage_pieces(library)
    with contextlib.closing(sqlite3.connect(store)) as connection:
        connection.executescript(
            "CREATE TABLE vectors (content BLOB PRIMARY KEY, vector BLOB NOT NULL) WITHOUT ROWID;"
            "CREATE TABLE vector_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            f"INSERT INTO vector_meta VALUES ('model', '{source.model_id}');"
        )
        connection.executemany(
            "INSERT OR REPLACE INTO vectors VALUES (?, ?)",
            [(vectors_module.content_key(text), word_vector(text, 16).tobytes()) for text in texts],
        )
        connection.commit()
    assert stored_vectors(store, library) == [StoredModel(source.model_id, 16, "", len(library))]
    with caplog.at_level(logging.WARNING):
        vectors = embed_library(library, source, store)
    assert warnings_of(caplog) == []
    assert source.texts == []
    assert_vectors_of(library, vectors, 16)
    with contextlib.closing(sqlite3.connect(store)) as connection:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}
    assert {"vectors", "vector_meta"}.isdisjoint(tables)
    assert stored_rows(store) == len(set(texts))


def test_a_damaged_vector_row_is_one_warning_and_everything_is_embedded_again(
    library: Library, store: Path, caplog: pytest.LogCaptureFixture
) -> None:
    embed_library(library, FakeEmbedder(), store)
    with contextlib.closing(sqlite3.connect(store)) as connection:
        connection.execute(
            "UPDATE piece_vectors SET vector = x'0000'"
            " WHERE content = (SELECT min(content) FROM piece_vectors)"
        )
        connection.commit()
    source = FakeEmbedder()
    with caplog.at_level(logging.WARNING):
        vectors = embed_library(library, source, store)
    assert len(warnings_of(caplog)) == 1
    texts, _ = passage_pieces(library)
    assert sorted(source.texts) == sorted(texts)
    assert_vectors_of(library, vectors, source.dimensions)
    # Repaired: the next run reads every vector back.
    later = FakeEmbedder()
    embed_library(library, later, store)
    assert later.texts == []


@pytest.mark.parametrize("kind", ["a folder", "not SQLite"])
def test_a_store_that_cannot_be_written_keeps_vectors_in_memory(
    library: Library, tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    unusable = tmp_path / "unusable.sqlite3"
    if kind == "a folder":
        unusable.mkdir()
    else:
        unusable.write_bytes(b"this is no database, just some bytes " * 200)
    source = FakeEmbedder()
    with caplog.at_level(logging.WARNING):
        vectors = embed_library(library, source, unusable)
    warnings = warnings_of(caplog)
    assert len(warnings) == 1 and str(unusable) in warnings[0]
    assert_vectors_of(library, vectors, source.dimensions)
    # The library still ranks by meaning, from the vectors kept in memory.
    retriever = HybridRetriever(
        library, vectors, lambda question: word_vector(question, source.dimensions)
    )
    fused = retriever.fused("salt pasta water grams litre")
    assert library.passage(fused.order[0]).id == "pasta-water"
    assert fused.signals.cosine > 0


def test_without_a_store_everything_is_computed_in_memory_quietly(
    library: Library, caplog: pytest.LogCaptureFixture
) -> None:
    source = FakeEmbedder()
    with caplog.at_level(logging.WARNING):
        vectors = embed_library(library, source, None)
    assert warnings_of(caplog) == []
    assert_vectors_of(library, vectors, source.dimensions)


def many_passages(folder: Path, count: int) -> Path:
    for number in range(count):
        write(folder, f"note-{number:03}.md", f"# Note {number}\n\nThe {number} note's text.\n")
    return folder


def test_progress_counts_passages_up_to_the_total(tmp_path: Path) -> None:
    # More pieces than one batch, so progress moves more than once.
    count = 64 * 2 + 5
    folder = many_passages(tmp_path / "notes", count)
    data_dir = tmp_path / "data"
    library = open_(folder, data_dir)
    assert len(library) == count
    seen: list[tuple[int, int]] = []
    store = store_file(folder, data_dir)
    embed_library(library, FakeEmbedder(), store, lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, count) and seen[-1] == (count, count)
    assert len(seen) > 2
    assert all(total == count for _, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    # A changed document: only its passage is counted.
    write(folder, "note-007.md", "# Note 7\n\nRewritten.\n")
    seen.clear()
    embed_library(
        open_(folder, data_dir),
        FakeEmbedder(),
        store,
        lambda done, total: seen.append((done, total)),
    )
    assert seen[-1] == (1, 1)


def test_an_interrupted_run_keeps_every_batch_that_arrived(tmp_path: Path) -> None:
    folder = many_passages(tmp_path / "notes", 3 * 16 + 10)
    data_dir = tmp_path / "data"
    store = store_file(folder, data_dir)

    class Interrupted(Exception):
        pass

    class StopsAfterThreeBatches(FakeEmbedder):
        def vectors(self, texts: Sequence[str]) -> NDArray[np.float32]:
            if self.calls == 3:
                raise Interrupted
            return super().vectors(texts)

    with pytest.raises(Interrupted):
        embed_library(open_(folder, data_dir), StopsAfterThreeBatches(batch_size=16), store)
    assert stored_rows(store) == 3 * 16
    rest = FakeEmbedder()
    embed_library(open_(folder, data_dir), rest, store)
    assert len(rest.texts) == 10


def test_a_vector_table_of_another_shape_is_rebuilt_with_one_warning(
    library: Library, store: Path, caplog: pytest.LogCaptureFixture
) -> None:
    source = FakeEmbedder()
    with contextlib.closing(sqlite3.connect(store)) as connection:
        connection.executescript(
            "CREATE TABLE vectors (content TEXT PRIMARY KEY, embedding BLOB);"
            "CREATE TABLE vector_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            f"INSERT INTO vector_meta VALUES ('model', '{source.model_id}');"
        )
    with caplog.at_level(logging.WARNING):
        vectors = embed_library(library, source, store)
    assert len(warnings_of(caplog)) == 1
    assert_vectors_of(library, vectors, source.dimensions)
    later = FakeEmbedder()
    embed_library(library, later, store)
    assert later.texts == []


def test_a_store_that_fails_every_write_warns_once_and_keeps_vectors_in_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = many_passages(tmp_path / "notes", 64 * 3)
    data_dir = tmp_path / "data"
    library = open_(folder, data_dir)
    store = store_file(folder, data_dir)
    source = FakeEmbedder()
    embed_library(library, source, None)  # no store: nothing is created in the file
    with contextlib.closing(sqlite3.connect(store)) as connection:
        connection.executescript(
            "CREATE TABLE vector_models (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " dimensions INTEGER NOT NULL, document_prefix TEXT NOT NULL,"
            " UNIQUE (name, dimensions, document_prefix));"
            "CREATE TABLE piece_vectors (model INTEGER NOT NULL, content BLOB NOT NULL,"
            " vector BLOB NOT NULL, PRIMARY KEY (model, content)) WITHOUT ROWID;"
            "CREATE TRIGGER full BEFORE INSERT ON piece_vectors"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;"
        )
    with caplog.at_level(logging.WARNING):
        vectors = embed_library(library, FakeEmbedder(), store)
    assert len(warnings_of(caplog)) == 1
    assert_vectors_of(library, vectors, source.dimensions)


def test_the_stored_vectors_are_counted_without_embedding_anything(
    folder: Path, data_dir: Path, library: Library, store: Path
) -> None:
    source = FakeEmbedder()
    embed_library(library, source, store)
    assert stored_vectors(store, library) == [StoredModel(source.model_id, 64, "", len(library))]

    # One passage edited, one document added: two passages without stored vectors.
    write(folder, "pasta-water.md", "# Pasta water\n\nSalt it with a spoon per pot.\n")
    write(folder, "new-one.md", "# A new lesson\n\nSomething nobody embedded yet.\n")
    changed = open_(folder, data_dir)

    assert stored_vectors(store, changed) == [
        StoredModel(source.model_id, 64, "", len(changed) - 2)
    ]
    assert len(source.texts) == len(passage_pieces(library)[0])  # counting embeds nothing


def test_a_store_without_vector_tables_is_counted_as_none_and_left_as_it_is(
    library: Library, store: Path
) -> None:
    assert stored_vectors(store, library) == []
    with contextlib.closing(sqlite3.connect(store)) as connection:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}
    assert "vectors" not in tables and "vector_meta" not in tables


@pytest.mark.parametrize("version", ["NORMALISER_VERSION", "PARSER_VERSION", "user_version"])
def test_raising_the_word_index_version_rebuilds_the_words_and_embeds_nothing_again(
    folder: Path,
    data_dir: Path,
    store: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    version: str,
) -> None:
    from tui_assistant.store import index_store

    first = embed_library(open_(folder, data_dir), FakeEmbedder(), store)
    rows = stored_rows(store)
    if version == "user_version":  # a store of an older schema
        with contextlib.closing(sqlite3.connect(store)) as connection:
            connection.execute(f"PRAGMA user_version = {index_store.SCHEMA_VERSION - 1}")
    else:  # the words or the passages made another way from now on
        monkeypatch.setattr(index_store, version, getattr(index_store, version) + 1)
    with caplog.at_level(logging.WARNING, logger=index_store.__name__):
        reread = open_(folder, data_dir)
    assert any("word index (vectors kept)" in record.getMessage() for record in caplog.records)
    again = FakeEmbedder()
    second = embed_library(reread, again, store)
    assert again.texts == []
    assert stored_rows(store) == rows
    np.testing.assert_array_equal(second.matrix, first.matrix)
    # The next start trusts the rebuilt word index: no warning, nothing rebuilt.
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=index_store.__name__):
        open_(folder, data_dir)
    assert caplog.records == []
