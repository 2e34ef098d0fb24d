"""The library folder on disk: listing its documents and reading them safely.

Every document file (`*.md`, `*.rst`, `*.rst.txt`, `*.txt`, as the kinds asked for
allow) at any depth; names starting with `.` skipped (listed as hidden, without a
warning); symlinks (files and
folders) never followed, so no question and no document can make the app read outside
the folder; a file over 1 MiB, not UTF-8 or binary is skipped with a one-line reason.
Splitting what is read is the pure `core.library.parse_document`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.documents.passage import DOCUMENT_KINDS, Document, document_kind
from tui_assistant.core.library.library import FileProblem, parse_document
from tui_assistant.errors import LibraryError, os_error_words

# Far beyond any useful document; reading no more keeps a stray 50 MB file from
# costing memory or time.
MAX_DOCUMENT_BYTES = 1024 * 1024
UNREADABLE = "cannot be read"


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
    # Names starting with `.` (a folder's with a trailing `/`, not looked into): skipped
    # without a warning, since nearly every docs tree has `.git` or `.github`.
    hidden: tuple[str, ...] = ()


def list_library(folder: Path, kinds: Collection[str] = DOCUMENT_KINDS) -> Listing:
    """Every document of the `kinds` asked for (`md`, `rst`, `txt`) under `folder`
    with its stamp, sorted by path.

    Raises `LibraryError` when the folder itself is missing or unreadable; a sub-folder
    that cannot be read is a problem, not an error.
    """
    files: list[FileStamp] = []
    problems: list[FileProblem] = []
    hidden: list[str] = []
    try:
        _walk(os.fspath(folder), "", frozenset(kinds), files, problems, hidden, top=True)
    except FileNotFoundError:
        raise LibraryError(f"library folder {folder} does not exist") from None
    except NotADirectoryError:
        raise LibraryError(f"library folder {folder} is not a folder") from None
    except OSError as error:
        raise LibraryError(
            f"library folder {folder} cannot be read: {os_error_words(error)}"
        ) from None
    files.sort(key=lambda stamp: stamp.path)
    problems.sort(key=lambda problem: problem.path)
    hidden.sort()
    return Listing(tuple(files), tuple(problems), tuple(hidden))


def _walk(
    folder: str,
    prefix: str,
    kinds: frozenset[str],
    files: list[FileStamp],
    problems: list[FileProblem],
    hidden: list[str],
    top: bool,
) -> None:
    try:
        listing = os.scandir(folder)
    except OSError as error:
        if top:
            raise
        problems.append(
            FileProblem(prefix.rstrip("/"), f"cannot be read ({os_error_words(error)})")
        )
        return
    with listing:
        for entry in listing:
            name = entry.name
            path = prefix + name
            if name.startswith("."):
                hidden.append(path + "/" if entry.is_dir(follow_symlinks=False) else path)
                continue
            if entry.is_dir(follow_symlinks=False):
                _walk(entry.path, path + "/", kinds, files, problems, hidden, top=False)
                continue
            document = document_kind(name) in kinds
            if entry.is_symlink():
                if document or entry.is_dir():
                    problems.append(FileProblem(path, "is a symlink (not followed)"))
                continue
            if not document:
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
        return f"{UNREADABLE} ({os_error_words(error)})"
    if data is None:
        return f"larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB"
    return parse_document(relative_path, data)


def read_document_text(folder: Path, relative_path: str) -> str | None:
    """The text of one document file, read as `read_document` reads it (no symlink
    followed, a regular file, at most MAX_DOCUMENT_BYTES, UTF-8); None when it cannot
    be."""
    try:
        data = _read_capped(os.path.join(folder, relative_path))
    except (_NotRegularFile, OSError):
        return None
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


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
