"""Reading a downloaded archive (a Debian package, a tarball) into `{path: bytes}`, with the
standard library only: nothing in an archive is extracted to disk or run."""

from __future__ import annotations

import io
import re
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

Files = dict[str, bytes]


class ArchiveError(Exception):
    """The archive cannot be read as the source it should be."""


@dataclass(frozen=True)
class Archive:
    """An archive's files by path (below its common top folder, if it has one) and what
    it says it is: the version its metadata states, the commit `git archive` noted."""

    files: Files
    version: str | None = None
    commit: str | None = None


def ar_members(data: bytes) -> Files:
    """The members of a Unix `ar` archive (the container format of a .deb)."""
    if not data.startswith(b"!<arch>\n"):
        raise ArchiveError("not a Debian package (no ar header)")
    members: Files = {}
    offset = 8
    while offset + 60 <= len(data):
        header = data[offset : offset + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        start = offset + 60
        members[name] = data[start : start + size]
        offset = start + size + (size % 2)
    return members


def tar_files(tar: tarfile.TarFile, follow_links: bool) -> Files:
    """Every regular file by its path in the archive; with `follow_links`, a symbolic link
    to a file inside the archive too, with that file's content."""
    members = {PurePosixPath(member.name).as_posix(): member for member in tar.getmembers()}

    def read(name: str, hops: int = 0) -> bytes | None:
        member = members.get(name)
        if member is None or hops > 8:
            return None
        if member.issym():
            parts: list[str] = []
            for part in (PurePosixPath(name).parent / member.linkname).parts:
                if part == "..":
                    if parts:
                        parts.pop()
                elif part != ".":
                    parts.append(part)
            return read("/".join(parts), hops + 1) if follow_links else None
        extracted = tar.extractfile(member) if member.isfile() else None
        return extracted.read() if extracted is not None else None

    files: Files = {}
    for name in members:
        content = read(name)
        if content is not None:
            files[name] = content
    return files


def without_top_folder(files: Files) -> Files:
    """The paths below the one folder every path starts with (`attrs-26.1.0/`,
    `package/`, a `git archive --prefix`), or as they are when there is none."""
    tops = {path.split("/", 1)[0] for path in files}
    if len(tops) != 1 or any("/" not in path for path in files):
        return files
    top = next(iter(tops)) + "/"
    return {path.removeprefix(top): content for path, content in files.items()}


def stated_version(files: Files) -> str | None:
    """The version an sdist's PKG-INFO or an npm tarball's package.json states."""
    for path in ("PKG-INFO", "package.json"):
        if path in files:
            text = files[path].decode("utf-8")
            pattern = r"^Version: (\S+)$" if path == "PKG-INFO" else r'"version"\s*:\s*"([^"]+)"'
            found = re.search(pattern, text, re.MULTILINE)
            return found.group(1) if found else None
    return None


def read_deb(path: Path) -> Archive:
    """A Debian package's data files, by path without the leading `./`."""
    members = ar_members(path.read_bytes())
    data = next((name for name in members if name.startswith("data.tar")), None)
    if data is None:
        raise ArchiveError("no data.tar member")
    with tarfile.open(fileobj=io.BytesIO(members[data])) as tar:
        files = tar_files(tar, follow_links=False)
    found = re.match(r"[^_]+_([^_]+)_", path.name)
    return Archive(
        {name.removeprefix("./"): content for name, content in files.items()},
        version=unquote(found.group(1)) if found else None,  # an epoch's colon is %3a
    )


def read_tarball(path: Path, follow_links: bool = False) -> Archive:
    """An sdist, an npm tarball or a `git archive`, below its top folder."""
    try:
        with tarfile.open(path) as tar:
            files = without_top_folder(tar_files(tar, follow_links))
            # `git archive` of a commit stores its id in a pax global header ("comment").
            commit = tar.pax_headers.get("comment")
    except tarfile.TarError as error:
        raise ArchiveError(f"not a tar archive ({error})") from error
    return Archive(files, version=stated_version(files), commit=commit)
