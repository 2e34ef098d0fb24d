"""Passage text prepared for the Markdown view, by the kind of document it comes from."""

from __future__ import annotations

from tui_assistant.ui.literal import readable_source


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
