"""What to fetch from a repository: `git+https://HOST/ORG/REPO@REF[#subdirectory=DIR]`.

Pure: a string in, a `GitSpec` out. The URL is https (plain http only to a loopback
host) or `file://` (a repository on this machine), with no user name or password;
REF is a tag, a branch or a full commit id, and is required (a repository has no
"newest release"). The library is `REPO@REF`: the repository's last path part, lower
case, and the ref with `/` (and any character a library's name cannot hold) as `-`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from tui_assistant.urls import check_base_url

GIT_PREFIX = "git+"
_HINT = "write git+https://HOST/ORG/REPO@REF or git+file:///PATH@REF (a tag, branch or commit)"
# Characters git refuses in a ref name (git-check-ref-format), and control characters.
_BAD_REF = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//|^/|/$|\.lock$|^-")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
_NOT_NAME = re.compile(r"[^a-z0-9._-]+")
_NOT_VERSION = re.compile(r"[^A-Za-z0-9.+_-]+")


@dataclass(frozen=True, slots=True)
class GitSpec:
    """One ref of one repository: `url` as given after `git+` (no `@REF`, no
    fragment), the `ref`, and the folder holding the docs when one is named."""

    url: str
    ref: str
    subdirectory: str | None = None

    @property
    def local(self) -> bool:
        return self.url.startswith("file://")

    @property
    def path(self) -> str:
        """The local repository's folder (`file://` only)."""
        return unquote(urlsplit(self.url).path)

    @property
    def repo(self) -> str:
        """The repository's name: its URL's last path part without `.git`."""
        last = self.url.rstrip("/").rsplit("/", 1)[-1]
        return last.removesuffix(".git")

    @property
    def library(self) -> str:
        """`REPO@REF`, the library's name (`httpx@0.27.2`, `docs@release-2.0`)."""
        base = _NOT_NAME.sub("-", self.repo.lower()).strip("-._") or "repository"
        version = _NOT_VERSION.sub("-", self.ref).strip("-") or "ref"
        return f"{base}@{version}"

    @property
    def is_commit(self) -> bool:
        return bool(_COMMIT.match(self.ref))

    def __str__(self) -> str:
        tail = f"#subdirectory={self.subdirectory}" if self.subdirectory else ""
        return f"{GIT_PREFIX}{self.url}@{self.ref}{tail}"


def without_credentials(text: str) -> str:
    """`text` with a URL's user name and password shown as `***`, to be quoted back."""
    return re.sub(r"//[^/@\s]+@", "//***@", text, count=1)


def is_git_spec(text: str) -> bool:
    return text.strip().startswith(GIT_PREFIX)


def parse_git_spec(text: str) -> GitSpec:
    """`git+https://github.com/encode/httpx@0.27.2`, `git+file:///srv/repo@main`,
    `...@v2#subdirectory=site/docs`. Raises ValueError with one line saying how to
    write it."""
    written = text.strip().removeprefix(GIT_PREFIX)
    written, _, fragment = written.partition("#")
    subdirectory = _subdirectory(fragment) if fragment else None
    parts = urlsplit(written)
    at = parts.path.rfind("@")
    if parts.scheme not in ("https", "http", "file"):
        raise ValueError(f"not an https:// or file:// repository URL ({_HINT})")
    if at < 0 or at == len(parts.path) - 1:
        raise ValueError(f"no @REF after the repository ({_HINT})")
    ref = unquote(parts.path[at + 1 :])
    url = parts._replace(path=parts.path[:at]).geturl()
    if parts.query:
        raise ValueError("a repository URL takes no query (?...)")
    if _BAD_REF.search(ref):
        raise ValueError(f"{ref!r} is not a tag, branch or commit name")
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost") or not parts.path.startswith("/"):
            raise ValueError(f"a file:// repository is an absolute path on this machine ({_HINT})")
    else:
        try:
            check_base_url(url)
        except ValueError as error:
            raise ValueError(f"the repository URL {error}") from None
        if urlsplit(url).path.strip("/") == "":
            raise ValueError(f"no repository path after the host ({_HINT})")
    spec = GitSpec(url, ref, subdirectory)
    if not spec.repo or spec.repo in (".", ".."):
        raise ValueError(f"no repository name in the URL ({_HINT})")
    return spec


def _subdirectory(fragment: str) -> str:
    key, equals, value = fragment.partition("=")
    if key != "subdirectory" or not equals or not value.strip("/"):
        raise ValueError("the only #fragment is #subdirectory=DIR")
    path = PurePosixPath(unquote(value).strip("/"))
    if path.is_absolute() or any(part in ("..", ".", "") for part in path.parts):
        raise ValueError(f"#subdirectory={value} is not a folder inside the repository")
    return str(path)
