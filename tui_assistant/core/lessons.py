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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
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
class LessonFolder:
    """Where the on-disk lessons of one library live, shared by all of them.

    A lesson's file and source path both follow from its id, so a library of a
    hundred thousand on-disk lessons keeps two short strings in all, not two per lesson.
    """

    display_folder: str
    absolute_folder: str

    def source_path(self, lesson_id: str) -> str:
        return f"{self.display_folder}/{lesson_id}.md"

    def file(self, lesson_id: str) -> str:
        return os.path.join(self.absolute_folder, f"{lesson_id}.md")


class Lesson:
    """One lesson: id, title, text and the path shown as its source.

    A lesson from a large library may leave its text on disk (`Lesson.on_disk`): the
    text is then read again from the lesson's file, with the same size cap and
    no-symlink rule as the first read, the first time `text` is used, and kept after
    that. A library of a hundred thousand files then holds titles, not texts.
    Immutable, compared and hashed by value like the dataclass it replaces.
    """

    __slots__ = ("_text", "_where", "id", "title")

    id: str
    title: str
    _text: str | None
    # The source path itself, or the shared folder of an on-disk lesson.
    _where: str | LessonFolder

    def __init__(self, id: str, title: str, text: str, source_path: str) -> None:
        _set = object.__setattr__
        _set(self, "id", id)
        _set(self, "title", title)
        _set(self, "_where", source_path)
        _set(self, "_text", text)

    @classmethod
    def on_disk(cls, id: str, title: str, folder: LessonFolder) -> Lesson:
        """A lesson whose text is read from its file in `folder` when first used."""
        lesson = cls.__new__(cls)
        _set = object.__setattr__
        _set(lesson, "id", id)
        _set(lesson, "title", title)
        _set(lesson, "_where", folder)
        _set(lesson, "_text", None)
        return lesson

    @property
    def source_path(self) -> str:
        where = self._where
        return where if isinstance(where, str) else where.source_path(self.id)

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            text = _reread_text(self)
            object.__setattr__(self, "_text", text)
        return text

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Lesson is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Lesson is immutable (cannot delete {name!r})")

    def _key(self) -> tuple[str, str, str, str]:
        return (self.id, self.title, self.text, self.source_path)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Lesson)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.id, self.title, self.source_path))

    def __repr__(self) -> str:
        return (
            f"Lesson(id={self.id!r}, title={self.title!r}, text={self.text!r}, "
            f"source_path={self.source_path!r})"
        )


def _reread_text(lesson: Lesson) -> str:
    """The text of an on-disk lesson, read again under the rules of the first read.

    The file was a valid lesson when the library was loaded. If it has since become
    unreadable or invalid, the text says so instead of raising: the app keeps
    working, and a user sees why this one lesson has no text until the next start.
    """
    folder = lesson._where
    assert isinstance(folder, LessonFolder)
    file = folder.file(lesson.id)
    result = _read_and_parse(file, lesson.id, lesson.source_path)
    if isinstance(result, str):
        return f"(The file {lesson.source_path} changed since the app started: {result}.)"
    return result.text


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

    @cached_property
    def _by_id(self) -> dict[str, Lesson]:
        # Built on first use: a hundred thousand lessons' lookup costs ~5 MB, and
        # answering questions never needs it.
        return {lesson.id: lesson for lesson in self.lessons}

    def __len__(self) -> int:
        return len(self.lessons)

    def __iter__(self) -> Iterator[Lesson]:
        return iter(self.lessons)

    def get(self, lesson_id: str) -> Lesson | None:
        return self._by_id.get(lesson_id)

    @classmethod
    def load(
        cls,
        folder: Path,
        *,
        keep_text: bool = True,
        on_lesson: Callable[[Lesson], None] | None = None,
    ) -> LessonLibrary:
        """Load every valid `*.md` lesson directly inside `folder`, sorted by id.

        Bad files are recorded in `problems` and skipped. Raises `LibraryError` when
        the folder cannot be read or holds no valid lesson. `on_lesson` sees each
        valid lesson, in order and with its text, as it is read (the index is built
        that way in one pass); with `keep_text=False` the library's lessons then
        leave their text on disk (`Lesson.on_disk`).
        """
        folder = Path(folder)
        try:
            names, irregular = _list_lesson_files(folder)
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
        # An absolute path, so the texts are found even after a change of directory.
        on_disk = LessonFolder(folder.name, os.path.abspath(folder))
        folder_path = os.fspath(folder)
        # Consumed from the end, so the listing shrinks while the lessons grow.
        names.reverse()
        while names:
            name = names.pop()
            result = _read_lesson_file(
                name, os.path.join(folder_path, name), irregular.get(name), folder.name
            )
            if isinstance(result, LessonProblem):
                problems.append(result)
                continue
            if on_lesson is not None:
                on_lesson(result)
            if not keep_text:
                result = Lesson.on_disk(result.id, result.title, on_disk)
            lessons.append(result)
        if not lessons:
            detail = f" ({len(problems)} skipped)" if problems else ""
            raise LibraryError(
                f"lessons folder {folder} has no valid lesson{detail}", tuple(problems)
            )
        return cls(folder=folder, lessons=tuple(lessons), problems=tuple(problems))


def _list_lesson_files(folder: Path) -> tuple[list[str], dict[str, str]]:
    """The sorted names of the `*.md` entries in `folder`, and why each one that is
    not a regular file is skipped.

    Names only, not the directory entries: a hundred thousand entries held at once
    cost about 30 MB, their names a quarter of that.
    """
    names: list[str] = []
    irregular: dict[str, str] = {}
    with os.scandir(folder) as listing:
        for entry in listing:
            name = entry.name
            if not name.endswith(".md"):
                continue  # not a lesson file; other files may live beside lessons
            names.append(name)
            problem = _irregular(entry)
            if problem is not None:
                irregular[name] = problem
    names.sort()
    return names, irregular


def _irregular(entry: os.DirEntry[str]) -> str | None:
    """Why `entry` is not read as a lesson file, or None for a regular file."""
    if entry.is_symlink():
        return "is a symlink (not followed)"
    if not entry.is_file(follow_symlinks=False):
        return "is not a regular file"
    return None


def read_lesson(entry: os.DirEntry[str], display_folder: str) -> Lesson | LessonProblem:
    """Read one directory entry as a lesson, or say why it is not one."""
    return _read_lesson_file(entry.name, entry.path, _irregular(entry), display_folder)


def _read_lesson_file(
    name: str, path: str, irregular: str | None, display_folder: str
) -> Lesson | LessonProblem:
    lesson_id = name[: -len(".md")]
    if irregular is not None:
        return LessonProblem(name, irregular)
    if not LESSON_ID.match(lesson_id):
        return LessonProblem(name, "invalid id (use lower-case letters, digits and single hyphens)")
    result = _read_and_parse(path, lesson_id, f"{display_folder}/{name}")
    if isinstance(result, str):
        return LessonProblem(name, result)
    return result


def _read_and_parse(path: str, lesson_id: str, source_path: str) -> Lesson | str:
    """Read and parse one lesson file under the library's rules (regular file only, no
    symlink, capped size): the lesson, or why it is not one. The first read and the
    later re-read of an on-disk lesson's text both go through here."""
    try:
        data = _read_capped(path)
    except _NotRegularFile:
        return "is not a regular file"
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    if data is None:
        return f"larger than {MAX_LESSON_BYTES // (1024 * 1024)} MiB"
    return parse_lesson(lesson_id, data, source_path=source_path)


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
