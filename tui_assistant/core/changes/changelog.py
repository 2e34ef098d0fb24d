"""A package's changelog in its documentation, and its entries for a range of versions.

A changelog document is found by its file name (`CHANGES`, `CHANGELOG`, `HISTORY`,
`NEWS`, `RELEASES`, `release-notes`, `whatsnew` as `.md`, `.rst`, `.txt`), by a folder of
such files (`docs/changes/`), or by its title (`Changelog`, `Release notes`, ...). Its
entries are its passages whose title path names a version: the first heading of the
path that starts with one, in any of the usual styles (`2.32.0 (2024-05-20)`, `v2.32.0`,
`Version 2.32.0`, `## [2.32.0] - 2024-05-20`, `requests 2.32.0`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tui_assistant.core.documents.formats import format_of
from tui_assistant.core.documents.passage import TITLE_SEPARATOR, Passage

_CHANGELOG_NAMES = frozenset(
    {
        "changes",
        "changelog",
        "change-log",
        "history",
        "news",
        "releases",
        "release-notes",
        "releasenotes",
        "whatsnew",
        "whats-new",
    }
)
_CHANGELOG_TITLES = re.compile(
    r"^(change ?log|changes|history|release history|release notes|releases|news"
    r"|what'?s new)\b",
    re.IGNORECASE,
)
# A version as a heading names it: two or more numbers, perhaps a pre- or post-release.
_VERSION = re.compile(
    r"(?<![\w.])[vV]?(\d+(?:\.\d+)+(?:[-.]?(?:a|b|c|rc|alpha|beta|dev|post|pre)\.?\d*)?)(?!\.?\w)"
)
# A heading names a version when it has a few words at most besides it (`Version`,
# `Release`, the package's name, `What's new in`), not counting a date or an aside in
# brackets.
_WORDS_AROUND_VERSION = 3
_ASIDE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_LETTERS = re.compile(r"[^\W\d_][\w'\u2019]*")
# Web and git libraries are versioned by date (`2026-01-05`) or ref (`main`): no
# changelog heading can be ordered against those.
_RELEASE_NUMBER = re.compile(r"^[vV]?\d+(?:\.\d+)*(?:[-.+_]?[A-Za-z0-9.]*)?$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# A version with perhaps a date or a name after it, alone on its line.
_DATED_VERSION = re.compile(
    r"^(?:version |release )?v?\d+(?:\.\d+)+\S*(?:\s*(?:\(.{0,30}\)|[-\u2013\u2014:/].{0,30}))?$",
    re.IGNORECASE,
)
_UNDERLINE = re.compile(r"^\s*([-=~^*+])\1{2,}\s*$")


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def document_path(passage: Passage) -> str:
    """The passage's document, relative to its library's folder (`source_path` starts
    with the folder's own name, which holds the version)."""
    return passage.source_path.partition("/")[2] or passage.source_path


def is_changelog(path: str, title: str = "") -> bool:
    """Whether the document at `path` (relative to the library folder), titled `title`,
    is a changelog."""
    # A changelog is prose: not a PDF's pages, not Python source.
    format = format_of(path)
    if format is None or format.reads_pages or format.documents_api:
        return False
    *folders, name = path.split("/")
    stem = name.split(".", 1)[0]
    if _slug(stem) in _CHANGELOG_NAMES or any(_slug(f) in _CHANGELOG_NAMES for f in folders):
        return True
    return bool(_CHANGELOG_TITLES.match(title.strip()))


def heading_version(title: str) -> str | None:
    """The version a passage's title path names: that of its first heading that is a
    version with a few words at most around it (`Release History › 2.32.0 (2024-05-20)
    › Bugfixes` -> `2.32.0`); None when none does."""
    for heading in title.split(TITLE_SEPARATOR):
        match = _VERSION.search(heading)
        if match is None:
            continue
        around = _ASIDE.sub(" ", heading[: match.start()] + " " + heading[match.end() :])
        if len(_LETTERS.findall(around)) <= _WORDS_AROUND_VERSION:
            return match.group(1)
    return None


def is_release_number(version: str) -> bool:
    """Whether `version` can be ordered against changelog headings (`2.32.3`, `v1.4`,
    `24.1rc1`), unlike a date or a branch name."""
    return bool(_RELEASE_NUMBER.match(version)) and not _DATE.match(version)


def changelog_passages(passages: Iterable[Passage]) -> list[Passage]:
    """The passages of the changelog documents among `passages`, in their order."""
    titles: dict[str, str] = {}
    found = []
    for passage in passages:
        path = document_path(passage)
        # A document's first passage carries its title first in the path.
        title = titles.setdefault(path, passage.title.split(TITLE_SEPARATOR, 1)[0])
        if is_changelog(path, title):
            found.append(passage)
    return found


@dataclass(frozen=True, slots=True)
class Entry:
    """One changelog entry: the version it is of, its title, and the passage (or the
    lines of one) that holds it."""

    version: str | None
    title: str
    passage: Passage


def changelog_entries(
    new: Sequence[Passage],
    old_version: str,
    new_version: str,
    order: Callable[[str], Any],
    old: Sequence[Passage] = (),
) -> list[Entry]:
    """The changelog entries of the version `new_version` (its passages `new`) for the
    versions after `old_version` up to `new_version`, in the changelog's order. `order`
    sorts versions. When the two versions are not release numbers (a website's dates, a
    repository's refs), the entries are the changelog passages whose title `old` (the
    older version's passages) lacks. The same text twice (a changelog included in the
    documentation too) is one entry."""
    passages = changelog_passages(new)
    if is_release_number(old_version) and is_release_number(new_version):
        low, high = order(old_version), order(new_version)
        chosen = [
            entry
            for entry in _entries(passages)
            if entry.version is not None and low < order(entry.version) <= high
        ]
    else:
        before = {_within(passage.title) for passage in changelog_passages(old)}
        chosen = [
            Entry(heading_version(passage.title), passage.title, passage)
            for passage in passages
            if _within(passage.title) not in before
        ]
    seen: set[str] = set()
    entries = []
    for entry in chosen:
        text = " ".join(entry.passage.text.split())
        if text and text not in seen:
            seen.add(text)
            entries.append(entry)
    return entries


def _entries(passages: Iterable[Passage]) -> Iterator[Entry]:
    """Each passage as the entry its title names; a passage whose title names no
    version (a Markdown changelog underlining its headings, which split no passages)
    cut at the version headings in its text, what comes before the first belonging to
    the entry the document's previous passage ended in."""
    carried: tuple[str, str] | None = None  # the document and version of the last entry
    for passage in passages:
        version = heading_version(passage.title)
        if version is not None:
            carried = None
            yield Entry(version, passage.title, passage)
            continue
        document = document_path(passage)
        lines = passage.text.split("\n")
        # (first line, version, heading) of each entry in the text.
        pieces = [(n, found, lines[n].strip(" #")) for n, found in _version_headings(lines)]
        if carried is not None and carried[0] == document and (not pieces or pieces[0][0] > 0):
            pieces.insert(0, (0, carried[1], f"{carried[1]} (continued)"))
        ends = [start for start, _, _ in pieces[1:]] + [len(lines)] * bool(pieces)
        for (start, found, heading), end in zip(pieces, ends, strict=True):
            piece = _lines_of(passage, lines, start, end)
            if piece is not None:
                yield Entry(found, f"{passage.title}{TITLE_SEPARATOR}{heading}", piece)
        carried = (document, pieces[-1][1]) if pieces else None


def _version_headings(lines: Sequence[str]) -> Iterator[tuple[int, str]]:
    """The lines of a text that are version headings, with their versions: `## 2.32.0`,
    a line underlined with `===`, or a line of a version and a date alone between blank
    lines (an underlined heading as the page shows it, its `---` rule gone)."""
    for number, line in enumerate(lines):
        text = line.strip()
        after = lines[number + 1] if number + 1 < len(lines) else ""
        if text.startswith("#"):
            text = text.lstrip("#").strip()
        elif not _UNDERLINE.match(after) and not (
            _DATED_VERSION.match(text)
            and not after.strip()
            and (number == 0 or not lines[number - 1].strip())
        ):
            continue
        version = heading_version(text)
        if text and version is not None:
            yield number, version


def _lines_of(passage: Passage, lines: Sequence[str], start: int, end: int) -> Passage | None:
    """The passage cut to its text's lines `start` to `end` (end excluded), which stand
    on the file lines from `passage.line + start`; None when they hold no text."""
    while end > start and not lines[end - 1].strip():
        end -= 1
    if end <= start:
        return None
    text = "\n".join(lines[start:end])
    return replace(passage, text=text, line=passage.line + start, end_line=passage.line + end - 1)


def _within(title: str) -> str:
    """A title path without its document's title."""
    return title.partition(TITLE_SEPARATOR)[2] or title
