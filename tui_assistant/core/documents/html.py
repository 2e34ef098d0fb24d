"""HTML documents (`*.html`, `*.htm`): a page's main content, split at its headings.

- the text is what `html_text.read_page` keeps: the main content as a reader sees it,
  one line of text for each line of the file, so every passage cites the file's lines
  its elements span and a quote stands on the lines where its words are;
- headings `<h1>` to `<h6>` start a new section, at every level, as `#` to `######`
  do in Markdown (small sections whose text shares one line of the file with the
  next one's heading and text are one passage, as a citation cannot tell them apart);
  the entries of reference lists (`<dt>` terms) are passages titled by their terms
  (`passage.document_from_sections` groups small ones);
- the book's own index (texinfo's index tables) gives its terms to the passages its
  links point to (`book_index`); a section of links only (a table of contents) or
  holding the index is navigation, never a passage;
- the document title is the page's `<title>` without a site's suffix
  (`Installation — Project 1.2 documentation` is `Installation`), else its first
  heading, else the file name; a `<title>` that is the site's name made of that
  heading (`Project 1.2 documentation` over `# Project`) is the heading;
- a page that is nearly all links (a generated index, a site map, a table of
  contents) has no passages of its own: `page_problem` says so.

The bytes are decoded by `decode_html`: a byte-order mark, else the charset the page
declares in a `<meta>` tag near its start, else UTF-8.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, replace

from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.book_index import with_index_terms
from tui_assistant.core.documents.html_parts import (
    EntryStart,
    Heading,
    IndexMark,
    ListEnd,
    Page,
    shown_line,
)
from tui_assistant.core.documents.html_text import read_page
from tui_assistant.core.documents.passage import (
    Document,
    Entry,
    HeadingPath,
    Section,
    document_from_sections,
    file_title,
)
from tui_assistant.errors import NotText

MAX_TITLE_CHARS = 200
# A page whose links hold this share of its words, with at least MIN_INDEX_LINKS of
# them, is an index of other pages.
INDEX_LINK_SHARE = 0.9
MIN_INDEX_LINKS = 20
# A section whose links hold this share of its words, with at least MIN_NAVIGATION_LINKS
# of them, is navigation (a table of contents): no passage.
MIN_NAVIGATION_LINKS = 10
# Sections on one line of the file are run together up to this size.
ONE_LINE_SECTIONS_CHARS = 1500
INDEX_PAGE = "a page of links only (an index or table of contents)"
NO_MAIN_TEXT = "has no text in its main content"

# The part of a page's start where a browser looks for the charset it declares.
_PRESCAN_BYTES = 4096
_META_CHARSET = re.compile(rb"""<meta\b[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
# Labels a browser reads as windows-1252 (its superset), as the HTML standard says.
_WINDOWS_1252 = frozenset({"iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "ascii",
                           "us-ascii", "windows-1252", "cp1252"})  # fmt: skip
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Separators before a site's name in a page title, and words that say a suffix is one.
_TITLE_SUFFIX = re.compile(r"^(.+)\s+(?:\N{EM DASH}|\N{EN DASH}|-|\||·|::|\N{BULLET})\s+(.+)$")
_SITE_WORDS = re.compile(
    r"\b(?:documentation|docs|manual|handbook|guide|reference|wiki|help|\d+(?:\.\d+)+)\b", re.I
)


_WORD = re.compile(r"\w+")


def decode_html(data: bytes) -> str:
    """The page's text, decoded as a browser would: by its byte-order mark, else by the
    charset its `<meta>` declares, else as UTF-8. Raises `NotText` with the reason."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _decoded(data, encoding, "in the encoding its byte-order mark says")
    declared = _META_CHARSET.search(data[:_PRESCAN_BYTES])
    if declared is None:
        return _decoded(data, "utf-8", "UTF-8 and declares no charset")
    label = declared.group(1).decode("ascii").lower()
    if label in _WINDOWS_1252:
        label = "cp1252"
    elif label.startswith("utf-16"):
        label = "utf-8"  # a page that declares UTF-16 without a byte-order mark is not
    try:
        codecs.lookup(label)
    except LookupError:
        raise NotText(f"declares a charset Python does not know ({one_line(label)[:40]})") from None
    return _decoded(data, label, f"in the charset it declares ({label})")


def _decoded(data: bytes, encoding: str, expected: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise NotText(f"not {expected}") from None


def split_html(relative_path: str, text: str, name_title: str | None = None) -> Document:
    """The title and passages of one HTML page (`text` already decoded); an index of
    links has none. `name_title` is its title when the page gives none
    (`passage.file_title`)."""
    return document_of(relative_path, read_page(text), name_title)


def html_passages(relative_path: str, text: str, name_title: str | None = None) -> Document | str:
    """An HTML page's passages, or why it has none: an index of links, or no text in
    its main content."""
    page = read_page(text)
    problem = page_problem(page)
    if problem is not None:
        return problem
    document = document_of(relative_path, page, name_title)
    return document if document.passages else _empty(page)


def why_no_passages(text: str) -> str:
    """Why a page whose split gave no passages has none (`html_passages`' reasons)."""
    page = read_page(text)
    return page_problem(page) or _empty(page)


def page_problem(page: Page) -> str | None:
    """Why a page gives no passages of its own (an index of links), or None."""
    if page.links >= MIN_INDEX_LINKS and page.link_chars >= INDEX_LINK_SHARE * page.chars:
        return INDEX_PAGE
    return None


def _empty(page: Page) -> str:
    """Why a page with no passages has none: it holds the book's index, or no text."""
    return INDEX_PAGE if any(isinstance(part, IndexMark) for part in page.parts) else NO_MAIN_TEXT


def document_of(relative_path: str, page: Page, name_title: str | None = None) -> Document:
    headings = [part for part in page.parts if isinstance(part, Heading)]
    first = next((heading.text for heading in headings), None)
    title = page_title(page.title, first) or first or file_title(relative_path, name_title)
    title = shortened(one_line(title), MAX_TITLE_CHARS)
    level_one_title = first if first is not None and first.casefold() == title.casefold() else None
    if page_problem(page):
        return Document(title=title, passages=())
    document = document_from_sections(title, level_one_title, _sections(page))
    entries = [
        (term, page.anchors[target[1:]])
        for term, target in page.index
        if target.startswith("#") and target[1:] in page.anchors
    ]
    if not entries:
        return document
    return replace(document, passages=tuple(with_index_terms(document.passages, entries)))


def page_title(title: str, first_heading: str | None) -> str:
    """A `<title>` without the site's name after it. With a suffix, the page's first
    heading is the title when it says every word of the rest (`Plugins - MkDocs`,
    `# MkDocs Plugins`); else the rest is, when it is that heading or the suffix names
    a site (documentation, a version)."""
    title = " ".join(title.split())
    if _TITLE_SUFFIX.match(f"page {title}") and not _TITLE_SUFFIX.match(title):
        return ""  # only a site's name (` - bidict`): the page left its own name out
    match = _TITLE_SUFFIX.match(title)
    if match is None:
        if first_heading and _site_name_of(title, first_heading):
            return first_heading
        return title
    page, site = match.groups()
    heading = (first_heading or "").casefold()
    if first_heading and set(_WORD.findall(page.casefold())) <= set(_WORD.findall(heading)):
        return first_heading
    if _SITE_WORDS.search(site):
        return page
    return title


def _site_name_of(title: str, heading: str) -> bool:
    """Whether `title` is the site's name made of the heading and words that name a
    site (Sphinx's front page: `structlog 22.3.0 documentation`, `# structlog`)."""
    rest = _SITE_WORDS.sub(" ", title)
    if rest == title:
        return False
    words = set(_WORD.findall(rest.casefold()))
    return bool(words) and words <= set(_WORD.findall(heading.casefold()))


def _sections(page: Page) -> list[Section]:
    sections = [Section(heading_line=None, level=0, path=())]
    pieces: dict[int, list[tuple[str, bool]]] = {}
    entries: list[_OpenEntry] = []
    links = [0, 0, 0]  # link pieces, their characters, all characters of the section
    index = [False]
    path = HeadingPath()

    def close() -> None:
        section = sections[-1]
        if pieces and not index[0] and not _navigation(*links):
            first, last = min(pieces), max(pieces)
            section.lines = [
                (number, shown_line(pieces.get(number, []))) for number in range(first, last + 1)
            ]
            section.entries = [
                Entry(entry.line, entry.end or last, entry.terms, entry.alone) for entry in entries
            ]
        pieces.clear()
        entries.clear()
        links[:] = [0, 0, 0]
        index[0] = False

    def end_entry(line: int) -> None:
        if entries and entries[-1].end is None:
            entries[-1].end = max(entries[-1].line, line)

    for part in page.parts:
        if isinstance(part, Heading):
            close()
            sections.append(
                Section(
                    heading_line=part.line,
                    level=part.level,
                    path=path.enter(part.level, part.text),
                    heading=(part.line, part.text),
                )
            )
        elif isinstance(part, EntryStart):
            if entries and entries[-1].line == part.line:
                entries[-1].terms += part.terms
                continue
            end_entry(part.line - 1)
            entries.append(_OpenEntry(part.line, part.terms, part.alone))
        elif isinstance(part, ListEnd):
            end_entry(part.line)
        elif isinstance(part, IndexMark):
            index[0] = True
        else:
            line, words, pre, link = part
            pieces.setdefault(line, []).append((words, pre))
            count = len(words.strip())
            links[2] += count
            if link and count:
                links[0] += 1
                links[1] += count
    close()
    return _joined_on_one_line(sections)


def _joined_on_one_line(sections: list[Section]) -> list[Section]:
    """Small sections whose text stands on one line of the file with the next one's
    heading and text (a DocBook reference page's name, purpose and synopsis) run
    together: a citation of that line could not tell them apart."""
    joined: list[Section] = []
    for section in sections:
        before = joined[-1] if joined else None
        line = _only_line(section)
        if (
            before is not None
            and line is not None
            and line == _only_line(before) == section.heading_line
            and section.heading is not None
            and not (before.entries or section.entries)
        ):
            words = f"{before.lines[0][1]} {section.heading[1]} {section.lines[0][1]}"
            if len(words) <= ONE_LINE_SECTIONS_CHARS:
                before.lines = [(line, words)]
                continue
        joined.append(section)
    return joined


def _only_line(section: Section) -> int | None:
    """The line a section's text stands on, when it is one line."""
    lines = [(number, text) for number, text in section.lines if text.strip()]
    if len(lines) != 1:
        return None
    section.lines = lines
    return lines[0][0]


@dataclass(slots=True)
class _OpenEntry:
    line: int
    terms: tuple[str, ...]
    alone: bool
    end: int | None = None  # its last line, once known


def _navigation(link_pieces: int, link_chars: int, chars: int) -> bool:
    """Whether a section is links only (a table of contents, a list of figures)."""
    return link_pieces >= MIN_NAVIGATION_LINKS and link_chars >= INDEX_LINK_SHARE * chars
