"""Manual pages (troff `man` macros): the page as `man` shows it, in titled sections.

- the title is the page's name and section from `.TH`, spelled as its NAME line spells
  it, with that line's description: `git-add(1) — Add file contents to the index`;
- sections start at `.SH`, subsections at `.SS` (a heading with no arguments is the
  next line); the NAME section is the document's first passage;
- reference entries, each a passage titled by its terms when the section is cut
  (`cutting.Entry`, as HTML's `<dt>`): `.TP` (its term the next line, `.TQ` adding
  another term), `.IP "term"`, and DocBook's `.PP` / term line / `.RS` … `.RE`; an entry
  inside another's text is part of that text;
- paragraphs at `.PP`, `.P`, `.LP`, `.sp`; `.RS`/`.RE` and an entry's text indented four
  spaces a level; `.nf`/`.fi` and `.EX`/`.EE` lines kept as written; `.UR url` … `.UE`
  shows the link as `<url>`; tables (`.TS` … `.TE`) as their cells; font macros (`.B`,
  `.BR`, …) as their words; every other request shows nothing;
- each line of text stands on its own line of the file (`man_lines`), so passages cite
  the source lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tui_assistant.core.documents.man_lines import TroffLine, TroffReader
from tui_assistant.core.documents.passage import (
    Document,
    Entry,
    HeadingPath,
    Section,
    document_from_sections,
    file_lines,
    file_title,
)

INDENT = "    "
# A longer term is a sentence, not a name to look up (as HTML's `<dt>`).
MAX_TERM_CHARS = 100
NOT_A_PAGE = "not a manual page (no .TH or .SH request)"
_PAGE_REQUEST = re.compile(r"^[.'][ \t]*(?:TH|SH)(?:[ \t]|$)", re.MULTILINE)
_INCLUDE = re.compile(r"^[.'][ \t]*so[ \t]+(\S+)", re.MULTILINE)
_MDOC = re.compile(r"^[.'][ \t]*(?:Dd|Sh)(?:[ \t]|$)", re.MULTILINE)
MDOC_PAGE = "not read: an mdoc manual page (.Dd/.Sh macros); only man macros are read"
# Between the NAME line's names and its description: `\-`, `\(em`, `\(en`.
_NAME_DASH = re.compile(r"\s+[-\N{EM DASH}\N{EN DASH}]+\s+")
_SPACED = frozenset({"B", "I", "SM", "SB", "SY"})
_ALTERNATING = frozenset({"BR", "RB", "BI", "IB", "IR", "RI"})
_PARAGRAPHS = frozenset({"PP", "P", "LP", "HP"})
_NO_FILL = frozenset({"nf", "EX"})
_FILL = frozenset({"fi", "EE"})
# An `.IP` mark that lists, not names: a bullet, a dash, a number or letter (`1.`, `(a)`).
_LIST_MARK = re.compile(r"^\W*(?:\d+|[a-zA-Z]|[ivxIVX]+)?\W*$")


def why_not_a_page(text: str) -> str | None:
    """Why a file's text is not a manual page to read, or None when it is one: it has
    no `.TH` or `.SH`: it is written in mdoc's macros, or only includes another page
    (`.so man1/other.1`), or is another file a section's suffix names (`app.log.1`)."""
    if _PAGE_REQUEST.search(text):
        return None
    if _MDOC.search(text):
        return MDOC_PAGE
    included = _INCLUDE.search(text)
    if included:
        return f"not a manual page: only includes {included.group(1)} (.so)"
    return NOT_A_PAGE


def split_man(relative_path: str, text: str, name_title: str | None = None) -> Document:
    """The title and passages of one manual page (`text` already decoded)."""
    reader = _PageReader()
    for line in TroffReader().lines(file_lines(text)):
        reader.read(line)
    reader.close_entry()
    return document_from_sections(
        reader.title(file_title(relative_path, name_title)), None, reader.sections
    )


@dataclass(slots=True)
class _Entry:
    line: int
    depth: int
    terms: list[str] = field(default_factory=list)
    end_line: int = 0
    # Ends where `.RE` returns to its depth (DocBook's `.RS` body), else at a paragraph.
    boxed: bool = False
    # DocBook's term line, an entry only if its `.RS` body follows.
    tentative: bool = False


class _PageReader:
    def __init__(self) -> None:
        self.sections = [Section(heading_line=None, level=0, path=())]
        self._path = HeadingPath()
        self._page: tuple[str, str] | None = None  # `.TH` name and section
        self._name_line: str | None = None
        self._heading_level = 0  # a heading whose words are the next line's
        self._awaiting = ""  # what the next text line is: "term", "more" or "nested"
        self._may_name = False  # after `.PP`: the next line may name a DocBook entry
        self._depth = 0
        self._entry: _Entry | None = None
        self._entry_indent = False  # a `.TP`/`.IP` entry's text is indented
        self._no_fill = False
        self._table = ""  # "" outside `.TS`, "format" before its data, "data"
        self._link = ""
        self._mark = ""  # an `.IP` bullet that opens the next text line

    def title(self, fallback: str) -> str:
        parts = _NAME_DASH.split(self._name_line or "", maxsplit=1)
        names, description = parts[0], parts[1] if len(parts) > 1 else ""
        first_name = names.split(",")[0].strip()
        if self._page is None:
            name = first_name or fallback
            return f"{name} \N{EM DASH} {description.strip()}" if description else name
        name, section = self._page
        name = first_name if first_name and " " not in first_name else name
        title = f"{name}({section})" if section else name
        return f"{title} \N{EM DASH} {description.strip()}" if description.strip() else title

    def read(self, line: TroffLine) -> None:
        name = line.name
        entry = self._entry
        if entry is not None and entry.tentative and name != "":
            if name == "RS":
                entry.tentative, entry.boxed = False, True
            else:
                self._entry = None  # a paragraph's first line, not a term
        if name is None:
            self._text(line.number, line.text)
        elif name in _SPACED or name in _ALTERNATING:
            if line.arguments:
                glue = " " if name in _SPACED else ""
                self._text(line.number, glue.join(line.arguments))
            else:
                self._show(line.number, "")
        elif not self._request(line, name):
            self._show(line.number, "")

    def _request(self, line: TroffLine, name: str) -> bool:
        """Act on a request; whether it showed its line."""
        given = line.arguments
        if name and name not in _PARAGRAPHS and name != "sp":
            self._may_name = False
        if name == "TH" and given:
            self._page = (given[0], given[1] if len(given) > 1 else "")
        elif name in ("SH", "SS"):
            self.close_entry()
            self._depth, self._no_fill, self._entry_indent = 0, False, False
            level = 1 if name == "SH" else 2
            if given:
                self._section(line.number, level, " ".join(given))
            else:
                self._heading_level = level
        elif name in ("TP", "TQ"):
            if name == "TQ" and self._entry is not None:
                self._awaiting = "more"
            elif self._inside_entry():
                self._awaiting = "nested"
            else:
                self.close_entry()
                self._entry_indent = False
                self._awaiting = "term"
        elif name == "IP":
            return self._item(line.number, given[0] if given else "")
        elif name in _PARAGRAPHS or name == "sp":
            self._paragraph(name)
        elif name == "RS":
            self._depth += 1
        elif name == "RE":
            self._depth = max(self._depth - 1, 0)
            entry = self._entry
            if entry is not None and self._depth <= entry.depth - (0 if entry.boxed else 1):
                self.close_entry()
        elif name in _NO_FILL or name in _FILL:
            self._no_fill = name in _NO_FILL
        elif name in ("TS", "TE"):
            self._table = "format" if name == "TS" else ""
        elif name in ("UR", "MT"):
            self._link = given[0] if given else ""
        elif name in ("UE", "ME"):
            self._text(line.number, f"<{self._link}>" + "".join(given))
            self._link = ""
            return True
        elif name == "OP" and given:
            self._text(line.number, "[" + " ".join(given) + "]")
            return True
        return False

    def _paragraph(self, name: str) -> None:
        self._mark = ""
        if name == "sp":
            # Asciidoctor's entry: `.sp`, the line naming it, its text in `.RS`.
            self._may_name = self._entry is None
            return
        if self._inside_entry():
            return
        self.close_entry()
        # DocBook's entry: `.PP`, one line naming it, then its text in `.RS`.
        self._may_name = True

    def _item(self, number: int, mark: str) -> bool:
        if not mark.strip() or _LIST_MARK.match(mark):
            self._mark = mark.strip()
            return False
        if self._inside_entry():
            self._text(number, mark)
            return True
        self.close_entry()
        self._entry = _Entry(number, self._depth, [mark.strip()], number)
        self._show(number, self._indent() + mark.strip())
        self._entry_indent = True
        return True

    def _inside_entry(self) -> bool:
        entry = self._entry
        return entry is not None and self._depth > entry.depth

    def _section(self, number: int, level: int, heading: str) -> None:
        path = self._path.enter(level, heading.strip())
        self.sections.append(
            Section(heading_line=number, level=level, path=path, heading=(number, heading.strip()))
        )

    def close_entry(self) -> None:
        entry, self._entry = self._entry, None
        self._awaiting, self._may_name, self._entry_indent = "", False, False
        if entry is not None and not entry.tentative and entry.terms:
            terms = tuple(term for term in entry.terms if len(term) <= MAX_TERM_CHARS)
            if terms:
                self.sections[-1].entries.append(Entry(entry.line, entry.end_line, terms))

    def _indent(self) -> str:
        return INDENT * (self._depth + (1 if self._entry_indent else 0))

    def _text(self, number: int, text: str) -> None:
        if self._heading_level:
            self._section(number, self._heading_level, text)
            self._heading_level = 0
            return
        if self._table:
            row = self._table_row(text)
            if row is None:
                self._show(number, "")
                return
            text = row
        words = text.strip()
        if self._awaiting:
            self._term(number, words)
            return
        if self._may_name and words:
            self._may_name = False
            self._entry = _Entry(number, self._depth, [words], number, tentative=True)
        path = self.sections[-1].path
        if path and path[-1].casefold() == "name" and self._name_line is None and words:
            self._name_line = words
        if self._mark:
            words, self._mark = f"{self._mark} {words}", ""
        shown = text.rstrip() if self._no_fill else words
        self._show(number, self._indent() + shown if shown else "")

    def _term(self, number: int, words: str) -> None:
        kind, self._awaiting = self._awaiting, ""
        if kind == "term":
            self._entry = _Entry(number, self._depth, [words], number)
        elif kind == "more" and self._entry is not None:
            self._entry.terms.append(words)
        self._show(number, self._indent() + words)
        if kind != "nested":
            self._entry_indent = True

    def _table_row(self, text: str) -> str | None:
        if self._table == "format":
            if text.rstrip().endswith("."):
                self._table = "data"
            return None
        return "  ".join(
            cell.replace("T{", "").replace("T}", "").strip() for cell in text.split("\t")
        )

    def _show(self, number: int, shown: str) -> None:
        self.sections[-1].lines.append((number, shown))
        if shown.strip() and self._entry is not None:
            self._entry.end_line = number
