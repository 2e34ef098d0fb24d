"""A library folder that cannot be looked into ends every command with one line naming
the folder and why (exit 2), never a traceback; a sub-folder that cannot be read is a
warning that says "folder".

The tests run as root, whom permissions do not stop, so the refusal is the system's
own `PermissionError`, raised where the folder is looked at."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tui_assistant import cli

COMMANDS = {
    "ask": ["ask", "how long to boil"],
    "status": ["status"],
    "library": ["library"],
    "search": ["search", "how long to boil"],
    "mcp": ["mcp"],
    "passages": ["passages"],
}


@pytest.fixture
def folder(tmp_path: Path, clean_env: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "eggs.md").write_text("# Eggs\n\nBoil eggs for nine minutes.\n", encoding="utf-8")
    return docs


def refuse(monkeypatch: pytest.MonkeyPatch, refused: set[Path]) -> None:
    """Looking at any of `refused` (stat or listing) is denied, as for a folder without
    permissions."""
    denied = {os.fspath(path) for path in refused}

    def deny(path: Any) -> None:
        if os.fspath(path) in denied:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))

    real_stat, real_scandir = Path.stat, os.scandir

    def stat(self: Path, *, follow_symlinks: bool = True) -> os.stat_result:
        deny(self)
        return real_stat(self, follow_symlinks=follow_symlinks)

    def scandir(path: Any = ".") -> Any:
        deny(path)
        return real_scandir(path)

    monkeypatch.setattr(Path, "stat", stat)
    monkeypatch.setattr(os, "scandir", scandir)


# What cannot be looked into: the folder's contents (no permission on the folder), or
# the folder itself (no permission on its parent).
SITUATIONS: dict[str, Callable[[Path], set[Path]]] = {
    "its contents": lambda folder: {folder / ".fetched.json", folder},
    "the folder itself": lambda folder: {folder},
}


@pytest.mark.parametrize("situation", sorted(SITUATIONS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unreadable_library_folder_is_one_line_naming_it(
    command: str,
    situation: str,
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    refuse(monkeypatch, SITUATIONS[situation](folder))
    assert cli.main([*COMMANDS[command], "--library", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"tui-assistant: error: library folder {folder} cannot be read: Permission denied"
    ]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_given_as_the_library_is_one_line(
    command: str, tmp_path: Path, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# Notes\n\nA file, not a folder.\n", encoding="utf-8")
    assert cli.main([*COMMANDS[command], "--library", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"tui-assistant: error: library folder {path} is not a folder"
    ]


def test_an_unreadable_sub_folder_is_a_warning_that_says_folder(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "more").mkdir()
    (folder / "more" / "tea.md").write_text("# Tea\n\nSteep for three minutes.\n")
    refuse(monkeypatch, {folder / "more"})
    assert cli.main(["passages", "--library", str(folder)]) == 0
    captured = capsys.readouterr()
    assert captured.out.split()[0] == "eggs"
    assert captured.err.splitlines() == [
        "tui-assistant: warning: skipped folder more: cannot be read (Permission denied)"
    ]
