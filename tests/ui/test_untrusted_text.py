"""Laying out paths and ids at a width (whole, or shortened from the left, never broken),
and passage text prepared for the Markdown view by the kind of document it comes from."""

from __future__ import annotations

from rich.cells import cell_len

from tui_assistant.ui.widgets.untrusted_text import (
    cut_right,
    flow_items,
    readable_source,
    shorten_left,
    split_location,
)

ONE = ("reference/commandline/trust-signer-remove#remove-a-signer-from-multiple-repos", "")


def test_items_that_fit_share_a_line_and_the_next_goes_below_whole() -> None:
    items = [("a/b#one", ""), ("a/c#two", ""), ("a/d#three", "")]
    assert flow_items("cites: ", items, 80) == ["cites: a/b#one, a/c#two, a/d#three"]
    assert flow_items("cites: ", items, 24) == ["cites: a/b#one, a/c#two,", "  a/d#three"]


def test_an_item_wider_than_a_line_is_shortened_from_the_left_with_room_for_the_comma() -> None:
    lines = flow_items("cites: ", [("a/b", ""), ONE, ("a/c", "")], 30)
    assert lines[0] == "cites: a/b,"
    assert lines[1].startswith("  \u2026") and lines[1].endswith(",") and len(lines[1]) == 30
    assert ONE[0].endswith(lines[1][3:-1])
    assert lines[2] == "  a/c"


def test_the_first_item_stays_beside_the_label_when_it_must_be_shortened_anyway() -> None:
    [line] = flow_items("cites: ", [ONE], 30)
    assert line.startswith("cites: \u2026") and len(line) == 30
    assert flow_items("cites: ", [("a/b#twenty-two-cells", "")], 24) == [
        "cites:",
        "  a/b#twenty-two-cells",
    ]


def test_a_location_keeps_its_line_range_and_loses_folders_first() -> None:
    path, suffix = split_location("docker-docs/reference/commandline/trust_signer_remove.md:74–176")
    assert suffix == ":74\u2013176"
    assert flow_items("source: ", [(path, suffix)], 40) == [
        "source: \u2026/trust_signer_remove.md:74\u2013176"
    ]
    assert split_location("notes.md") == ("notes.md", "")


def test_cut_right_counts_cells() -> None:
    assert cut_right("answered", 8) == "answered"
    assert cut_right("answered", 5) == "answ\u2026"
    assert cut_right("日本語のパス", 5) == "日本\u2026"


def test_wide_characters_are_counted_as_two_cells_when_shortening() -> None:
    shown = shorten_left("文書/設定/日本語のファイル.md", ":1\u20139", 16)
    assert cell_len(shown) <= 16 and shown.endswith(".md:1\u20139") and shown.startswith("\u2026")


def test_rst_titles_inside_a_passage_become_headings_line_for_line() -> None:
    text = "Intro.\n\nDetails\n~~~~~~~\n\nText.\n\n=====\nOver\n=====\n\nMore."
    shown = readable_source(text, "docs/guide.rst")
    assert shown.split("\n") == [
        "Intro.",
        "",
        "#### Details",
        "",
        "",
        "Text.",
        "",
        "",
        "#### Over",
        "",
        "",
        "More.",
    ]


def test_rst_lines_that_are_no_titles_are_kept() -> None:
    text = "Short\n~~\n\n    indented\n    ~~~~~~~~~~~~\n\n----------\n\nA long title line\n~~~~"
    assert readable_source(text, "guide.rst.txt") == text


def test_markdown_and_plain_text_pass_as_they_are() -> None:
    text = "Details\n~~~~~~~\n"
    assert readable_source(text, "notes.md") == text
    assert readable_source(text, "notes.txt") == text


async def test_html_and_pdf_text_is_shown_as_written_not_as_markdown() -> None:
    from textual.app import App, ComposeResult

    from tui_assistant.ui.widgets.markdown_view import MarkdownView
    from tui_assistant.ui.widgets.untrusted_text import readable_source

    text = "Call __init__() with *args.\n> 3 is not a quote\n1. nor a list\n# nor a heading"
    for path in ("site/api.html", "manuals/guide.pdf"):

        class Viewer(App[None]):
            def __init__(self, source: str) -> None:
                super().__init__()
                self.source = source

            def compose(self) -> ComposeResult:
                yield MarkdownView(self.source)

        app = Viewer(readable_source(text, path))
        async with app.run_test(size=(80, 12)) as pilot:
            await pilot.pause()
            shown = [
                block.content.plain
                for block in app.query("MarkdownBlock")
                if hasattr(block.content, "plain")
            ]
            joined = " ".join(shown)
            assert "__init__()" in joined and "*args" in joined
            assert "> 3 is not a quote" in joined and "# nor a heading" in joined
    # Markdown keeps its meaning.
    assert readable_source("*emphasis*", "notes/a.md") == "*emphasis*"
