"""Messy lesson folders through the CLI: the bad files are one line of stderr (each named
in the library report), the readable documents are listed and answered from, a
symlink's target is never read, and a folder with no document with text is a one-line
error (exit 2) after a line for each bad file, never a traceback or a hang."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import RunCli, write_lesson
from tests.helpers.messy_library import (
    EXPECTED_DOCUMENTS,
    EXPECTED_REASONS,
    GOOD_TEXT,
    warning_lines,
    write_thousands_of_lessons,
)


def test_cli_says_the_bad_files_on_one_line_and_still_answers(messy: Path, run_cli: RunCli) -> None:
    result = run_cli("ask", "--library", str(messy), "--json", "salting pasta water")

    assert result.returncode == 0, result.stderr
    [answer] = result.json_lines()
    assert answer["lesson_id"] == "pasta-water"
    (warning,) = warning_lines(result.stderr)
    assert warning_lines(result.stderr) == result.stderr.splitlines(), "stray stderr output"
    count = len(EXPECTED_REASONS)
    assert warning.startswith(f"tui-assistant: warning: {count} reading notes ({count} new: ")
    assert warning.endswith("more), see `tui-assistant library`")
    assert "\x1b" not in result.stderr
    # The report names each of them, the name with a newline in it escaped.
    report = json.loads(run_cli("library", "--library", str(messy), "--json").stdout)
    named = {file["path"] for file in report["skipped"]["files"]}
    assert set(EXPECTED_REASONS) <= named


def test_lessons_command_lists_only_the_readable_documents(messy: Path, run_cli: RunCli) -> None:
    result = run_cli("passages", "--library", str(messy), "--json")

    assert result.returncode == 0, result.stderr
    assert [row["id"] for row in json.loads(result.stdout)] == list(EXPECTED_DOCUMENTS)


def test_a_symlinked_cli_library_reads_no_target(tmp_path: Path, run_cli: RunCli) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.mkfifo(outside / "pipe")
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    (folder / "pipe.md").symlink_to(outside / "pipe")
    os.mkfifo(folder / "fifo.md")

    result = run_cli("passages", "--library", str(folder), timeout=30)

    assert result.returncode == 0
    assert "pasta-water" in result.stdout
    assert warning_lines(result.stderr) == [
        "tui-assistant: warning: 2 reading notes (2 new: fifo.md, pipe.md),"
        " see `tui-assistant library`"
    ]


@pytest.mark.parametrize("command", ["ask", "passages"])
def test_cli_exits_2_with_one_error_line_when_no_lesson_is_valid(
    tmp_path: Path, run_cli: RunCli, command: str
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "binary.md").write_bytes(b"\x00\x01\x02")
    os.mkfifo(folder / "pipe.md")
    (folder / "link.md").symlink_to(tmp_path)

    result = run_cli(command, "--library", str(folder), *(["question"] if command == "ask" else []))

    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    *warnings, error = result.stderr.splitlines()
    assert error.startswith("tui-assistant: error: library folder ")
    assert error.endswith("has no document with text (3 skipped)")
    assert warnings == [
        "tui-assistant: warning: skipped file binary.md: binary file (contains NUL bytes)",
        "tui-assistant: warning: skipped file link.md: is a symlink (not followed)",
        "tui-assistant: warning: skipped file pipe.md: is not a regular file",
    ]


@pytest.mark.parametrize("kind", ["empty", "missing", "file"])
def test_unusable_folder_is_one_line_exit_2(tmp_path: Path, run_cli: RunCli, kind: str) -> None:
    folder = tmp_path / "lessons"
    if kind == "empty":
        folder.mkdir()
    elif kind == "file":
        folder.write_text("# Not a folder\n\ntext\n")

    result = run_cli("ask", "--library", str(folder), "question")

    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("tui-assistant: error: library folder ")


def test_escape_sequences_in_folder_and_file_names_never_reach_the_terminal(
    tmp_path: Path, run_cli: RunCli
) -> None:
    folder = tmp_path / "less\x1b]0;pwned\x07ons\u202e"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting \x1b[31mpasta\x1b[0m water", GOOD_TEXT)
    (folder / "\x1b[2J\u202ebad.md").write_bytes(b"# Bad\n\n\x00\n")
    # A readable document with escapes in its name loads, under a derived id.
    (folder / "\x1b[31mred\u202e.md").write_text("# Red\n\ntext\n")

    # The only skipped file is said on its own line, escaped, at every start.
    warned = ("skipped file \\x1b[2J\\u202ebad.md: binary file",) * 2
    for args, warning in zip((("lessons",), ("ask", "salting pasta water")), warned, strict=True):
        result = run_cli(*args, "--library", str(folder))

        assert result.returncode == 0, result.stderr
        for output in (result.stdout, result.stderr):
            assert "\x1b" not in output
            assert "\u202e" not in output
        assert warning in result.stderr
        assert "Salting pasta water" in result.stdout
    listed = run_cli("passages", "--library", str(folder), "--json")
    assert [row["id"] for row in json.loads(listed.stdout)] == ["31mred", "pasta-water"]


def test_the_lessons_command_lists_thousands_of_files(tmp_path: Path, run_cli: RunCli) -> None:
    folder = write_thousands_of_lessons(tmp_path)

    result = run_cli("passages", "--library", str(folder), "--json")

    assert result.returncode == 0
    assert len(json.loads(result.stdout)) == 3000
    (warning,) = warning_lines(result.stderr)
    assert warning.startswith("tui-assistant: warning: 50 reading notes (50 new: ")
