"""A documentation website's URLs: the SPEC, its scope, links made canonical, and the
file each page is kept as. Pure: strings in, strings out.

- The scope of `https://HOST/PATH/` is HOST (with its port) and every path under
  `/PATH/`; `PATH` without a trailing slash means the folder `PATH/` (and the page
  `PATH` itself), a file-like last part (`/docs/index.html`) its folder.
- A link is kept only when it is `http(s)`, on the scope's host and under its path; its
  fragment and query are dropped (a query makes crawl traps such as an endless calendar,
  `?month=`, and documentation pages seldom need one), `.` and `..` parts resolved.
- A page is kept at its URL's path below the scope's folder: a trailing slash is
  `index`, the suffix is the answer's (`.md` for Markdown, `.html` for HTML), every part
  made of safe characters only (no leading `.`, no `..`), so no URL can name a file
  outside the library's folder.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from tui_assistant.urls import check_base_url

MAX_URL_CHARS = 2000
# A page's kept path: at most this many folders deep, each part at most this long.
MAX_PATH_PARTS = 32
MAX_PART_CHARS = 100
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SLUG_UNSAFE = re.compile(r"[^a-z0-9]+")
# Suffixes a page's URL may carry that its kept file replaces with the answer's own.
_PAGE_SUFFIXES = (".html", ".htm", ".md", ".markdown", ".mdx", ".php", ".asp", ".aspx")


@dataclass(frozen=True, slots=True)
class SiteSpec:
    """A website to fetch: `url` as given, `host` (with a non-default port) and the
    scope's folder `root` (a path ending in `/`)."""

    url: str
    scheme: str
    host: str
    root: str

    registry = "web"

    @property
    def start(self) -> str:
        """The first page: the URL as given, canonical."""
        return canonical(self.url, self) or self.base

    @property
    def base(self) -> str:
        """The scope's folder as a URL (`https://docs.example.com/guide/`)."""
        return f"{self.scheme}://{self.host}{self.root}"

    @property
    def site(self) -> str:
        """The site's root (`https://docs.example.com/`), where robots.txt stands."""
        return f"{self.scheme}://{self.host}/"

    @property
    def library_base(self) -> str:
        """`HOST[-PATH-SLUG]`: the library's name before `@DATE`."""
        host = self.host.replace(":", "-").replace("[", "").replace("]", "").lower()
        slug = _SLUG_UNSAFE.sub("-", self.root.lower()).strip("-")
        return f"{host}-{slug}" if slug else host

    @property
    def name(self) -> str:
        return self.library_base

    @property
    def version(self) -> None:
        return None

    def __str__(self) -> str:
        return self.url

    def whole_site(self) -> SiteSpec:
        """The same site with every path in scope (robots.txt, sitemaps)."""
        return SiteSpec(self.url, self.scheme, self.host, "/")


def parse_site_url(text: str) -> SiteSpec | None:
    """The website `text` names (`https://HOST/PATH/`, `http://` to loopback); None when
    `text` is not an http(s) URL. ValueError with one line for a URL not allowed."""
    text = text.strip()
    if not text.lower().startswith(("http://", "https://")):
        return None
    if len(text) > MAX_URL_CHARS:
        raise ValueError(f"is longer than {MAX_URL_CHARS:,} characters")
    parts = urlsplit(text)
    try:
        check_base_url(urlunsplit((parts.scheme, parts.netloc, parts.path or "/", "", "")))
    except ValueError as error:
        raise ValueError(str(error)) from None
    if parts.query:
        raise ValueError("must not have a query (give the documentation's folder)")
    path = posixpath.normpath(unquote(parts.path or "/"))
    path = "/" if path in (".", "//") else path
    if (parts.path or "/").endswith("/"):
        root = path.rstrip("/") + "/"
    elif "." in path.rsplit("/", 1)[-1]:
        root = path.rsplit("/", 1)[0] + "/"
    else:
        root = path + "/"
    scheme = parts.scheme.lower()
    return SiteSpec(text, scheme, _host_of(parts.hostname or "", parts.port, scheme), root)


def _host_of(hostname: str, port: int | None, scheme: str) -> str:
    host = hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = 443 if scheme == "https" else 80
    return host if port is None or port == default else f"{host}:{port}"


def canonical(link: str, spec: SiteSpec, base: str | None = None) -> str | None:
    """`link` (relative to `base`, the page it is on) as a URL in the scope: no
    fragment, no query, dots resolved; None when it is outside the scope or not http(s)
    (`javascript:`, `data:`, `mailto:`, another host)."""
    link = link.strip()
    if not link or len(link) > MAX_URL_CHARS or link.startswith("#"):
        return None
    try:
        parts = urlsplit(urljoin(base or spec.base, link))
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or parts.username or parts.password:
        return None
    if scheme != spec.scheme or _host_of(parts.hostname or "", port, scheme) != spec.host:
        return None
    path = parts.path or "/"
    trailing = path.endswith("/")
    path = posixpath.normpath(path)
    path = "/" if path in (".", "//") else path
    if trailing and path != "/":
        path += "/"
    if not in_scope(path, spec):
        return None
    return urlunsplit((scheme, spec.host, path, "", ""))


def in_scope(path: str, spec: SiteSpec) -> bool:
    """Whether a URL's path is the scope's folder, under it, or the folder without its
    trailing slash."""
    return path.startswith(spec.root) or path == spec.root.rstrip("/")


def host_of(url: str) -> str:
    """The host of `url` as a scope names it (with a non-default port)."""
    try:
        parts = urlsplit(url)
        return _host_of(parts.hostname or "", parts.port, parts.scheme.lower())
    except ValueError:
        return ""


def page_file(url: str, spec: SiteSpec, suffix: str) -> str | None:
    """The path, relative to the library's folder, a page at `url` is kept at with
    `suffix` (`.md`, `.html`); None when no safe path can name it."""
    path = unquote(urlsplit(url).path)
    relative = path[len(spec.root) :] if path.startswith(spec.root) else ""
    if path.endswith("/") or not relative:
        relative += "index"
    parts = [_safe_part(part) for part in relative.split("/") if part not in ("", ".")]
    if not parts or ".." in relative.split("/") or len(parts) > MAX_PATH_PARTS:
        return None
    last = parts[-1]
    lowered = last.lower()
    for known in _PAGE_SUFFIXES:
        if lowered.endswith(known) and len(last) > len(known):
            last = last[: -len(known)]
            break
    parts[-1] = last + suffix
    return "/".join(parts)


def _safe_part(part: str) -> str:
    safe = _UNSAFE.sub("-", part).strip("-") or "-"
    if safe.startswith("."):
        safe = "_" + safe.lstrip(".")
    return safe[:MAX_PART_CHARS]


def today(now: datetime | None = None) -> str:
    """The version a site fetched now is kept as: the UTC date, `YYYY-MM-DD`."""
    return (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%d")
