"""PDF files read through PDFium: the text layer, outline and font sizes of files
written in the test, and hostile ones, each read or skipped with one reason and
nothing in them run or opened."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.pdf_files import Bookmark, Line, PdfSpec, lines, pdf_bytes
from tui_assistant.core.documents.passage import Document, file_lines
from tui_assistant.core.documents.pdf import NO_TEXT_LAYER, pdf_text, split_pdf


def boiler_manual(**changes: object) -> PdfSpec:
    spec = PdfSpec(
        pages=[
            [
                Line("Boiler Manual", 24),
                Line("Bleeding the radiators", 16, gap=12),
                *lines(
                    "Turn the valve a quarter turn until water-",
                    "logged air hisses out of the radiator.",
                ),
                Line("Close it again when water comes.", gap=10),
            ],
            [Line("Pressure", 16), *lines("Keep the pressure between one and two bar.")],
            lines("Top it up with the filling loop under the boiler."),
        ],
        header="Boiler Manual",
        footer="Page {page} of 3",
        title="Boiler Manual",
    )
    for name, value in changes.items():
        setattr(spec, name, value)
    return spec


def read(spec: PdfSpec) -> Document:
    document = split_pdf("boiler.pdf", pdf_bytes(spec))
    assert isinstance(document, Document), document
    return document


def test_a_pdf_without_outline_splits_at_its_larger_headings_with_pages() -> None:
    document = read(boiler_manual())

    assert document.title == "Boiler Manual"
    # PDFium itself joins a word hyphenated at a line's end (`pdf_layout` joins the
    # rest): either way the word reads whole.
    assert [(d.title, d.text, d.page, d.end_page) for d in document.passages] == [
        (
            "Boiler Manual › Bleeding the radiators",
            "Turn the valve a quarter turn until waterlogged air hisses out of the radiator.\n\n"
            "Close it again when water comes.",
            1,
            1,
        ),
        (
            "Boiler Manual › Pressure",
            "Keep the pressure between one and two bar.\n"
            "Top it up with the filling loop under the boiler.",
            2,
            3,
        ),
    ]


def test_a_pdf_with_an_outline_splits_where_its_bookmarks_point() -> None:
    outline = [
        Bookmark("Bleeding the radiators", 0),
        Bookmark("Pressure", 1),
        Bookmark("Filling", 2, level=2),
    ]
    document = read(boiler_manual(outline=outline))

    assert [(d.anchor, d.title, d.page) for d in document.passages] == [
        ("", "Boiler Manual › Bleeding the radiators", 1),
        ("pressure", "Boiler Manual › Pressure", 2),
        ("filling", "Boiler Manual › Pressure › Filling", 3),
    ]
    # The last bookmark's heading is not on its page: its section starts at the page.
    assert document.passages[2].text == "Top it up with the filling loop under the boiler."


def test_the_extracted_text_is_what_passage_lines_cite() -> None:
    data = pdf_bytes(boiler_manual())
    document = split_pdf("boiler.pdf", data)
    text = pdf_text(data)
    assert isinstance(document, Document) and text is not None

    numbered = file_lines(text)
    assert "Boiler Manual" in numbered[0]  # the cover title; the running header is gone
    assert not any("Page 1 of 3" in line for line in numbered)
    for draft in document.passages:
        cited = "\n".join(numbered[draft.line - 1 : draft.end_line])
        assert draft.text in cited


def test_a_pdf_encrypted_with_a_password_is_skipped_with_that_reason() -> None:
    assert split_pdf("locked.pdf", pdf_bytes(boiler_manual(user_password="secret"))) == (
        "is encrypted (needs a password)"
    )


def test_a_pdf_encrypted_without_a_user_password_is_read_as_any_viewer_opens_it() -> None:
    # Only the owner's permissions are restricted: every viewer opens it without asking.
    document = read(boiler_manual(user_password=""))

    assert document.passages[0].title == "Boiler Manual › Bleeding the radiators"


def test_a_scanned_pdf_has_no_text_layer() -> None:
    spec = boiler_manual(scanned_pages={0, 1, 2})

    assert split_pdf("scan.pdf", pdf_bytes(spec)) == NO_TEXT_LAYER
    assert "no OCR" in NO_TEXT_LAYER


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 3],
        lambda data: data[:200],
        lambda data: b"%PDF-1.7\n" + os.urandom(2000),
        lambda data: b"",
        lambda data: b"<html>not a pdf</html>",
    ],
    ids=["truncated", "header-only", "garbage", "empty", "html"],
)
def test_a_broken_or_truncated_pdf_is_skipped_with_one_reason(damage) -> None:  # type: ignore[no-untyped-def]
    result = split_pdf("broken.pdf", damage(pdf_bytes(boiler_manual())))

    assert result == "is not a readable PDF (broken or truncated)"


def test_javascript_and_an_embedded_file_are_never_run_or_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    spec = boiler_manual(
        javascript="app.launchURL('http://127.0.0.1:9/'); this.exportDataObject({cName: 'notes.md'});",
        embedded=("notes.md", b"# Embedded\n\nzebrafish secrets live here\n"),
    )

    document = read(spec)

    words = " ".join(d.text + d.title for d in document.passages)
    assert "zebrafish" not in words
    assert "launchURL" not in words
    assert document.passages[0].title == "Boiler Manual › Bleeding the radiators"
    assert list(tmp_path.iterdir()) == []  # nothing written out


def test_a_long_pdf_passage_is_cut_and_every_piece_keeps_its_pages() -> None:
    body = [f"Line {n} of the long chapter about valves and pumps and gauges." for n in range(60)]
    spec = PdfSpec(
        pages=[[Line("Valves", 16), *lines(*body[:45])], lines(*body[45:]), lines(*body[:50])],
        outline=[Bookmark("Valves", 0)],
    )

    passages = read(spec).passages

    assert len(passages) > 1
    assert all(len(d.text) <= 4000 for d in passages)
    assert passages[0].page == 1 and passages[-1].end_page == 3
    assert all(
        d.page is not None and d.end_page is not None and d.page <= d.end_page for d in passages
    )
