"""A messy lesson folder: good lessons, documents with odd names or no title, and one
of every kind of bad entry; with what loading it must give."""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers import write_lesson

GOOD_TEXT = "Salt the water well before the pasta goes in."


def write_messy_library(tmp_path: Path) -> Path:
    """Write `tmp_path/lessons`: one folder holding good lessons, documents with odd names or no title, and one of
    every kind of bad entry."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    (folder / "crlf-bom.md").write_bytes(
        b"\xef\xbb\xbf# Knife care\r\n\r\nDry the knife by hand after washing.\r\n"
    )
    # Any file name is fine: the id is derived from it.
    for name in ("Upper.md", "under_score.md", "double--hyphen.md", "-lead.md", "tail-.md"):
        write_lesson(folder, name.removesuffix(".md"), "Some title", GOOD_TEXT)
    (folder / ".md").write_text("# Hidden\n\ntext\n")
    (folder / "sp ace.md").write_text("# Spaced\n\ntext\n")
    (folder / "new\nline.md").write_text("# Newline\n\ntext\n")
    # No "# " title (or one with nothing visible): titled with the file name.
    (folder / "no-title.md").write_text("Just some text without a heading.\n")
    (folder / "hash-no-space.md").write_text("#Title\n\ntext\n")
    (folder / "escape-title.md").write_text("# \x1b[31m\x1b[0m\n\ntext\n")
    # Bad content.
    (folder / "title-only.md").write_text("# Only a title\n")
    (folder / "empty.md").write_bytes(b"")
    (folder / "blank.md").write_text("  \n\n\t\n")
    (folder / "latin1.md").write_bytes("# Café\n\nCrème brûlée.\n".encode("latin-1"))
    (folder / "binary.md").write_bytes(b"# Title\n\nabc\x00def\n")
    (folder / "nul\nbyte.md").write_bytes(b"# Title\n\n\x00\n")
    # A folder, even one named like a document, is read at any depth.
    (folder / "folder.md").mkdir()
    write_lesson(folder / "folder.md", "inside", "Inside a folder", GOOD_TEXT)
    os.mkfifo(folder / "pipe.md")
    # Not lessons at all, silently ignored.
    (folder / "notes.odt").write_text("<h1>Notes</h1><p>not a lesson</p>\n")
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (folder / "README").write_text("# Readme\n\nnot a lesson\n")
    (folder / "sub").mkdir()
    write_lesson(folder / "sub", "nested", "Nested lesson", GOOD_TEXT)
    return folder


# Library order (by path), each document's derived id and its title.
EXPECTED_DOCUMENTS = {
    "lead": "Some title",  # -lead.md
    "upper": "Some title",  # Upper.md
    "crlf-bom": "Knife care",
    "double-hyphen": "Some title",  # double--hyphen.md
    "escape-title": "escape-title",
    "folder-md/inside": "Inside a folder",
    "hash-no-space": "hash-no-space",
    "new-line": "Newline",  # new\nline.md
    "no-title": "no-title",
    "pasta-water": "Salting pasta water",
    "sp-ace": "Spaced",  # sp ace.md
    "sub/nested": "Nested lesson",
    "tail": "Some title",  # tail-.md
    "under-score": "Some title",  # under_score.md
}


EXPECTED_REASONS = {
    "title-only.md": "has no text",
    "empty.md": "empty",
    "blank.md": "empty",
    "latin1.md": "not UTF-8",
    "binary.md": "binary",
    "nul\nbyte.md": "binary",
    "pipe.md": "not a regular file",
}


def warning_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tui-assistant: warning:")]


def write_thousands_of_lessons(tmp_path: Path) -> Path:
    """Write `tmp_path/lessons`: 3,000 lessons and 50 binary files."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    for number in range(3000):
        write_lesson(folder, f"lesson-{number}", f"Topic {number}", f"Body of lesson {number}.")
    for number in range(50):
        (folder / f"bad-{number}.md").write_bytes(b"# Bad\n\n\x00\n")
    return folder
