"""Plain-text notes: titled by their first line, one passage per paragraph."""

from __future__ import annotations

from tui_assistant.core.documents.passage import MAX_PASSAGE_CHARS, Document
from tui_assistant.core.documents.split import split_document

BOILER = (
    "Boiler notes\n"
    "\n"
    "The boiler pressure should sit between 1 and 1.5 bar when cold.\n"
    "Top it up at the filling loop.\n"
    "\n"
    "\n"
    "Bleed the radiators once a year, in autumn.\n"
)


def split(text: str, path: str = "home/boiler.txt") -> Document:
    return split_document(path, text)


def test_the_first_line_titles_the_document_and_heads_the_first_passage() -> None:
    document = split(BOILER)
    assert document.title == "Boiler notes"
    first = document.passages[0]
    assert first.anchor == "" and first.title == "Boiler notes"
    assert first.text == (
        "The boiler pressure should sit between 1 and 1.5 bar when cold.\n"
        "Top it up at the filling loop."
    )
    assert (first.line, first.end_line) == (1, 4)


def test_each_paragraph_is_a_passage_titled_by_its_first_line() -> None:
    second = split(BOILER).passages[1]
    assert second.title == "Boiler notes › Bleed the radiators once a year, in autumn."
    assert second.anchor == "bleed-the-radiators-once-a-year-in-autumn"
    assert (second.line, second.end_line) == (7, 7)


def test_a_single_paragraph_note_is_one_passage_with_its_first_line_as_title() -> None:
    document = split("Call the plumber on Monday\nabout the leak.\n", "todo.txt")
    (only,) = document.passages
    assert document.title == "Call the plumber on Monday"
    assert only.text == "Call the plumber on Monday\nabout the leak."
    assert (only.line, only.end_line) == (1, 2)


def test_a_one_line_note_is_its_own_passage() -> None:
    (only,) = split("Buy milk\n", "todo.txt").passages
    assert (only.title, only.text) == ("Buy milk", "Buy milk")


def test_long_first_lines_make_short_titles() -> None:
    line = "word " * 60
    document = split(line + "\n\n" + line + "\n\nend\n")
    assert len(document.title) <= 100 and document.title.endswith("\u2026")
    assert len(document.passages[1].title.split(" › ")[1]) <= 60


def test_a_paragraph_over_the_limit_is_cut_between_lines() -> None:
    lines = [f"line {number} " + "text " * 20 for number in range(100)]
    document = split("Title\n\n" + "\n".join(lines) + "\n")
    assert len(document.passages) > 1
    assert all(len(d.text) <= MAX_PASSAGE_CHARS for d in document.passages)
    assert document.passages[0].line == 1
    assert document.passages[1].line == document.passages[0].end_line + 1


def test_blank_only_text_has_no_passage() -> None:
    assert split("\n  \n\t\n").passages == ()


def test_markdown_marks_in_a_note_are_kept_as_written() -> None:
    document = split("Notes *draft*\n\nSee [the manual](http://x.example).\n")
    assert document.title == "Notes *draft*"
    assert document.passages[0].text == "See [the manual](http://x.example)."


def test_a_rule_line_above_the_first_words_is_no_title() -> None:
    document = split("==========\nRelease notes\n==========\n\nBug fixes.\n", "notes/5.0.txt")
    assert document.title == "Release notes"
    assert split("----\n\n", "empty.txt").passages[0].title == "empty"
