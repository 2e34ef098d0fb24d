"""Untrusted text (documents, model answers, questions) made safe to put on screen.

`Content(text)` never interprets markup, so `[bold]`, `[@click=app.quit]` and a stray
`[/` show as typed; `clean_display_text` removes the escape sequences and control
characters that `Content` would otherwise pass to the terminal. `readable_markdown`
prepares Markdown for Textual's `Markdown` widget, which shows Rich markup literally.
"""

from __future__ import annotations

import re

from textual.content import Content

from tui_assistant.core.markup import COMMENT_OPEN, without_comments
from tui_assistant.core.passages import document_kind
from tui_assistant.core.text import clean_display_text
from tui_assistant.core.text import one_line as one_line  # the widgets' import of it

ELLIPSIS = "\u2026"
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
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
            found = _FENCE.match(line)
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


def readable_source(text: str, source_path: str) -> str:
    """A passage's text as the Markdown view should get it. reStructuredText section
    titles inside the passage (levels below the passage's own) become Markdown headings,
    since an underline such as `~~~~` would open a code block there; each adornment
    line becomes an empty line, so line `n` of the result is still line `n` of the text."""
    if document_kind(source_path) != "rst":
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
    """`path` + `suffix` in at most `width` cells, the path shortened from the left
    (whole folders first: `…/api/crypto.md:1538–1653`); the suffix is never cut
    unless it alone is wider than `width`."""
    whole = path + suffix
    if len(whole) <= width or width <= 0:
        return whole
    room = width - len(suffix) - 1  # one cell for the ellipsis
    if room <= 0:
        return (ELLIPSIS + whole[-(width - 1) :]) if width > 1 else ELLIPSIS
    parts = path.split("/")
    for start in range(1, len(parts)):
        tail = "/" + "/".join(parts[start:])
        if len(tail) <= room:
            return ELLIPSIS + tail + suffix
    return ELLIPSIS + path[-room:] + suffix
