"""The index store keeps the problems a start met, so the next start can tell the new
ones (same file and message: known; anything else: new)."""

from __future__ import annotations

import os
from pathlib import Path

from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library


def newness(folder: Path, data_dir: Path | None) -> dict[str, bool]:
    library = open_library(folder, data_dir, stem)
    try:
        return {problem.path: problem.new for problem in library.problems}
    finally:
        library.close()


def test_the_second_start_knows_the_first_starts_problems(folder: Path, data_dir: Path) -> None:
    (folder / "binary.md").write_bytes(b"\x00\x01\x02")
    (folder / "empty.md").write_text("")

    assert newness(folder, data_dir) == {"binary.md": True, "empty.md": True}
    assert newness(folder, data_dir) == {"binary.md": False, "empty.md": False}
    assert newness(folder, data_dir) == {"binary.md": False, "empty.md": False}


def test_a_problem_that_appears_or_changes_is_new_once(folder: Path, data_dir: Path) -> None:
    (folder / "binary.md").write_bytes(b"\x00\x01\x02")
    newness(folder, data_dir)
    (folder / "late.md").write_text("")
    binary = folder / "binary.md"
    binary.write_text("")  # now empty: another message
    os.utime(binary, ns=(10**18, 10**18))

    assert newness(folder, data_dir) == {"binary.md": True, "late.md": True}
    assert newness(folder, data_dir) == {"binary.md": False, "late.md": False}


def test_a_problem_that_went_away_and_came_back_is_new_again(folder: Path, data_dir: Path) -> None:
    broken = folder / "binary.md"
    broken.write_bytes(b"\x00\x01\x02")
    newness(folder, data_dir)
    broken.unlink()
    assert newness(folder, data_dir) == {}
    broken.write_bytes(b"\x00\x01\x02")
    assert newness(folder, data_dir) == {"binary.md": True}


def test_without_a_data_folder_every_problem_is_new(folder: Path) -> None:
    (folder / "binary.md").write_bytes(b"\x00\x01\x02")
    assert newness(folder, None) == {"binary.md": True}
    assert newness(folder, None) == {"binary.md": True}
