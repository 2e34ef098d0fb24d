"""The library folder on disk: listing its documents and reading them safely.

Every document file of the formats asked for (`core.documents.formats`) at any depth;
names starting with `.` skipped (listed as hidden, without a warning); what a built site
makes besides its pages skipped with why (`core.library.built_site`); symlinks (files and
folders) never followed, so no question and no document can make the app read outside
the folder; a file over its format's size limit (`MAX_BYTES`), not text in its encoding
or binary (a PDF: encrypted, broken or without a text layer) is skipped with a one-line
reason.
Splitting what is read is the pure `core.library.parse_document`; the other files a
document names (includes, autodoc sources) are read by a `FolderReader`, under the same
rules and never outside the folder.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.documents.formats import (
    DEFAULT_DOCUMENT_KINDS,
    FORMATS,
    DocumentFormat,
    format_of,
)
from tui_assistant.core.documents.inclusion import Unread
from tui_assistant.core.documents.passage import Document
from tui_assistant.core.documents.split import decode_document
from tui_assistant.core.library.built_site import skipped_in_site
from tui_assistant.core.library.library import FileProblem, parse_document, printable_file_name
from tui_assistant.errors import LibraryError, NotText, os_error_words

MIB = 1024 * 1024
# The largest file of each format that is read (`DocumentFormat.max_bytes`): far beyond
# any useful document of the format (a built page carries its markup, a manual its
# pages), so a stray 50 MB file costs neither memory nor time.
MAX_BYTES = {format.name: format.max_bytes for format in FORMATS}
UNREADABLE = "cannot be read"


def max_bytes(relative_path: str) -> int:
    """The size limit of the document at `relative_path`, by its format."""
    return _limit(format_of(relative_path))


def _limit(format: DocumentFormat | None) -> int:
    return MIB if format is None else MAX_BYTES[format.name]


@dataclass(frozen=True, slots=True)
class FileStamp:
    """A document file as listed: path relative to the library folder, size, mtime."""

    path: str
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class FolderProblem(FileProblem):
    """A sub-folder that could not be listed: its warning says "folder", not "file"."""

    def __str__(self) -> str:
        return f"skipped folder {printable_file_name(self.path)}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Listing:
    files: tuple[FileStamp, ...]  # sorted by path
    problems: tuple[FileProblem, ...]  # entries that are not read at all
    # Names starting with `.` (a folder's with a trailing `/`, not looked into): skipped
    # without a warning, since nearly every docs tree has `.git` or `.github`.
    hidden: tuple[str, ...] = ()


def list_library(folder: Path, kinds: Collection[str] = DEFAULT_DOCUMENT_KINDS) -> Listing:
    """Every document of the formats named in `kinds` (`md`, `rst`, `txt`...) under `folder`
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
            FolderProblem(prefix.rstrip("/"), f"cannot be read ({os_error_words(error)})")
        )
        return
    with listing:
        entries = list(listing)
    site = skipped_in_site(
        {entry.name: entry.is_dir(follow_symlinks=False) for entry in entries}, kinds
    )
    if site is not None:
        problems.append(FileProblem(prefix or "./", site.reason))
    for entry in entries:
        name = entry.name
        path = prefix + name
        if site is not None and name in site.names:
            continue
        if name.startswith("."):
            hidden.append(path + "/" if entry.is_dir(follow_symlinks=False) else path)
            continue
        if entry.is_dir(follow_symlinks=False):
            _walk(entry.path, path + "/", kinds, files, problems, hidden, top=False)
            continue
        format = format_of(name)
        document = format is not None and format.name in kinds
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


def read_document(
    folder: Path, relative_path: str, reader: FolderReader | None = None
) -> Document | str:
    """Read and split one document: its passages, or why it is skipped. The files its
    includes and autodoc directives name are read by `reader` (one confined to `folder`
    when none is given), which keeps their stamps."""
    format = format_of(relative_path)
    limit = _limit(format)
    try:
        data = _read_capped(os.path.join(folder, relative_path), limit)
    except _NotRegularFile:
        return "is not a regular file"
    except OSError as error:
        return f"{UNREADABLE} ({os_error_words(error)})"
    if data is None:
        return f"larger than {limit // MIB} MiB"
    return parse_document(relative_path, data, reader or FolderReader(folder), format)


class FolderReader:
    """Reads the files a document names (`inclusion.Reader`), never outside `folder`:
    a path that is absolute or climbs out of it (`..`), or that passes through a symlink
    or a name starting with `.`, is refused with its reason; a file is read as a
    document is (a regular file, within its format's size limit, decoded as its format is,
    binary with NUL bytes not read).

    `stamps` keeps each path it was asked for with its (size, mtime_ns) then, (-1, -1)
    when there was no such file: a document is read again when one of them changes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.stamps: dict[str, tuple[int, int]] = {}

    def __call__(self, relative_path: str) -> str | Unread:
        refused = self._refused(relative_path)
        if refused is not None:
            return Unread(refused)
        self.stamps[relative_path] = stamp = current_stamp(self.folder, relative_path)
        if stamp == (-1, -1):
            return Unread("not found in the library")
        try:
            data = _read_capped(os.path.join(self.folder, relative_path), max_bytes(relative_path))
        except (_NotRegularFile, OSError):
            return Unread("is not a regular file that can be read (not read)")
        if data is None:
            return Unread(f"larger than {max_bytes(relative_path) // MIB} MiB (not read)")
        try:
            text = decode_document(relative_path, data)
        except NotText as problem:
            return Unread(f"{problem} (not read)")
        return text.removeprefix("\ufeff")  # a byte-order mark is no text of the includer

    def _refused(self, relative_path: str) -> str | None:
        parts = relative_path.split("/")
        if os.path.isabs(relative_path) or "\\" in relative_path:
            return "absolute path (not read)"
        if any(part in ("", ".", "..") for part in parts):
            return "outside the library (not read)"
        if any(part.startswith(".") for part in parts):
            return "hidden (name starts with '.'; not read)"
        for end in range(1, len(parts) + 1):
            try:
                info = os.lstat(os.path.join(self.folder, *parts[:end]))
            except OSError:
                return None  # missing: said when it is read
            if stat.S_ISLNK(info.st_mode):
                return "is a symlink (not followed)"
        return None


def current_stamp(folder: Path, relative_path: str) -> tuple[int, int]:
    """A file's (size, mtime_ns) now, as `FolderReader.stamps` keeps it."""
    try:
        info = os.lstat(os.path.join(folder, relative_path))
    except OSError:
        return (-1, -1)
    return (info.st_size, info.st_mtime_ns)


def read_document_text(folder: Path, relative_path: str) -> str | None:
    """The text of one document file, read as `read_document` reads it (no symlink
    followed, a regular file, within its format's size limit, decoded as its format is; a
    PDF's extracted text); None when it cannot be."""
    path = os.path.join(folder, relative_path)
    try:
        data = _read_capped(path, max_bytes(relative_path))
    except (_NotRegularFile, OSError):
        return None
    if data is None:
        return None
    format = format_of(relative_path)
    if format is not None and format.pages_text is not None:
        return format.pages_text(data)
    try:
        return decode_document(relative_path, data)
    except NotText:
        return None


class _NotRegularFile(Exception):
    pass


def _read_capped(path: str, limit: int) -> bytes | None:
    """Read at most `limit` bytes; None when the file is larger.

    O_NOFOLLOW closes the gap between the symlink check and the open; O_NONBLOCK keeps
    a FIFO from hanging the open, and fstat then rejects it.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _NotRegularFile
        if info.st_size > limit:
            return None
        chunks: list[bytes] = []
        remaining = limit + 1
        # The whole file in one read where it can be (a 200 MiB PDF is then held once,
        # not again when the chunks are joined); more only if it grew meanwhile.
        size = min(remaining, info.st_size + 1)
        while remaining > 0:
            chunk = os.read(fd, size)
            size = min(remaining - len(chunk), 256 * 1024)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        return None if len(data) > limit else data
    finally:
        os.close(fd)
