"""A PDF's text layer made passages, on plain values (no PDF file): headers, footers,
page numbers and contents entries left out, hyphenated words joined, sections at the
outline, else at headings told by font size, else by page, each with its pages."""

from __future__ import annotations

from tui_assistant.core.documents.pdf_layout import (
    OutlineEntry,
    PdfContent,
    PdfLine,
    PdfPage,
    extracted_lines,
    extracted_text,
)
from tui_assistant.core.documents.pdf_sections import split_pdf_content

HEIGHT = 792.0


def page(
    *lines: tuple[str, float] | str, header: str | None = None, footer: str | None = None
) -> PdfPage:
    """A page whose body lines stand 14 points apart from 100 points down; a
    (text, size) pair sets a line's font size (11 otherwise)."""
    found: list[PdfLine] = []
    if header is not None:
        found.append(PdfLine(header, 9, 30))
    top = 100.0
    for line in lines:
        text, size = (line, 11.0) if isinstance(line, str) else line
        found.append(PdfLine(text, size, top))
        top += 14 if size <= 11 else 24
    if footer is not None:
        found.append(PdfLine(footer, 9, 760))
    return PdfPage(HEIGHT, tuple(found))


def texts(content: PdfContent) -> list[str]:
    return [line.text for line in extracted_lines(content)]


def test_running_headers_footers_and_page_numbers_are_not_text() -> None:
    content = PdfContent(
        (
            page("Radiators need bleeding.", header="Boiler Manual", footer="Page 1 of 3"),
            page("Pressure stays under two bar.", header="Boiler Manual", footer="2"),
            page("The pump runs at night.", header="Boiler Manual", footer="- iii -"),
        )
    )

    assert texts(content) == [
        "Radiators need bleeding.",
        "Pressure stays under two bar.",
        "The pump runs at night.",
    ]


def test_a_line_at_the_top_of_one_page_only_is_text() -> None:
    content = PdfContent(
        (
            page("Body one.", header="Safety first: switch it off"),
            page("Body two.", header="Manual"),
            page("Body three.", header="Manual"),
        )
    )

    assert texts(content) == [
        "Safety first: switch it off",
        "Body one.",
        "Body two.",
        "Body three.",
    ]


def test_a_word_hyphenated_across_lines_is_joined_and_every_line_keeps_its_number() -> None:
    content = PdfContent(
        (
            page(
                "Turn the valve until water-",
                "logged air hisses out.",
                "It is well-",
                "Known to hiss.",
            ),
        )
    )

    assert texts(content) == [
        "Turn the valve until waterlogged",
        "air hisses out.",
        "It is well-",  # a capital goes on: the hyphen is the word's
        "Known to hiss.",
    ]


def test_a_word_hyphenated_across_pages_is_joined() -> None:
    content = PdfContent((page("The thermo-"), page("stat clicks twice.")))

    assert texts(content) == ["The thermostat", "clicks twice."]


def test_a_wider_gap_is_a_paragraph_break_and_contents_entries_are_not_text() -> None:
    body = (
        PdfLine("Contents", 11, 80),
        PdfLine("Bleeding ........ 3", 11, 94),
        PdfLine("First paragraph line one.", 11, 108),
        PdfLine("First paragraph line two.", 11, 122),
        PdfLine("Second paragraph.", 11, 160),
    )
    content = PdfContent((PdfPage(HEIGHT, body),))

    assert extracted_text(content) == (
        "Contents\n\nFirst paragraph line one.\nFirst paragraph line two.\n\nSecond paragraph.\n"
    )


def test_the_notes_around_a_code_block_broken_across_pages_are_not_text() -> None:
    content = PdfContent(
        (
            page("Here is an example:", "cron (3.0pl1-74) unstable", "(continues on next page)"),
            page("(continued from previous page)", "It now has its own package."),
        )
    )

    assert texts(content) == [
        "Here is an example:",
        "cron (3.0pl1-74) unstable",
        "It now has its own package.",
    ]


def test_font_sizes_below_the_third_make_sections_only_where_they_fill_a_passage() -> None:
    long = [
        f"Line {number} of a long rationale that fills a passage alone." for number in range(80)
    ]
    content = PdfContent(
        (
            page(
                ("Boiler Manual", 24),
                ("Chapter 1 Water", 20),
                ("1.1 Bleeding", 17),
                ("1.1.1 Valves", 15),
                "Turn the valve.",
                ("Rationale", 14),
                "Air in a radiator stops the water.",
                ("1.1.2 Keys", 15),
                "Keep the key by the boiler.",
                ("Rationale", 14),
                *long,
            ),
        )
    )

    passages = split_pdf_content("boiler.pdf", content).passages

    valves = next(d for d in passages if d.title.endswith("1.1 Bleeding \u203a 1.1.1 Valves"))
    assert [text for text in valves.text.splitlines() if text] == [
        "Turn the valve.",
        "Rationale",
        "Air in a radiator stops the water.",
    ]
    why = next(d for d in passages if d.title.endswith("1.1.2 Keys \u203a Rationale"))
    assert why.text.startswith("Line 0 of a long rationale")


def test_sections_follow_the_outline_with_their_pages() -> None:
    content = PdfContent(
        (
            page(
                ("Boiler Manual", 24), ("1 Bleeding the radiators", 11), "Turn the valve.", "Hiss."
            ),
            page("More on bleeding.", ("2 Pressure", 11), "Keep it under two bar."),
            page("The gauge is on the left."),
        ),
        outline=(
            OutlineEntry("Bleeding the radiators", 1, 0),
            OutlineEntry("Pressure", 1, 1),
        ),
        title="Boiler Manual",
    )

    document = split_pdf_content("boiler.pdf", content)

    assert document.title == "Boiler Manual"
    got = [(d.anchor, d.title, d.text, d.page, d.end_page) for d in document.passages]
    assert got == [
        (
            "",
            "Boiler Manual › Bleeding the radiators",
            "Turn the valve.\nHiss.\nMore on bleeding.",
            1,
            2,
        ),
        (
            "pressure",
            "Boiler Manual › Pressure",
            "Keep it under two bar.\nThe gauge is on the left.",
            2,
            3,
        ),
    ]
    lines = extracted_lines(content)
    for draft in document.passages:
        # The passage's lines of the extracted text: its heading, then its text.
        assert lines[draft.line - 1].page == draft.page
        assert lines[draft.end_line - 1].page == draft.end_page
        assert [line.text for line in lines[draft.line : draft.end_line]] == draft.text.split("\n")


def test_a_passage_over_two_pages_knows_where_the_second_begins() -> None:
    content = PdfContent(
        (page(("Pressure", 16), "Keep it under two bar."), page("The gauge is on the left.")),
        outline=(OutlineEntry("Pressure", 1, 0),),
    )

    (draft,) = split_pdf_content("boiler.pdf", content).passages

    assert (draft.page, draft.end_page, draft.line, draft.end_line) == (1, 2, 1, 3)
    assert draft.page_starts == (3,)


def test_an_outline_heading_set_on_two_lines_is_one_heading() -> None:
    content = PdfContent(
        (
            page(
                "Intro text.",
                ("Essential user command binaries (for", 16),
                ("use by all users)", 16),
                "The /bin folder.",
            ),
        ),
        outline=(OutlineEntry("Essential user command binaries (for use by all users)", 1, 0),),
        title="Filesystem",
    )

    passages = split_pdf_content("fhs.pdf", content).passages

    assert [(d.title, d.text) for d in passages] == [
        ("Filesystem", "Intro text."),
        ("Filesystem › Essential user command binaries (for use by all users)", "The /bin folder."),
    ]


def test_a_bookmark_whose_heading_is_not_on_its_page_starts_where_it_points() -> None:
    content = PdfContent(
        (page("Cover words.", "Troubleshooting starts here.", "Reset the boiler."),),
        outline=(OutlineEntry("Faults", 1, 0, top=110),),
        title="Boiler",
    )

    passages = split_pdf_content("boiler.pdf", content).passages

    assert [(d.title, d.text) for d in passages] == [
        ("Boiler", "Cover words."),
        ("Boiler › Faults", "Troubleshooting starts here.\nReset the boiler."),
    ]


def test_without_an_outline_headings_are_told_by_their_font_size() -> None:
    content = PdfContent(
        (
            page(
                ("Boiler Manual", 24),
                ("Chapter 1 Water", 18),
                ("1.1 Bleeding", 14),
                "Turn the valve.",
                "Wait for the hiss.",
                "Close it.",
                ("1.2 Filling the", 14),
                ("loop", 14),
                "Open the tap.",
                "Watch the gauge.",
                "Close the tap.",
            ),
            page(
                ("Chapter 2 Gas", 18),
                "Call an engineer.",
                "Never open it yourself.",
                "Keep the number by the phone.",
            ),
        )
    )

    document = split_pdf_content("boiler.pdf", content)

    assert document.title == "Boiler Manual"
    assert [(d.title, d.text, d.page) for d in document.passages] == [
        (
            "Boiler Manual › Chapter 1 Water › 1.1 Bleeding",
            "Turn the valve.\nWait for the hiss.\nClose it.",
            1,
        ),
        (
            "Boiler Manual › Chapter 1 Water › 1.2 Filling the loop",
            "Open the tap.\nWatch the gauge.\nClose the tap.",
            1,
        ),
        (
            "Boiler Manual › Chapter 2 Gas",
            "Call an engineer.\nNever open it yourself.\nKeep the number by the phone.",
            2,
        ),
    ]


def test_without_outline_or_headings_each_page_is_a_section() -> None:
    content = PdfContent((page("Radiators hiss.", "Bleed them."), page("The pump hums.")))

    document = split_pdf_content("notes.pdf", content)

    assert document.title == "notes"
    assert [(d.anchor, d.title, d.text, d.page, d.end_page) for d in document.passages] == [
        ("", "notes › Page 1", "Radiators hiss.\nBleed them.", 1, 1),
        ("page-2", "notes › Page 2", "The pump hums.", 2, 2),
    ]


def test_a_title_that_is_a_file_name_is_not_the_document_title() -> None:
    content = PdfContent((page("Plain words."),), title="Microsoft Word - draft3.docx")

    assert split_pdf_content("guide.pdf", content).title == "guide"


def test_control_characters_in_the_text_layer_are_not_text() -> None:
    content = PdfContent((page("Bell\x07 and escape\x1b[31m words."),))

    assert texts(content) == ["Bell and escape[31m words."]


def test_pages_without_text_make_no_passage() -> None:
    content = PdfContent((PdfPage(HEIGHT, ()), PdfPage(HEIGHT, (PdfLine("  ", 11, 100),))))

    assert split_pdf_content("scan.pdf", content).passages == ()
