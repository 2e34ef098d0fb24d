"""The lesson library: ids, titles, source paths, and every kind of bad file skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import BUNDLED_LESSONS, write_lesson
from tui_assistant.core.lessons import LESSON_ID, LessonLibrary, LibraryError


def test_bundled_lessons_load_with_ids_titles_and_source_paths() -> None:
    library = LessonLibrary.load(BUNDLED_LESSONS)
    assert len(library) >= 3
    pasta = library.get("pasta-water")
    assert pasta is not None
    assert pasta.title == "Salting pasta water"
    assert pasta.source_path == "lessons/pasta-water.md"
    assert not pasta.text.startswith("#")
    assert "salt" in pasta.text.lower()
    assert library.problems == ()


def test_title_is_the_first_hash_line_and_text_is_the_rest(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "rice.md").write_text(
        "Intro line.\n# Cooking rice\nRinse it.\n# Second heading\nMore.\n", encoding="utf-8"
    )
    lesson = LessonLibrary.load(tmp_path / "notes").lessons[0]
    assert lesson.id == "rice"
    assert lesson.title == "Cooking rice"
    assert lesson.text == "Intro line.\nRinse it.\n# Second heading\nMore."
    assert lesson.source_path == "notes/rice.md"


@pytest.mark.parametrize("lesson_id", ["pasta-water", "a", "a1-b2-c3", "2024"])
def test_valid_ids(lesson_id: str) -> None:
    assert LESSON_ID.match(lesson_id)


@pytest.mark.parametrize(
    "lesson_id", ["Pasta", "pasta_water", "-pasta", "pasta-", "a--b", "a b", "é"]
)
def test_invalid_ids(lesson_id: str) -> None:
    assert not LESSON_ID.match(lesson_id)


def _problems(folder: Path) -> dict[str, str]:
    return {p.file_name: p.reason for p in LessonLibrary.load(folder).problems}


def test_each_kind_of_bad_file_is_skipped_and_named_with_its_reason(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "good", "A good lesson", "Some text.")
    write_lesson(folder, "Bad_Name", "Bad id", "Text.")
    (folder / "untitled.md").write_text("No heading here.\n", encoding="utf-8")
    (folder / "blank.md").write_text("  \n\n", encoding="utf-8")
    (folder / "latin1.md").write_bytes("# Caf\xe9\n\ncr\xe8me".encode("latin-1"))
    (folder / "binary.md").write_bytes(b"# Title\n\x00\x01\x02")
    (folder / "folder.md").mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nSecret text.\n", encoding="utf-8")
    (folder / "link.md").symlink_to(outside)
    (folder / "notes.txt").write_text("not a lesson", encoding="utf-8")

    library = LessonLibrary.load(folder)
    assert [lesson.id for lesson in library] == ["good"]
    problems = _problems(folder)
    assert set(problems) == {
        "Bad_Name.md",
        "untitled.md",
        "blank.md",
        "latin1.md",
        "binary.md",
        "folder.md",
        "link.md",
    }
    assert "invalid id" in problems["Bad_Name.md"]
    assert "no title" in problems["untitled.md"]
    assert "empty" in problems["blank.md"]
    assert "UTF-8" in problems["latin1.md"]
    assert "binary" in problems["binary.md"]
    assert "not a regular file" in problems["folder.md"]
    assert "symlink" in problems["link.md"]


def test_a_symlink_to_a_lesson_inside_the_library_is_skipped_too(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "real", "Real", "Text.")
    (folder / "alias.md").symlink_to(folder / "real.md")
    assert [lesson.id for lesson in LessonLibrary.load(folder)] == ["real"]
    assert "symlink" in _problems(folder)["alias.md"]


def test_a_title_with_no_text_is_empty(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "real", "Real", "Text.")
    (folder / "bare.md").write_text("# Only a title\n", encoding="utf-8")
    assert "empty" in _problems(folder)["bare.md"]


def test_missing_folder_is_a_library_error(tmp_path: Path) -> None:
    with pytest.raises(LibraryError, match="does not exist"):
        LessonLibrary.load(tmp_path / "nowhere")


def test_a_file_instead_of_a_folder_is_a_library_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(LibraryError, match="not a folder"):
        LessonLibrary.load(tmp_path / "file")


def test_a_folder_with_no_valid_lesson_is_a_library_error(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "untitled.md").write_text("no title", encoding="utf-8")
    with pytest.raises(LibraryError, match="no valid lesson"):
        LessonLibrary.load(folder)


def test_a_fifo_named_like_a_lesson_does_not_hang(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "real", "Real", "Text.")
    os.mkfifo(folder / "pipe.md")
    assert [lesson.id for lesson in LessonLibrary.load(folder)] == ["real"]
    assert "not a regular file" in _problems(folder)["pipe.md"]
