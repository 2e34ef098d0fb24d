"""The tables kept in the store beside the index (documents' ids, the path field's
postings) give exactly what building them at the open gives, and are never used once
the passages they were built from changed."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any, NoReturn

import pytest

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.bm25f import PATH_POSTINGS
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.words import stem
from tui_assistant.store import snapshot
from tui_assistant.store.index_store import open_library, store_path

EVAL = Path(__file__).resolve().parents[2] / "eval"


def kept_rows(data_dir: Path, folder: Path) -> dict[str, str]:
    with sqlite3.connect(store_path(data_dir, folder)) as connection:
        return dict(connection.execute("SELECT name, fingerprint FROM kept_tables"))


def nothing_kept(connection: sqlite3.Connection, built_from: str) -> dict[str, Any]:
    """`read_kept` as before tables were kept: every open builds them."""
    return {}


def never_built(*arguments: object) -> NoReturn:
    raise AssertionError("built at open although kept")


def facts(library: Library) -> tuple[object, ...]:
    """What a user sees of a library's passages: ids, titles, places, and its notes."""
    return (
        [(p.id, p.title, p.source_path, p.line) for p in library.passages],
        [str(problem) for problem in library.problems],
    )


def test_kept_tables_rank_the_development_set_as_tables_built_at_open(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = EVAL / "attrs-docs"
    questions = [
        json.loads(line)["question"]
        for line in (EVAL / "attrs-docs.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    with monkeypatch.context() as patch:
        patch.setattr(snapshot, "read_kept", nothing_kept)
        built = open_library(folder, data_dir, stem)  # builds them, and keeps them
    assert set(kept_rows(data_dir, folder)) == {"document_ids", "word_keys:stem", PATH_POSTINGS}
    with monkeypatch.context() as patch:
        patch.setattr(snapshot, "document_ids", never_built)
        patch.setattr(snapshot, "path_postings", never_built)
        kept = open_library(folder, data_dir, stem)
    try:
        assert facts(kept) == facts(built)
        assert kept.tables[PATH_POSTINGS] == built.tables[PATH_POSTINGS]
        assert sorted(kept.index.keys()) == sorted(built.index.keys())
        fast, full = RankedRetriever(kept), RankedRetriever(built)
        for question in [*questions, "how do I valdiate an atribute", "kubernetes ingress"]:
            got, expected = fast.search(question, 3, 10), full.search(question, 3, 10)
            assert got.scored == expected.scored, question
            assert got.found == expected.found, question
    finally:
        kept.close()
        built.close()


def test_a_changed_library_builds_its_tables_again(
    folder: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_library(folder, data_dir, stem).close()
    before = kept_rows(data_dir, folder)
    # A document whose id another one's takes: the ids, and their notice, change.
    (folder / "pasta_water.md").write_text("# Pasta water again\n\nSalt the water twice.\n")
    (folder / "sub").mkdir()
    (folder / "sub" / "stock.md").write_text("# Stock\n\nSimmer the bones for hours.\n")
    changed = open_library(folder, data_dir, stem)
    after = kept_rows(data_dir, folder)
    with monkeypatch.context() as patch:
        patch.setattr(snapshot, "read_kept", nothing_kept)
        built = open_library(folder, data_dir, stem)
    try:
        assert after != before
        assert facts(changed) == facts(built)
        assert any("is taken" in str(problem) for problem in changed.problems)
        assert changed.tables[PATH_POSTINGS] == built.tables[PATH_POSTINGS]
        answer = RankedRetriever(changed).search("simmer the bones", 1, 3)
        assert answer.scored == RankedRetriever(built).search("simmer the bones", 1, 3).scored
        assert changed.get("sub/stock") is not None
    finally:
        changed.close()
        built.close()


@pytest.mark.parametrize(
    "value",
    [
        '{"ids": 3',  # not JSON
        "[]",
        '{"ids": {}, "notices": [], "postings": {"a": [true]}, "lengths": [1]}',
        '{"postings": {"a": [99999]}, "lengths": [0, 0, 0, 0, 0, 0]}',
        '{"kitchen": 3}',
    ],
)
def test_a_kept_table_that_cannot_be_read_is_built_again(
    folder: Path, data_dir: Path, value: str
) -> None:
    first = open_library(folder, data_dir, stem)
    expected = facts(first), first.tables[PATH_POSTINGS]
    first.close()
    with sqlite3.connect(store_path(data_dir, folder)) as connection:
        connection.execute("UPDATE kept_tables SET value = ?", (value,))
    again = open_library(folder, data_dir, stem)
    try:
        assert (facts(again), again.tables[PATH_POSTINGS]) == expected
    finally:
        again.close()


def test_a_store_made_before_kept_tables_gains_them_without_a_rebuild(
    folder: Path, data_dir: Path, reads: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    open_library(folder, data_dir, stem).close()
    with sqlite3.connect(store_path(data_dir, folder)) as connection:
        connection.execute("DROP TABLE kept_tables")
    reads.clear()
    library = open_library(folder, data_dir, stem)
    library.close()
    assert reads == []  # nothing read again
    assert caplog.records == []
    assert set(kept_rows(data_dir, folder)) == {"document_ids", "word_keys:stem", PATH_POSTINGS}


def test_a_library_copied_to_another_folder_keeps_its_own_tables(
    folder: Path, data_dir: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    os.remove(copy / "pasta-water.md")
    for place in (folder, copy):
        open_library(place, data_dir, stem).close()
    library = open_library(copy, data_dir, stem)
    try:
        assert library.get("pasta-water") is None
        numbers = {n for found in library.tables[PATH_POSTINGS][0].values() for n in found}
        assert numbers == set(range(len(library)))
    finally:
        library.close()
