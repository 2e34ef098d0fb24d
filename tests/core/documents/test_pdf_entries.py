"""A manual's reference entries and deep subsections as a PDF sets them, on plain values
(no PDF file): definition lines, terms on two lines, messages, pages inside one
description, headings below the third level."""

from __future__ import annotations

from tui_assistant.core.documents.passage import PassageDraft
from tui_assistant.core.documents.pdf_layout import OutlineEntry, PdfContent, PdfLine, PdfPage
from tui_assistant.core.documents.pdf_sections import split_pdf_content

HEIGHT = 792.0
MARGIN = 90.0
INDENT = 119.0
BODY = "Autoconf macros are read by configure before anything else happens."
DESCRIPTION = "Check for the program and set the variable to what it finds on the path."


def line(text: str, left: float = MARGIN, size: float = 11.0) -> tuple[str, float, float]:
    return (text, left, size)


def term(text: str) -> tuple[str, float, float]:
    """A definition line: at the margin, in a font of its own."""
    return (text, MARGIN, 12.0)


def described(*texts: str) -> list[tuple[str, float, float]]:
    return [(text, INDENT, 11.0) for text in texts]


def page(*lines: tuple[str, float, float]) -> PdfPage:
    """A page whose lines stand 14 points apart from 100 points down."""
    return PdfPage(
        HEIGHT,
        tuple(
            PdfLine(text, size, 100.0 + 14 * number, left)
            for number, (text, left, size) in enumerate(lines)
        ),
    )


def read(*pages: PdfPage, outline: tuple[OutlineEntry, ...] = ()) -> list[PassageDraft]:
    content = PdfContent((page(line("Autoconf", size=24)), *pages), outline, "Autoconf")
    return list(split_pdf_content("autoconf.pdf", content).passages)


def titled(passages: list[PassageDraft], ending: str) -> PassageDraft:
    (found,) = [draft for draft in passages if draft.title.endswith(ending)]
    return found


def chapter(title: str, *lines: tuple[str, float, float]) -> PdfPage:
    return page(line(title, size=16), *lines)


def outline(*titles: tuple[str, int, int]) -> tuple[OutlineEntry, ...]:
    return tuple(OutlineEntry(title, level, page) for title, level, page in titles)


def test_a_definition_line_right_after_a_paragraph_is_an_entry_even_alone() -> None:
    passages = read(
        chapter(
            "Initializing",
            line(BODY),
            line("The only other required macro is AC_OUTPUT."),
            term("AC_INIT (package, version) [Macro]"),
            *described("Process the command-line arguments and set the name", "of the package."),
        ),
        outline=outline(("Initializing", 1, 1)),
    )
    entry = titled(passages, "Initializing › AC_INIT (package, version) [Macro]")
    assert entry.text.startswith("AC_INIT (package, version) [Macro]\nProcess the command-line")
    section = titled(passages, "Autoconf › Initializing")
    assert "AC_INIT (package" not in section.text


def test_an_entry_that_opens_its_section_keeps_the_sections_id() -> None:
    passages = read(
        chapter("Writing Macros", line(BODY)),
        page(
            line("Macro Definitions", size=14),
            term("AC_DEFUN (name, [body]) [Macro]"),
            *described("Autoconf macros are defined using AC_DEFUN.", "It adds some code."),
        ),
        outline=outline(("Writing Macros", 1, 1), ("Macro Definitions", 2, 2)),
    )
    entry = titled(passages, "Macro Definitions › AC_DEFUN (name, [body]) [Macro]")
    assert entry.anchor == "macro-definitions"


def test_a_page_inside_one_description_does_not_end_its_entry() -> None:
    passages = read(
        chapter(
            "Compilers",
            line(BODY),
            line(""),
            term("AC_PROG_CC [Macro]"),
            *described("Determine a C compiler to use."),
        ),
        page(*described("Search for gcc and cc first.", "Set the output variable CC.")),
        page(
            line(BODY),
            line(""),
            term("AC_PROG_CPP [Macro]"),
            *described("Set the output variable CPP.", "It runs the C preprocessor."),
        ),
        page(line(BODY), line("Nothing more here.")),
        outline=outline(("Compilers", 1, 1)),
    )
    (compiler,) = [draft for draft in passages if "AC_PROG_CC [Macro]" in draft.title]
    assert "Search for gcc and cc first.\nSet the output variable CC." in compiler.text
    assert not any("Search for gcc" in draft.title for draft in passages)


def test_a_term_set_on_two_lines_is_titled_whole_and_named_by_its_first() -> None:
    passages = read(
        chapter(
            "Program Checks",
            line(BODY),
            line(""),
            term("AC_CHECK_PROG (variable, prog-to-check-for, [Macro]"),
            line("[value-if-not-found], [path])", left=141.0),
            *described(*[DESCRIPTION] * 6),
            line(""),
            term("AC_CHECK_PROGS (variable, progs) [Macro]"),
            *described(*[DESCRIPTION] * 6),
        ),
        outline=outline(("Program Checks", 1, 1)),
    )
    whole = "AC_CHECK_PROG (variable, prog-to-check-for, [value-if-not-found], [path]) [Macro]"
    entry = titled(passages, whole)
    assert entry.anchor == "ac-check-prog-variable-prog-to-check-for-macro"
    assert "AC_CHECK_PROG" in entry.index_terms[0]


def test_each_error_message_of_an_appendix_is_a_passage_of_its_own() -> None:
    passages = read(
        chapter(
            "Errors Generated by Make",
            line("Here is a list of the more common errors you might see."),
            line(""),
            line("\u2018missing separator. Stop.\u2019"),
            line("\u2018missing separator (did you mean TAB instead of 8 spaces?). Stop.\u2019"),
            *described("The line could not be understood.", "Recipes start with a tab."),
            line("\u2018No targets. Stop.\u2019"),
            *described("No target was given", "and the makefile has no default goal."),
            line("\u2018Circular xxx <- yyy dependency dropped.\u2019"),
            *described("There is a loop in the dependency graph.", "It was dropped."),
        ),
        outline=outline(("Errors Generated by Make", 1, 1)),
    )
    titles = [draft.title.rsplit(" \u203a ", 1)[-1] for draft in passages]
    assert titles[-3:] == [
        "missing separator. Stop., \u2026",
        "No targets. Stop.",
        "Circular xxx <- yyy dependency dropped.",
    ]
    separator = passages[-3]
    assert "missing separator (did you mean TAB" in " ".join(separator.index_terms)
    assert "No targets" not in separator.text


def test_a_numbered_heading_set_on_two_lines_is_its_bookmarks_heading() -> None:
    passages = read(
        chapter("Initialization", line(BODY)),
        page(
            line("4.4 Configure Input: Source Code, Macros, and Auxiliary", size=14),
            line("Files", left=INDENT, size=14),
            line(""),
            line("The following macros help you manage the contents of your source tree."),
        ),
        outline=outline(
            ("Initialization", 1, 1),
            ("Configure Input: Source Code, Macros, and Auxiliary Files", 2, 2),
        ),
    )
    section = titled(passages, "› Configure Input: Source Code, Macros, and Auxiliary Files")
    assert section.text == "The following macros help you manage the contents of your source tree."
    assert not any("4.4" in draft.title for draft in passages)


def deep_manual(subsection: list[tuple[str, float, float]]) -> list[PassageDraft]:
    return read(
        chapter("Files", line(BODY)),
        page(
            line("Host configuration", size=14),
            line("Host-specific configuration files go in /etc."),
            line("Optional", size=12),
            *subsection,
        ),
        page(line("Other files", size=14), line(BODY)),
        outline=outline(
            ("Files", 1, 1),
            ("Host", 2, 2),
            ("Host configuration", 3, 2),
            ("Optional", 4, 2),
            ("Other files", 3, 3),
        ),
    )


def test_a_small_subsection_below_the_third_level_stays_in_its_section() -> None:
    passages = deep_manual([line("/etc/opt holds configuration files for /opt.")])
    section = titled(passages, "Host › Host configuration")
    assert section.text.splitlines() == [
        "Host-specific configuration files go in /etc.",
        "Optional",
        "/etc/opt holds configuration files for /opt.",
    ]
    assert not any(draft.title.endswith("Optional") for draft in passages)


def test_a_subsection_below_the_third_level_that_fills_a_passage_is_its_own() -> None:
    long = [line(f"{number}. {DESCRIPTION}") for number in range(60)]
    passages = deep_manual(long)
    optional = titled(passages, "Host › Host configuration › Optional")
    assert optional.text.startswith("0. Check for the program")
    section = titled(passages, "Host › Host configuration")
    assert section.text == "Host-specific configuration files go in /etc."


def test_a_term_whose_first_glyph_starts_right_of_the_margin_is_at_it() -> None:
    variable = [*described(*[DESCRIPTION] * 6)]
    passages = read(
        chapter(
            "Special Variables",
            line(BODY),
            line(""),
            line("MAKE_RESTARTS"),
            *variable,
            line(".RECIPEPREFIX", left=MARGIN + 2.2),
            *variable,
        ),
        outline=outline(("Special Variables", 1, 1)),
    )
    assert [draft.title.rsplit(" \u203a ", 1)[-1] for draft in passages[-2:]] == [
        "MAKE_RESTARTS",
        ".RECIPEPREFIX",
    ]
