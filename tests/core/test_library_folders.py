"""Messy lesson folders: every readable document loads (whatever its name), each bad
file is named once with its reason, a symlink's target is never read, and a folder with
no document with text is a one-line error (exit 2), never a traceback or a hang."""

from __future__ import annotations

import json
import os
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import CliResult, memory_library, write_lesson
from tui_assistant.core.library import MAX_DOCUMENT_BYTES, FileProblem, Library, LibraryError

GOOD_TEXT = "Salt the water well before the pasta goes in."

RunCli = Callable[..., CliResult]


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


def warning_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tui-assistant: warning:")]


@pytest.fixture
def messy(tmp_path: Path) -> Path:
    """One folder holding good lessons, documents with odd names or no title, and one of
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
    (folder / "notes.txt").write_text("# Notes\n\nnot a lesson\n")
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
    untitled = library.get("no-title")
    assert untitled is not None and untitled.text == "Just some text without a heading."
    # Hidden names (".md") are skipped without a word; other files are ignored.
    assert all(
        not info.source_path.endswith(("/.md", ".txt", ".png", "README")) for info in library
    )
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
    assert sum("skipped file nul\\x0abyte.md: binary" in line for line in warnings) == 1
    for name in EXPECTED_REASONS:
        if "\n" not in name:
            assert sum(f"skipped file {name}:" in line for line in warnings) == 1, name
    assert "\x1b" not in result.stderr


def test_lessons_command_lists_only_the_readable_documents(messy: Path, run_cli: RunCli) -> None:
    result = run_cli("lessons", "--lessons", str(messy), "--json")

    assert result.returncode == 0, result.stderr
    assert [row["id"] for row in json.loads(result.stdout)] == list(EXPECTED_DOCUMENTS)


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
        "tui-assistant: warning: skipped file fifo.md: is not a regular file",
        "tui-assistant: warning: skipped file pipe.md: is a symlink (not followed)",
    ]


def test_a_50_mb_file_is_refused_without_being_read(tmp_path: Path) -> None:
    # MAX_DOCUMENT_BYTES caps what is read: a 50 MB Markdown file is a mistake, and
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
    filler = b"salt water pasta. " * (MAX_DOCUMENT_BYTES // 18 + 1)
    (folder / "at-cap.md").write_bytes((head + filler)[:MAX_DOCUMENT_BYTES])
    (folder / "over-cap.md").write_bytes((head + filler)[: MAX_DOCUMENT_BYTES + 1])

    library = memory_library(folder)

    # The document at the cap is read whole (cut into passages of at most 4,000 characters).
    assert [document.path for document in library.documents] == ["at-cap.md"]
    assert library.passages[0].id == "at-cap"
    assert library.passages[-1].end_line == 3  # the filler is one long line after the title
    assert problems_by_name(library) == {"over-cap.md": "larger than 1 MiB"}


def test_thousands_of_files_load(tmp_path: Path, run_cli: RunCli) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    for number in range(3000):
        write_lesson(folder, f"lesson-{number}", f"Topic {number}", f"Body of lesson {number}.")
    for number in range(50):
        (folder / f"bad-{number}.md").write_bytes(b"# Bad\n\n\x00\n")

    library = memory_library(folder)

    assert len(library) == 3000
    assert library.get("lesson-2999") is not None
    assert len(library.problems) == 50
    result = run_cli("lessons", "--lessons", str(folder), "--json")
    assert result.returncode == 0
    assert len(json.loads(result.stdout)) == 3000
    assert len(warning_lines(result.stderr)) == 50


def test_no_document_with_text_is_an_error_that_names_every_skipped_file(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "empty.md").write_bytes(b"")
    (folder / "Bad.md").write_text("# Bad\n\n## Headings only\n")
    (folder / "notes.txt").write_text("# Notes\n\ntext\n")

    with pytest.raises(LibraryError) as caught:
        memory_library(folder)

    assert str(caught.value).endswith("has no Markdown document with text (2 skipped)")
    assert caught.value.problems == (
        FileProblem("Bad.md", "has no text (headings only)"),
        FileProblem("empty.md", "empty"),
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
    assert error.endswith("has no Markdown document with text (3 skipped)")
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
    (folder / "\x1b[2J\u202ebad.md").write_bytes(b"# Bad\n\n\x00\n")
    # A readable document with escapes in its name loads, under a derived id.
    (folder / "\x1b[31mred\u202e.md").write_text("# Red\n\ntext\n")

    for args in (("lessons",), ("ask", "salting pasta water")):
        result = run_cli(*args, "--lessons", str(folder))

        assert result.returncode == 0, result.stderr
        for output in (result.stdout, result.stderr):
            assert "\x1b" not in output
            assert "\u202e" not in output
        assert "skipped file \\x1b[2J\\u202ebad.md: binary file" in result.stderr
        assert "Salting pasta water" in result.stdout
    listed = run_cli("lessons", "--lessons", str(folder), "--json")
    assert [row["id"] for row in json.loads(listed.stdout)] == ["31mred", "pasta-water"]
