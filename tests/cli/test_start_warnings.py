"""A library's reading problems at start: one line at every start, naming the new ones
(`12 reading notes (12 new: ...), see ...` the first time, `12 reading notes, see ...`
after); the `library` report lists them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import write_lesson
from tui_assistant import cli

pytestmark = pytest.mark.usefixtures("clean_env")

SUMMARY = "tui-assistant: warning: 12 reading notes, see `tui-assistant library`"
COMMANDS = (
    ["status"],
    ["search", "salting pasta water"],
    ["ask", "How much salt goes in pasta water?"],
)


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "kitchen"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", "Use ten grams of salt a litre.")
    for number in range(12):
        (folder / f"broken-{number:02}.md").write_bytes(b"# Broken\n\n\x00\n")
    monkeypatch.setenv("TUI_ASSISTANT_LIBRARY", str(folder))
    return folder


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("tui-assistant: warning:")]


def test_the_first_start_is_one_line_naming_the_new_problems_and_later_starts_too(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["status"]) == 0
    assert warnings(capsys.readouterr().err) == [
        "tui-assistant: warning: 12 reading notes (12 new: broken-00.md, broken-01.md and"
        " 10 more), see `tui-assistant library`"
    ]

    for command in COMMANDS:
        cli.main(command)
        assert warnings(capsys.readouterr().err) == [SUMMARY], command


def test_a_new_problem_is_named_as_new_in_the_one_line(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli.main(["status"])
    capsys.readouterr()
    (library / "late.md").write_text("")

    cli.main(["search", "salting pasta water"])
    assert warnings(capsys.readouterr().err) == [
        "tui-assistant: warning: 13 reading notes (1 new: late.md), see `tui-assistant library`"
    ]
    cli.main(["search", "salting pasta water"])
    assert warnings(capsys.readouterr().err) == [
        "tui-assistant: warning: 13 reading notes, see `tui-assistant library`"
    ]


def test_the_library_report_lists_every_problem_after_the_summary(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli.main(["status"])
    cli.main(["status"])
    capsys.readouterr()

    assert cli.main(["library", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["skipped"]["by_reason"]["binary"] == 12
    assert len(report["skipped"]["files"]) == 12

    assert cli.main(["library"]) == 0
    readable = capsys.readouterr().out
    assert "skipped: 12 files" in readable
    assert "broken-00.md" in readable


def test_a_library_with_one_problem_says_that_problem_at_every_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "kitchen"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", "Use ten grams of salt a litre.")
    (folder / "broken.md").write_bytes(b"# Broken\n\n\x00\n")
    monkeypatch.setenv("TUI_ASSISTANT_LIBRARY", str(folder))
    own = "tui-assistant: warning: skipped file broken.md: binary file (contains NUL bytes)"
    for _ in range(2):
        cli.main(["status"])
        assert warnings(capsys.readouterr().err) == [own]
