"""What a start says of a library's reading problems: each new one in full, those met
on the previous start as one line pointing to the full list."""

from __future__ import annotations

from tui_assistant.core.library.library import (
    INCLUDES_ONLY,
    FileProblem,
    marked_new,
    problem_keys,
    start_warning_lines,
)

SEE = "`tui-assistant library`"
BINARY = FileProblem("binary.md", "binary file (contains NUL bytes)")
AUTODOC = FileProblem("api.rst", "automethod x.y: not found with a docstring in x.py", False)


def test_problems_with_no_record_are_all_said_in_full() -> None:
    assert start_warning_lines([BINARY, AUTODOC], SEE) == [
        "skipped file binary.md: binary file (contains NUL bytes)",
        "file api.rst: automethod x.y: not found with a docstring in x.py",
    ]


def test_problems_met_last_time_are_one_line() -> None:
    known = marked_new([BINARY, AUTODOC], problem_keys([BINARY, AUTODOC]))

    assert start_warning_lines(known, SEE) == ["2 reading notes, see `tui-assistant library`"]
    assert start_warning_lines(known[:1], SEE) == ["1 reading note, see `tui-assistant library`"]


def test_a_new_problem_is_said_in_full_before_the_count_of_the_others() -> None:
    fresh = FileProblem("guide.pdf", "is encrypted (needs a password)")
    problems = marked_new([BINARY, AUTODOC, fresh], problem_keys([BINARY, AUTODOC]))

    assert start_warning_lines(problems, SEE) == [
        "skipped file guide.pdf: is encrypted (needs a password)",
        "2 more reading notes, see `tui-assistant library`",
    ]


def test_a_changed_message_is_a_new_problem() -> None:
    changed = FileProblem("binary.md", "empty")
    (marked,) = marked_new([changed], problem_keys([BINARY]))
    assert marked.new
    assert start_warning_lines([marked], SEE) == ["skipped file binary.md: empty"]


def test_new_include_only_pages_are_still_grouped() -> None:
    pages = [FileProblem(f"part{n}.rst", INCLUDES_ONLY) for n in range(5)]
    (line,) = start_warning_lines(pages, SEE)
    assert line.startswith("skipped 5 files that only include other documents")
