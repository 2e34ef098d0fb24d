"""PDF documents in a library: read beside Markdown with their pages, kept in the
index store, and a bad PDF skipped with one line while everything else is read."""

from __future__ import annotations

import logging
import os
import sqlite3
import tracemalloc
from pathlib import Path

import pytest

from tests.core.documents.test_pdf import boiler_manual
from tests.helpers import memory_library, write_lesson
from tests.helpers.pdf_files import pdf_bytes
from tests.helpers.store_files import closed, open_, store_file
from tui_assistant.core.library.library import Library
from tui_assistant.store import folder as store_folder
from tui_assistant.store import updates
from tui_assistant.store.folder import read_document, read_document_text

PASTA = "Salt the water generously before the pasta goes in."


def problems(library: Library) -> dict[str, str]:
    return {problem.path: problem.reason for problem in library.problems}


@pytest.fixture
def manuals(tmp_path: Path) -> Path:
    folder = tmp_path / "manuals"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", PASTA)
    (folder / "boiler.pdf").write_bytes(pdf_bytes(boiler_manual()))
    return folder


def test_a_pdf_is_a_document_beside_markdown_with_its_pages(manuals: Path) -> None:
    library = memory_library(manuals)

    assert [(p.id, p.page, p.end_page) for p in library] == [
        ("boiler", 1, 1),
        ("boiler#pressure", 2, 3),
        ("pasta-water", None, None),
    ]
    pressure = library.get("boiler#pressure")
    assert pressure is not None
    assert pressure.location == "manuals/boiler.pdf p. 2\N{EN DASH}3"
    assert "filling loop" in pressure.text
    assert pressure.page_at(pressure.end_line) == 3


def test_md_and_bad_pdfs_read_the_md_and_name_each_pdf_once(manuals: Path) -> None:
    good = pdf_bytes(boiler_manual())
    (manuals / "boiler.pdf").unlink()
    (manuals / "locked.pdf").write_bytes(pdf_bytes(boiler_manual(user_password="secret")))
    (manuals / "scan.pdf").write_bytes(pdf_bytes(boiler_manual(scanned_pages={0, 1, 2})))
    (manuals / "truncated.pdf").write_bytes(good[: len(good) // 2])
    (manuals / "empty.pdf").write_bytes(b"")

    library = memory_library(manuals)

    assert [p.id for p in library] == ["pasta-water"]
    assert problems(library) == {
        "empty.pdf": "is not a readable PDF (broken or truncated)",
        "locked.pdf": "is encrypted (needs a password)",
        "scan.pdf": "has no text layer (a scanned PDF? no OCR is done)",
        "truncated.pdf": "is not a readable PDF (broken or truncated)",
    }
    assert all("\n" not in str(problem) for problem in library.problems)


def test_a_pdf_over_the_1_mib_text_limit_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "big"
    folder.mkdir()
    # An attachment of noise makes the file large; it is never read.
    spec = boiler_manual(embedded=("noise.bin", os.urandom(1536 * 1024)))
    (folder / "boiler.pdf").write_bytes(pdf_bytes(spec))
    assert (folder / "boiler.pdf").stat().st_size > 1024 * 1024

    library = memory_library(folder)

    assert [p.id for p in library] == ["boiler", "boiler#pressure"]


def test_a_pdf_over_its_limit_is_skipped_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(store_folder.MAX_BYTES, "pdf", 2 * 1024 * 1024)
    with (tmp_path / "huge.pdf").open("wb") as huge:
        huge.truncate(3 * 1024 * 1024)  # sparse: no disk used

    assert read_document(tmp_path, "huge.pdf") == "larger than 2 MiB"
    assert store_folder.MAX_BYTES["pdf"] == 2 * 1024 * 1024


def test_the_pdf_limit_is_200_mib_and_text_stays_at_1_mib() -> None:
    assert store_folder.max_bytes("manual.pdf") == 200 * 1024 * 1024
    assert store_folder.max_bytes("notes.md") == 1024 * 1024


def test_the_text_a_pdf_passage_cites_is_its_extracted_text(manuals: Path) -> None:
    library = memory_library(manuals)
    text = read_document_text(manuals, "boiler.pdf")
    assert text is not None
    lines = text.splitlines()

    for info in library:
        if info.page is None:
            continue
        passage = library.get(info.id)
        assert passage is not None
        assert passage.text in "\n".join(lines[passage.line - 1 : passage.end_line])


def test_pages_are_kept_in_the_store_and_read_back_without_reading_the_pdf(
    manuals: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    library = open_(manuals, data_dir)
    first = [(p.id, p.page, p.end_page, p.page_starts) for p in library]
    closed(library)

    def unexpected(*_: object) -> object:
        raise AssertionError("the PDF was read again")

    monkeypatch.setattr(updates, "read_document", unexpected)
    again = [(p.id, p.page, p.end_page, p.page_starts) for p in open_(manuals, data_dir)]

    assert again == first
    pressure = again[1]
    assert pressure[:3] == ("boiler#pressure", 2, 3)
    assert len(pressure[3]) == 1  # where page 3 begins


def test_a_store_from_before_pages_is_rebuilt(
    manuals: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data_dir = tmp_path / "data"
    closed(open_(manuals, data_dir))
    path = store_file(manuals, data_dir)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA user_version = 2")  # the schema without pages
    connection.close()

    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        library = open_(manuals, data_dir)

    assert "is from another version (schema 2); rebuilding it" in caplog.text
    assert [p.page for p in library] == [1, 2, None]


def test_a_large_pdf_is_held_in_memory_once_while_it_is_read(tmp_path: Path) -> None:
    spec = boiler_manual(embedded=("noise.bin", os.urandom(24 * 1024 * 1024)))
    (tmp_path / "big.pdf").write_bytes(pdf_bytes(spec))
    size = (tmp_path / "big.pdf").stat().st_size

    tracemalloc.start()
    try:
        document = read_document(tmp_path, "big.pdf")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert not isinstance(document, str)
    assert peak < 1.3 * size
