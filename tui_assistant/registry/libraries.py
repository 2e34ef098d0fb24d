"""Where fetched libraries live, what they are, and which one a name means.

A fetched library is a folder `fetched/NAME@VERSION/` in the data folder, holding
the documents kept from the release's archive and `.fetched.json` (its name starts
with `.`, so the library never reads it as a document): the package, its version, the
registry, the archive's URL and sha256, and when it was fetched (for a repository's
ref: origin `git`, its URL, the ref and the commit). It is read offline
ever after. `--library NAME@VERSION` names one; `--library NAME` the newest fetched
version, by version order (release numbers as numbers, a pre-release before its
release).
"""

from __future__ import annotations

import difflib
import json
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant.core.documents.formats import DOCUMENT_KINDS
from tui_assistant.core.library.names import LibrarySpec, check_distinct, library_name
from tui_assistant.errors import LibraryError, os_error_words
from tui_assistant.registry.specs import VERSION_TEXT
from tui_assistant.registry.versions import Registry, newest_first, newest_in

if TYPE_CHECKING:
    from tui_assistant.core.library.library import Library

LIBRARIES_FOLDER = "fetched"
METADATA_FILE = ".fetched.json"
# A half-made library is unpacked here first, then renamed into place.
STAGING_PREFIX = ".staging-"
# `flask@3.1.3`; `flask` alone asks for the newest fetched version.
FETCHED_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*@[A-Za-z0-9.+_-]+$")
_BARE_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_RELEASE = re.compile(r"^v?(\d+(?:\.\d+)*)(.*)$")


@dataclass(frozen=True, slots=True)
class FetchedMetadata:
    """What `.fetched.json` says of a fetched library."""

    package: str
    version: str
    registry: str
    index_url: str
    archive_url: str
    sha256: str
    fetched_at: str
    documentation: bool
    # A repository's ref (`registry` "git"): where it came from, the ref as asked and
    # the commit it named then. Absent from libraries fetched from a registry.
    origin: str | None = None
    url: str | None = None
    ref: str | None = None
    commit: str | None = None
    # A website's pages, by file in the library: `{"url", "etag", "last_modified"}`.
    pages: dict[str, dict[str, str | None]] = field(default_factory=dict)
    # Where a website's list of pages came from: llms.txt, llms-full.txt, sitemap, links.
    crawl: str | None = None


def libraries_dir(data_dir: Path) -> Path:
    return data_dir / LIBRARIES_FOLDER


def library_dir(data_dir: Path, name: str) -> Path:
    """The folder of the fetched library `NAME@VERSION`."""
    if not FETCHED_NAME.match(name):
        raise ValueError(f"{name!r} is not a fetched library's name (NAME@VERSION)")
    return libraries_dir(data_dir) / name


def write_metadata(folder: Path, metadata: FetchedMetadata) -> None:
    given = {key: value for key, value in asdict(metadata).items() if value is not None}
    text = json.dumps(given, indent=2, sort_keys=True)
    (folder / METADATA_FILE).write_text(text + "\n", encoding="utf-8")


def read_metadata(folder: Path) -> FetchedMetadata | None:
    """The metadata of a fetched library's folder; None for any other folder (or a
    metadata file that is not ours)."""
    try:
        data = json.loads((folder / METADATA_FILE).read_text(encoding="utf-8"))
        # Fields added later (a website's pages) are absent from older files.
        return FetchedMetadata(
            **{
                item.name: data[item.name]
                for item in fields(FetchedMetadata)
                if item.name in data
                or (item.default is MISSING and item.default_factory is MISSING)
            }
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def page_urls(folder: Path) -> dict[str, str]:
    """A website library's pages' URLs by file (relative to its folder); empty for any
    other folder."""
    metadata = read_metadata(folder)
    if metadata is None or not isinstance(metadata.pages, dict):
        return {}
    urls: dict[str, str] = {}
    for file, page in metadata.pages.items():
        url = page.get("url") if isinstance(page, dict) else None
        if isinstance(url, str):
            urls[file] = url
    return urls


def with_page_urls(library: Library, folder: Path) -> Library:
    """`library` (read from `folder`) with each passage of a website's page citing that
    page's URL; any other library as it is."""
    urls = page_urls(folder)
    if urls:
        library.passages = tuple(
            replace(info, url=urls.get(info.document)) for info in library.passages
        )
    return library


def fetched_facts(folder: Path) -> dict[str, str | None]:
    """`package`, `version` and `origin` (the archive's URL) of a fetched library's
    folder, each None for any other folder (`status`, `library`)."""
    metadata = read_metadata(folder)
    if metadata is None:
        return {"package": None, "version": None, "origin": None}
    return {
        "package": metadata.package,
        "version": metadata.version,
        "origin": metadata.archive_url,
    }


# Where a fetched library came from: a package registry, a website, a repository.
ORIGINS = ("pypi", "npm", "web", "git")


def fetched_origin(folder: Path) -> dict[str, str | None]:
    """`package`, `version`, `origin` (`pypi`, `npm`, `web` or `git`) and `fetched_at`
    of a fetched library's folder, each None for any other folder (`status`). Read from
    `.fetched.json` as any kind of fetch writes it: its `origin`, else its `registry`."""
    try:
        data = json.loads((folder / METADATA_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict):
        return dict.fromkeys(("package", "version", "origin", "fetched_at"))
    origin = next(
        (data.get(key) for key in ("origin", "registry") if data.get(key) in ORIGINS), None
    )
    base, _, version = folder.name.partition("@")
    return {
        "package": _text(data.get("package")) or base,
        "version": _text(data.get("version")) or version or None,
        "origin": origin,
        "fetched_at": _text(data.get("fetched_at")),
    }


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def document_kinds_of(folder: Path, configured: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds of documents a library folder is read with: a fetched library's are
    every kind the app reads (its Python source is its API reference), any other
    folder's what `TUI_ASSISTANT_DOCUMENT_TYPES` says."""
    if _mode(folder / METADATA_FILE, folder) == stat.S_IFREG:
        return DOCUMENT_KINDS
    return configured


def _mode(path: Path, folder: Path) -> int | None:
    """`path`'s file type bits, None when there is nothing there. `LibraryError` naming
    the library `folder` when it cannot be looked into (`Path.is_file` raises
    `PermissionError` as a traceback would)."""
    try:
        return stat.S_IFMT(path.stat().st_mode)
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return None
    except OSError as error:
        raise LibraryError(
            f"library folder {folder} cannot be read: {os_error_words(error)}"
        ) from None


def _is_folder(path: Path) -> bool:
    return _mode(path, path) == stat.S_IFDIR


def version_key(version: str) -> tuple[tuple[int, ...], int, str]:
    """An order of versions across PEP 440 and semver: the release numbers as numbers
    (trailing zeros ignored), then a pre-release (`rc1`, `-beta.2`, `.dev0`) before the
    release and a post-release after it, then the rest as text."""
    match = _RELEASE.match(version)
    if match is None:
        return ((), 0, version)
    numbers = [int(part) for part in match.group(1).split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    rest = match.group(2).lower()
    if not rest or rest.startswith("+"):
        rank = 2
    elif re.match(r"^[._-]?(post|rev|r)[._-]?\d*$", rest):
        rank = 3
    else:
        rank = 1
    return (tuple(numbers), rank, rest)


def fetched_names(data_dir: Path) -> Iterator[str]:
    """The names of the libraries fetched into the data folder."""
    try:
        entries = list(libraries_dir(data_dir).iterdir())
    except OSError:
        return
    for entry in sorted(entries):
        if FETCHED_NAME.match(entry.name) and _mode(entry / METADATA_FILE, entry) == stat.S_IFREG:
            yield entry.name


def newest(names: Iterable[str], base: str) -> str | None:
    """The newest `base@VERSION` among `names`."""
    versions = [name.partition("@")[2] for name in names if name.partition("@")[0] == base]
    if not versions:
        return None
    return f"{base}@{max(versions, key=version_key)}"


def resolve_fetched(entry: str, data_dir: Path) -> Path | None:
    """The folder of the fetched library `entry` names: `flask@3.1.3` exactly, `flask`
    the newest fetched version, `flask@RANGE` (`flask@3`, `flask@>=2,<3`, `left-pad@^1.2`)
    the newest fetched version in the range, read by the package's registry's rules.
    None when `entry` names no fetched package; ValueError with one line when it does
    but no fetched version is in the range."""
    if FETCHED_NAME.match(entry):
        version = entry.partition("@")[2]
        if VERSION_TEXT.match(version) and (libraries_dir(data_dir) / entry).is_dir():
            return libraries_dir(data_dir) / entry
    base, at, written = entry.partition("@")
    if at and written.strip() and _BARE_NAME.match(base):
        return _newest_in_range(base, written.strip(), data_dir)
    if _BARE_NAME.match(entry):
        found = newest(fetched_names(data_dir), entry)
        return libraries_dir(data_dir) / found if found else None
    return None


def _newest_in_range(base: str, written: str, data_dir: Path) -> Path | None:
    versions = [n.partition("@")[2] for n in fetched_names(data_dir) if n.partition("@")[0] == base]
    if not versions:
        return None
    metadata = read_metadata(libraries_dir(data_dir) / f"{base}@{versions[0]}")
    registry: Registry = "npm" if metadata is not None and metadata.registry == "npm" else "pypi"
    fetched = ", ".join(newest_first(registry, versions))
    try:
        found = newest_in(registry, written, versions)
    except ValueError:
        raise ValueError(
            f"{base}@{written}: {written!r} is not a version range (fetched: {fetched})"
        ) from None
    if found is None:
        raise ValueError(f"no fetched version of {base} matches {written} (fetched: {fetched})")
    return libraries_dir(data_dir) / f"{base}@{found}"


def with_fetched(specs: tuple[LibrarySpec, ...], data_dir: Path) -> tuple[LibrarySpec, ...]:
    """`specs` with each entry that names a fetched library (`flask@3.1.3`, `flask`)
    rather than a folder of the working directory read from the data folder, named
    after the library unless a name was given (`docs=flask`). Raises ValueError when two
    entries end up with one name."""
    resolved: list[LibrarySpec] = []
    for spec in specs:
        entry = str(spec.folder)
        folder = None if _is_folder(spec.folder) else resolve_fetched(entry, data_dir)
        if folder is None:
            _check_close_names(spec.folder, data_dir)
            resolved.append(spec)
            continue
        named = spec.name != library_name(spec.folder.name)
        resolved.append(LibrarySpec(spec.name if named else folder.name, folder))
    check_distinct(resolved)
    return tuple(resolved)


def close_names(entry: str, names: Iterable[str]) -> list[str]:
    """The fetched libraries among `names` that `entry` may have meant: those whose
    package name is close to `entry`'s (`flaskk`, `flask@9` -> `flask@3.1.3`), the
    newest version of each, closest first."""
    known = list(names)
    bases = list(dict.fromkeys(name.partition("@")[0] for name in known))
    wanted = entry.partition("@")[0].lower()
    close = difflib.get_close_matches(wanted, bases, n=3, cutoff=0.75)
    return [found for base in close if (found := newest(known, base)) is not None]


def _check_close_names(folder: Path, data_dir: Path) -> None:
    """A `--library` entry that is neither a folder nor a fetched library, but is close
    to a fetched library's name, is a `LibraryError` saying which it may mean; any
    other stays for the library to say it does not exist."""
    entry = str(folder)
    if "/" in entry or _mode(folder, folder) is not None:
        return
    suggestions = close_names(entry, fetched_names(data_dir))
    if suggestions:
        shown = " or ".join(suggestions)
        raise LibraryError(f"library folder {entry} does not exist (did you mean {shown}?)")


def choose_library(name: str | None, names: Iterable[str]) -> str | None:
    """The library a question narrowed to `name` searches: `name` itself, or for a
    package's bare name (`flask`) its newest version among `names`."""
    known = list(names)
    if name is None or name in known:
        return name
    return newest(known, name) or name
