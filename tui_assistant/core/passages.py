"""Documents split into passages: the pure half of reading a library.

`split_document(path, text)` turns one Markdown document into its passages, with no
disk in sight, so every rule below is tested on strings:

- a leading YAML front-matter block (`---` ... `---` or `...`) gives the document
  title (`title:`) and is never part of any passage;
- headings of levels 1-3 (`#`, `##`, `###`) outside fenced code blocks start a new
  passage; text before the first heading belongs to a passage titled with the
  document title; a heading with nothing under it makes no passage;
- no passage text is longer than `MAX_PASSAGE_CHARS`: a longer section is cut at
  blank lines between paragraphs, else between lines (a single longer line is cut
  at a space, else anywhere);
- a passage's title is the document title and its heading path joined by
  `TITLE_SEPARATOR` (`File system › Promises API`), its id the document id plus
  `#` and a slug of its heading (none for the document's first passage), and its
  `line`/`end_line` the 1-based lines it spans in the file.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tui_assistant.core.text import clean_display_text

MAX_PASSAGE_CHARS = 4000
TITLE_SEPARATOR = " \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} "
PASSAGE_ID = re.compile(r"^[a-z0-9]+([-/#][a-z0-9]+)*$")

_HEADING = re.compile(r"^ {0,3}(#{1,3})(?:[ \t]+(.*?))?[ \t]*$")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_FRONT_MATTER_END = frozenset({"---", "..."})
_MINOR_HEADING = re.compile(r"^ {0,3}#{4,6}(?:[ \t]|$)")
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_TITLE_KEY = re.compile(r"^title[ \t]*:[ \t]*(.*?)[ \t]*$")
_NOT_ID_CHARACTERS = re.compile(r"[^a-z0-9/]+")
_NOT_SLUG_CHARACTERS = re.compile(r"[^a-z0-9]+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class PassageFields:
    """What a passage and the library's record of one share: where it stands, written
    once for both (`location`, `to_json`)."""

    __slots__ = ()
    id: str
    title: str
    source_path: str
    line: int
    end_line: int

    @property
    def location(self) -> str:
        """`source_path:line–end_line` (`lessons/pasta-water.md:1–11`)."""
        return location(self.source_path, self.line, self.end_line)

    def to_json(self) -> dict[str, Any]:
        """The passage as JSON output shows it (`passages --json`, `ask --json`)."""
        return {
            "id": self.id,
            "title": self.title,
            "source_path": self.source_path,
            "line": self.line,
            "end_line": self.end_line,
        }


@dataclass(frozen=True, slots=True)
class Passage(PassageFields):
    """One retrievable unit: what is cited, shown as evidence and sent to a model."""

    id: str
    title: str
    text: str
    source_path: str
    line: int = 1
    end_line: int = 1


def line_range(line: int, end_line: int) -> str:
    """`line–end_line`, with an en dash: how every file line range is written."""
    return f"{line}\N{EN DASH}{end_line}"


def location(source_path: str, line: int, end_line: int) -> str:
    """`source_path:line–end_line`: where a passage or a quote stands in its file."""
    return f"{source_path}:{line_range(line, end_line)}"


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

    def passage(self, document_id: str, source_path: str) -> Passage:
        return Passage(
            id=passage_id(document_id, self.anchor),
            title=self.title,
            text=self.text,
            source_path=source_path,
            line=self.line,
            end_line=self.end_line,
        )


@dataclass(frozen=True, slots=True)
class Document:
    title: str
    passages: tuple[PassageDraft, ...]


def passage_id(document_id: str, anchor: str) -> str:
    return f"{document_id}#{anchor}" if anchor else document_id


def document_id(relative_path: str) -> str:
    """The id part that names a document: its path without `.md`, lower-cased, with every
    run of characters other than `a-z`, `0-9` and `/` turned into one `-`.

    `Pasta Water.md` -> `pasta-water`; `api/child_process.md` -> `api/child-process`.
    Letters with accents lose them (`Café` -> `cafe`); a path segment with no letter or
    digit left becomes `doc`.
    """
    stem = relative_path.removesuffix(".md")
    segments = []
    for segment in stem.split("/"):
        cleaned = _NOT_ID_CHARACTERS.sub("-", _ascii_lower(segment)).strip("-")
        segments.append(cleaned or "doc")
    return "/".join(segments)


def slug(text: str) -> str:
    """A heading as an id part: `fsPromises.readFile(path)` -> `fspromises-readfile-path`."""
    return _NOT_SLUG_CHARACTERS.sub("-", _ascii_lower(text)).strip("-") or "section"


def _ascii_lower(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return decomposed.encode("ascii", "ignore").decode("ascii")


def file_title(relative_path: str) -> str:
    """The title of a document that has none: its file name without `.md`."""
    return relative_path.rsplit("/", 1)[-1].removesuffix(".md")


@dataclass(slots=True)
class _Section:
    """Lines between two headings, while a document is read."""

    heading_line: int | None  # 1-based line of its heading; None before the first one
    level: int  # its heading's level (1-3); 0 before the first heading
    path: tuple[str, ...]  # heading texts from level 1 down to this one
    lines: list[tuple[int, str]] = field(default_factory=list)


def split_document(relative_path: str, text: str) -> Document:
    """The title and passages of one Markdown document (`text` already decoded)."""
    lines = file_lines(text.removeprefix("\ufeff"))
    title, body_start = _front_matter_title(lines)
    sections = list(_sections(lines, body_start))
    if title is None:
        title = next((section.path[-1] for section in sections if section.level == 1), None)
        level_one_title = title
    else:
        level_one_title = None
    if title is None:
        title = file_title(relative_path)
    drafts: list[PassageDraft] = []
    anchors = _UniqueAnchors()
    for section in sections:
        if section.heading_line is None and _only_markup(section.lines):
            continue  # a banner or a maintainers' comment before the first heading
        chunks = list(_cut(section.lines))
        if not chunks:
            continue
        heading_path = list(section.path)
        if heading_path and heading_path[0] == level_one_title:
            # The level-1 heading that named the document is its title already.
            heading_path = heading_path[1:]
        passage_title = _join_title(title, heading_path)
        base = slug(heading_path[-1] if heading_path else title)
        for number, chunk in enumerate(chunks):
            piece = base if number == 0 else f"{base}-part-{number + 1}"
            anchor = anchors.take(piece) if drafts else ""
            start = section.heading_line if number == 0 and section.heading_line else chunk[0][0]
            drafts.append(
                PassageDraft(
                    anchor=anchor,
                    title=passage_title,
                    text="\n".join(line for _, line in chunk).strip(),
                    line=start,
                    end_line=chunk[-1][0],
                )
            )
    if len(drafts) == 1 and drafts[0].title != title:
        drafts[0] = _retitled(drafts[0], title)
    return Document(title=title, passages=tuple(drafts))


def file_lines(text: str) -> list[str]:
    r"""The file's lines as editors, grep and sed count them: ended by `\n`, `\r\n` or
    `\r`, never by the other characters `str.splitlines` breaks at (form feed, `\x85`,
    `\u2028`...), which would shift every line number after them."""
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line starts no new one
    return lines


def _retitled(draft: PassageDraft, title: str) -> PassageDraft:
    return PassageDraft(draft.anchor, title, draft.text, draft.line, draft.end_line)


def _join_title(title: str, heading_path: list[str]) -> str:
    parts = [title]
    for heading in heading_path:
        if heading.casefold() != parts[-1].casefold():
            parts.append(heading)
    return TITLE_SEPARATOR.join(parts)


class _UniqueAnchors:
    """Anchors of one document; a repeat gets `-2`, `-3`, ..."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def take(self, anchor: str) -> str:
        candidate, number = anchor, 1
        while candidate in self._taken:
            number += 1
            candidate = f"{anchor}-{number}"
        self._taken.add(candidate)
        return candidate


def _front_matter_title(lines: list[str]) -> tuple[str | None, int]:
    """The front matter's `title:` (or None), and the index of the first line after it."""
    if not lines or lines[0].rstrip() != "---":
        return None, 0
    for index in range(1, len(lines)):
        if lines[index].rstrip() in _FRONT_MATTER_END:
            title = None
            for line in lines[1:index]:
                found = _TITLE_KEY.match(line)
                if found:
                    title = _heading_text(_unquote(found.group(1)))
                    break
            return title, index + 1
    return None, 0  # never closed: not front matter


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _heading_text(raw: str) -> str | None:
    """A heading's visible text, or None when nothing visible is left."""
    text = _CLOSING_HASHES.sub("", raw.strip()).strip()
    text = _HTML_TAG.sub("", text)  # `<a name="env"></a> Set ...`: an anchor, not words
    text = " ".join(clean_display_text(text).split())
    return text or None


def _sections(lines: list[str], start: int) -> Iterator[_Section]:
    """The document's sections in order: headings of levels 1-3 outside code fences."""
    section = _Section(heading_line=None, level=0, path=())
    stack: list[tuple[int, str]] = []
    fence: str | None = None
    for index in range(start, len(lines)):
        line = lines[index]
        number = index + 1
        if fence is not None:
            found = _FENCE.match(line)
            if found and found.group(1).startswith(fence) and not found.group(2).strip():
                fence = None
            section.lines.append((number, line))
            continue
        found = _FENCE.match(line)
        if found and not (found.group(1)[0] == "`" and "`" in found.group(2)):
            fence = found.group(1)
            section.lines.append((number, line))
            continue
        heading = _HEADING.match(line)
        text = _heading_text(heading.group(2) or "") if heading else None
        if heading is None or text is None:
            section.lines.append((number, line))
            continue
        yield section
        level = len(heading.group(1))
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, text))
        section = _Section(heading_line=number, level=level, path=tuple(t for _, t in stack))
    yield section


def _cut(lines: list[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """A section's lines in chunks of at most MAX_PASSAGE_CHARS of text, blank edges
    trimmed, cut between paragraphs where possible, else between lines."""
    lines = _trimmed(lines)
    if not lines:
        return
    if _length(lines) <= MAX_PASSAGE_CHARS:
        yield lines
        return
    chunk: list[tuple[int, str]] = []
    for unit in _units(lines):
        if _length(chunk) and _length(chunk + unit) > MAX_PASSAGE_CHARS:
            yield _trimmed(chunk)
            chunk = []
        chunk += unit
    if _trimmed(chunk):
        yield _trimmed(chunk)


def _units(lines: list[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """The pieces a long section is cut between: paragraphs with the blank lines after
    them (a minor heading kept with the paragraph it heads); a paragraph over the limit
    as its lines; a line over the limit in parts."""
    held: list[tuple[int, str]] = []
    for paragraph in _paragraphs(lines):
        if _MINOR_HEADING.match(paragraph[0][1]) and len(_trimmed(paragraph)) == 1:
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


def _paragraphs(lines: list[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """Runs of non-blank lines, each with the blank lines that follow it."""
    paragraph: list[tuple[int, str]] = []
    for number, line in lines:
        if line.strip() and paragraph and not paragraph[-1][1].strip():
            yield paragraph
            paragraph = []
        paragraph.append((number, line))
    if paragraph:
        yield paragraph


def _line_parts(line: str) -> Iterable[str]:
    while len(line) > MAX_PASSAGE_CHARS:
        cut = line.rfind(" ", 0, MAX_PASSAGE_CHARS + 1)
        if cut <= 0:
            cut = MAX_PASSAGE_CHARS
        yield line[:cut]
        line = line[cut:].lstrip(" ")
    yield line


def _only_markup(lines: list[tuple[int, str]]) -> bool:
    """Whether the lines hold only HTML comments and lines that are one HTML element."""
    text = _HTML_COMMENT.sub("", "\n".join(line for _, line in lines))
    for line in text.splitlines():
        line = line.strip()
        if line and not (line.startswith("<") and line.endswith(">")):
            return False
    return True


def _trimmed(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    start, end = 0, len(lines)
    while start < end and not lines[start][1].strip():
        start += 1
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    return lines[start:end]


def _length(lines: list[tuple[int, str]]) -> int:
    """Characters of the lines joined by newlines and stripped, as a passage keeps them."""
    return len("\n".join(line for _, line in lines).strip())
