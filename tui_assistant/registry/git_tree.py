"""One commit's documents written out of a git object store, as hostile input.

Only the trees on the way to the documents are read: the named `#subdirectory=`, else
the documentation folders and the top folder's README and changelog (the archive
reader's rules, without source files). Each blob's size is read from its header
before the blob is: one over the file cap is left out unread. Nothing is run, no
file is made but plain new ones: a symbolic link is never written nor followed (one
pointing out of the repository is named in one line); a submodule is named with its
URL and not fetched; a Git LFS pointer (a small text file standing for a file kept
elsewhere) is left out as not a document, its claimed size never followed. A tree
entry named `..`, `.` or with `/` refuses the whole commit.
"""

from __future__ import annotations

import io
import os
import posixpath
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit

from dulwich.config import ConfigFile, parse_submodules
from dulwich.objects import Blob, ObjectID, Tree

from tui_assistant.errors import FetchError
from tui_assistant.registry.archive import DOC_FOLDERS, DOC_SUFFIXES, Limits, keep_path
from tui_assistant.registry.git_pack import stored_size

if TYPE_CHECKING:
    from dulwich.object_store import BaseObjectStore

LFS_POINTER = b"version https://git-lfs.github.com/spec/"
# The LFS specification keeps a pointer under 1024 bytes.
_LFS_POINTER_BYTES = 1024
_LINK_BYTES = 4096
_MAX_NOTES = 20
# Folders nested deeper than this are not read (and recursion stays bounded).
MAX_DEPTH = 64
_T = TypeVar("_T", Tree, Blob)


@dataclass(slots=True)
class Written:
    """What was kept (paths relative to the library folder) and what was left out."""

    files: list[str] = field(default_factory=list)
    documentation: bool = False
    notes: list[str] = field(default_factory=list)
    written_bytes: int = 0
    dropped_notes: int = 0

    def note(self, line: str) -> None:
        if len(self.notes) < _MAX_NOTES:
            self.notes.append(line)
        else:
            self.dropped_notes += 1


def write_documents(
    store: BaseObjectStore,
    tree_id: bytes,
    subdirectory: str | None,
    target: Path,
    limits: Limits,
) -> Written:
    """Write the documents of the tree `tree_id` into `target`, an empty folder."""
    written = Written()
    modules = _submodules(store, tree_id, limits)
    wanted = (subdirectory,) if subdirectory else DOC_FOLDERS
    _walk(store, tree_id, (), wanted, subdirectory is not None, target, limits, modules, written)
    if subdirectory and not written.files and not written.notes:
        written.note(f"#subdirectory={subdirectory}: no such folder with documents at this ref")
    if written.dropped_notes:
        written.notes.append(f"and {written.dropped_notes} more left out")
    return written


def _walk(
    store: BaseObjectStore,
    tree_id: bytes,
    parts: tuple[str, ...],
    wanted: tuple[str, ...],
    only_wanted: bool,
    target: Path,
    limits: Limits,
    modules: dict[str, str],
    written: Written,
) -> None:
    tree = _read(store, tree_id, limits.file_bytes, Tree)
    for raw_name, mode, sha in tree.iteritems():
        name = _name(raw_name)
        if name is None:
            continue
        here = (*parts, name)
        path = "/".join(here)
        if stat.S_ISDIR(mode):
            if len(here) > MAX_DEPTH:
                written.note(f"{path[:60]}...: folders nested over {MAX_DEPTH} deep, left out")
            elif _leads_to(path, wanted):
                _walk(store, sha, here, wanted, only_wanted, target, limits, modules, written)
            continue
        inside = _inside(path, wanted)
        if only_wanted:
            keep = inside and path.lower().endswith(DOC_SUFFIXES)
        else:
            keep = keep_path(path, python=False)
        if mode == 0o160000:
            if inside or _leads_to(path, wanted):
                url = modules.get(path, "no URL in .gitmodules")
                written.note(f"{path}: a submodule ({url}), not fetched")
            continue
        if not keep:
            continue
        if stat.S_ISLNK(mode):
            _link(store, sha, path, limits, written)
            continue
        _blob(store, sha, path, target, limits, written, in_docs=inside)


def _blob(
    store: BaseObjectStore,
    sha: bytes,
    path: str,
    target: Path,
    limits: Limits,
    written: Written,
    in_docs: bool,
) -> None:
    size = stored_size(store, sha)
    if size is None:
        written.note(f"{path}: not in the fetched objects, left out")
        return
    if size > limits.file_bytes:
        written.note(f"{path}: {_mib(size)}, over the {_mib(limits.file_bytes)} cap, left out")
        return
    if len(written.files) >= limits.kept_files:
        written.note(f"more than {limits.kept_files:,} files: the rest left out")
        return
    data = _read(store, sha, limits.file_bytes, Blob).as_raw_string()
    if size < _LFS_POINTER_BYTES and data.startswith(LFS_POINTER):
        written.note(f"{path}: a Git LFS pointer (the file is kept elsewhere), left out")
        return
    written.written_bytes += len(data)
    if written.written_bytes > limits.kept_bytes:
        raise FetchError(f"the kept files pass {limits.kept_bytes >> 20:,} MiB: nothing kept")
    file = target.joinpath(*path.split("/"))
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except OSError:
        return  # two names one file system takes as one (`A.md`, `a.md`)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)
    written.files.append(path)
    written.documentation = written.documentation or in_docs


def _link(store: BaseObjectStore, sha: bytes, path: str, limits: Limits, written: Written) -> None:
    """A symbolic link is never written; one out of the repository is named."""
    size = stored_size(store, sha)
    if size is None or size > _LINK_BYTES:
        written.note(f"{path}: a symbolic link, left out")
        return
    link = _read(store, sha, _LINK_BYTES, Blob).as_raw_string().decode("utf-8", "replace")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), link))
    if link.startswith("/") or resolved == ".." or resolved.startswith("../"):
        shown = link.encode("unicode_escape").decode("ascii")[:60]
        written.note(f"{path}: a symbolic link out of the repository ({shown}), refused")


def _submodules(store: BaseObjectStore, tree_id: bytes, limits: Limits) -> dict[str, str]:
    """`.gitmodules`' paths and URLs (a URL's user name or password not shown)."""
    tree = _read(store, tree_id, limits.file_bytes, Tree)
    try:
        _, sha = tree[b".gitmodules"]
    except KeyError:
        return {}
    size = stored_size(store, sha)
    if size is None or size > 1 << 20:
        return {}
    data = _read(store, sha, 1 << 20, Blob).as_raw_string()
    try:
        config = ConfigFile.from_file(io.BytesIO(data))
        found = parse_submodules(config)
        return {p.decode("utf-8"): _no_credentials(u.decode("utf-8")) for p, u, _ in found}
    except (ValueError, KeyError, UnicodeDecodeError):
        return {}


def _read(store: BaseObjectStore, sha: bytes, cap: int, kind: type[_T]) -> _T:
    size = stored_size(store, sha)
    if size is None:
        raise FetchError(f"object {sha[:12].decode('ascii')} is missing: not kept")
    if size > cap:
        raise FetchError(f"a folder's listing is over {_mib(cap)}: nothing kept")
    found = store[ObjectID(sha)]
    if not isinstance(found, kind):
        raise FetchError(f"object {sha[:12].decode('ascii')} is not a {kind.__name__.lower()}")
    return found


def _name(raw: bytes) -> str | None:
    """A tree entry's name; None for one that is not UTF-8. FetchError for a name that
    would leave its folder."""
    if raw in (b"", b".", b"..") or b"/" in raw or b"\\" in raw or b"\0" in raw:
        shown = raw.decode("utf-8", "replace").encode("unicode_escape").decode("ascii")[:60]
        raise FetchError(f"the repository holds a path named {shown!r}: nothing kept")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _leads_to(folder: str, wanted: tuple[str, ...]) -> bool:
    """Whether a folder holds, or is inside, one of the wanted folders."""
    lowered = folder.lower()
    return any(
        w.lower() == lowered or w.lower().startswith(lowered + "/") for w in wanted
    ) or _inside(folder, wanted)


def _inside(path: str, wanted: tuple[str, ...]) -> bool:
    return any(PurePosixPath(path.lower()).is_relative_to(w.lower()) for w in wanted) and not any(
        path.lower() == w.lower() for w in wanted
    )


def _no_credentials(url: str) -> str:
    parts = urlsplit(url)
    if parts.username or parts.password:
        port = f":{parts.port}" if parts.port else ""
        return parts._replace(netloc=f"{parts.hostname or ''}{port}").geturl()
    return url


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MiB" if size >= 1 << 20 else f"{size:,} bytes"
