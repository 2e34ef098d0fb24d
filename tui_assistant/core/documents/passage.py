"""Documents split into passages: the pure half of reading a library.

`split_document(path, text)` turns one document into its passages, with no disk in
sight, so every rule is tested on strings. The format of a document follows its name
(`formats.format_of`): Markdown (`markdown.py`), reStructuredText (`rst.py`), plain
text (`plaintext.py`), HTML (`html.py`), PDF (`pdf.py`) or Python source
(`python_api.py`). Each format finds its sections; what follows is shared:

- no passage text is longer than `MAX_PASSAGE_CHARS`: a longer section is cut at
  blank lines between paragraphs, else between lines (a single longer line is cut
  at a space, else anywhere);
- a passage's title is the document title and its heading path joined by
  `TITLE_SEPARATOR` (`File system › Promises API`), its id the document id plus
  `#` and a slug of its heading (none for the document's first passage), and its
  `line`/`end_line` the 1-based lines it spans in the file;
- a passage's text is its lines as the page shows them (each format renders its own
  markup), one line of text for each line of the file, so a quote found on the text's
  third line stands on the passage's third line of text in the file.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui_assistant.core.documents.directives import Pending

# How a section is cut into passages (re-exported: the readers import them from here).
from tui_assistant.core.documents.cutting import ENTRY_GROUP_CHARS, MAX_GAP_LINES, section_pieces
from tui_assistant.core.documents.cutting import MAX_PASSAGE_CHARS as MAX_PASSAGE_CHARS
from tui_assistant.core.documents.cutting import MINOR_HEADING as MINOR_HEADING
from tui_assistant.core.documents.cutting import Entry as Entry
from tui_assistant.core.documents.cutting import Lines as Lines
from tui_assistant.core.documents.cutting import cut as cut
from tui_assistant.core.documents.cutting import paragraphs as paragraphs
from tui_assistant.core.documents.cutting import trimmed as trimmed

# Where a passage stands, written once for passages and the library's records of them.
from tui_assistant.core.documents.place import PassageFields as PassageFields
from tui_assistant.core.documents.place import line_range as line_range
from tui_assistant.core.documents.place import location as location

# Headings from this level down were text before every level made sections.
DEEP_LEVEL = 4
# A section of the first three levels this short stays one passage, its deeper headings
# and list entries in its text: the passage that a question about it names.
WHOLE_SECTION_CHARS = MAX_PASSAGE_CHARS
TITLE_SEPARATOR = " \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} "
PASSAGE_ID = re.compile(r"^[a-z0-9]+([-/#][a-z0-9]+)*$")

_TITLE_SEPARATORS = (" - ", " \N{EN DASH} ", " \N{EM DASH} ", ": ", " | ")
_NOT_ID_CHARACTERS = re.compile(r"[^a-z0-9/]+")
_NOT_SLUG_CHARACTERS = re.compile(r"[^a-z0-9]+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Passage(PassageFields):
    """One retrievable unit: what is cited, shown as evidence and sent to a model."""

    id: str
    title: str
    text: str
    source_path: str
    line: int = 1
    end_line: int = 1
    # The name of the library it belongs to.
    library: str = ""
    # The 1-based pages it stands on (PDF documents only).
    page: int | None = None
    end_page: int | None = None
    page_starts: tuple[int, ...] = ()
    # The web page it was read from (a fetched website's library), set by the library.
    url: str | None = None
    # Words a reader looks it up by besides its title: the terms of the book's own index
    # that point here, the terms of the reference entries it holds.
    index_terms: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PassageDraft:
    """A passage as the document alone defines it, before the library places it.

    `anchor` is what follows `#` in its id ("" for the document's first passage); the
    library adds the document id, which depends on the other files' names too.
    """

    anchor: str
    title: str
    text: str
    line: int
    end_line: int
    page: int | None = None
    end_page: int | None = None
    page_starts: tuple[int, ...] = ()
    # The library-relative path of the file it cites when that is not its document (a
    # file the document includes, the Python source an autodoc directive reads); "" else.
    source: str = ""
    index_terms: tuple[str, ...] = ()

    def passage(self, document_id: str, source_path: str) -> Passage:
        return Passage(
            id=passage_id(document_id, self.anchor),
            title=self.title,
            text=self.text,
            source_path=source_path,
            line=self.line,
            end_line=self.end_line,
            page=self.page,
            end_page=self.end_page,
            page_starts=self.page_starts,
            index_terms=self.index_terms,
        )


@dataclass(frozen=True, slots=True)
class Document:
    title: str
    passages: tuple[PassageDraft, ...]
    # What the document asks to read from other files (`directives.Pending`), before its
    # reader resolves it; then ().
    pending: tuple[Pending, ...] = ()
    # One line each about what it could not read (`include ../x.md: outside the library`).
    notes: tuple[str, ...] = ()
    # (first line, title) of each section, one without text too: what a directive
    # there puts in the document is titled under it.
    sections: tuple[tuple[int, str], ...] = ()


def passage_id(document_id: str, anchor: str) -> str:
    return f"{document_id}#{anchor}" if anchor else document_id


def stem_id(stem: str) -> str:
    """The id part that names a document, from its path without its format's suffix
    (`formats.document_id`): lower-cased, with every run of characters other than `a-z`,
    `0-9` and `/` turned into one `-`.

    `Pasta Water` -> `pasta-water`; `api/child_process` -> `api/child-process`.
    Letters with accents lose them (`Café` -> `cafe`); a path segment with no letter or
    digit left becomes `doc`.
    """
    segments = []
    for segment in stem.split("/"):
        cleaned = _NOT_ID_CHARACTERS.sub("-", _ascii_lower(segment)).strip("-")
        segments.append(cleaned or "doc")
    return "/".join(segments)


def slug(text: str) -> str:
    """A heading as an id part: `fsPromises.readFile(path)` -> `fspromises-readfile-path`."""
    return bare_slug(text) or "section"


def bare_slug(text: str) -> str:
    """`text` lower-cased without accents, every run of characters other than `a-z` and
    `0-9` one `-`, none at the ends; "" when nothing is left."""
    return _NOT_SLUG_CHARACTERS.sub("-", _ascii_lower(text)).strip("-")


def _ascii_lower(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return decomposed.encode("ascii", "ignore").decode("ascii")


def file_title(relative_path: str, name_title: str | None = None) -> str:
    """The title of a document that has none: `name_title`, which the library gives each
    reader (its file name without its format's suffix, `formats.file_title`); else, for
    a reader called on its own, the file name without its last suffix."""
    if name_title is not None:
        return name_title
    return posixpath.splitext(relative_path.rsplit("/", 1)[-1])[0]


def file_lines(text: str) -> list[str]:
    r"""The file's lines as editors, grep and sed count them: ended by `\n`, `\r\n` or
    `\r`, never by the other characters `str.splitlines` breaks at (form feed, `\x85`,
    `\u2028`...), which would shift every line number after them. A leading byte-order
    mark is not part of the first line."""
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line starts no new one
    return lines


@dataclass(slots=True)
class Section:
    """Lines between two headings, as a document format's reader found them."""

    heading_line: int | None  # 1-based line where its heading starts; None before the first
    level: int  # its heading's level (1 and deeper); 0 before the first heading
    path: tuple[str, ...]  # plain heading texts from level 1 down to this one
    lines: Lines = field(default_factory=list)  # its text (the heading left out)
    # Its heading as a line of text (line number, plain words), for when the title
    # cannot say it.
    heading: tuple[int, str] | None = None
    # Lines where a deeper heading starts (`####`): where a long section is cut first.
    breaks: set[int] = field(default_factory=set)
    # The entries of its reference lists: passages titled by their terms.
    entries: list[Entry] = field(default_factory=list)
    # Words a reader looks it up by besides its title (`.. index::` terms).
    index_terms: tuple[str, ...] = ()
    # The size its entries are grouped up to (`cutting.section_pieces`).
    group_chars: int = ENTRY_GROUP_CHARS


class HeadingPath:
    """The headings above the next one, as a document is read."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def enter(self, level: int, text: str) -> tuple[str, ...]:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, text))
        return tuple(heading for _, heading in self._stack)


def document_from_sections(
    title: str, level_one_title: str | None, sections: Iterable[Section]
) -> Document:
    """The document's passages: each section cut to size, titled and anchored.

    `level_one_title` is the heading that named the document, if one did: it is the
    title already, so it is not repeated in its sections' titles. A section with no text
    makes no passage. Section lines are text as shown, one for each line of the file, so
    a passage's text spans exactly its lines from its first text line to `end_line`.
    """
    drafts: list[PassageDraft] = []
    heading_of_first: tuple[int, str] | None = None
    anchors = UniqueIds()
    # A section with no text of its own gives its id to its first deeper part (level 4
    # and below), so the id of `5.4.1 Patterns` stays where its text starts.
    held: tuple[int, str] | None = None
    # Every section's heading line and title, those without text of their own too (the
    # directives under them take their place in the title path).
    titled: list[tuple[int, str]] = []
    for section in sections:
        heading_path = list(section.path)
        if heading_path and _named_by(title, level_one_title, heading_path[0]):
            heading_path = heading_path[1:]
        if section.heading_line:
            titled.append((section.heading_line, join_title(title, heading_path)))
        pieces = section_pieces(section.lines, section.breaks, section.entries, section.group_chars)
        if not pieces:
            # A shallower section's id waits for its text past empty deeper ones.
            if section.path and (
                held is None or held[0] >= DEEP_LEVEL or section.level < DEEP_LEVEL
            ):
                held = (section.level, slug(section.path[-1]))
            continue
        if not drafts:
            heading_of_first = section.heading
        base = slug(heading_path[-1] if heading_path else title)
        given = held[1] if held and section.level > max(held[0], DEEP_LEVEL - 1) else None
        held = None
        for number, piece in enumerate(pieces):
            if number == 0:
                wanted = given or base
            else:
                wanted = slug(piece.anchor) if piece.anchor else f"{base}-part-{number + 1}"
            anchor = anchors.take(wanted) if drafts else ""
            chunk = piece.lines
            heading_near = section.heading_line and chunk[0][0] - section.heading_line <= 1 + (
                MAX_GAP_LINES
            )
            start = section.heading_line if number == 0 and heading_near else piece.start
            terms = tuple(dict.fromkeys((*piece.terms, *section.index_terms)))
            drafts.append(
                PassageDraft(
                    anchor=anchor,
                    title=join_title(title, [*heading_path, *piece.label]),
                    text="\n".join(line for _, line in chunk).strip(),
                    line=start or chunk[0][0],
                    end_line=chunk[-1][0],
                    index_terms=terms,
                )
            )
    if len(drafts) == 1 and drafts[0].title != title:
        # The only passage has the document title; its own heading, which the title
        # does not say, opens its text.
        only = drafts[0]
        text = only.text
        if heading_of_first is not None:
            number, words = heading_of_first
            first_text_line = only.end_line - text.count("\n")
            opened = words + "\n" * (first_text_line - number) + text
            if number < first_text_line and words != title and len(opened) <= MAX_PASSAGE_CHARS:
                text = opened
        drafts[0] = PassageDraft(
            only.anchor, title, text, only.line, only.end_line, index_terms=only.index_terms
        )
    return Document(title=title, passages=tuple(drafts), sections=tuple(titled))


def whole_while_fitting(
    earlier: Sequence[Section], deep: Sequence[Section], limit: int = WHOLE_SECTION_CHARS
) -> list[Section]:
    """Each of the `earlier` sections (split at the first three levels) when its text fits
    `limit`, else the `deep` sections (split at every level) that make it up."""
    chosen: list[Section] = []
    position = 0
    for index, section in enumerate(earlier):
        end = earlier[index + 1].heading_line if index + 1 < len(earlier) else None
        parts = []
        while position < len(deep) and (end is None or (deep[position].heading_line or 0) < end):
            parts.append(deep[position])
            position += 1
        whole = not parts or text_length(section.lines) <= limit
        chosen += [section] if whole else parts
    return chosen


def text_length(lines: Lines) -> int:
    return len("\n".join(line for _, line in lines).strip())


def keeping_ids(document: Document, earlier: Document) -> Document:
    """`document` with the ids `earlier` (the same file split at its first three levels
    only, without entries, as it was read before) gave its passages kept by the passages
    that start on the same lines, else that hold those lines, so links and cases naming
    them still hold."""
    old = {draft.line: draft.anchor for draft in earlier.passages}
    taken = {draft.anchor for draft in document.passages}
    drafts = list(document.passages)
    for position, draft in enumerate(drafts):
        anchor = old.get(draft.line)
        if anchor is None or anchor == draft.anchor or anchor in taken or not draft.anchor:
            continue
        taken.discard(draft.anchor)
        taken.add(anchor)
        drafts[position] = replace(draft, anchor=anchor)
    # An id whose line no passage starts on goes to the passage now holding that line,
    # when that passage's own id is new.
    earlier_ids = set(old.values())
    for line, anchor in old.items():
        if anchor in taken:
            continue
        holding = [n for n, draft in enumerate(drafts) if draft.line <= line <= draft.end_line]
        if not holding or drafts[holding[0]].anchor in earlier_ids or not drafts[holding[0]].anchor:
            continue
        taken.discard(drafts[holding[0]].anchor)
        taken.add(anchor)
        drafts[holding[0]] = replace(drafts[holding[0]], anchor=anchor)
    return Document(
        document.title, tuple(drafts), document.pending, document.notes, document.sections
    )


def _named_by(title: str, level_one_title: str | None, heading: str) -> bool:
    """Whether the document title already says `heading`: it is the level-1 heading
    that named the document, or the title ends with it after a separator, as site
    titles do (`Serverless Framework - AWS Lambda Functions`, `# AWS Lambda Functions`)."""
    if heading == level_one_title:
        return True
    title, heading = title.casefold(), heading.casefold()
    return any(title.endswith(separator + heading) for separator in _TITLE_SEPARATORS)


def join_title(title: str, heading_path: Iterable[str]) -> str:
    parts = [title]
    for heading in heading_path:
        if heading.casefold() != parts[-1].casefold():
            parts.append(heading)
    return TITLE_SEPARATOR.join(parts)


class UniqueIds:
    """Ids that must differ (a document's anchors, a library's documents): one already
    taken gets `-2`, `-3`, ..."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def take(self, wanted: str) -> str:
        candidate, number = wanted, 1
        while candidate in self._taken:
            number += 1
            candidate = f"{wanted}-{number}"
        self._taken.add(candidate)
        return candidate
