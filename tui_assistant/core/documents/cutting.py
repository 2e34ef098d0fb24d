"""How one section becomes passages: the shared rules of size, entries and gaps.

- no passage text is longer than `MAX_PASSAGE_CHARS`: a longer section is cut at its
  own structure first (a deeper heading, the entries of a reference list), else
  between paragraphs, else between lines (a single longer line at a space);
- the entries of a reference list (`Entry`: a term and what documents it) are
  passages titled by their terms; small adjacent ones are grouped while they fit
  `ENTRY_GROUP_CHARS`, and a section that is small as a whole stays one passage (a
  reader may group them up to a larger size instead, the section's lead text with its
  first entries: reStructuredText groups them up to a passage's size);
- a run of more than `MAX_GAP_LINES` lines with no text (an inline diagram, an
  embedded image) is never inside a passage: its line range spans its text.

Every part after a section's first says what it holds: its terms, else the first words
of its prose (`Bash Builtins › cd … exec`), never a code line or a table row; a part with
no prose is numbered (`part 3`), so no two parts of a section share a title.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass

MAX_PASSAGE_CHARS = 4000
MINOR_HEADING = re.compile(r"^ {0,3}#{4,6}(?:[ \t]|$)")  # Markdown's `####` to `######`
# Adjacent entries are grouped up to this size; a section with entries up to this size
# stays whole.
ENTRY_GROUP_CHARS = 1500
# Prose this short after entries (a note on the list) stays with them.
ATTACHED_PROSE_CHARS = 400
# Lines with no text longer than this are a gap no passage spans.
MAX_GAP_LINES = 40
# A part's title lists its terms up to this many characters, else its first and last.
MAX_TERMS_TITLE_CHARS = 60
# Words of a part's first line that name it when it holds no term.
LABEL_WORDS = 6

Lines = list[tuple[int, str]]  # (1-based line number, line) pairs of a file

_LABEL_MARKS = re.compile(r"^[\s#>*+\-=`~|]+")
# A word of prose: letters, lower case after the first, with a sentence's punctuation.
_PROSE_WORD = re.compile(
    r"^[(\"'\N{LEFT DOUBLE QUOTATION MARK}]?[A-Za-z][a-z]+"
    r"[)\"'\N{RIGHT DOUBLE QUOTATION MARK}.,;:!?]*$"
)
# A line is prose when it has this many such words and they are this share of its words.
PROSE_WORDS = 3
PROSE_SHARE = 0.6


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a reference list: its terms, and the lines from its first term to
    the end of what documents them. `alone`: an API object, a passage of its own."""

    line: int
    end_line: int
    terms: tuple[str, ...]
    alone: bool = False


@dataclass(frozen=True, slots=True)
class Piece:
    """Lines that make one passage, with the terms it documents and, for a part after
    its section's first, the words its title adds (`label`)."""

    lines: Lines
    terms: tuple[str, ...] = ()
    label: tuple[str, ...] = ()  # what its title adds to its section's
    anchor: str = ""  # what its id is made from, when not the section's heading
    start: int = 0  # the line it starts on when before its text (an entry's term tag)


def section_pieces(
    lines: Lines,
    breaks: Container[int],
    entries: Sequence[Entry],
    group_chars: int = ENTRY_GROUP_CHARS,
) -> list[Piece]:
    """A section's lines (its heading left out) as the passages they make, in order.
    `group_chars` other than ENTRY_GROUP_CHARS: entries are grouped up to that size and
    the section's lead text stays with its first entries."""
    pieces: list[Piece] = []
    for run in _without_gaps(trimmed(lines)):
        if entries and (_length(run) > group_chars or any(e.alone for e in entries)):
            pieces += _entry_pieces(run, breaks, entries, group_chars)
        else:
            terms = tuple(t for e in entries if _holds(run, e.line) for t in e.terms)
            pieces += [Piece(chunk, terms) for chunk in cut(run, breaks)]
    return [
        piece if number == 0 or piece.label else _labelled(piece, number=number)
        for number, piece in enumerate(pieces)
    ]


def _entry_pieces(
    lines: Lines, breaks: Container[int], entries: Sequence[Entry], group_chars: int
) -> list[Piece]:
    """Prose and entries apart: prose as itself, entries grouped while they fit."""
    pieces: list[Piece] = []
    group: list[tuple[Entry | None, Lines]] = []
    lead = group_chars != ENTRY_GROUP_CHARS

    def flush() -> None:
        if group:
            terms = tuple(term for entry, _ in group if entry for term in entry.terms)
            joined = [line for _, run in group for line in run]
            # The first group holds the section's lead: it is titled as the section
            # (an API object excepted, titled by its name).
            alone = any(entry.alone for entry, _ in group if entry)
            label = () if lead and not pieces and not alone else (terms_title(terms),)
            first = group[0][0]
            start = first.line if first is not None and first.line < joined[0][0] else 0
            for number, chunk in enumerate(cut(joined, breaks)):
                anchor = terms[0] if terms else ""
                piece = Piece(chunk, terms, label, anchor, start if number == 0 else 0)
                pieces.append(piece if number == 0 else _labelled(piece, label, number))
            group.clear()

    for entry, run in _runs(lines, entries):
        size = sum(_length(r) for _, r in group) + _length(run)
        if entry is None:
            attached = lead or _length(run) <= ATTACHED_PROSE_CHARS
            if group and attached and size <= (group_chars if lead else MAX_PASSAGE_CHARS):
                group.append((entry, run))
                continue
            flush()
            if lead and not pieces and _length(run) < group_chars:
                group.append((entry, run))
                continue
            pieces += [Piece(chunk) for chunk in cut(run, breaks)]
            continue
        alone = entry.alone or any(other is not None and other.alone for other, _ in group)
        if group and (alone or size > group_chars):
            flush()
        group.append((entry, run))
    flush()
    return pieces


def _runs(lines: Lines, entries: Sequence[Entry]) -> Iterator[tuple[Entry | None, Lines]]:
    """The lines as consecutive runs, each one entry's (its term to its end) or prose."""
    ordered = sorted(entries, key=lambda entry: entry.line)
    run: Lines = []
    current: Entry | None = None
    position = 0
    for number, line in lines:
        while position < len(ordered) and ordered[position].line <= number:
            if trimmed(run):
                yield current, trimmed(run)
            run, current = [], ordered[position]
            position += 1
        if current is not None and number > current.end_line:
            if trimmed(run):
                yield current, trimmed(run)
            run, current = [], None
        run.append((number, line))
    if trimmed(run):
        yield current, trimmed(run)


def _holds(lines: Lines, number: int) -> bool:
    return bool(lines) and lines[0][0] <= number <= lines[-1][0]


def _without_gaps(lines: Lines) -> Iterator[Lines]:
    """The lines cut where more than MAX_GAP_LINES lines in a row hold no text."""
    run: Lines = []
    blank = 0
    for number, line in lines:
        if line.strip():
            if blank > MAX_GAP_LINES and trimmed(run):
                yield trimmed(run)
                run = []
            blank = 0
        else:
            blank += 1
        run.append((number, line))
    if trimmed(run):
        yield trimmed(run)


def terms_title(terms: Sequence[str]) -> str:
    """What a part holding `terms` is titled: all of them while they fit, else the first
    and the last (`cd … exec`)."""
    unique = list(dict.fromkeys(terms))
    joined = ", ".join(unique)
    if len(unique) <= 1 or len(joined) <= MAX_TERMS_TITLE_CHARS:
        return joined
    return f"{unique[0]} \N{HORIZONTAL ELLIPSIS} {unique[-1]}"


def _labelled(piece: Piece, above: tuple[str, ...] = (), number: int = 1) -> Piece:
    """A later part (the `number`th from 0), named by the first words of its first line
    of prose (under `above`), else by its number."""
    prose = (_LABEL_MARKS.sub("", line).split() for _, line in piece.lines)
    words = next((words for words in prose if is_prose(words)), [])
    more = " \N{HORIZONTAL ELLIPSIS}" if len(words) > LABEL_WORDS else ""
    label = " ".join(words[:LABEL_WORDS]) + more or f"part {number + 1}"
    return Piece(piece.lines, piece.terms, (*above, label))


def is_prose(words: Sequence[str]) -> bool:
    """Whether a line's words read as a sentence's, not code's or a table row's."""
    prose = sum(1 for word in words if _PROSE_WORD.match(word))
    return prose >= PROSE_WORDS and prose >= PROSE_SHARE * len(words)


def cut(lines: Lines, breaks: Container[int] = ()) -> Iterator[Lines]:
    """A section's lines in chunks of at most MAX_PASSAGE_CHARS of text, blank edges
    trimmed: cut before a deeper heading (a line of `breaks`) where a whole subsection
    fits, else between paragraphs, else between lines."""
    lines = trimmed(lines)
    if not lines:
        return
    if _length(lines) <= MAX_PASSAGE_CHARS:
        yield lines
        return
    chunk: Lines = []
    for block in _blocks(lines, breaks):
        if _length(chunk + block) <= MAX_PASSAGE_CHARS:
            chunk += block
            continue
        if _length(block) <= MAX_PASSAGE_CHARS and trimmed(chunk):
            yield trimmed(chunk)  # the subsection starts the next passage whole
            chunk = list(block)
            continue
        for unit in _units(block):
            if _length(chunk) and _length(chunk + unit) > MAX_PASSAGE_CHARS:
                yield trimmed(chunk)
                chunk = []
            chunk += unit
    if trimmed(chunk):
        yield trimmed(chunk)


def _blocks(lines: Lines, breaks: Container[int]) -> Iterator[Lines]:
    """The lines in runs that each start at a deeper heading (the first run excepted)."""
    block: Lines = []
    for number, line in lines:
        if number in breaks and block:
            yield block
            block = []
        block.append((number, line))
    if block:
        yield block


def _units(lines: Lines) -> Iterator[Lines]:
    """The pieces a long section is cut between: paragraphs with the blank lines after
    them (a minor heading kept with the paragraph it heads); a paragraph over the limit
    as its lines; a line over the limit in parts."""
    held: Lines = []
    for paragraph in paragraphs(lines):
        if MINOR_HEADING.match(paragraph[0][1]) and len(trimmed(paragraph)) == 1:
            held += paragraph
            continue
        paragraph = held + paragraph
        held = []
        if _length(paragraph) <= MAX_PASSAGE_CHARS:
            yield paragraph
            continue
        for number, line in paragraph:
            for part in _line_parts(line):
                yield [(number, part)]
    if held:
        yield held


def paragraphs(lines: Lines) -> Iterator[Lines]:
    """Runs of non-blank lines, each with the blank lines that follow it."""
    paragraph: Lines = []
    for number, line in lines:
        if line.strip() and paragraph and not paragraph[-1][1].strip():
            yield paragraph
            paragraph = []
        paragraph.append((number, line))
    if paragraph:
        yield paragraph


def _line_parts(line: str) -> Iterable[str]:
    while len(line) > MAX_PASSAGE_CHARS:
        cut_at = line.rfind(" ", 0, MAX_PASSAGE_CHARS + 1)
        if cut_at <= 0:
            cut_at = MAX_PASSAGE_CHARS
        yield line[:cut_at]
        line = line[cut_at:].lstrip(" ")
    yield line


def trimmed(lines: Lines) -> Lines:
    start, end = 0, len(lines)
    while start < end and not lines[start][1].strip():
        start += 1
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    return lines[start:end]


def _length(lines: Lines) -> int:
    """Characters of the lines joined by newlines and stripped, as a passage keeps them."""
    return len("\n".join(line for _, line in lines).strip())
