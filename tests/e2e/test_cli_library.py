"""`tui-assistant library` run as a user runs it: the report of a messy folder agrees
with what `passages` lists and with every file the other commands warn about, no file
name reaches the terminal raw, and an unusable folder is one error line (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import RunCli, write_lesson
from tests.helpers.messy_library import EXPECTED_REASONS, GOOD_TEXT, warning_lines


def test_the_report_agrees_with_the_passages_and_the_warnings(messy: Path, run_cli: RunCli) -> None:
    listed = run_cli("passages", "--library", str(messy), "--json")
    reported = run_cli("library", "--library", str(messy), "--json")

    assert reported.returncode == 0, reported.stderr
    assert reported.stderr == ""
    data = json.loads(reported.stdout)
    assert data["passages"]["total"] == len(json.loads(listed.stdout))
    warned = len(EXPECTED_REASONS)
    (warning,) = warning_lines(listed.stderr)
    assert f"warning: {warned} reading notes ({warned} new: " in warning
    # Every file the warning counts, and the hidden `.md` nobody is warned about.
    assert data["skipped"]["total"] == warned + 1
    assert data["skipped"]["by_reason"]["hidden"] == 1
    assert Path(data["store"]["path"]).is_file()


def test_the_readable_report_shows_no_raw_escape(tmp_path: Path, run_cli: RunCli) -> None:
    folder = tmp_path / "notes\x1b]0;pwned\x07"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    (folder / "\x1b[2J\u202ebad.md").write_bytes(b"# Bad\n\n\x00\n")

    result = run_cli("library", "--library", str(folder))

    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "    \\x1b[2J\\u202ebad.md" in result.stdout.splitlines()
    assert "documents: 1 (md 1)" in result.stdout.splitlines()


def test_a_folder_with_no_document_is_one_error_line_after_its_warnings(
    tmp_path: Path, run_cli: RunCli
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "binary.md").write_bytes(b"\x00\x01")

    result = run_cli("library", "--library", str(folder), "--json")

    assert result.returncode == 2
    assert result.stdout == ""
    *warnings, error = result.stderr.splitlines()
    assert warnings == [
        "tui-assistant: warning: skipped file binary.md: binary file (contains NUL bytes)"
    ]
    assert error.startswith("tui-assistant: error: library folder ")
