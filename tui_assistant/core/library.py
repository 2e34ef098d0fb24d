"""The library: a folder tree of Markdown documents, and the passages they split into.

Reading follows the contract's rules: every `*.md` file at any depth; names starting
with `.` skipped; symlinks (files and folders) never followed, so no question and no
document can make the app read outside the folder; a file over 1 MiB, not UTF-8 or
binary is skipped with a one-line warning naming it. Splitting a document is the pure
`passages.split_document`; this module is the disk side and the in-memory view that
retrieval and the UI read (`Library`). The index store (`store.py`) decides which
files to read again.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from tui_assistant.core.index import IndexBuilder, InvertedIndex, KeyFunction
from tui_assistant.core.passages import Document, Passage, document_id, split_document
from tui_assistant.core.text import content_words, stem

# Far beyond any useful document; reading no more keeps a stray 50 MB file from
# costing memory or time.
MAX_DOCUMENT_BYTES = 1024 * 1024
UNREADABLE = "cannot be read"


class LibraryError(Exception):
    """The library as a whole is unusable (missing folder, no passage at all).

    `problems` lists the files that were skipped, so a user whose every file was
    rejected learns why each one was, not only that none was left.
    """

    def __init__(self, message: str, problems: Sequence[FileProblem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


@dataclass(frozen=True, slots=True)
class FileProblem:
    """Something a user should know about one file: why it was skipped, or that its id
    had to change. `path` is relative to the library folder."""

    path: str
    reason: str
    skipped: bool = True

    def __str__(self) -> str:
        if self.skipped:
            return f"skipped file {printable_file_name(self.path)}: {self.reason}"
        return f"file {printable_file_name(self.path)}: {self.reason}"


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


# -- the disk side ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FileStamp:
    """A document file as listed: path relative to the library folder, size, mtime."""

    path: str
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class Listing:
    files: tuple[FileStamp, ...]  # sorted by path
    problems: tuple[FileProblem, ...]  # entries that are not read at all


def list_library(folder: Path) -> Listing:
    """Every `*.md` document under `folder` with its stamp, sorted by path.

    Raises `LibraryError` when the folder itself is missing or unreadable; a sub-folder
    that cannot be read is a problem, not an error.
    """
    files: list[FileStamp] = []
    problems: list[FileProblem] = []
    try:
        _walk(os.fspath(folder), "", files, problems, top=True)
    except FileNotFoundError:
        raise LibraryError(f"lessons folder {folder} does not exist") from None
    except NotADirectoryError:
        raise LibraryError(f"lessons folder {folder} is not a folder") from None
    except OSError as error:
        raise LibraryError(f"lessons folder {folder} cannot be read: {error.strerror}") from None
    files.sort(key=lambda stamp: stamp.path)
    problems.sort(key=lambda problem: problem.path)
    return Listing(tuple(files), tuple(problems))


def _walk(
    folder: str, prefix: str, files: list[FileStamp], problems: list[FileProblem], top: bool
) -> None:
    try:
        listing = os.scandir(folder)
    except OSError as error:
        if top:
            raise
        problems.append(FileProblem(prefix.rstrip("/"), f"cannot be read ({error.strerror})"))
        return
    with listing:
        for entry in listing:
            name = entry.name
            if name.startswith("."):
                continue
            path = prefix + name
            if entry.is_dir(follow_symlinks=False):
                _walk(entry.path, path + "/", files, problems, top=False)
                continue
            if entry.is_symlink():
                if name.endswith(".md") or entry.is_dir():
                    problems.append(FileProblem(path, "is a symlink (not followed)"))
                continue
            if not name.endswith(".md"):
                continue  # other files may live beside documents
            if not _is_utf8(path):
                problems.append(FileProblem(path, "has a name that is not UTF-8"))
                continue
            if not entry.is_file(follow_symlinks=False):
                problems.append(FileProblem(path, "is not a regular file"))
                continue
            info = entry.stat(follow_symlinks=False)
            files.append(FileStamp(path, info.st_size, info.st_mtime_ns))


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # os.fsdecode kept an undecodable byte as a surrogate
        return False
    return True


def read_document(folder: Path, relative_path: str) -> Document | str:
    """Read and split one document: its passages, or why it is skipped."""
    try:
        data = _read_capped(os.path.join(folder, relative_path))
    except _NotRegularFile:
        return "is not a regular file"
    except OSError as error:
        return f"{UNREADABLE} ({error.strerror or error})"
    if data is None:
        return f"larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB"
    return parse_document(relative_path, data)


def parse_document(relative_path: str, data: bytes) -> Document | str:
    """A document file's bytes split into passages, or the reason it is skipped."""
    if b"\x00" in data:
        return "binary file (contains NUL bytes)"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"
    if not text.strip():
        return "empty"
    document = split_document(relative_path, text)
    if not document.passages:
        return "has no text (headings only)"
    return document


class _NotRegularFile(Exception):
    pass


def _read_capped(path: str) -> bytes | None:
    """Read at most MAX_DOCUMENT_BYTES; None when the file is larger.

    O_NOFOLLOW closes the gap between the symlink check and the open; O_NONBLOCK keeps
    a FIFO from hanging the open, and fstat then rejects it.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _NotRegularFile
        if info.st_size > MAX_DOCUMENT_BYTES:
            return None
        chunks: list[bytes] = []
        remaining = MAX_DOCUMENT_BYTES + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 256 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        return None if len(data) > MAX_DOCUMENT_BYTES else data
    finally:
        os.close(fd)


def document_ids(paths: Iterable[str]) -> tuple[dict[str, str], list[FileProblem]]:
    """Each document's id, in path order: a later path whose id is taken gets `-2`,
    `-3`, ... and a notice saying so."""
    ids: dict[str, str] = {}
    taken: set[str] = set()
    notices: list[FileProblem] = []
    for path in paths:
        wanted = candidate = document_id(path)
        number = 1
        while candidate in taken:
            number += 1
            candidate = f"{wanted}-{number}"
        if candidate != wanted:
            notices.append(
                FileProblem(path, f"id {wanted} is taken, so its id is {candidate}", skipped=False)
            )
        taken.add(candidate)
        ids[path] = candidate
    return ids, notices


# -- the in-memory view -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PassageInfo:
    """What the library keeps in memory for one passage; its text stays in the store."""

    id: str
    title: str
    source_path: str
    line: int
    end_line: int
    document: str  # the document's path relative to the library folder


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """One document of the library, for browsing: its passages are
    `library.passages[first : first + count]`."""

    path: str
    title: str
    first: int
    count: int


class Library:
    """The library as loaded: passages in library order, their index, and their texts.

    `passages` is in library order (by path, then within the document). Retrieval
    works on the index's passage numbers; `passage(number)` gives the full passage, its
    text read from where the library keeps it (the store's snapshot, or memory).
    `positions[number]` is that passage's place in `passages` (numbers follow the
    store's row order, which keeps every word's postings ascending).
    """

    def __init__(
        self,
        folder: Path,
        passages: Sequence[PassageInfo],
        documents: Sequence[DocumentInfo],
        index: InvertedIndex,
        text: Callable[[int], str],
        problems: Sequence[FileProblem] = (),
        positions: Sequence[int] | None = None,
    ) -> None:
        self.folder = folder
        self.passages = tuple(passages)
        self.documents = tuple(documents)
        self.index = index
        self.problems = tuple(problems)
        self.positions: Sequence[int] = (
            positions if positions is not None else range(len(self.passages))
        )
        self._text = text

    def __len__(self) -> int:
        return len(self.passages)

    def __iter__(self) -> Iterator[PassageInfo]:
        return iter(self.passages)

    @cached_property
    def _numbers(self) -> dict[str, int]:
        return {
            self.passages[position].id: number for number, position in enumerate(self.positions)
        }

    def number_of(self, passage_id: str) -> int | None:
        """The index number of the passage with this id, if the library has it."""
        return self._numbers.get(passage_id)

    def info(self, number: int) -> PassageInfo:
        return self.passages[self.positions[number]]

    def passage(self, number: int) -> Passage:
        info = self.info(number)
        return Passage(
            id=info.id,
            title=info.title,
            text=self._text(number),
            source_path=info.source_path,
            line=info.line,
            end_line=info.end_line,
        )

    def get(self, passage_id: str) -> Passage | None:
        number = self.number_of(passage_id)
        return None if number is None else self.passage(number)

    def close(self) -> None:
        """Let go of the store snapshot the texts are read from (after a reload)."""
        close = getattr(self._text, "close", None)
        if close is not None:
            close()

    @classmethod
    def from_passages(
        cls,
        passages: Iterable[Passage],
        key: KeyFunction = stem,
        folder: Path = Path("lessons"),
    ) -> Library:
        """A library held in memory, indexed with `key` (tests, benchmarks, screenshots).

        Each passage is its own document, at its source path.
        """
        kept = list(passages)
        builder = IndexBuilder(key)
        infos: list[PassageInfo] = []
        documents: list[DocumentInfo] = []
        for number, passage in enumerate(kept):
            builder.add(content_words(passage.title), content_words(passage.text))
            document = passage.source_path.split("/", 1)[-1]
            infos.append(
                PassageInfo(
                    passage.id,
                    passage.title,
                    passage.source_path,
                    passage.line,
                    passage.end_line,
                    document,
                )
            )
            documents.append(DocumentInfo(document, passage.title, number, 1))
        texts = [passage.text for passage in kept]
        return cls(folder, infos, documents, builder.finish(), texts.__getitem__)
