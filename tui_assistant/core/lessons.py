"""The lesson library: Markdown files in one folder, loaded safely.

A lesson's id is its file name without `.md` and must match `LESSON_ID`; only files
directly inside the library folder are read, and a symlink is never followed, so no
question (and no lesson) can make the app read a file outside the library.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tui_assistant.core.text import clean_display_text

LESSON_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# A lesson is a passage sent whole to a model and shown whole on screen; 1 MiB is far
# beyond any useful passage, and reading no more than that keeps a stray 50 MB file
# from costing memory or time.
MAX_LESSON_BYTES = 1024 * 1024


class LibraryError(Exception):
    """The library as a whole is unusable (missing folder, no valid lesson).

    `problems` lists the files that were skipped, so a user whose every file was
    rejected learns why each one was, not only that none was left.
    """

    def __init__(self, message: str, problems: tuple[LessonProblem, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    title: str
    text: str
    source_path: str


@dataclass(frozen=True, slots=True)
class LessonProblem:
    """A file that was skipped, and why, in words a user can act on."""

    file_name: str
    reason: str

    def __str__(self) -> str:
        return f"skipped lesson file {printable_file_name(self.file_name)}: {self.reason}"


def printable_file_name(name: str) -> str:
    """`name` on one visible line, for messages.

    Control, format (bidi included), line-separator and undecodable characters are
    written as escapes (`\\n`, `\\x1b`, `\\u202e`; a byte that was not UTF-8 as `\\xff`),
    so a hostile file name can neither break a message into lines nor drive the
    terminal, and two different names never look the same.
    """
    shown: list[str] = []
    for char in name:
        code = ord(char)
        if char == "\\":
            shown.append("\\\\")
        elif 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's stand-in for an undecodable byte
            shown.append(f"\\x{code - 0xDC00:02x}")
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            if code < 0x100:
                shown.append(f"\\x{code:02x}")
            elif code <= 0xFFFF:
                shown.append(f"\\u{code:04x}")
            else:
                shown.append(f"\\U{code:08x}")
        else:
            shown.append(char)
    return "".join(shown)


@dataclass(frozen=True)
class LessonLibrary:
    folder: Path
    lessons: tuple[Lesson, ...]
    problems: tuple[LessonProblem, ...] = ()
    _by_id: dict[str, Lesson] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {lesson.id: lesson for lesson in self.lessons})

    def __len__(self) -> int:
        return len(self.lessons)

    def __iter__(self) -> Iterator[Lesson]:
        return iter(self.lessons)

    def get(self, lesson_id: str) -> Lesson | None:
        return self._by_id.get(lesson_id)

    @classmethod
    def load(cls, folder: Path) -> LessonLibrary:
        """Load every valid `*.md` lesson directly inside `folder`, sorted by id.

        Bad files are recorded in `problems` and skipped. Raises `LibraryError` when
        the folder cannot be read or holds no valid lesson.
        """
        folder = Path(folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except FileNotFoundError:
            raise LibraryError(f"lessons folder {folder} does not exist") from None
        except NotADirectoryError:
            raise LibraryError(f"lessons folder {folder} is not a folder") from None
        except OSError as error:
            raise LibraryError(
                f"lessons folder {folder} cannot be read: {error.strerror}"
            ) from None

        lessons: list[Lesson] = []
        problems: list[LessonProblem] = []
        for entry in entries:
            if not entry.name.endswith(".md"):
                continue  # not a lesson file; other files may live beside lessons
            result = read_lesson(entry, display_folder=folder.name)
            if isinstance(result, Lesson):
                lessons.append(result)
            else:
                problems.append(result)
        if not lessons:
            detail = f" ({len(problems)} skipped)" if problems else ""
            raise LibraryError(
                f"lessons folder {folder} has no valid lesson{detail}", tuple(problems)
            )
        return cls(folder=folder, lessons=tuple(lessons), problems=tuple(problems))


def read_lesson(entry: os.DirEntry[str], display_folder: str) -> Lesson | LessonProblem:
    """Read one directory entry as a lesson, or say why it is not one."""
    name = entry.name
    lesson_id = name[: -len(".md")]
    if entry.is_symlink():
        return LessonProblem(name, "is a symlink (not followed)")
    if not entry.is_file(follow_symlinks=False):
        return LessonProblem(name, "is not a regular file")
    if not LESSON_ID.match(lesson_id):
        return LessonProblem(name, "invalid id (use lower-case letters, digits and single hyphens)")
    try:
        data = _read_capped(entry.path)
    except _NotRegularFile:
        return LessonProblem(name, "is not a regular file")
    except OSError as error:
        return LessonProblem(name, f"cannot be read ({error.strerror or error})")
    if data is None:
        return LessonProblem(name, f"larger than {MAX_LESSON_BYTES // (1024 * 1024)} MiB")
    result = parse_lesson(lesson_id, data, source_path=f"{display_folder}/{name}")
    if isinstance(result, str):
        return LessonProblem(name, result)
    return result


class _NotRegularFile(Exception):
    pass


def _read_capped(path: str) -> bytes | None:
    """Read at most MAX_LESSON_BYTES; None when the file is larger.

    O_NOFOLLOW closes the gap between the symlink check and the open; O_NONBLOCK keeps
    a FIFO from hanging the open, and fstat then rejects it.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _NotRegularFile
        if info.st_size > MAX_LESSON_BYTES:
            return None
        chunks: list[bytes] = []
        remaining = MAX_LESSON_BYTES + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 256 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        return None if len(data) > MAX_LESSON_BYTES else data
    finally:
        os.close(fd)


def parse_lesson(lesson_id: str, data: bytes, source_path: str) -> Lesson | str:
    """Parse a lesson file's bytes: a `Lesson`, or the reason it is not one.

    The title is the first line starting with `# `; the text is the rest of the file.
    """
    if b"\x00" in data:
        return "binary file (contains NUL bytes)"
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"
    content = content.removeprefix("\ufeff")
    if not content.strip():
        return "empty"
    lines = content.splitlines()
    for number, line in enumerate(lines):
        # A heading of nothing but escape sequences or control characters would show
        # as a blank title, so it does not count as one.
        if line.startswith("# ") and clean_display_text(line[2:]).strip():
            title = line[2:].strip()
            text = "\n".join(lines[:number] + lines[number + 1 :]).strip()
            if not text:
                return "empty (a title and no text)"
            return Lesson(id=lesson_id, title=title, text=text, source_path=source_path)
    return "no title (needs a first line starting with '# ')"
