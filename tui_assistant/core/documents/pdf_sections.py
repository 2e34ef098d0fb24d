"""A PDF's extracted text made passages: sections at the outline, else at headings
told by their font size, else at pages (the rules of `pdf_layout.py` before these).

- **Outline**: a bookmark's section starts at its heading on the page it points to,
  when the page shows it (`1.2 Pressure` for the bookmark `Pressure`, a heading set on
  two lines as one; the heading is the title, not text), else where the bookmark points
  (its view's top), else at the page's first line. The first three levels make sections;
  a deeper one does when it fills a passage, else its heading stays a line of the
  section before it, where that section is cut first when it is long.
- **Font sizes**: without an outline, a short line set at least `HEADING_SIZE_RATIO`
  larger than the body text (the size most characters are set in) is a heading; the
  largest such sizes are levels 1-6 (deeper than 3 as the outline's), and consecutive
  lines of one size one heading.
- **Pages**: without either, each page is a section titled `Page N`.
- The document title is the PDF's own Title (unless it is a file name), else its
  largest line on the first page, else the file name; a cover that only says it is no
  passage. Each passage's `page` and `end_page` are those of its first and last lines.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence

from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.passage import (
    MAX_PASSAGE_CHARS,
    Document,
    HeadingPath,
    Lines,
    Section,
    document_from_sections,
    file_title,
)
from tui_assistant.core.documents.pdf_entries import entry_sections, page_margins
from tui_assistant.core.documents.pdf_index import (
    index_entries,
    is_index,
    is_navigation,
    page_offset,
    with_index_terms,
)
from tui_assistant.core.documents.pdf_layout import (
    OutlineEntry,
    PdfContent,
    TextLine,
    extracted_lines,
)

# A heading's font is at least this much larger than the body text's.
HEADING_SIZE_RATIO = 1.15
MAX_HEADING_CHARS = 150
# Outline and font-size levels that always cut sections; deeper ones (`4.11.6.1
# Purpose`) cut sections only where a subsection fills a passage of its own
# (`SMALL_DEEP_CHARS`): smaller ones, cut out, take the questions their section answers
# (the PDF development sets lose a tenth to a fifth of their first-right answers).
MAX_LEVELS = 3
MAX_FONT_LEVELS = 6
MAX_TITLE_CHARS = 100
SMALL_DEEP_CHARS = MAX_PASSAGE_CHARS

_NOT_WORDS = re.compile(r"[^\w]+")
# A heading's number, as its plain words say it: `4 4 `, `appendix b `, `b 2 `.
_LEADING_NUMBER = re.compile(r"^(?:(?:chapter|appendix|section) )?(?:[a-z] )?(?:\d+ )*")
_FILE_LIKE_TITLE = re.compile(r"\.(?:dvi|tex|docx?|odt|rtf|pdf|html?|indd|qxd)$", re.IGNORECASE)


def split_pdf_content(
    relative_path: str, content: PdfContent, name_title: str | None = None
) -> Document:
    """The title and passages of one PDF, from what its text layer holds;
    `name_title` is its title when the file gives none (`passage.file_title`)."""
    lines = extracted_lines(content)
    if not any(line.text.strip() for line in lines):
        return Document(title=file_title(relative_path, name_title), passages=())
    body = _body_size(lines)
    title = _document_title(content, lines, body) or file_title(relative_path, name_title)
    sections = _outline_sections(lines, content.outline, title)
    if sections is None:
        sections = _heading_sections(lines, body, title)
    if sections is None:
        sections = _page_sections(lines)
    sections, index_pages, index_texts = _without_navigation(sections, lines)
    sections, terms_at = _with_entries(sections, lines)
    level_one = next((s.path[0] for s in sections if s.level == 1 and s.path), None)
    named_by = level_one if level_one and _same_words(level_one, title) else None
    document = document_from_sections(title, named_by, sections)
    pages = [0, *(line.page for line in lines)]  # by line number
    passages = tuple(
        dataclasses.replace(
            draft,
            page=pages[draft.line],
            end_page=pages[draft.end_line],
            index_terms=terms_at.get(draft.line, ()),
            page_starts=tuple(
                number
                for number in range(draft.line + 1, draft.end_line + 1)
                if pages[number] != pages[number - 1]
            ),
        )
        for draft in document.passages
    )
    if index_pages:
        entries = index_entries(content, index_pages, index_texts)
        passages = tuple(with_index_terms(passages, entries, page_offset(content)))
    return Document(title=document.title, passages=passages)


def _without_navigation(
    sections: list[Section], lines: Sequence[TextLine]
) -> tuple[list[Section], set[int], list[str]]:
    """The sections that are not an index or a table of contents, and the pages and
    lines of the index ones (whose entries are read from them)."""
    kept: list[Section] = []
    pages: set[int] = set()
    texts: list[str] = []
    for number, section in enumerate(sections):
        if not any(is_navigation(heading) for heading in section.path):
            kept.append(section)
            continue
        if not any(is_index(heading) for heading in section.path):
            continue
        first = section.heading_line or (section.lines[0][0] if section.lines else 0)
        later = next((s.heading_line for s in sections[number + 1 :] if s.heading_line), None)
        if first:
            last_page = lines[later - 2].page if later and later >= 2 else lines[-1].page
            pages.update(range(lines[first - 1].page, last_page + 1))
        texts.extend(text for _, text in section.lines)
    return kept, pages, texts


def _with_entries(
    sections: list[Section], lines: Sequence[TextLine]
) -> tuple[list[Section], dict[int, tuple[str, ...]]]:
    """Each section split at its reference entries (`pdf_entries`), and the terms of
    each entry section by its first line."""
    split: list[Section] = []
    terms_at: dict[int, tuple[str, ...]] = {}
    margins = page_margins(lines)
    for section in sections:
        parts, terms = entry_sections(section, lines, margins)
        split.extend(parts)
        terms_at.update(terms)
    return split, terms_at


def _body_size(lines: Sequence[TextLine]) -> float:
    """The font size most of the text is set in."""
    sizes: Counter[float] = Counter()
    for line in lines:
        if line.text:
            sizes[round(line.size, 1)] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _document_title(content: PdfContent, lines: Sequence[TextLine], body: float) -> str:
    """The PDF's own Title, unless it is only a file name; else the first page's
    largest heading, its lines joined, when it is larger than the body text. A line
    another line of the page holds (a logo's clipped word) is no heading."""
    own = one_line(content.title).strip()
    if own and any(c.isalpha() for c in own) and not _FILE_LIKE_TITLE.search(own):
        return shortened(own, MAX_TITLE_CHARS)
    first_page = [line for line in lines if line.page == lines[0].page and line.text.strip()]
    words = [_words(line.text) for line in first_page]
    whole = [
        line
        for line, said in zip(first_page, words, strict=True)
        if said and not any(said != other and said in other for other in words)
    ]
    largest = max(whole, key=lambda line: line.size, default=None)
    if largest is None or largest.size < body * HEADING_SIZE_RATIO:
        return ""
    start = first_page.index(largest)
    joined = [largest.text.strip()]
    for line in first_page[start + 1 : start + 3]:
        if abs(line.size - largest.size) > 0.1 or line.top - largest.top > largest.size * 3:
            break
        joined.append(line.text.strip())
    return shortened(one_line(" ".join(joined)), MAX_TITLE_CHARS)


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
        (entry for entry in outline if entry.title.strip()),
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
    return _with_small_deep_parts_merged(sections, lines)


def _with_small_deep_parts_merged(
    sections: list[Section], lines: Sequence[TextLine]
) -> list[Section]:
    """A subsection below `MAX_LEVELS` with less than `SMALL_DEEP_CHARS` of text stays in
    the section before it, its heading a line of that text (where a long one is cut first)."""
    kept: list[Section] = []
    for section in sections:
        size = sum(len(text) + 1 for _, text in section.lines)
        deep = section.level > MAX_LEVELS and section.heading_line is not None
        if kept and deep and size < SMALL_DEEP_CHARS:
            before = kept[-1]
            start = (section.heading_line or 1) - 1
            end = section.lines[0][0] - 1 if section.lines else start + 1
            before.lines.extend(_numbered(lines, start, end))
            before.lines.extend(section.lines)
            before.breaks.add(start + 1)
            continue
        kept.append(section)
    return kept


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
        if _opens(wanted, got):
            # A heading set on two lines (its number, if any, before the bookmark's words).
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


def _opens(wanted: str, got: str) -> bool:
    """Whether the words of a line, or the words after its leading number, start the
    bookmark's title (`4.4 Configure Input: Source Code,` for `Configure Input: ...`)."""
    bare = _LEADING_NUMBER.sub("", got)
    return any(len(part) >= 3 and wanted.startswith(part) for part in (got, bare))


def _heading_sections(lines: Sequence[TextLine], body: float, title: str) -> list[Section] | None:
    """Sections at lines set larger than the body text (the largest sizes are levels
    1-6, deeper than `MAX_LEVELS` as the outline's); None when there are none."""
    candidates = [
        i
        for i, line in enumerate(lines)
        if line.text
        and line.size >= body * HEADING_SIZE_RATIO
        and len(line.text) <= MAX_HEADING_CHARS
        and any(char.isalpha() for char in line.text)
        and not (line.page == lines[0].page and _words(line.text) in _words(title))
    ]
    if not candidates or len(candidates) > len(lines) // 3:
        return None
    sizes = sorted({round(lines[i].size, 1) for i in candidates}, reverse=True)
    sizes = sizes[:MAX_FONT_LEVELS]
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
    return _with_small_deep_parts_merged(sections, lines)


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
