"""The lesson library: ids, titles, source paths and lines, and every kind of bad file
skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import BUNDLED_LESSONS, memory_library, write_lesson
from tui_assistant.core.library import LibraryError
from tui_assistant.core.passages import PASSAGE_ID


def test_bundled_lessons_load_with_ids_titles_and_source_paths() -> None:
    library = memory_library(BUNDLED_LESSONS)
    assert len(library) >= 3
    pasta = library.get("pasta-water")
    assert pasta is not None
    assert pasta.title == "Salting pasta water"
    assert pasta.source_path == "lessons/pasta-water.md"
    assert pasta.line == 1
    assert pasta.end_line >= pasta.line
    assert not pasta.text.startswith("#")
    assert "salt" in pasta.text.lower()
    assert library.problems == ()


def test_title_is_the_first_hash_line_and_each_heading_starts_a_passage(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "rice.md").write_text(
        "Intro line.\n# Cooking rice\nRinse it.\n# Second heading\nMore.\n", encoding="utf-8"
    )
    library = memory_library(tmp_path / "notes")
    intro, rice, second = (library.passage(number) for number in range(len(library)))
    assert [document.title for document in library.documents] == ["Cooking rice"]
    # Text before the first heading is a passage titled with the document title.
    assert (intro.id, intro.title, intro.text) == ("rice", "Cooking rice", "Intro line.")
    assert (intro.source_path, intro.line, intro.end_line) == ("notes/rice.md", 1, 1)
    assert rice.id.startswith("rice#")
    assert (rice.title, rice.text, rice.line, rice.end_line) == ("Cooking rice", "Rinse it.", 2, 3)
    assert second.id == "rice#second-heading"
    assert second.title == "Cooking rice › Second heading"
    assert (second.text, second.line, second.end_line) == ("More.", 4, 5)
    assert {passage.source_path for passage in (intro, rice, second)} == {"notes/rice.md"}


@pytest.mark.parametrize("lesson_id", ["pasta-water", "a", "a1-b2-c3", "2024"])
def test_valid_ids(lesson_id: str) -> None:
    assert PASSAGE_ID.match(lesson_id)


@pytest.mark.parametrize(
    "lesson_id", ["Pasta", "pasta_water", "-pasta", "pasta-", "a--b", "a b", "é"]
)
def test_invalid_ids(lesson_id: str) -> None:
    assert not PASSAGE_ID.match(lesson_id)


def _problems(folder: Path) -> dict[str, str]:
    return {p.path: p.reason for p in memory_library(folder).problems}


def test_each_kind_of_bad_file_is_skipped_and_named_with_its_reason(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "good", "A good lesson", "Some text.")
    write_lesson(folder, "Bad_Name", "Any name", "Text.")
    (folder / "untitled.md").write_text("No heading here.\n", encoding="utf-8")
    (folder / "blank.md").write_text("  \n\n", encoding="utf-8")
    (folder / "latin1.md").write_bytes("# Caf\xe9\n\ncr\xe8me".encode("latin-1"))
    (folder / "binary.md").write_bytes(b"# Title\n\x00\x01\x02")
    (folder / "folder.md").mkdir()
    write_lesson(folder / "folder.md", "inner", "Nested", "Read from a sub-folder.")
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nSecret text.\n", encoding="utf-8")
    (folder / "link.md").symlink_to(outside)
    (folder / "notes.txt").write_text("not a lesson", encoding="utf-8")

    library = memory_library(folder)
    # Any file name gives an id; a file without a "# " title is titled with its name;
    # a folder (even one named like a document) is read as a sub-folder.
    assert {info.id: info.title for info in library} == {
        "bad-name": "Any name",
        "folder-md/inner": "Nested",
        "good": "A good lesson",
        "untitled": "untitled",
    }
    nested = library.get("folder-md/inner")
    assert nested is not None and nested.source_path == "lessons/folder.md/inner.md"
    problems = _problems(folder)
    assert set(problems) == {"blank.md", "latin1.md", "binary.md", "link.md"}
    assert "empty" in problems["blank.md"]
    assert "UTF-8" in problems["latin1.md"]
    assert "binary" in problems["binary.md"]
    assert "symlink" in problems["link.md"]


def test_a_symlink_to_a_lesson_inside_the_library_is_skipped_too(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "real", "Real", "Text.")
    (folder / "alias.md").symlink_to(folder / "real.md")
    assert [lesson.id for lesson in memory_library(folder)] == ["real"]
    assert "symlink" in _problems(folder)["alias.md"]


def test_a_title_with_no_text_is_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "real", "Real", "Text.")
    (folder / "bare.md").write_text("# Only a title\n", encoding="utf-8")
    assert "no text" in _problems(folder)["bare.md"]


def test_missing_folder_is_a_library_error(tmp_path: Path) -> None:
    with pytest.raises(LibraryError, match="does not exist"):
        memory_library(tmp_path / "nowhere")


def test_a_file_instead_of_a_folder_is_a_library_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(LibraryError, match="not a folder"):
        memory_library(tmp_path / "file")


def test_a_folder_with_no_document_with_text_is_a_library_error(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "headings.md").write_text("# Only\n## Headings\n", encoding="utf-8")
    with pytest.raises(LibraryError, match="has no Markdown document with text \\(1 skipped\\)"):
        memory_library(folder)


def test_a_fifo_named_like_a_lesson_does_not_hang(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "real", "Real", "Text.")
    os.mkfifo(folder / "pipe.md")
    assert [lesson.id for lesson in memory_library(folder)] == ["real"]
    assert "not a regular file" in _problems(folder)["pipe.md"]
