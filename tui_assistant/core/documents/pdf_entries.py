"""A PDF section's reference entries: hanging-indent items, as manuals set each option,
variable or command (its term at the section's margin on a line of its own, or opening
its first line; its description indented below).

Each entry becomes a section of its own under the one it stands in, titled by its
term; small neighbours are grouped into one, titled by their terms, every term of the
group kept for its `index_terms`. Text before the first entry stays its section's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.passage import Section
from tui_assistant.core.documents.pdf_layout import TextLine

# A description stands at least this much further right than its term, in points.
MIN_INDENT = 8.0
# A term is a short line.
MAX_TERM_CHARS = 80
MAX_TERM_WORDS = 8
# Entries shorter than this are grouped with their neighbours, up to GROUP_CHARS.
SMALL_ENTRY_CHARS = 400
GROUP_CHARS = 1200
MAX_GROUP_TITLE_CHARS = 70
# A section needs this many entries for its items to be read as entries.
MIN_ENTRIES = 2


@dataclass(frozen=True, slots=True)
class Entry:
    terms: tuple[str, ...]
    first: int  # index into the section's lines
    stop: int


def entry_sections(
    section: Section, lines: Sequence[TextLine]
) -> tuple[list[Section], dict[int, tuple[str, ...]]]:
    """`section` split at its entries: itself with the text before the first, then a
    section per entry or group; and each entry section's terms by its first line.
    A section without entries comes back alone."""
    numbered = section.lines
    entries = _entries([lines[number - 1] for number, _ in numbered])
    if len(entries) < MIN_ENTRIES:
        return [section], {}
    head = Section(
        heading_line=section.heading_line,
        level=section.level,
        path=section.path,
        lines=numbered[: entries[0].first],
        heading=section.heading,
    )
    found: list[Section] = [head]
    terms_at: dict[int, tuple[str, ...]] = {}
    for group in _grouped(entries, numbered):
        first_line = numbered[group.first][0]
        title = _group_title(group.terms)
        found.append(
            Section(
                heading_line=first_line,
                level=section.level + 1,
                path=(*section.path, title),
                lines=numbered[group.first : group.stop],
            )
        )
        terms_at[first_line] = group.terms
    return found, terms_at


def _entries(lines: Sequence[TextLine]) -> list[Entry]:
    """The entries among a section's lines: a short line at the margin, the lines after
    it (at least one) indented, up to the next line back at the margin."""
    texts = [line for line in lines if line.text.strip()]
    if not texts:
        return []
    # Each page's own: a book's left and right pages are set at different margins.
    margins: dict[int, float] = {}
    for line in texts:
        margins[line.page] = min(margins.get(line.page, line.left), line.left)
    margin = _Margins(margins)
    starts: list[int] = []
    for index, line in enumerate(lines):
        if not _at(line, margin):
            continue
        before = lines[index - 1] if index else None
        opens = before is None or not before.text.strip() or margin.indented(before)
        text = line.text.strip()
        if (
            _described(lines, index + 1, margin)
            and opens  # not a paragraph's last line before an indented example
            and len(text) <= MAX_TERM_CHARS
            and len(text.split()) <= MAX_TERM_WORDS
            and not text.endswith((":", ",", ";", "."))
        ):
            starts.append(index)
    entries: list[Entry] = []
    starts = [_first_term_line(lines, start, margin) for start in starts]
    for number, start in enumerate(starts):
        stop = starts[number + 1] if number + 1 < len(starts) else len(lines)
        # An entry ends where the text comes back to the margin for good.
        described = start
        while described < stop and _at(lines[described], margin):
            described += 1  # past the term lines
        for index in range(described, stop):
            if _at(lines[index], margin):
                stop = index
                break
        terms = tuple(
            term for term in (_term(line.text) for line in lines[start:described]) if term
        )
        if terms:
            entries.append(Entry(terms, start, stop))
    return entries


@dataclass(frozen=True, slots=True)
class _Margins:
    by_page: dict[int, float]

    def at(self, line: TextLine) -> bool:
        return abs(line.left - self.by_page.get(line.page, line.left)) <= 1.5

    def indented(self, line: TextLine) -> bool:
        return line.left >= self.by_page.get(line.page, line.left) + MIN_INDENT


def _at(line: TextLine, margin: _Margins) -> bool:
    return bool(line.text.strip()) and margin.at(line)


def _first_term_line(lines: Sequence[TextLine], start: int, margin: _Margins) -> int:
    """The first of the term lines an entry opens with (`-b` then `-m`, one
    description for both): the margin lines right above its last one."""
    while start > 0 and _at(lines[start - 1], margin):
        above = lines[start - 1].text.strip()
        if len(above) > MAX_TERM_CHARS or above.endswith((":", ",", ";", ".")):
            break
        start -= 1
    return start


def _described(lines: Sequence[TextLine], start: int, margin: _Margins) -> bool:
    """Whether the lines from `start` are an indented description: its first line
    indented, and the next one too unless the description ends there (a paragraph
    whose first line alone is indented is prose)."""
    if start >= len(lines) or not margin.indented(lines[start]):
        return False
    after = lines[start + 1] if start + 1 < len(lines) else None
    return after is None or not after.text.strip() or margin.indented(after)


def _term(text: str) -> str:
    """What an entry's first line names: the line, without quotes around it."""
    term = one_line(text).strip().strip("\u2018\u2019'\"`")
    return shortened(term, MAX_TERM_CHARS)


def _grouped(entries: list[Entry], numbered: list[tuple[int, str]]) -> list[Entry]:
    """Adjacent small entries as one, up to GROUP_CHARS of text; a text gap between two
    entries (back at the margin) starts a new group, and the gap goes with the entry
    before it."""
    groups: list[Entry] = []
    small_last = False  # whether the last group holds small entries only
    for number, entry in enumerate(entries):
        stop = entries[number + 1].first if number + 1 < len(entries) else len(numbered)
        entry = Entry(entry.terms, entry.first, stop)
        size = _chars(numbered, entry)
        small = size < SMALL_ENTRY_CHARS
        if groups and small and small_last and _chars(numbered, groups[-1]) + size <= GROUP_CHARS:
            last = groups[-1]
            groups[-1] = Entry((*last.terms, *entry.terms), last.first, entry.stop)
            continue
        groups.append(entry)
        small_last = small
    return groups


def _chars(numbered: list[tuple[int, str]], entry: Entry) -> int:
    return sum(len(text) + 1 for _, text in numbered[entry.first : entry.stop])


def _group_title(terms: tuple[str, ...]) -> str:
    """The terms, as many as fit, then `…`."""
    title = terms[0]
    for term in terms[1:]:
        if len(title) + len(term) + 2 > MAX_GROUP_TITLE_CHARS:
            return title + ", …"
        title = f"{title}, {term}"
    return title
