"""A manual as PDF read the way its reader navigates it: its outline at every depth,
its options and variables as entries, its back-of-book index as a way into the
passages (never a passage), its title whole."""

from __future__ import annotations

from tests.helpers.pdf_files import Bookmark, Line, PdfSpec, lines, pdf_bytes
from tui_assistant.core.documents.passage import Document, PassageDraft
from tui_assistant.core.documents.pdf import split_pdf
from tui_assistant.core.documents.pdf_index import page_offset, with_index_terms
from tui_assistant.core.documents.pdf_layout import PdfContent, PdfLine, PdfPage

BODY = "Make reads the makefile and decides which targets are out of date before it runs."


def read(spec: PdfSpec) -> Document:
    document = split_pdf("make.pdf", pdf_bytes(spec))
    assert isinstance(document, Document)
    return document


def titled(document: Document, title: str) -> PassageDraft:
    (found,) = [draft for draft in document.passages if draft.title == title]
    return found


def entry(term: str, *description: str) -> list[Line]:
    return [Line(term, gap=8), *(Line(text, indent=40) for text in description)]


def manual(**changes: object) -> PdfSpec:
    """Four pages: a title page, a chapter with a section and a subsection, options
    as hanging-indent items, and an index."""
    pages = [
        [Line("make", size=30), Line("GNU Make: A Program for Directing Recompilation", 20)],
        [
            Line("1 Running make", 16),
            *lines(BODY),
            Line("1.1 Arguments", 14, gap=8),
            *lines("Arguments name the goals make tries to update."),
            Line("1.1.1 Goals with slashes", 13, gap=8),
            *lines("A goal may name a file in another directory."),
        ],
        [
            Line("2 Summary of Options", 16),
            *lines("Here is a table of all the options make understands."),
            *entry("-k", "Continue as much as possible after an error.", "Keep going."),
            *entry("-n", "Print the recipe that would be executed, but do not run it."),
            *entry("--jobs", "Run this many recipes at once.", "Without a number, no limit."),
            *entry("-s", "Silent operation; do not print the recipes as they run."),
        ],
        [
            Line("Index", 16),
            Line("dry run . . . . . . . . . . . . . . 3"),
            Line("keep going . . . . . . . . . . . . 3"),
            Line("goals, in another directory . . . . 2"),
            Line("out of date targets, slashes . . . . 2"),
        ],
    ]
    spec = PdfSpec(
        pages=pages,
        footer="{page}",
        outline=[
            Bookmark("1 Running make", 1),
            Bookmark("1.1 Arguments", 1, level=2),
            Bookmark("1.1.1 Goals with slashes", 1, level=3),
            Bookmark("2 Summary of Options", 2),
            Bookmark("Index", 3),
        ],
    )
    for key, value in changes.items():
        setattr(spec, key, value)
    return spec


def test_every_level_of_the_outline_is_a_title_path() -> None:
    document = read(manual())
    goals = titled(
        document,
        "GNU Make: A Program for Directing Recompilation › 1 Running make"
        " › 1.1 Arguments › 1.1.1 Goals with slashes",
    )
    assert goals.text == "A goal may name a file in another directory."
    assert (goals.page, goals.end_page) == (2, 2)


def test_hanging_indent_items_are_entries_titled_by_their_terms() -> None:
    document = read(manual())
    options = [d for d in document.passages if "2 Summary of Options ›" in d.title]
    assert [d.title.rsplit(" › ", 1)[1] for d in options] == ["-k, -n, --jobs, -s"]
    (group,) = options
    assert group.index_terms[:4] == ("-k", "-n", "--jobs", "-s")
    assert "Print the recipe that would be executed" in group.text
    assert group.page == group.end_page == 3
    own = titled(document, "GNU Make: A Program for Directing Recompilation › 2 Summary of Options")
    assert own.text == "Here is a table of all the options make understands."


def test_a_long_entry_is_a_passage_of_its_own() -> None:
    long_text = ["Continue as much as possible after an error, building what it can."] * 8
    spec = manual()
    spec.pages[2] = [
        Line("2 Summary of Options", 16),
        *lines("Here is a table of all the options make understands."),
        *entry("-k", *long_text),
        *entry("-n", "Print the recipe that would be executed, but do not run it."),
    ]
    titles = [d.title.rsplit(" › ", 1)[-1] for d in read(spec).passages]
    assert "-k" in titles and "-n" in titles


def test_the_index_is_no_passage_and_its_terms_lead_to_their_pages() -> None:
    document = read(manual())
    assert not any("Index" in draft.title for draft in document.passages)
    assert not any("keep going . ." in draft.text for draft in document.passages)
    options = next(d for d in document.passages if "-k, -n" in d.title)
    assert "keep going" in options.index_terms  # the page's passage whose text holds it
    summary = titled(
        document, "GNU Make: A Program for Directing Recompilation › 2 Summary of Options"
    )
    assert "dry run" in summary.index_terms  # no text of the page holds it: the page's first
    running = titled(document, "GNU Make: A Program for Directing Recompilation › 1 Running make")
    # The page's first passage, as no passage of the page holds these words.
    assert "goals, in another directory" in running.index_terms
    assert "out of date targets, slashes" in running.index_terms


def test_printed_page_numbers_are_turned_into_the_files_pages() -> None:
    pages = tuple(
        PdfPage(792, (PdfLine("text", 11, 300), PdfLine(f"{number - 2}", 9, 760)))
        for number in range(1, 6)
    )
    assert page_offset(PdfContent(pages)) == 2
    drafts = [
        PassageDraft("", "Make", "intro", 1, 1, page=3, end_page=3),
        PassageDraft("a", "Make › Options", "keep going on errors", 2, 2, page=4, end_page=4),
        PassageDraft("b", "Make › Files", "keep going again", 3, 3, page=4, end_page=4),
    ]
    placed = with_index_terms(drafts, [("going", 2), ("errors", 2), ("intro", 1)], 2)
    assert [d.index_terms for d in placed] == [("intro",), ("going", "errors"), ()]


def test_the_metadata_title_is_the_title_when_it_has_one() -> None:
    document = read(manual(title="GNU Make Manual"))
    assert document.title == "GNU Make Manual"


def test_without_metadata_a_clipped_logo_word_is_never_the_title() -> None:
    spec = manual()
    spec.pages[0] = [
        Line("symptote", size=40),
        Line("Asymptote: the Vector Graphics Language", size=24),
    ]
    assert read(spec).title == "Asymptote: the Vector Graphics Language"


def test_without_an_outline_heading_sizes_are_levels() -> None:
    spec = manual(outline=[])
    document = read(spec)
    assert any(
        draft.title.endswith("1 Running make › 1.1 Arguments › 1.1.1 Goals with slashes")
        for draft in document.passages
    )
