"""A release's archive unpacked as hostile input: only its documents and sources kept.

Nothing in an archive is run (no build, no `setup.py`, no install script): files are
read as bytes and written as plain files. The whole archive is refused, with one line,
for an absolute path, a `..` part, a device or pipe, more entries than `Limits.members`,
or sizes that add up past `Limits.expanded_bytes` (a decompression bomb stops at the
header that passes the cap, before its data is inflated). Links (symbolic or hard) are
never made nor followed: they are left out. Kept: the documentation folder (`docs/`,
`doc/`, `documentation/`, `website/docs/`) but a docs build's furniture (its theme,
templates, static files and requirements lists), the README and changelog, and for
Python the package's source files that document something public (not its tests,
examples or build scripts).
"""

from __future__ import annotations

import os
import stat
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from tui_assistant.core.documents.formats import FORMATS
from tui_assistant.core.documents.python_api import (
    api_objects,
    module_name,
    reexports,
    split_python,
)
from tui_assistant.errors import ArchiveError

DOC_FOLDERS = ("docs", "doc", "documentation", "website/docs", "site/docs")
# The endings of the documentation files kept, matched in any case (`GUIDE.MD` too).
DOC_SUFFIXES = tuple(
    suffix for format in FORMATS if format.kept_in_archives for suffix in format.suffixes
)
TOP_DOCUMENTS = frozenset({"readme", "changelog", "changes", "history", "news", "release-notes"})
_NOT_SOURCE_FOLDERS = frozenset(
    {"test", "tests", "testing", "examples", "example", "benchmarks", "bench", "scripts", "tools"}
    | {"build", "dist", "node_modules", "site-packages", "__pycache__"}
)
_NOT_SOURCE_FILES = frozenset({"setup.py", "conftest.py", "noxfile.py", "fabfile.py", "tasks.py"})
# A docs build's furniture, not documentation: Sphinx's theme, templates and static
# files (logos, CSS, HTML templates), Jekyll's layouts, and the build's package lists.
_FURNITURE_FOLDERS = frozenset({"_static", "_templates", "_themes", "_theme", "_layouts", "_sass"})
_FURNITURE_STEMS = ("requirements", "constraints", "spelling_wordlist", "robots")


@dataclass(frozen=True, slots=True)
class Limits:
    members: int = 20_000
    expanded_bytes: int = 512 << 20
    kept_files: int = 5_000
    kept_bytes: int = 100 << 20
    file_bytes: int = 20 << 20


@dataclass(frozen=True, slots=True)
class Unpacked:
    """What was kept, as paths relative to the library folder."""

    files: tuple[str, ...]
    documentation: bool


@dataclass(frozen=True, slots=True)
class _Entry:
    name: str
    kind: str  # "file", "dir", "link", "special"
    size: int
    member: object


def keep_path(path: str, python: bool) -> bool:
    """Whether a file of the archive (path below its top folder) is kept."""
    parts = PurePosixPath(path).parts
    if not parts or any(part.startswith(".") for part in parts):
        return False
    lowered = path.lower()
    if in_doc_folder(path):
        return lowered.endswith(DOC_SUFFIXES) and not _furniture(lowered)
    if len(parts) == 1:
        stem = lowered.split(".", 1)[0]
        if stem in TOP_DOCUMENTS and lowered.endswith((".md", ".rst", ".txt")):
            return True
    if python and lowered.endswith(".py"):
        folders = {part.lower() for part in parts[:-1]}
        return not folders & _NOT_SOURCE_FOLDERS and parts[-1] not in _NOT_SOURCE_FILES
    return False


def _furniture(lowered: str) -> bool:
    parts = lowered.split("/")
    return bool(_FURNITURE_FOLDERS.intersection(parts[:-1])) or parts[-1].startswith(
        _FURNITURE_STEMS
    )


def in_doc_folder(path: str) -> bool:
    lowered = path.lower()
    return any(lowered.startswith(folder + "/") for folder in DOC_FOLDERS)


def unpack(archive: Path, filename: str, target: Path, python: bool, limits: Limits) -> Unpacked:
    """Keep the documents (and, `python`, the sources) of `archive` in `target`, an
    empty folder. Raises ArchiveError."""
    lowered = filename.lower()
    if lowered.endswith(".zip"):
        try:
            with zipfile.ZipFile(archive) as opened:
                return _keep(_zip_entries(opened), target, python, limits, opened)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as error:
            raise ArchiveError(f"{filename} is not a readable zip archive ({error})") from None
    if not lowered.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")):
        raise ArchiveError(f"{filename} is not a .tar.gz, .tgz or .zip archive")
    try:
        with tarfile.open(archive, mode="r|*") as opened:
            return _keep(_tar_entries(opened), target, python, limits, opened)
    except (tarfile.TarError, EOFError, OSError) as error:
        if isinstance(error, ArchiveError):
            raise
        raise ArchiveError(f"{filename} is not a readable tar archive ({error})") from None


def _tar_entries(opened: tarfile.TarFile) -> Iterator[_Entry]:
    for member in opened:
        if member.isfile():
            kind = "file"
        elif member.isdir():
            kind = "dir"
        elif member.issym() or member.islnk():
            kind = "link"
        elif member.type in (tarfile.XHDTYPE, tarfile.XGLTYPE):
            continue
        else:
            kind = "special"
        yield _Entry(member.name, kind, member.size, member)


def _zip_entries(opened: zipfile.ZipFile) -> Iterator[_Entry]:
    for info in opened.infolist():
        mode = info.external_attr >> 16
        if info.is_dir():
            kind = "dir"
        elif stat.S_ISLNK(mode):
            kind = "link"
        elif mode and not stat.S_ISREG(mode):
            kind = "special"
        else:
            kind = "file"
        yield _Entry(info.filename, kind, info.file_size, info)


def _keep(
    entries: Iterator[_Entry],
    target: Path,
    python: bool,
    limits: Limits,
    opened: tarfile.TarFile | zipfile.ZipFile,
) -> Unpacked:
    kept: list[str] = []
    documentation = False
    members = expanded = written = 0
    root: str | None = None
    for entry in entries:
        members += 1
        if members > limits.members:
            raise ArchiveError(f"the archive has more than {limits.members:,} entries")
        expanded += max(entry.size, 0)
        if expanded > limits.expanded_bytes:
            raise ArchiveError(
                f"the archive expands past {limits.expanded_bytes >> 20:,} MiB"
                " (a decompression bomb?): nothing kept"
            )
        parts = _safe_parts(entry.name)
        if entry.kind == "special":
            raise ArchiveError(f"the archive holds a device or pipe ({_shown(entry.name)})")
        if entry.kind in ("link", "dir") or not parts:
            continue
        # Every release has one top folder (`NAME-VERSION/`, npm's `package/`).
        if root is None:
            root = parts[0] if len(parts) > 1 else ""
        inner = parts[1:] if root and parts[0] == root else parts
        path = "/".join(inner)
        if not inner or not keep_path(path, python):
            continue
        if entry.size > limits.file_bytes or len(kept) >= limits.kept_files:
            continue
        size = _write(opened, entry, target.joinpath(*inner), limits.file_bytes)
        if size is None or (path.endswith(".py") and not _documents_something(target, path)):
            continue
        written += size
        if written > limits.kept_bytes:
            raise ArchiveError(f"the kept files pass {limits.kept_bytes >> 20:,} MiB")
        kept.append(path)
        documentation = documentation or in_doc_folder(path)
    unreached = _unreached_private_modules(target, kept)
    for path in unreached:
        (target / path).unlink(missing_ok=True)
    return Unpacked(tuple(path for path in kept if path not in unreached), documentation)


def _safe_parts(name: str) -> tuple[str, ...]:
    """The parts of a member's name; ArchiveError for an absolute one or one with `..`."""
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise ArchiveError(f"the archive holds an absolute path ({_shown(name)})")
    parts = tuple(part for part in name.replace("\\", "/").split("/") if part not in ("", "."))
    if ".." in parts:
        raise ArchiveError(f"the archive holds a path with '..' ({_shown(name)})")
    if any("\x00" in part for part in parts):
        raise ArchiveError("the archive holds a name with a NUL byte")
    return parts


def _write(
    opened: tarfile.TarFile | zipfile.ZipFile, entry: _Entry, path: Path, cap: int
) -> int | None:
    """The member's bytes into a new plain file at `path` (never over an existing one);
    its size, or None when it cannot be kept."""
    source: IO[bytes] | None
    if isinstance(opened, tarfile.TarFile):
        assert isinstance(entry.member, tarfile.TarInfo)
        source = opened.extractfile(entry.member)
    else:
        assert isinstance(entry.member, zipfile.ZipInfo)
        source = opened.open(entry.member)
    if source is None:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except OSError:
        source.close()
        return None  # a second member of one name, or a file where a folder is
    size = 0
    with source, os.fdopen(descriptor, "wb") as out:
        while chunk := source.read(1 << 16):
            size += len(chunk)
            if size > cap:
                break
            out.write(chunk)
    if size > cap:
        path.unlink()
        return None
    return size


def _documents_something(target: Path, path: str) -> bool:
    """Whether a kept source file gives the API reference a passage (parsed, never
    run), or is one an autodoc directive reaches through the package: an `__init__`
    naming what it re-exports, a private module defining documented public names
    (`structlog.configure` is `structlog._config.configure`). Any other is removed."""
    file = target / path
    try:
        source = file.read_text(encoding="utf-8")
        kept = bool(
            split_python(path, source).passages
            or (path.endswith("/__init__.py") and _imports_names(path, source))
            or api_objects(path, source, module=module_name(path))
        )
    except (OSError, UnicodeDecodeError, ValueError):
        kept = False
    if not kept:
        file.unlink(missing_ok=True)
    return kept


def _unreached_private_modules(target: Path, kept: list[str]) -> set[str]:
    """The kept private modules (`pkg/_compat.py`) no kept module imports from: no
    autodoc directive can reach them through the package."""
    names = {path: module_name(path) for path in kept if path.endswith(".py")}
    private = {
        path: name
        for path, name in names.items()
        if any(part.startswith("_") for part in name.split("."))
    }
    if not private:
        return set()
    reached: set[str] = set()
    for path in names:
        try:
            source = (target / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for origin in reexports(path, source).values():
            for dotted in origin.split():
                parts = dotted.split(".")
                reached.update(".".join(parts[:end]) for end in range(1, len(parts) + 1))
    return {path for path, name in private.items() if name not in reached}


def _imports_names(path: str, source: str) -> bool:
    return any(not origin.startswith("__future__.") for origin in reexports(path, source).values())


def _shown(name: str) -> str:
    text = name.encode("unicode_escape").decode("ascii")
    return text if len(text) <= 60 else text[:57] + "..."
