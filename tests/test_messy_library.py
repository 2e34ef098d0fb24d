"""Messy lesson folders: good lessons still load, each bad file is named once with its
reason, a symlink's target is never read, and a folder with nothing valid is a
one-line error (exit 2), never a traceback or a hang."""

from __future__ import annotations

import json
import os
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, write_lesson
from tui_assistant.core.lessons import (
    MAX_LESSON_BYTES,
    LessonLibrary,
    LessonProblem,
    LibraryError,
)

GOOD_TEXT = "Salt the water well before the pasta goes in."

RunCli = Callable[..., CliResult]


def problems_by_name(library: LessonLibrary | LibraryError) -> dict[str, str]:
    names = [problem.file_name for problem in library.problems]
    assert len(names) == len(set(names)), "a bad file was reported more than once"
    return {problem.file_name: problem.reason for problem in library.problems}


def load_within(folder: Path, seconds: float = 20) -> LessonLibrary:
    """Load in a daemon thread so that a regression that blocks on a FIFO fails the
    test instead of hanging the whole suite."""
    result: list[LessonLibrary | BaseException] = []

    def run() -> None:
        try:
            result.append(LessonLibrary.load(folder))
        except BaseException as error:  # handed back to the test thread
            result.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert result, f"loading {folder} did not finish within {seconds} s"
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]


def warning_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tui-assistant: warning:")]


@pytest.fixture
def messy(tmp_path: Path) -> Path:
    """One folder holding two good lessons and one of every kind of bad entry."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    (folder / "crlf-bom.md").write_bytes(
        b"\xef\xbb\xbf# Knife care\r\n\r\nDry the knife by hand after washing.\r\n"
    )
    # Invalid ids.
    for name in ("Upper.md", "under_score.md", "double--hyphen.md", "-lead.md", "tail-.md"):
        write_lesson(folder, name.removesuffix(".md"), "Some title", GOOD_TEXT)
    (folder / ".md").write_text("# Hidden\n\ntext\n")
    (folder / "sp ace.md").write_text("# Spaced\n\ntext\n")
    (folder / "new\nline.md").write_text("# Newline\n\ntext\n")
    # Bad content.
    (folder / "no-title.md").write_text("Just some text without a heading.\n")
    (folder / "hash-no-space.md").write_text("#Title\n\ntext\n")
    (folder / "escape-title.md").write_text("# \x1b[31m\x1b[0m\n\ntext\n")
    (folder / "title-only.md").write_text("# Only a title\n")
    (folder / "empty.md").write_bytes(b"")
    (folder / "blank.md").write_text("  \n\n\t\n")
    (folder / "latin1.md").write_bytes("# Café\n\nCrème brûlée.\n".encode("latin-1"))
    (folder / "binary.md").write_bytes(b"# Title\n\nabc\x00def\n")
    # Not files.
    (folder / "folder.md").mkdir()
    write_lesson(folder / "folder.md", "inside", "Inside a folder", GOOD_TEXT)
    os.mkfifo(folder / "pipe.md")
    # Not lessons at all, silently ignored.
    (folder / "notes.txt").write_text("# Notes\n\nnot a lesson\n")
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (folder / "README").write_text("# Readme\n\nnot a lesson\n")
    (folder / "sub").mkdir()
    write_lesson(folder / "sub", "nested", "Nested lesson", GOOD_TEXT)
    return folder


EXPECTED_REASONS = {
    "Upper.md": "invalid id",
    "under_score.md": "invalid id",
    "double--hyphen.md": "invalid id",
    "-lead.md": "invalid id",
    "tail-.md": "invalid id",
    ".md": "invalid id",
    "sp ace.md": "invalid id",
    "new\nline.md": "invalid id",
    "no-title.md": "no title",
    "hash-no-space.md": "no title",
    "escape-title.md": "no title",
    "title-only.md": "empty (a title and no text)",
    "empty.md": "empty",
    "blank.md": "empty",
    "latin1.md": "not UTF-8",
    "binary.md": "binary",
    "folder.md": "not a regular file",
    "pipe.md": "not a regular file",
}


def test_good_lessons_load_and_each_bad_file_is_named_once_with_its_reason(
    messy: Path,
) -> None:
    library = load_within(messy)

    assert [lesson.id for lesson in library] == ["crlf-bom", "pasta-water"]
    knife = library.get("crlf-bom")
    assert knife is not None
    assert knife.title == "Knife care"
    assert knife.text == "Dry the knife by hand after washing."
    reasons = problems_by_name(library)
    assert set(reasons) == set(EXPECTED_REASONS)
    for name, expected in EXPECTED_REASONS.items():
        assert expected in reasons[name], (name, reasons[name])


def test_cli_names_each_bad_file_once_on_one_line_and_still_answers(
    messy: Path, run_cli: RunCli
) -> None:
    result = run_cli("ask", "--lessons", str(messy), "--json", "salting pasta water")

    assert result.returncode == 0, result.stderr
    [answer] = result.json_lines()
    assert answer["lesson_id"] == "pasta-water"
    warnings = warning_lines(result.stderr)
    assert len(warnings) == len(EXPECTED_REASONS)
    assert warning_lines(result.stderr) == result.stderr.splitlines(), "stray stderr output"
    # The file name with a newline in it is shown escaped, on its own single line.
    assert sum("new\\x0aline.md: invalid id" in line for line in warnings) == 1
    for name in EXPECTED_REASONS:
        if "\n" not in name:
            assert sum(f"skipped lesson file {name}:" in line for line in warnings) == 1, name
    assert "\x1b" not in result.stderr


def test_lessons_command_lists_only_the_good_lessons(messy: Path, run_cli: RunCli) -> None:
    result = run_cli("lessons", "--lessons", str(messy), "--json")

    assert result.returncode == 0, result.stderr
    assert [row["id"] for row in json.loads(result.stdout)] == ["crlf-bom", "pasta-water"]


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
    assert all("launch code" not in lesson.text for lesson in library)
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
    LessonLibrary.load(folder)

    assert opened == [str(good)]


def test_a_symlinked_cli_library_reads_no_target(tmp_path: Path, run_cli: RunCli) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.mkfifo(outside / "pipe")
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    (folder / "pipe.md").symlink_to(outside / "pipe")
    os.mkfifo(folder / "fifo.md")

    result = run_cli("lessons", "--lessons", str(folder), timeout=30)

    assert result.returncode == 0
    assert "pasta-water" in result.stdout
    assert warning_lines(result.stderr) == [
        "tui-assistant: warning: skipped lesson file fifo.md: is not a regular file",
        "tui-assistant: warning: skipped lesson file pipe.md: is a symlink (not followed)",
    ]


def test_a_50_mb_file_is_refused_without_being_read(tmp_path: Path) -> None:
    # MAX_LESSON_BYTES caps what is read: a lesson is a passage sent whole to a model
    # and shown whole on screen, so a 50 MB file is a mistake, and reading it would
    # cost memory and time for nothing.
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", GOOD_TEXT)
    with (folder / "huge.md").open("wb") as huge:
        huge.write(b"# Huge\n\n")
        huge.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper, no disk used

    tracemalloc.start()
    try:
        library = LessonLibrary.load(folder)
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
    filler = b"salt water pasta. " * (MAX_LESSON_BYTES // 18 + 1)
    (folder / "at-cap.md").write_bytes((head + filler)[:MAX_LESSON_BYTES])
    (folder / "over-cap.md").write_bytes((head + filler)[: MAX_LESSON_BYTES + 1])

    library = LessonLibrary.load(folder)

    assert [lesson.id for lesson in library] == ["at-cap"]
    assert problems_by_name(library) == {"over-cap.md": "larger than 1 MiB"}


def test_thousands_of_files_load(tmp_path: Path, run_cli: RunCli) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    for number in range(3000):
        write_lesson(folder, f"lesson-{number}", f"Topic {number}", f"Body of lesson {number}.")
    for number in range(50):
        (folder / f"Bad{number}.md").write_text("# Bad\n\ntext\n")

    library = LessonLibrary.load(folder)

    assert len(library) == 3000
    assert library.get("lesson-2999") is not None
    assert len(library.problems) == 50
    result = run_cli("lessons", "--lessons", str(folder), "--json")
    assert result.returncode == 0
    assert len(json.loads(result.stdout)) == 3000
    assert len(warning_lines(result.stderr)) == 50


def test_no_valid_lesson_is_an_error_that_names_every_skipped_file(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "empty.md").write_bytes(b"")
    (folder / "Bad.md").write_text("# Bad\n\ntext\n")
    (folder / "notes.txt").write_text("# Notes\n\ntext\n")

    with pytest.raises(LibraryError) as caught:
        LessonLibrary.load(folder)

    assert "no valid lesson" in str(caught.value)
    assert caught.value.problems == (
        LessonProblem("Bad.md", "invalid id (use lower-case letters, digits and single hyphens)"),
        LessonProblem("empty.md", "empty"),
    )


@pytest.mark.parametrize("command", ["ask", "lessons"])
def test_cli_exits_2_with_one_error_line_when_no_lesson_is_valid(
    tmp_path: Path, run_cli: RunCli, command: str
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "binary.md").write_bytes(b"\x00\x01\x02")
    os.mkfifo(folder / "pipe.md")
    (folder / "link.md").symlink_to(tmp_path)

    result = run_cli(command, "--lessons", str(folder), *(["question"] if command == "ask" else []))

    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    *warnings, error = result.stderr.splitlines()
    assert error.startswith("tui-assistant: error: lessons folder ")
    assert error.endswith("has no valid lesson (3 skipped)")
    assert warnings == [
        "tui-assistant: warning: skipped lesson file binary.md: binary file (contains NUL bytes)",
        "tui-assistant: warning: skipped lesson file link.md: is a symlink (not followed)",
        "tui-assistant: warning: skipped lesson file pipe.md: is not a regular file",
    ]


@pytest.mark.parametrize("kind", ["empty", "missing", "file"])
def test_unusable_folder_is_one_line_exit_2(tmp_path: Path, run_cli: RunCli, kind: str) -> None:
    folder = tmp_path / "lessons"
    if kind == "empty":
        folder.mkdir()
    elif kind == "file":
        folder.write_text("# Not a folder\n\ntext\n")

    result = run_cli("ask", "--lessons", str(folder), "question")

    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("tui-assistant: error: lessons folder ")


def test_escape_sequences_in_folder_and_file_names_never_reach_the_terminal(
    tmp_path: Path, run_cli: RunCli
) -> None:
    folder = tmp_path / "less\x1b]0;pwned\x07ons\u202e"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting \x1b[31mpasta\x1b[0m water", GOOD_TEXT)
    (folder / "\x1b[2J\u202ebad.md").write_text("# Bad\n\ntext\n")

    for args in (("lessons",), ("ask", "salting pasta water")):
        result = run_cli(*args, "--lessons", str(folder))

        assert result.returncode == 0, result.stderr
        for output in (result.stdout, result.stderr):
            assert "\x1b" not in output
            assert "\u202e" not in output
        assert "skipped lesson file \\x1b[2J\\u202ebad.md: invalid id" in result.stderr
        assert "Salting pasta water" in result.stdout
