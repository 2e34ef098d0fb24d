"""The MCP tools over a library with a PDF manual: search and read give each
passage's pages, `read` by lines returns the PDF's extracted text, and `check` says on
which page a quote stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.documents.test_pdf import boiler_manual
from tests.helpers.pdf_files import pdf_bytes
from tui_assistant.mcp.tools.check import check
from tui_assistant.mcp.tools.read import read
from tui_assistant.settings import Settings
from tui_assistant.store.folder import read_document_text
from tui_assistant.wiring.context import open_context
from tui_assistant.wiring.library_tools import LibraryTools


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    library = tmp_path / "manuals"
    library.mkdir()
    (library / "boiler.pdf").write_bytes(pdf_bytes(boiler_manual()))
    (library / "notes.md").write_text("# Notes\n\nThe boiler was serviced in May.\n")
    return library


@pytest.fixture
def tools(folder: Path, tmp_path: Path) -> LibraryTools:
    settings = Settings(library=folder, data_dir=tmp_path / "data", retrieval="ranked")  # type: ignore[arg-type]
    return LibraryTools(open_context(settings, embed_now=False))


def test_search_gives_each_passage_its_pages(tools: LibraryTools) -> None:
    result = tools.search("keep the pressure between one and two bar", 3)

    best = result.passages[0]
    assert (best.id, best.source_path, best.page, best.end_page) == (
        "boiler#pressure",
        "manuals/boiler.pdf",
        2,
        3,
    )
    data = result.model_dump()
    assert all({"page", "end_page"} <= passage.keys() for passage in data["passages"])
    notes = [p for p in data["passages"] if p["id"] == "notes"]
    assert all(p["page"] is None and p["end_page"] is None for p in notes)


def test_read_by_id_and_by_lines_gives_pages_and_the_extracted_text(
    tools: LibraryTools, folder: Path
) -> None:
    passage = read(tools, id="boiler#pressure")
    assert (passage.page, passage.end_page) == (2, 3)
    lines = (read_document_text(folder, "boiler.pdf") or "").splitlines()

    last = read(
        tools, source_path="manuals/boiler.pdf", line=passage.end_line, end_line=passage.end_line
    )

    assert (
        last.text
        == lines[passage.end_line - 1]
        == "Top it up with the filling loop under the boiler."
    )
    assert (last.id, last.page, last.end_page) == ("boiler#pressure", 3, 3)
    whole = read(
        tools, source_path="manuals/boiler.pdf", line=passage.line, end_line=passage.end_line
    )
    assert (whole.page, whole.end_page) == (2, 3)
    assert passage.text in whole.text


def test_check_gives_the_page_a_quote_stands_on(tools: LibraryTools) -> None:
    verdict = check(
        tools, 'Use "the filling loop under the boiler" to top it up. [source:boiler#pressure]'
    )

    assert verdict.verified, verdict.problems
    (quote,) = verdict.quotes
    assert (quote.found, quote.page, quote.end_page) == (True, 3, 3)


def test_a_quote_found_elsewhere_says_its_page(tools: LibraryTools) -> None:
    verdict = check(tools, 'The valve: "Close it again when water comes." [source:notes]')

    (quote,) = verdict.quotes
    assert not quote.found and quote.found_elsewhere is not None
    assert (quote.found_elsewhere.passage_id, quote.found_elsewhere.page) == ("boiler", 1)
    assert any("boiler.pdf p. 1" in problem for problem in verdict.problems)
