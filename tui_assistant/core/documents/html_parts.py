"""What `html_text.read_page` finds in a page, in the order the page has it: lines of
text, headings, the entries of reference lists, and the book's own index."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Heading:
    line: int  # where its start tag stands
    level: int  # 1-6, as `<h1>` to `<h6>`
    text: str  # its plain words, on one line


@dataclass(frozen=True, slots=True)
class EntryStart:
    """Where an entry of a reference list starts (`<dt>`): the terms it documents.
    `alone`: a documented API object (Sphinx's `dt.sig`), a passage of its own."""

    line: int
    terms: tuple[str, ...]
    alone: bool = False


@dataclass(frozen=True, slots=True)
class ListEnd:
    """Where a reference list ends (`</dl>`): what follows is its section's prose."""

    line: int


@dataclass(frozen=True, slots=True)
class IndexMark:
    """Where the book's own index stands (texinfo's `<table class="index-cp">`): its
    section is a way into the others, not a passage."""

    line: int


Part = tuple[int, str, bool, bool] | Heading | EntryStart | ListEnd | IndexMark


@dataclass(slots=True)
class Page:
    """What `read_page` found: the text of each line of main content, in order, with
    the headings and entries between them, and the page's `<title>` words ("" when none)."""

    title: str
    # (line, words, preformatted, in a link) pieces and marks, in the order of the page.
    parts: list[Part] = field(default_factory=list)
    links: int = 0  # links in the main content
    link_chars: int = 0  # characters of their words
    chars: int = 0  # characters of all its words
    # The line of every element id (and `<a name>`), for the index's links to land on.
    anchors: dict[str, int] = field(default_factory=dict)
    # The book's index: (term, what its link points to: `#anchor` or `page.html#anchor`).
    index: list[tuple[str, str]] = field(default_factory=list)


def shown_line(pieces: list[tuple[str, bool]]) -> str:
    """One line's text from its pieces (words, preformatted): spaces collapsed as a
    browser does outside preformatted text, which keeps its own."""
    if not any(pre for _, pre in pieces):
        return _WHITESPACE.sub(" ", "".join(words for words, _ in pieces)).strip()
    start = 0
    while not pieces[start][1] and not pieces[start][0].strip():
        start += 1  # the space between blocks before the code starts
    return "".join(words for words, _ in pieces[start:]).rstrip()
