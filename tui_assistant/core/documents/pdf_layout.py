"""PDF documents as text: the pure half of reading a PDF.

`pdf.py` takes a PDF's text layer out of the file as pages of lines (each with its
font size and place on the page) and its outline; everything after that is here, on
plain values, so each rule is tested without a PDF:

- running headers and footers (a line near the top or bottom edge that repeats, digits
  aside, on other pages), page numbers (`12`, `xii`, `Page 3 of 9`, `- 4 -`) and a
  table of contents' entries (`Purpose ........ 14`) are not text;
- a word hyphenated across two lines is joined on the first (`hyphen-` / `ated and`
  reads `hyphenated` / `and`), so every line keeps its number;
- a wider gap between lines than the document's usual one is a paragraph break (a
  blank line), as in a Markdown file;
- the document's extracted text is those lines, page after page; a passage's `line` and
  `end_line` are lines of it, and its `page` and `end_page` the pages they stand on;
- sections follow the outline (bookmarks) where the PDF has one, else headings told by
  their font size (larger than the body text), else the pages.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.passage import (
    Document,
    HeadingPath,
    Lines,
    Section,
    document_from_sections,
    file_title,
)

# The share of the page height at its top and bottom where headers and footers stand.
EDGE_ZONE = 0.09
# A heading's font is at least this much larger than the body text's.
HEADING_SIZE_RATIO = 1.15
MAX_HEADING_CHARS = 150
MAX_TITLE_CHARS = 100
# A gap between two lines this many times the usual one starts a paragraph.
PARAGRAPH_GAP_RATIO = 1.6

_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013\u2014(\[]?\s*(?:\d+|[ivxlcdm]+)\s*[-\u2013\u2014)\]]?"
    r"(?:\s*(?:/|of)\s*\d+)?$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
# A table of contents' entry: dot leaders and a page number (`Purpose ....... 14`).
_CONTENTS_ENTRY = re.compile(r"(?:\.\s?){4,}\s*(?:\d+|[ivxlcdm]+)$", re.IGNORECASE)
_HYPHENS = ("-", "\N{SOFT HYPHEN}", "\x02", "\N{HYPHEN}")
_NOT_WORDS = re.compile(r"[^\w]+")
_FILE_LIKE_TITLE = re.compile(r"\.(?:dvi|tex|docx?|odt|rtf|pdf|html?|indd|qxd)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PdfLine:
    """One line of a page's text layer as the PDF reader found it."""

    text: str
    size: float  # the font size of its first character, in points
    top: float  # how far its top stands below the page's top edge, in points


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


def extracted_lines(content: PdfContent) -> list[TextLine]:
    """The document's extracted text, line by line: headers, footers and page numbers
    left out, hyphenated words joined, paragraph breaks as blank lines."""
    running = _running_lines(content.pages)
    kept: list[TextLine] = []
    for number, page in enumerate(content.pages, start=1):
        for index, line in enumerate(page.lines):
            text = _clean(line.text)
            if not text.strip() or (number, index) in running or _CONTENTS_ENTRY.search(text):
                continue
            kept.append(TextLine(number, text, line.size, line.top, index))
    _join_hyphenated(kept)
    return _with_paragraph_breaks(kept)


def extracted_text(content: PdfContent) -> str:
    """What `read` returns for a PDF: its extracted lines, one per line."""
    return "".join(line.text + "\n" for line in extracted_lines(content))


def split_pdf_content(relative_path: str, content: PdfContent) -> Document:
    """The title and passages of one PDF, from what its text layer holds."""
    lines = extracted_lines(content)
    if not any(line.text.strip() for line in lines):
        return Document(title=file_title(relative_path), passages=())
    body = _body_size(lines)
    title = _document_title(content, lines, body) or file_title(relative_path)
    sections = _outline_sections(lines, content.outline, title)
    if sections is None:
        sections = _heading_sections(lines, body, title)
    if sections is None:
        sections = _page_sections(lines)
    level_one = next((s.path[0] for s in sections if s.level == 1 and s.path), None)
    named_by = level_one if level_one and _same_words(level_one, title) else None
    document = document_from_sections(title, named_by, sections)
    pages = [0, *(line.page for line in lines)]  # by line number
    passages = tuple(
        dataclasses.replace(
            draft,
            page=pages[draft.line],
            end_page=pages[draft.end_line],
            page_starts=tuple(
                number
                for number in range(draft.line + 1, draft.end_line + 1)
                if pages[number] != pages[number - 1]
            ),
        )
        for draft in document.passages
    )
    return Document(title=document.title, passages=passages)


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


def _running_lines(pages: Sequence[PdfPage]) -> set[tuple[int, int]]:
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


# -- sections -----------------------------------------------------------------------


def _body_size(lines: Sequence[TextLine]) -> float:
    """The font size most of the text is set in."""
    sizes: Counter[float] = Counter()
    for line in lines:
        if line.text:
            sizes[round(line.size, 1)] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _document_title(content: PdfContent, lines: Sequence[TextLine], body: float) -> str:
    """The PDF's own Title, unless it is only a file name; else the largest line on
    the first page when it is larger than the body text."""
    own = one_line(content.title).strip()
    if own and any(c.isalpha() for c in own) and not _FILE_LIKE_TITLE.search(own):
        return shortened(own, MAX_TITLE_CHARS)
    first_page = [line for line in lines if line.page == lines[0].page and line.text.strip()]
    largest = max(first_page, key=lambda line: line.size, default=None)
    if largest is not None and largest.size >= body * HEADING_SIZE_RATIO:
        return shortened(one_line(largest.text), MAX_TITLE_CHARS)
    return ""


def _words(text: str) -> str:
    return _NOT_WORDS.sub(" ", text.casefold()).strip()


def _same_words(a: str, b: str) -> bool:
    return _words(a) == _words(b)


def _outline_sections(
    lines: Sequence[TextLine], outline: Sequence[OutlineEntry], title: str
) -> list[Section] | None:
    """Sections that start where the bookmarks point, titled by them; None when the
    PDF has no outline that points into its text."""
    entries = sorted(
        (entry for entry in outline if entry.level <= 3 and entry.title.strip()),
        key=lambda entry: entry.page,
    )
    if not entries:
        return None
    starts: list[tuple[int, int, OutlineEntry]] = []  # (first line, heading lines, entry)
    pages = _page_spans(lines)
    floor = 0
    for entry in entries:
        found = _bookmark_start(lines, pages, entry, floor)
        if found is None:
            continue
        starts.append((found[0], found[1], entry))
        floor = found[0] + found[1]
    if not starts:
        return None
    sections = [_before(lines, starts[0][0], title)]
    headings = HeadingPath()
    for number, (start, heading_lines, entry) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(lines)
        title = shortened(one_line(entry.title), MAX_HEADING_CHARS)
        path = headings.enter(entry.level, title)
        text_start = min(start + heading_lines, end)
        sections.append(
            Section(
                heading_line=start + 1,
                level=entry.level,
                path=path,
                lines=_numbered(lines, text_start, end),
                heading=(start + 1, title),
            )
        )
    return sections


def _page_spans(lines: Sequence[TextLine]) -> dict[int, range]:
    """Each page's lines, as a range of indexes into `lines`."""
    spans: dict[int, range] = {}
    for index, line in enumerate(lines):
        start = spans[line.page].start if line.page in spans else index
        spans[line.page] = range(start, index + 1)
    return spans


def _bookmark_start(
    lines: Sequence[TextLine], pages: dict[int, range], entry: OutlineEntry, floor: int
) -> tuple[int, int] | None:
    """Where a bookmark's section starts (an index into `lines`) and how many lines its
    heading takes there (0 when the heading was not found on its page: the section
    then starts where the bookmark points)."""
    page = entry.page + 1
    span = pages.get(page, range(0))
    on_page = range(max(floor, span.start), span.stop)
    if not on_page:
        # A page without text (or one already past): the next line from here.
        later = next((i for i in range(floor, len(lines)) if lines[i].page > page), None)
        return (later, 0) if later is not None else None
    wanted = _words(entry.title)
    for i in on_page:
        got = _words(lines[i].text)
        if not got:
            continue
        if got == wanted or (len(wanted) >= 3 and got.endswith(wanted)):
            return i, 1
        if len(got) >= 3 and wanted.startswith(got):
            # A heading set on two lines.
            joined = got
            for extra, j in enumerate(range(i + 1, min(i + 3, len(lines))), start=2):
                joined = f"{joined} {_words(lines[j].text)}".strip()
                if joined == wanted or joined.endswith(wanted):
                    return i, extra
    if entry.top is not None:
        below = [i for i in on_page if lines[i].text and lines[i].top >= entry.top - 2]
        if below:
            return below[0], 0
    return on_page[0], 0


def _heading_sections(lines: Sequence[TextLine], body: float, title: str) -> list[Section] | None:
    """Sections at lines set larger than the body text (the three largest sizes are
    levels 1-3); None when there are none."""
    candidates = [
        i
        for i, line in enumerate(lines)
        if line.text
        and line.size >= body * HEADING_SIZE_RATIO
        and len(line.text) <= MAX_HEADING_CHARS
        and any(char.isalpha() for char in line.text)
    ]
    if not candidates or len(candidates) > len(lines) // 3:
        return None
    sizes = sorted({round(lines[i].size, 1) for i in candidates}, reverse=True)[:3]
    level_of = {size: level for level, size in enumerate(sizes, start=1)}
    heads: list[tuple[int, int, str, int]] = []  # (first line, lines, text, level)
    for i in candidates:
        level = level_of.get(round(lines[i].size, 1))
        if level is None:
            continue
        previous = heads[-1] if heads else None
        between = range(previous[0] + previous[1], i) if previous else range(0)
        if previous and previous[3] == level and all(not lines[j].text for j in between):
            # The same heading, on its next line.
            joined = f"{previous[2]} {lines[i].text}"
            heads[-1] = (previous[0], i + 1 - previous[0], joined, level)
            continue
        heads.append((i, 1, lines[i].text, level))
    sections = [_before(lines, heads[0][0], title)]
    path = HeadingPath()
    for number, (start, count, text, level) in enumerate(heads):
        end = heads[number + 1][0] if number + 1 < len(heads) else len(lines)
        title = shortened(one_line(text), MAX_HEADING_CHARS)
        sections.append(
            Section(
                heading_line=start + 1,
                level=level,
                path=path.enter(level, title),
                lines=_numbered(lines, start + count, end),
                heading=(start + 1, title),
            )
        )
    return sections


def _page_sections(lines: Sequence[TextLine]) -> list[Section]:
    """A section for each page, titled `Page N`."""
    sections: list[Section] = []
    for i, line in enumerate(lines):
        if not sections or sections[-1].path != (f"Page {line.page}",):
            sections.append(Section(heading_line=None, level=1, path=(f"Page {line.page}",)))
        sections[-1].lines.append((i + 1, line.text))
    return sections


def _before(lines: Sequence[TextLine], first_heading: int, title: str) -> Section:
    """The text before the first heading, titled with the document title; a cover
    that only says that title is none."""
    numbered = _numbered(lines, 0, first_heading)
    if all(not text or _same_words(text, title) for _, text in numbered):
        numbered = []
    return Section(heading_line=None, level=0, path=(), lines=numbered)


def _numbered(lines: Sequence[TextLine], start: int, end: int) -> Lines:
    return [(i + 1, lines[i].text) for i in range(start, end)]
