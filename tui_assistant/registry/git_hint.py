"""Where a release without docs keeps them: the repository its metadata names.

A release's own metadata travels in its archive: a PyPI sdist's `PKG-INFO` (its
`Project-URL`s and `Home-page`, what PyPI shows as `project_urls`), an npm tarball's
`package.json` (`repository`). When that names a repository on a known forge, `fetch`
says so and offers the spec to fetch it (`try fetch git+https://github.com/ORG/REPO@TAG`)
with the tag guessed from the version: npm's `npm version` tags `v1.2.3`, PyPI projects
use either form, so the other is named too. Nothing is cloned unless asked.
"""

from __future__ import annotations

import re
import tarfile
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

from tui_assistant.registry import npm, pypi

# Hosts whose repository URLs are `https://HOST/OWNER/REPO`.
FORGES = frozenset(
    {"github.com", "gitlab.com", "codeberg.org", "bitbucket.org", "git.sr.ht", "gitea.com"}
)
_SHORTHAND = re.compile(r"^(?:(github|gitlab|bitbucket):)?([\w.-]+)/([\w.-]+)$")
_SHORTHAND_HOSTS = {"github": "github.com", "gitlab": "gitlab.com", "bitbucket": "bitbucket.org"}
_METADATA_BYTES = 1 << 20
_MEMBERS = 20_000


def repository_url(written: str) -> str | None:
    """`https://HOST/OWNER/REPO` for a repository URL as metadata writes it
    (`git+https://github.com/o/r.git`, `git://…`, `git+ssh://git@github.com/o/r`,
    `https://github.com/o/r/tree/main`, npm's `github:o/r` and `o/r`); None for a
    host that is not a known forge or a URL that names no repository."""
    text = written.strip()
    short = _SHORTHAND.match(text)
    if short:
        host = _SHORTHAND_HOSTS[short.group(1) or "github"]
        return _url(host, short.group(2), short.group(3))
    text = text.removeprefix("git+")
    if text.startswith("git@") and ":" in text:
        text = "ssh://" + text.replace(":", "/", 1)
    parts = urlsplit(text)
    host = (parts.hostname or "").lower().removeprefix("www.")
    if parts.scheme not in ("https", "http", "git", "ssh") or host not in FORGES:
        return None
    path = [part for part in parts.path.split("/") if part]
    if len(path) < 2:
        return None
    return _url(host, path[0], path[1])


def suggestion(url: str, version: str, registry: str) -> str:
    """The line a release without docs adds: the spec to try, the tag form guessed."""
    bare = version.removeprefix("v")
    first, other = (f"v{bare}", bare) if registry == "npm" else (bare, f"v{bare}")
    return f"its repository may have them: try fetch git+{url}@{first} (or @{other})"


def repository_hint(archive: Path, filename: str, registry: str, version: str) -> str | None:
    """`suggestion` for the release in `archive`, from its own metadata; None when it
    names no repository on a known forge (or cannot be read)."""
    wanted = "PKG-INFO" if registry == "pypi" else "package.json"
    text = _top_member(archive, filename, wanted)
    if text is None:
        return None
    found = pypi.repository_urls(text) if registry == "pypi" else npm.repository_urls(text)
    for written in found:
        url = repository_url(written)
        if url is not None:
            return suggestion(url, version, registry)
    return None


def _url(host: str, owner: str, repo: str) -> str | None:
    repo = repo.removesuffix(".git")
    if not owner or not repo or owner.startswith(".") or repo.startswith("."):
        return None
    return f"https://{host}/{owner}/{repo}"


def _top_member(archive: Path, filename: str, wanted: str) -> str | None:
    """The text of `TOP/wanted` in a release's archive (at most 1 MiB), read as data."""
    try:
        if filename.lower().endswith(".zip"):
            with zipfile.ZipFile(archive) as opened:
                for info in opened.infolist()[:_MEMBERS]:
                    if _is_top(info.filename, wanted) and info.file_size <= _METADATA_BYTES:
                        with opened.open(info) as member:
                            return _text(member.read(_METADATA_BYTES + 1))
            return None
        with tarfile.open(archive, mode="r|*") as stream:
            for count, entry in enumerate(stream):
                if count >= _MEMBERS:
                    return None
                if entry.isfile() and _is_top(entry.name, wanted):
                    if entry.size > _METADATA_BYTES:
                        return None
                    source = stream.extractfile(entry)
                    return _text(source.read(_METADATA_BYTES + 1)) if source else None
    except (OSError, EOFError, tarfile.TarError, zipfile.BadZipFile):
        return None
    return None


def _is_top(name: str, wanted: str) -> bool:
    parts = [part for part in name.split("/") if part not in ("", ".")]
    return len(parts) == 2 and parts[1] == wanted


def _text(data: bytes) -> str | None:
    if len(data) > _METADATA_BYTES:
        return None
    return data.decode("utf-8", "replace")
