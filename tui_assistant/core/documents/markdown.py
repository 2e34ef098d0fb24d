"""Markdown documents: front matter, headings and HTML comments.

- a leading YAML front-matter block (`---` ... `---` or `...`), or a leading HTML
  comment holding `title:` lines (`<!--` / `title: ...` / `description: ...` / `-->`),
  gives the document title and is never part of any passage;
- headings of every level (`#` to `######`) outside fenced code blocks start a new
  section (one with no text of its own makes no passage), but a section of levels 1-3
  that fits one passage stays whole, its deeper headings lines of its text
  (`passage.whole_while_fitting`); text before the first heading belongs to a section
  titled with the document title (unless it is only HTML, such as a banner);
- MyST `{index}` directives give their terms to the passage their next text is in;
- HTML comments outside code are not text: they are left out of every passage, a
  section holding only comments makes none, and a heading inside a comment is none;
- heading texts are plain (`markup.plain_inline`): `### [Read this](https://...)` is
  titled `Read this`;
- MyST's roles, labels and directives (`myst.py`) and the containers, admonitions,
  tabs, alerts and components documentation sites write (`site_markdown.py`) read as
  the page shows them, line for line, before headings are found.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from tui_assistant.core.display_text import clean_display_text
from tui_assistant.core.documents import myst, site_markdown
from tui_assistant.core.documents.book_index import with_index_terms
from tui_assistant.core.documents.markdown_inline import (
    COMMENT_CLOSE,
    COMMENT_OPEN,
    plain_inline,
    without_comments,
)
from tui_assistant.core.documents.markdown_text import shown_lines
from tui_assistant.core.documents.passage import (
    Document,
    HeadingPath,
    Lines,
    Section,
    document_from_sections,
    file_lines,
    file_title,
    keeping_ids,
    whole_while_fitting,
)

DEEPEST = 6
# Splitting at the first three levels only gave the ids that passages keep.
EARLIER_DEEPEST = 3
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_FRONT_MATTER_END = frozenset({"---", "..."})
_TITLE_KEY = re.compile(r"^[ \t]*title[ \t]*:[ \t]*(.*?)[ \t]*$")
_KEY_LINE = re.compile(r"^[ \t]*[A-Za-z][\w-]*[ \t]*:")


def split_markdown(relative_path: str, text: str, name_title: str | None = None) -> Document:
    """The title and passages of one Markdown document (`text` already decoded);
    `name_title` is its title when the text gives none (`passage.file_title`)."""
    lines = file_lines(text)
    title, body_start = _front_matter_title(lines)
    rewritten = myst.rewrite(lines, body_start)
    lines = site_markdown.rewrite(rewritten.lines, body_start)
    deep = _read_sections(lines, body_start, DEEPEST)
    level_one_title = None
    if title is None:
        title = level_one_title = _heading_title(deep)
    if title is None:
        title = file_title(relative_path, name_title)
    if any(section.level > EARLIER_DEEPEST for section in deep):
        earlier = _read_sections(lines, body_start, EARLIER_DEEPEST)
        sections = whole_while_fitting(earlier, deep)
        document = document_from_sections(title, level_one_title, sections)
        document = keeping_ids(document, document_from_sections(title, level_one_title, earlier))
    else:
        document = document_from_sections(title, level_one_title, deep)
    passages = document.passages
    if rewritten.index:
        passages = tuple(with_index_terms(passages, rewritten.index))
    return replace(document, passages=passages, pending=tuple(rewritten.pending))


def _read_sections(lines: list[str], start: int, deepest: int) -> list[Section]:
    """The sections split at headings down to level `deepest`, their lines as shown."""
    fences: dict[int, int] = {}
    sections = [
        section
        for section in _sections(lines, start, fences, deepest)
        # A banner or a maintainers' note before the first heading is not a passage.
        if section.heading_line is not None or not _only_markup(section.lines)
    ]
    for section in sections:
        section.lines = shown_lines(section.lines, fences)
    return sections


def _heading_title(sections: list[Section]) -> str | None:
    """The heading that names the document: its first level-1 heading."""
    level_one = next((section for section in sections if section.level == 1), None)
    return level_one.path[-1] if level_one is not None else None


def _front_matter_title(lines: list[str]) -> tuple[str | None, int]:
    """The front matter's `title:` (or None), and the index of the first line after it.

    An HTML-comment front matter stays in the text (comments are never shown), so its
    end is not reported: the comment rules leave it out.
    """
    if lines and lines[0].rstrip() == "---":
        for index in range(1, len(lines)):
            if lines[index].rstrip() in _FRONT_MATTER_END:
                return _title_in(lines[1:index]), index + 1
        return None, 0  # never closed: not front matter
    return _comment_front_matter_title(lines), 0


def _comment_front_matter_title(lines: list[str]) -> str | None:
    """The `title:` of a leading HTML comment made of `key: value` lines, if any."""
    start = next((index for index, line in enumerate(lines) if line.strip()), None)
    if start is None or lines[start].strip() != COMMENT_OPEN:
        return None
    inside: list[str] = []
    for line in lines[start + 1 :]:
        if line.strip() == COMMENT_CLOSE:
            return _title_in(inside) if any(map(_KEY_LINE.match, inside)) else None
        if COMMENT_CLOSE in line:
            return None  # a comment that closes mid-line is a note, not front matter
        inside.append(line)
    return None


def _title_in(lines: list[str]) -> str | None:
    for line in lines:
        found = _TITLE_KEY.match(line)
        if found:
            return _heading_text(_unquote(found.group(1)))
    return None


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _heading_text(raw: str) -> str | None:
    """A heading's visible text, plain, or None when nothing visible is left."""
    text = _CLOSING_HASHES.sub("", raw.strip()).strip()
    text = " ".join(clean_display_text(plain_inline(text)).split())
    return text or None


def _sections(
    lines: list[str], start: int, fences: dict[int, int], deepest: int
) -> Iterator[Section]:
    """The document's sections in order: headings outside code fences
    and comments, with comments left out of the text (their lines stay, emptied, so
    line numbers hold). `fences` gets the first and last line of each code fence."""
    section = Section(heading_line=None, level=0, path=())
    headings = HeadingPath()
    fence: str | None = None
    fence_start = 0
    in_comment = False
    for index in range(start, len(lines)):
        line = lines[index]
        number = index + 1
        if fence is not None:
            found = _FENCE.match(line)
            if found and found.group(1).startswith(fence) and not found.group(2).strip():
                fence = None
                fences[fence_start] = number
            section.lines.append((number, line))
            continue
        inside_comment = in_comment
        shown, in_comment = without_comments(line, in_comment)
        if shown != line and (inside_comment or not shown.strip()):
            # What a comment held or hid is no fence and no heading.
            section.lines.append((number, shown if shown.strip() else ""))
            continue
        line = shown
        found = _FENCE.match(line)
        if found and not (found.group(1)[0] == "`" and "`" in found.group(2)):
            fence = found.group(1)
            fence_start = number
            fences[number] = len(lines)  # until it is closed: to the end
            section.lines.append((number, line))
            continue
        heading = _HEADING.match(line)
        text = _heading_text(heading.group(2) or "") if heading else None
        if heading is None or text is None or len(heading.group(1)) > deepest:
            if heading is not None and len(heading.group(1)) > EARLIER_DEEPEST:
                section.breaks.add(number)  # a long section is cut there first
            section.lines.append((number, line))
            continue
        yield section
        level = len(heading.group(1))
        path = headings.enter(level, text)
        section = Section(heading_line=number, level=level, path=path, heading=(number, text))
    yield section


def _only_markup(lines: Lines) -> bool:
    """Whether the lines (comments already left out) hold only lines that are one HTML
    element each."""
    for _, line in lines:
        line = line.strip()
        if line and not (line.startswith("<") and line.endswith(">")):
            return False
    return True
