"""Whole lesson folders loaded: the bundled lessons, titles and passages with their
source lines, and messy folders, where every readable document loads (whatever its
name), each bad file is named once with its reason, a symlink's target is never read,
and a folder with no document with text is a `LibraryError`, never a hang.

The same folders through the CLI are in `tests/e2e/test_cli_lessons.py`."""

from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from tests.helpers import BUNDLED_LESSONS, memory_library, write_lesson
from tests.helpers.messy_library import (
    EXPECTED_DOCUMENTS,
    EXPECTED_REASONS,
    GOOD_TEXT,
    write_thousands_of_lessons,
)
from tui_assistant.core.library.library import FileProblem, Library
from tui_assistant.errors import LibraryError
from tui_assistant.store.folder import MAX_BYTES


def problems_by_name(library: Library | LibraryError) -> dict[str, str]:
    names = [problem.path for problem in library.problems]
    assert len(names) == len(set(names)), "a bad file was reported more than once"
    return {problem.path: problem.reason for problem in library.problems}


def load_within(folder: Path, seconds: float = 20) -> Library:
    """Load in a daemon thread so that a regression that blocks on a FIFO fails the
    test instead of hanging the whole suite."""
    result: list[Library | BaseException] = []

    def run() -> None:
        try:
            result.append(memory_library(folder))
        except BaseException as error:  # handed back to the test thread
            result.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert result, f"loading {folder} did not finish within {seconds} s"
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]


def test_readable_documents_load_and_each_bad_file_is_named_once_with_its_reason(
    messy: Path,
) -> None:
    library = load_within(messy)

    assert [(info.id, info.title) for info in library] == list(EXPECTED_DOCUMENTS.items())
    knife = library.get("crlf-bom")
    assert knife is not None
    assert knife.title == "Knife care"
    assert knife.text == "Dry the knife by hand after washing."
    assert (knife.line, knife.end_line) == (1, 3)
    nested = library.get("sub/nested")
    assert nested is not None and nested.source_path == "lessons/sub/nested.md"
    inside = library.get("folder-md/inside")
    assert inside is not None and inside.source_path == "lessons/folder.md/inside.md"
    untitled = library.get("no-title")
    assert untitled is not None and untitled.text == "Just some text without a heading."
    # Hidden names (".md") are skipped without a word; other files are ignored.
    assert all(
        not info.source_path.endswith(("/.md", ".odt", ".png", "README")) for info in library
    )
    reasons = problems_by_name(library)
    assert set(reasons) == set(EXPECTED_REASONS)
    for name, expected in EXPECTED_REASONS.items():
        assert expected in reasons[name], (name, reasons[name])


def test_symlinks_are_never_followed_to_outside_or_inside(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    # Content that would load as a valid lesson if the link were followed.
    secret = write_lesson(outside, "secret", "Secret lesson", "The launch code is 1234.")
    os.mkfifo(outside / "pipe")
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    (folder / "secret.md").symlink_to(secret)
    (folder / "alias.md").symlink_to(folder / "pasta-water.md")
    (folder / "relative.md").symlink_to("pasta-water.md")
    # Opening a FIFO for reading blocks until a writer comes: following it would hang.
    (folder / "pipe.md").symlink_to(outside / "pipe")
    (folder / "dangling.md").symlink_to(tmp_path / "missing.md")
    (folder / "dir-link.md").symlink_to(outside)

    library = load_within(folder)

    assert [lesson.id for lesson in library] == ["pasta-water"]
    texts = [library.passage(number).text for number in range(len(library))]
    assert all("launch code" not in text for text in texts)
    reasons = problems_by_name(library)
    assert set(reasons) == {
        "secret.md",
        "alias.md",
        "relative.md",
        "pipe.md",
        "dangling.md",
        "dir-link.md",
    }
    assert all(reason == "is a symlink (not followed)" for reason in reasons.values())


def test_symlink_targets_are_never_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only unused: the target is never even opened, so reading it cannot leak."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = write_lesson(outside, "secret", "Secret lesson", "The launch code is 1234.")
    folder = tmp_path / "lessons"
    folder.mkdir()
    good = write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    (folder / "secret.md").symlink_to(secret)
    opened: list[str] = []
    real_open = os.open

    def recording_open(path: str, flags: int, *args: int, **kwargs: int) -> int:
        opened.append(os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", recording_open)
    memory_library(folder)

    assert opened == [str(good)]


def test_a_50_mb_file_is_refused_without_being_read(tmp_path: Path) -> None:
    # MAX_BYTES["md"] caps what is read: a 50 MB Markdown file is a mistake, and
    # reading it would cost memory and time for nothing.
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    with (folder / "huge.md").open("wb") as huge:
        huge.write(b"# Huge\n\n")
        huge.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper, no disk used

    tracemalloc.start()
    try:
        library = memory_library(folder)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert [lesson.id for lesson in library] == ["pasta-water"]
    assert problems_by_name(library) == {"huge.md": "larger than 1 MiB"}
    assert peak < 5 * 1024 * 1024


def test_the_size_cap_is_exact(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    head = b"# Long lesson\n\n"
    filler = b"salt water pasta. " * (MAX_BYTES["md"] // 18 + 1)
    (folder / "at-cap.md").write_bytes((head + filler)[: MAX_BYTES["md"]])
    (folder / "over-cap.md").write_bytes((head + filler)[: MAX_BYTES["md"] + 1])

    library = memory_library(folder)

    # The document at the cap is read whole (cut into passages of at most 4,000 characters).
    assert [document.path for document in library.documents] == ["at-cap.md"]
    assert library.passages[0].id == "at-cap"
    assert library.passages[-1].end_line == 3  # the filler is one long line after the title
    assert problems_by_name(library) == {"over-cap.md": "larger than 1 MiB"}


def test_thousands_of_files_load(tmp_path: Path) -> None:
    folder = write_thousands_of_lessons(tmp_path)

    library = memory_library(folder)

    assert len(library) == 3000
    assert library.get("lesson-2999") is not None
    assert len(library.problems) == 50


def test_no_document_with_text_is_an_error_that_names_every_skipped_file(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "empty.md").write_bytes(b"")
    (folder / "Bad.md").write_text("# Bad\n\n## Headings only\n")
    (folder / "notes.odt").write_text("<p>text</p>\n")

    with pytest.raises(LibraryError) as caught:
        memory_library(folder)

    assert str(caught.value).endswith("has no document with text (2 skipped)")
    assert caught.value.problems == (
        FileProblem("Bad.md", "has no text (headings only)"),
        FileProblem("empty.md", "empty"),
    )


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
