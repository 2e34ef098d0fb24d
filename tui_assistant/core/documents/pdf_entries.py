"""A PDF section's reference entries: hanging-indent items, as manuals set each option,
variable or command (its term at the section's margin on a line of its own, or opening
its first line; its description indented below).

Each entry becomes a section of its own under the one it stands in, titled by its
term; small neighbours are grouped into one, titled by their terms, every term of the
group kept for its `index_terms`, except messages quoted whole (an appendix of error
messages), each looked up as written. Text before the first entry stays its section's.
A definition line set in its own font (`AC_INIT (package) [Macro]`) opens an entry
even right after a paragraph, and even alone in its section. A page's margin is its
side's usual one, so a page that lies inside one description is all indented.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.passage import DEEP_LEVEL, Section
from tui_assistant.core.documents.pdf_layout import TextLine

# A description stands at least this much further right than its term, in points.
MIN_INDENT = 8.0
# A line this close to the margin is at it (a term's first glyph, `.` of `.RECIPEPREFIX`,
# may start a little right of it).
MARGIN_SLACK = 2.5
# A term is a short line.
MAX_TERM_CHARS = 80
MAX_TERM_WORDS = 8
# A term set on two lines may be this long as a title.
MAX_JOINED_TERM_CHARS = 160
# Entries shorter than this are grouped with their neighbours, up to GROUP_CHARS.
SMALL_ENTRY_CHARS = 400
GROUP_CHARS = 1200
MAX_GROUP_TITLE_CHARS = 70
# A line set this many points larger or smaller than the one above starts anew.
SIZE_CHANGE = 0.5
# A quoted term of this many words is a message, a passage of its own.
MESSAGE_WORDS = 3
# A section needs this many entries for its items to be read as entries, unless one's
# term is set in a font of its own (a definition line: `AC_INIT (package) [Macro]`).
MIN_ENTRIES = 2


# The kind a definition line ends with: `[Macro]`, `[Variable]`, `[Command]`.
_CATEGORY = re.compile(r"\s+\[[A-Z][\w ]*\]\s*$")
_QUOTES = "\u2018\u2019'\"`"


@dataclass(frozen=True, slots=True)
class Entry:
    terms: tuple[str, ...]
    first: int  # index into the section's lines
    stop: int
    own_font: bool = False  # its term is set in another font size than its description
    message: bool = False  # a message quoted whole (`'No targets. Stop.'`): never grouped
    # Its terms as their first lines say them (what its id is made from).
    first_lines: tuple[str, ...] = ()


def page_margins(lines: Sequence[TextLine]) -> dict[int, float]:
    """Each page's left margin: the leftmost of its lines, unless the pages of its side
    (a book's left and right pages are set at different margins) mostly start an indent
    further left (a page that lies inside one entry's description is all indented)."""
    own: dict[int, float] = {}
    for line in lines:
        if line.text.strip():
            own[line.page] = min(own.get(line.page, line.left), line.left)
    usual: dict[int, float] = {}
    for side in (0, 1):
        lefts = Counter(round(left) for page, left in own.items() if page % 2 == side)
        if lefts:
            usual[side] = lefts.most_common(1)[0][0]
    return {
        page: usual[page % 2] if left >= usual.get(page % 2, left) + MIN_INDENT else left
        for page, left in own.items()
    }


def entry_sections(
    section: Section, lines: Sequence[TextLine], margins: dict[int, float] | None = None
) -> tuple[list[Section], dict[int, tuple[str, ...]]]:
    """`section` split at its entries: itself with the text before the first, then a
    section per entry or group; and each entry section's terms by its first line.
    A section without entries comes back alone. `margins`: `page_margins` of the
    document (else of the section's own lines)."""
    numbered = section.lines
    entries = _entries([lines[number - 1] for number, _ in numbered], margins)
    if len(entries) < MIN_ENTRIES and not any(entry.own_font for entry in entries):
        return [section], {}
    head = Section(
        heading_line=section.heading_line,
        level=section.level,
        path=section.path,
        lines=numbered[: entries[0].first],
        heading=section.heading,
        breaks=section.breaks,
    )
    found: list[Section] = [head]
    terms_at: dict[int, tuple[str, ...]] = {}
    for group in _grouped(entries, numbered):
        first_line = numbered[group.first][0]
        title = _group_title(group.terms)
        anchor = _group_title(group.first_lines)
        found.append(
            Section(
                heading_line=first_line,
                # As deep as a part that takes the id of a section with no text of its
                # own (`passage.DEEP_LEVEL`): an entry that opens its section keeps it.
                level=max(section.level + 1, DEEP_LEVEL),
                path=(*section.path, title),
                lines=numbered[group.first : group.stop],
                breaks=section.breaks,
                anchor=anchor if anchor != title else "",
            )
        )
        terms_at[first_line] = group.terms
    return found, terms_at


def _entries(lines: Sequence[TextLine], margins: dict[int, float] | None = None) -> list[Entry]:
    """The entries among a section's lines: a short line at the margin, the lines after
    it (at least one) indented, up to the next line back at the margin."""
    if not any(line.text.strip() for line in lines):
        return []
    margin = _Margins(margins if margins is not None else page_margins(lines))
    starts: list[int] = []
    for index, line in enumerate(lines):
        if not (_at(line, margin) and _term_like(line.text)):
            continue
        if _described(lines, index + 1, margin) and _opens(lines, index, margin):
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
        texts = [line.text for line in lines[start:described]]
        first_lines = tuple(term for term in (_term(text) for text in texts) if term)
        while texts and _open_brackets(texts[-1]) and described < stop - 1:
            # A term set on two lines: its argument list goes on, indented.
            texts[-1] = _continued(texts[-1], lines[described].text)
            described += 1
        terms = tuple(term for term in (_term(text) for text in texts) if term)
        if terms:
            own_font = _own_font(lines[start], lines[described:stop])
            message = any(_message(line.text) for line in lines[start:described])
            entries.append(Entry(terms, start, stop, own_font, message, first_lines))
    return entries


@dataclass(frozen=True, slots=True)
class _Margins:
    by_page: dict[int, float]

    def at(self, line: TextLine) -> bool:
        return abs(line.left - self.by_page.get(line.page, line.left)) <= MARGIN_SLACK

    def indented(self, line: TextLine) -> bool:
        return line.left >= self.by_page.get(line.page, line.left) + MIN_INDENT


def _at(line: TextLine, margin: _Margins) -> bool:
    return bool(line.text.strip()) and margin.at(line)


def _term_like(text: str) -> bool:
    """A line that can name an entry: short, not a sentence's or a list's end; a
    message quoted whole (`'missing separator (did you mean TAB?). Stop.'`) may be longer."""
    text = text.strip()
    quoted = text[:1] in _QUOTES and text[-1:] in _QUOTES
    return (
        len(text) <= MAX_TERM_CHARS
        and (quoted or len(text.split()) <= MAX_TERM_WORDS)
        and not text.endswith((":", ",", ";", "."))
    )


def _own_font(term: TextLine, description: Sequence[TextLine]) -> bool:
    """Whether a term is set in another font size than most of its description."""
    sizes = Counter(round(line.size, 1) for line in description if line.text.strip())
    return bool(sizes) and abs(term.size - sizes.most_common(1)[0][0]) >= SIZE_CHANGE


def _open_brackets(text: str) -> bool:
    """Whether a term's argument list is left open (`AC_RUN_IFELSE (input, [Macro]`)."""
    body = _CATEGORY.sub("", text)
    return body.count("(") > body.count(")") or body.count("[") > body.count("]")


def _continued(text: str, more: str) -> str:
    """A term and its next line as one, its category (`[Macro]`) kept at the end."""
    category = _CATEGORY.search(text)
    body = _CATEGORY.sub("", text) if category else text
    joined = f"{body.rstrip()} {more.strip()}"
    return f"{joined} {category.group().strip()}" if category else joined


def _message(text: str) -> bool:
    """A line quoting a sentence whole: an error message a reader looks up as written."""
    text = text.strip()
    return text[:1] in _QUOTES and text[-1:] in _QUOTES and len(text.split()) >= MESSAGE_WORDS


def _opens(lines: Sequence[TextLine], index: int, margin: _Margins) -> bool:
    """Whether the term line at `index` (with the term lines right above it) starts
    after a break: the section's start, a blank or indented line, or a line set in
    another font size (a definition line is set apart by its font, not a gap); not a
    paragraph's last line before an indented example."""
    first = _first_term_line(lines, index, margin)
    before = lines[first - 1] if first else None
    return (
        before is None
        or not before.text.strip()
        or margin.indented(before)
        or abs(before.size - lines[first].size) >= SIZE_CHANGE
    )


def _first_term_line(lines: Sequence[TextLine], start: int, margin: _Margins) -> int:
    """The first of the term lines an entry opens with (`-b` then `-m`, one
    description for both): the margin lines right above its last one."""
    while start > 0 and _at(lines[start - 1], margin) and _term_like(lines[start - 1].text):
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
    term = one_line(text).strip().strip(_QUOTES)
    return shortened(term, MAX_JOINED_TERM_CHARS)


def _grouped(entries: list[Entry], numbered: list[tuple[int, str]]) -> list[Entry]:
    """Adjacent small entries as one, up to GROUP_CHARS of text; a text gap between two
    entries (back at the margin) starts a new group, and the gap goes with the entry
    before it."""
    groups: list[Entry] = []
    small_last = False  # whether the last group holds small entries only
    for number, entry in enumerate(entries):
        stop = entries[number + 1].first if number + 1 < len(entries) else len(numbered)
        entry = dataclasses.replace(entry, stop=stop)
        size = _chars(numbered, entry)
        small = size < SMALL_ENTRY_CHARS and not entry.message
        if groups and small and small_last and _chars(numbered, groups[-1]) + size <= GROUP_CHARS:
            last = groups[-1]
            groups[-1] = Entry(
                (*last.terms, *entry.terms),
                last.first,
                entry.stop,
                first_lines=(*last.first_lines, *entry.first_lines),
            )
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
