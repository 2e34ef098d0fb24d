"""PDF documents as text: the pure half of reading a PDF.

`pdf.py` takes a PDF's text layer out of the file as pages of lines (each with its
font size and place on the page) and its outline; everything after that is here, on
plain values, so each rule is tested without a PDF (`pdf_sections.py` then splits the
text into passages):

- running headers and footers (a line near the top or bottom edge that repeats, digits
  aside, on other pages), page numbers (`12`, `xii`, `Page 3 of 9`, `- 4 -`) and a
  table of contents' entries (`Purpose ........ 14`) are not text, nor are the notes
  around a code block broken across pages (`(continued from previous page)`);
- a word hyphenated across two lines is joined on the first (`hyphen-` / `ated and`
  reads `hyphenated` / `and`), so every line keeps its number;
- a wider gap between lines than the document's usual one is a paragraph break (a
  blank line), as in a Markdown file;
- the document's extracted text is those lines, page after page; a passage's `line` and
  `end_line` are lines of it, and its `page` and `end_page` the pages they stand on.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

# The share of the page height at its top and bottom where headers and footers stand.
EDGE_ZONE = 0.09
# A gap between two lines this many times the usual one starts a paragraph.
PARAGRAPH_GAP_RATIO = 1.6

_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013\u2014(\[]?\s*(?:\d+|[ivxlcdm]+)\s*[-\u2013\u2014)\]]?"
    r"(?:\s*(?:/|of)\s*\d+)?$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
# What a typesetter writes where a code block breaks across pages (Sphinx's LaTeX).
_CONTINUED = re.compile(r"^\((?:continued from previous page|continues on next page)\)$", re.I)
# A table of contents' or an index's entry: dot leaders and page numbers
# (`Purpose ....... 14`, `default goal . . . . 5, 23`).
CONTENTS_ENTRY = re.compile(r"(?:\.\s?){4,}\s*(?:\d+|[ivxlcdm]+)(?:,\s*\d+)*$", re.IGNORECASE)
_HYPHENS = ("-", "\N{SOFT HYPHEN}", "\x02", "\N{HYPHEN}")


@dataclass(frozen=True, slots=True)
class PdfLine:
    """One line of a page's text layer as the PDF reader found it."""

    text: str
    size: float  # the font size of its first character, in points
    top: float  # how far its top stands below the page's top edge, in points
    left: float = 0.0  # how far its first character stands from the page's left edge


@dataclass(frozen=True, slots=True)
class PdfPage:
    height: float
    lines: tuple[PdfLine, ...]


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One bookmark: its title, depth (1 for the top level) and where it points."""

    title: str
    level: int
    page: int  # 0-based page index
    top: float | None = None  # points below the page's top edge, when the bookmark says


@dataclass(frozen=True, slots=True)
class PdfContent:
    pages: tuple[PdfPage, ...]
    outline: tuple[OutlineEntry, ...] = ()
    title: str = ""  # the document information's Title, if any


@dataclass(frozen=True, slots=True)
class TextLine:
    """A line of the document's extracted text."""

    page: int  # 1-based
    text: str
    size: float = 0.0
    top: float = 0.0
    index: int = -1  # its place among its page's lines; -1 for a paragraph break
    left: float = 0.0


def extracted_lines(content: PdfContent) -> list[TextLine]:
    """The document's extracted text, line by line: headers, footers and page numbers
    left out, hyphenated words joined, paragraph breaks as blank lines."""
    running = running_line_places(content.pages)
    kept: list[TextLine] = []
    for number, page in enumerate(content.pages, start=1):
        for index, line in enumerate(page.lines):
            text = _clean(line.text)
            if (
                not text.strip()
                or (number, index) in running
                or CONTENTS_ENTRY.search(text)
                or _CONTINUED.match(text.strip())
            ):
                continue
            kept.append(TextLine(number, text, line.size, line.top, index, line.left))
    _join_hyphenated(kept)
    return _with_paragraph_breaks(kept)


def extracted_text(content: PdfContent) -> str:
    """What `read` returns for a PDF: its extracted lines, one per line."""
    return "".join(line.text + "\n" for line in extracted_lines(content))


# -- text as a reader sees it -------------------------------------------------------


def _clean(text: str) -> str:
    """A line without control characters (a PDF's text is untrusted) or end spaces;
    a hyphen PDFium marks as `\\x02` at a line end is kept as a hyphen."""
    text = text.replace("\x02", "-")
    text = "".join(
        " " if char in "\t\u00a0" else char
        for char in text
        if unicodedata.category(char) not in ("Cc", "Cs", "Co", "Cn") or char == "\t"
    )
    return text.rstrip()


def _footer_key(text: str) -> str:
    return _DIGITS.sub("#", " ".join(text.split()).casefold())


def running_line_places(pages: Sequence[PdfPage]) -> set[tuple[int, int]]:
    """(page number, line index) of every header, footer and page number."""
    at_edges: dict[tuple[str, str], list[tuple[int, int]]] = {}
    found: set[tuple[int, int]] = set()
    for number, page in enumerate(pages, start=1):
        zone = page.height * EDGE_ZONE
        for index, line in enumerate(page.lines):
            if line.top <= zone:
                edge = "top"
            elif line.top >= page.height - zone:
                edge = "bottom"
            else:
                continue
            text = " ".join(_clean(line.text).split())
            if not text:
                continue
            if _PAGE_NUMBER.match(text):
                found.add((number, index))
                continue
            at_edges.setdefault((edge, _footer_key(text)), []).append((number, index))
    for places in at_edges.values():
        if len({page for page, _ in places}) >= 2:
            found.update(places)
    return found


def _join_hyphenated(lines: list[TextLine]) -> None:
    """`hyphen-` followed by `ated and` becomes `hyphenated` / `and`: the hyphen was
    the typesetter's, not the word's, when a lower-case letter goes on."""
    for position in range(len(lines) - 1):
        line, following = lines[position], lines[position + 1]
        text = line.text
        if len(text) < 2 or text[-1] not in _HYPHENS or not text[-2].isalpha():
            continue
        rest = following.text.lstrip()
        if not rest or not rest[0].islower():
            continue
        word, _, after = rest.partition(" ")
        lines[position] = dataclasses.replace(line, text=text[:-1] + word)
        lines[position + 1] = dataclasses.replace(following, text=after.lstrip())


def _with_paragraph_breaks(lines: list[TextLine]) -> list[TextLine]:
    gaps = [
        following.top - line.top
        for line, following in itertools.pairwise(lines)
        if following.page == line.page and following.top > line.top
    ]
    if not gaps:
        return lines
    usual = sorted(gaps)[len(gaps) // 4]  # most lines of a page are set this close
    shown: list[TextLine] = []
    for line in lines:
        if shown and line.text:
            before = shown[-1]
            if line.page == before.page and line.top - before.top > usual * PARAGRAPH_GAP_RATIO:
                shown.append(TextLine(line.page, ""))
        shown.append(line)
    return shown
