"""Untrusted text (documents, model answers, questions) made safe to put on screen.

`Content(text)` never interprets markup, so `[bold]`, `[@click=app.quit]` and a stray
`[/` show as typed; `clean_display_text` removes the escape sequences and control
characters that `Content` would otherwise pass to the terminal. `readable_markdown`
prepares Markdown for Textual's `Markdown` widget, which shows Rich markup literally.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import cell_len
from textual.content import Content

from tui_assistant.core.display_text import ELLIPSIS, clean_display_text
from tui_assistant.core.display_text import one_line as one_line  # the widgets' import of it
from tui_assistant.core.documents.formats import FALLBACK, format_of
from tui_assistant.core.documents.markdown_inline import COMMENT_OPEN, without_comments
from tui_assistant.core.excerpt import FENCE

_LINE_RANGE = re.compile(r"(?::| p\. )\d+(?:\u2013\d+)?$")  # `:12–40`, a PDF's ` p. 3–4`
# A reStructuredText title adornment: one punctuation character repeated, from column 0.
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")


def literal(text: str, style: str = "") -> Content:
    """Cleaned text as Content, shown exactly as written (optionally in one style)."""
    content = Content(clean_display_text(text))
    return content.stylize(style) if style else content


def readable_markdown(text: str) -> str:
    """Markdown to render: escape sequences and control characters removed, and HTML
    comments (`<!-- YAML added: v0.1.92 -->`, maintainers' notes) left out outside
    code fences. Every line break is kept, so line `n` of the result is line `n` of
    the text (quoted lines are found by number)."""
    text = clean_display_text(text)
    if COMMENT_OPEN not in text:
        return text
    kept: list[str] = []
    fence: str | None = None
    in_comment = False
    for line in text.split("\n"):
        if not in_comment:
            found = FENCE.match(line)
            if fence is not None:
                if found and found.group(1).startswith(fence):
                    fence = None
                kept.append(line)
                continue
            if found:
                fence = found.group(1)
                kept.append(line)
                continue
        shown, in_comment = without_comments(line, in_comment)
        # A line that held only a comment stays as an empty line, not spaces.
        kept.append(shown if shown.strip() or not line.strip() else "")
    return "\n".join(kept)


_INLINE_MARKS = re.compile(r"([\\`*_\[\]<])")
_LINE_START_MARKS = re.compile(r"^(\s{0,3})([#>+=|-])")
_LIST_NUMBER = re.compile(r"^(\s{0,3}\d+)([.)])")


def _literal_line(line: str) -> str:
    """One line of plain text that the Markdown view shows as written: the characters
    Markdown would read as emphasis, code, links, headings, quotes or lists escaped (an
    indented line is code there already, and shown as it is)."""
    if line.startswith("    ") or line.startswith("\t"):
        return line
    line = _INLINE_MARKS.sub(r"\\\1", line)
    line = _LINE_START_MARKS.sub(r"\1\\\2", line)
    return _LIST_NUMBER.sub(r"\1\\\2", line)


def readable_source(text: str, source_path: str) -> str:
    """A passage's text as the Markdown view should get it, as its file's format says
    (`shown_as`; a file of no format as Markdown): text shown as written has every
    Markdown mark escaped. Section titles inside the passage that stand above an
    underline (reStructuredText, levels below the passage's own) become Markdown
    headings, since an underline such as `~~~~` would open a code block there; each
    adornment line becomes an empty line, so line `n` of the result is still line `n`
    of the text."""
    format = format_of(source_path) or FALLBACK
    if format.shown_as == "literal":
        return "\n".join(map(_literal_line, text.split("\n")))
    if not format.underlined_titles:
        return text
    lines = text.split("\n")
    for index in range(1, len(lines)):
        underline, title = lines[index].rstrip(), lines[index - 1].rstrip()
        if (
            _ADORNMENT.match(underline)
            and title.strip()
            and not title[0].isspace()
            and not _ADORNMENT.match(title)
            and len(underline) >= len(title)
        ):
            lines[index - 1], lines[index] = f"#### {title}", ""
            if index >= 2 and lines[index - 2].rstrip() == underline:
                lines[index - 2] = ""  # its overline
    return "\n".join(lines)


def shorten_left(path: str, suffix: str, width: int) -> str:
    """`path` + `suffix` in at most `width` cells, the path shortened by whole folders:
    its middle first while its first folder and its file fit (`nodejs/…/crypto.md:1538–1653`),
    then from the left (`…/api/crypto.md:1538–1653`); the suffix is never cut unless it
    alone is wider than `width`."""
    whole = path + suffix
    if cell_len(whole) <= width or width <= 0:
        return whole
    room = width - cell_len(suffix) - 1  # one cell for the ellipsis
    if room <= 0:
        return (ELLIPSIS + _last_cells(whole, width - 1)) if width > 1 else ELLIPSIS
    parts = path.split("/")
    # The first folder names the library (`21.3/…`, `packaging/…`) when several are
    # searched together: kept before any middle folder while the file still fits.
    for start in range(2, len(parts)):
        kept_head = f"{parts[0]}/{ELLIPSIS}/" + "/".join(parts[start:]) + suffix
        if cell_len(kept_head) <= width:
            return kept_head
    for start in range(1, len(parts)):
        tail = "/" + "/".join(parts[start:])
        if cell_len(tail) <= room:
            return ELLIPSIS + tail + suffix
    return ELLIPSIS + _last_cells(path, room) + suffix


def cut_right(text: str, width: int) -> str:
    """`text` in at most `width` terminal cells, cut at the end with `…` when it is wider
    (`display_text.shortened` counts characters, for text that is not laid out)."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    return _first_cells(text, width - 1) + ELLIPSIS


def _first_cells(text: str, width: int) -> str:
    """The longest start of `text` that fits in `width` cells (wide characters whole)."""
    used = 0
    for position, character in enumerate(text):
        used += cell_len(character)
        if used > width:
            return text[:position]
    return text


def _last_cells(text: str, width: int) -> str:
    """The longest end of `text` that fits in `width` cells (wide characters whole)."""
    return _first_cells(text[::-1], width)[::-1]


def split_location(location: str) -> tuple[str, str]:
    """`docs/a.md:12–40` as (`docs/a.md`, `:12–40`), `docs/b.pdf p. 3` as (`docs/b.pdf`,
    ` p. 3`), so the path alone is shortened."""
    found = _LINE_RANGE.search(location)
    return (location[: found.start()], found.group()) if found else (location, "")


def flow_items(
    label: str, items: Sequence[tuple[str, str]], width: int, separator: str = ", "
) -> list[str]:
    """`label` then `items` (each a path and a suffix) on lines of at most `width`
    cells, never breaking an item: one that does not fit where the line stands starts
    the next line (indented two cells), and one wider than a whole line is shortened
    from the left (`shorten_left`), leaving room for the separator after it; the first
    item stays beside the label when it has to be shortened anyway."""
    indent = "  " if label else ""
    ending = separator.rstrip()  # what ends a line when the next item goes below
    lines: list[str] = []
    line = label
    fresh = True  # nothing but the label (or the indent) on the line yet
    for number, (path, suffix) in enumerate(items):
        after = cell_len(ending) if number < len(items) - 1 else 0
        joint = "" if fresh else separator
        whole = cell_len(path + suffix) + after
        # Shortened anyway: after the label, rather than on a line of its own.
        if cell_len(line + joint) + whole <= width or (fresh and whole > width - len(indent)):
            line += joint + shorten_left(path, suffix, width - cell_len(line + joint) - after)
        else:
            lines.append(line.rstrip() if fresh else line + ending)
            line = indent + shorten_left(path, suffix, width - cell_len(indent) - after)
        fresh = False
    lines.append(line)
    return lines
