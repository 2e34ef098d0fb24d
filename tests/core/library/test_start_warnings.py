"""What a start says of a library's reading problems: at most one line, the problem's
own when it is the only one, else a count naming the new ones and pointing to the
full list."""

from __future__ import annotations

from tui_assistant.core.documents.formats.python import SOURCE_ONLY
from tui_assistant.core.library.library import (
    INCLUDES_ONLY,
    FileProblem,
    marked_new,
    problem_keys,
)
from tui_assistant.core.library.start_warnings import start_warning_lines

SEE = "`tui-assistant library`"
BINARY = FileProblem("binary.md", "binary file (contains NUL bytes)")
AUTODOC = FileProblem("api.rst", "automethod x.y: not found with a docstring in x.py", False)
MANY = [FileProblem(f"docs/page{n:02}.rst", "empty") for n in range(45)]


def test_a_first_start_with_many_problems_is_one_line_naming_a_few() -> None:
    assert start_warning_lines(MANY, SEE) == [
        "45 reading notes (45 new: docs/page00.rst, docs/page01.rst and 43 more),"
        " see `tui-assistant library`"
    ]


def test_a_later_start_with_the_same_problems_is_one_line() -> None:
    known = marked_new(MANY, problem_keys(MANY))
    assert start_warning_lines(known, SEE) == ["45 reading notes, see `tui-assistant library`"]


def test_one_problem_is_its_own_line_naming_the_file_and_why() -> None:
    assert start_warning_lines([BINARY], SEE) == [
        "skipped file binary.md: binary file (contains NUL bytes)"
    ]
    (known,) = marked_new([AUTODOC], problem_keys([AUTODOC]))
    assert start_warning_lines([known], SEE) == [
        "file api.rst: automethod x.y: not found with a docstring in x.py"
    ]


def test_a_new_problem_later_is_named_as_new_in_the_one_line() -> None:
    fresh = FileProblem("guide.pdf", "is encrypted (needs a password)")
    problems = marked_new([BINARY, AUTODOC, fresh], problem_keys([BINARY, AUTODOC]))

    assert start_warning_lines(problems, SEE) == [
        "3 reading notes (1 new: guide.pdf), see `tui-assistant library`"
    ]


def test_a_changed_message_is_a_new_problem() -> None:
    changed = FileProblem("binary.md", "empty")
    (marked,) = marked_new([changed], problem_keys([BINARY]))
    assert marked.new
    assert start_warning_lines([marked], SEE) == ["skipped file binary.md: empty"]


def test_a_file_with_several_new_notes_is_named_once() -> None:
    notes = [FileProblem("api.rst", f"autofunction f{n}: not found", False) for n in range(3)]
    assert start_warning_lines(notes, SEE) == [
        "3 reading notes (3 new: api.rst), see `tui-assistant library`"
    ]


def test_include_only_pages_are_counted_in_the_one_line() -> None:
    pages = [FileProblem(f"part{n}.rst", INCLUDES_ONLY) for n in range(5)]
    (line,) = start_warning_lines(pages, SEE)
    assert line.startswith("5 reading notes (5 new: part0.rst, part1.rst and 3 more)")


def test_sources_read_only_by_autodoc_are_not_said() -> None:
    sources = [FileProblem(f"src/pkg/_m{n}.py", SOURCE_ONLY) for n in range(4)]
    assert start_warning_lines(sources, SEE) == []
    assert start_warning_lines([*sources, BINARY], SEE) == [str(BINARY)]
