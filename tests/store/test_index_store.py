"""The index store: what is read again when, where it lives, and what readers of one
store see. Damaged stores: `test_store_damage.py`."""

from __future__ import annotations

import gc
import logging
import os
import sqlite3
from pathlib import Path

import pytest

from tests.helpers.store_files import (
    EXPECTED,
    PASTA,
    closed,
    contents,
    open_,
    problems,
    store_file,
    write,
)
from tui_assistant.core.library.changes import PassageChanges, passage_changes
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.words import stem
from tui_assistant.errors import LibraryError
from tui_assistant.store.index_store import open_library

# -- reading as little as possible -------------------------------------------------


def test_first_open_indexes_every_document(folder: Path, data_dir: Path, reads: list[str]) -> None:
    library = open_(folder, data_dir)
    assert sorted(reads) == ["boiled-eggs.md", "kitchen/knife-care.md", "pasta-water.md"]
    assert contents(library) == EXPECTED
    info = library.passages[library.number_of("kitchen/knife-care#storage")]
    assert (info.source_path, info.line, info.end_line) == (
        "lessons/kitchen/knife-care.md",
        5,
        7,
    )
    assert library.problems == ()


def test_an_unchanged_second_open_reads_no_file(
    folder: Path, data_dir: Path, reads: list[str]
) -> None:
    first = contents(open_(folder, data_dir))
    reads.clear()
    second = open_(folder, data_dir)
    assert reads == []
    assert contents(second) == first


def test_a_changed_file_alone_is_read_again_and_its_text_changes(
    folder: Path, data_dir: Path, reads: list[str]
) -> None:
    open_(folder, data_dir)
    reads.clear()
    write(folder, "pasta-water.md", "# Pasta water\n\nUse plenty of water and stir often.\n")
    library = open_(folder, data_dir)
    assert reads == ["pasta-water.md"]
    assert library.get("pasta-water").text == "Use plenty of water and stir often."
    assert library.get("boiled-eggs").text == EXPECTED["boiled-eggs"][1]


def test_a_library_names_the_documents_it_read_again_or_dropped(
    folder: Path, data_dir: Path
) -> None:
    first = open_(folder, data_dir)
    assert first.reread == ("boiled-eggs.md", "kitchen/knife-care.md", "pasta-water.md")
    write(folder, "pasta-water.md", "# Pasta water\n\nStir often.\n")
    write(folder, "new.md", "# New\n\ntext\n")
    (folder / "boiled-eggs.md").unlink()

    second = open_(folder, data_dir)

    assert second.reread == ("boiled-eggs.md", "new.md", "pasta-water.md")
    assert open_(folder, data_dir).reread == ()
    assert passage_changes(first, second) == PassageChanges(added=2, removed=2)


def test_after_edits_the_index_answers_as_a_fresh_build_does(
    folder: Path, data_dir: Path, tmp_path: Path
) -> None:
    open_(folder, data_dir)
    # Edited and added documents get new store rows, out of library order.
    write(folder, "boiled-eggs.md", "# Boiled eggs\n\nBoil eggs in salted water, then cool them.\n")
    write(folder, "a-first.md", "# Salted water\n\nSalted water boils a little hotter.\n")
    edited = open_(folder, data_dir)
    fresh = open_(folder, tmp_path / "fresh-data")
    assert [info.id for info in edited] == [info.id for info in fresh]
    for key in ("salt", "water", "boil", "egg", "pasta"):
        for field in ("title", "body"):
            ours = getattr(edited.index, field)(key)
            theirs = getattr(fresh.index, field)(key)
            assert list(ours.numbers) == sorted(ours.numbers)
            assert sorted(
                (edited.info(n).id, c) for n, c in zip(ours.numbers, ours.counts, strict=True)
            ) == sorted(
                (fresh.info(n).id, c) for n, c in zip(theirs.numbers, theirs.counts, strict=True)
            )
    for question in ("how much salt in pasta water", "boiled eggs in salted water"):
        got = KeywordRetriever(edited).retrieve(question)
        expected = KeywordRetriever(fresh).retrieve(question)
        assert (got and got.passage) == (expected and expected.passage)


def test_a_change_that_keeps_the_size_is_still_seen(
    folder: Path, data_dir: Path, reads: list[str]
) -> None:
    open_(folder, data_dir)
    reads.clear()
    write(folder, "pasta-water.md", PASTA.replace("ten", "two"))  # same length
    library = open_(folder, data_dir)
    assert reads == ["pasta-water.md"]
    assert "two grams" in library.get("pasta-water").text


def test_an_added_file_appears(folder: Path, data_dir: Path, reads: list[str]) -> None:
    open_(folder, data_dir)
    reads.clear()
    write(folder, "sauces/roux.md", "# Roux\n\nCook flour in butter.\n")
    library = open_(folder, data_dir)
    assert reads == ["sauces/roux.md"]
    assert library.get("sauces/roux").text == "Cook flour in butter."
    assert len(library) == 5


def test_a_removed_file_passages_vanish(folder: Path, data_dir: Path, reads: list[str]) -> None:
    open_(folder, data_dir)
    (folder / "kitchen" / "knife-care.md").unlink()
    reads.clear()
    library = open_(folder, data_dir)
    assert reads == []
    assert library.get("kitchen/knife-care") is None
    assert library.get("kitchen/knife-care#storage") is None
    assert sorted(contents(library)) == ["boiled-eggs", "pasta-water"]
    assert [d.path for d in library.documents] == ["boiled-eggs.md", "pasta-water.md"]


def test_a_file_that_becomes_invalid_becomes_a_problem(folder: Path, data_dir: Path) -> None:
    open_(folder, data_dir)
    path = folder / "boiled-eggs.md"
    path.write_bytes(b"# Boiled eggs\n\n\xff\xfe not text\n")
    os.utime(path, ns=(10**18, 10**18))
    library = open_(folder, data_dir)
    assert library.get("boiled-eggs") is None
    assert problems(library) == {"boiled-eggs.md": "not UTF-8"}


def test_problems_persist_in_the_store(folder: Path, data_dir: Path, reads: list[str]) -> None:
    (folder / "binary.md").write_bytes(b"\x00\x01\x02")
    write(folder, "empty.md", "")
    assert problems(open_(folder, data_dir)) == {
        "binary.md": "binary file (contains NUL bytes)",
        "empty.md": "empty",
    }
    gc.collect()
    reads.clear()
    warm = open_(folder, data_dir)
    assert reads == []
    assert problems(warm) == {
        "binary.md": "binary file (contains NUL bytes)",
        "empty.md": "empty",
    }


def test_a_file_that_could_not_be_read_is_tried_again_at_the_next_start(
    folder: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Permissions cannot be taken away from root, so the read itself is made to fail.
    from tui_assistant.store import folder as library

    real = library._read_capped

    def refused(path: str, *limit: int) -> bytes | None:
        if path.endswith("pasta-water.md"):
            raise PermissionError(13, "Permission denied")
        return real(path, *limit)

    monkeypatch.setattr(library, "_read_capped", refused)
    assert problems(open_(folder, data_dir)) == {
        "pasta-water.md": "cannot be read (Permission denied)"
    }
    monkeypatch.setattr(library, "_read_capped", real)
    gc.collect()
    warm = open_(folder, data_dir)
    assert problems(warm) == {}
    assert warm.get("pasta-water") is not None


def test_listing_problems_and_id_notices_are_reported_on_every_open(
    folder: Path, data_dir: Path
) -> None:
    (folder / "link.md").symlink_to(folder / "pasta-water.md")
    write(folder, "Pasta Water.md", "# Other pasta\n\nA different lesson entirely.\n")
    for _ in range(2):
        library = open_(folder, data_dir)
        assert problems(library) == {
            "link.md": "is a symlink (not followed)",
            "pasta-water.md": "id pasta-water is taken, so its id is pasta-water-2",
        }
        assert library.get("pasta-water").text == "A different lesson entirely."
        assert library.get("pasta-water-2").text == EXPECTED["pasta-water"][1]


def test_progress_counts_the_files_read(folder: Path, data_dir: Path) -> None:
    calls: list[tuple[int, int]] = []
    open_library(folder, data_dir, stem, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    calls.clear()
    open_library(folder, data_dir, stem, progress=lambda done, total: calls.append((done, total)))
    assert calls == []


def test_a_library_with_no_text_is_an_error_listing_the_skipped_files(
    tmp_path: Path, data_dir: Path
) -> None:
    folder = tmp_path / "lessons"
    write(folder, "empty.md", "")
    write(folder, "headings.md", "# Only a heading\n")
    with pytest.raises(LibraryError, match=r"2 skipped") as raised:
        open_(folder, data_dir)
    assert {p.path for p in raised.value.problems} == {"empty.md", "headings.md"}


# -- where the store lives ----------------------------------------------------------


def test_the_store_is_a_plain_sqlite_database(folder: Path, data_dir: Path) -> None:
    closed(open_(folder, data_dir))
    path = store_file(folder, data_dir)
    assert path.parent == data_dir / "libraries"
    with sqlite3.connect(path) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        assert {"files", "passages"} <= tables
        rows = connection.execute("SELECT path FROM files ORDER BY path").fetchall()
        assert rows == [("boiled-eggs.md",), ("kitchen/knife-care.md",), ("pasta-water.md",)]
        texts = {row[0] for row in connection.execute("SELECT text FROM passages")}
        assert texts == {text for _, text in EXPECTED.values()}
    connection.close()


def test_two_folders_with_the_same_name_get_different_stores(
    tmp_path: Path, data_dir: Path
) -> None:
    write(tmp_path / "a" / "lessons", "one.md", "# One\n\nFirst library text.\n")
    write(tmp_path / "b" / "lessons", "two.md", "# Two\n\nSecond library text.\n")
    first = open_(tmp_path / "a" / "lessons", data_dir)
    second = open_(tmp_path / "b" / "lessons", data_dir)
    assert [info.id for info in first] == ["one"]
    assert [info.id for info in second] == ["two"]


def test_no_data_folder_indexes_in_memory(folder: Path, tmp_path: Path) -> None:
    before = set(tmp_path.rglob("*"))
    library = open_(folder, None)
    assert contents(library) == EXPECTED
    assert set(tmp_path.rglob("*")) == before


def test_an_unwritable_data_folder_falls_back_to_memory_with_a_warning(
    folder: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        library = open_(folder, blocker)
    assert contents(library) == EXPECTED
    (record,) = caplog.records
    assert "indexing in memory" in record.getMessage()
    assert "\n" not in record.getMessage()


# -- several readers and writers --------------------------------------------------


def test_a_loaded_library_keeps_showing_the_text_it_indexed(folder: Path, data_dir: Path) -> None:
    """Process A loads; process B finds a changed file and updates the store; A keeps
    answering with the texts it indexed, B with the new ones."""
    a = open_(folder, data_dir)
    number = a.number_of("pasta-water")
    assert number is not None
    write(folder, "pasta-water.md", "# Pasta water\n\nNew advice: salt after boiling starts.\n")
    write(folder, "boiled-eggs.md", "# Boiled eggs\n\nEggs: seven minutes now.\n")
    b = open_(folder, data_dir)
    assert b.get("pasta-water").text == "New advice: salt after boiling starts."
    assert a.passage(number).text == EXPECTED["pasta-water"][1]
    assert a.get("boiled-eggs").text == EXPECTED["boiled-eggs"][1]
    assert contents(a) == EXPECTED


def test_a_library_can_be_read_from_another_thread(folder: Path, data_dir: Path) -> None:
    import threading

    library = open_(folder, data_dir)
    seen: list[str] = []
    worker = threading.Thread(target=lambda: seen.append(library.get("boiled-eggs").text))
    worker.start()
    worker.join()
    assert seen == [EXPECTED["boiled-eggs"][1]]


def test_the_document_kinds_asked_for_decide_what_the_store_holds(
    folder: Path, data_dir: Path, reads: list[str]
) -> None:
    write(folder, "boiler.txt", "Boiler notes\n\nThe pressure should sit near 1.5 bar.\n")
    write(folder, "guide.rst", "Guide\n=====\n\nIntro.\n\nSetup\n-----\n\nRun it.\n")
    markdown_only = open_library(folder, data_dir, stem, kinds=("md",))
    assert markdown_only.get("boiler") is None and markdown_only.get("guide") is None
    everything = open_library(folder, data_dir, stem)
    assert everything.get("boiler").text == "The pressure should sit near 1.5 bar."
    setup = everything.get("guide#setup")
    assert (setup.title, setup.line, setup.end_line) == ("Guide › Setup", 6, 9)
    reads.clear()
    again = open_library(folder, data_dir, stem, kinds=("md",))
    assert reads == [] and again.get("boiler") is None
    assert len(again) == len(markdown_only)
