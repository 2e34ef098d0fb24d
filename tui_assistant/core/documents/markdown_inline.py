"""Markdown markup that is not text: HTML comments, and inline marks in titles.

`without_comments` leaves HTML comments out of a line (a comment may span lines, so
the caller carries `in_comment` from one line to the next); `plain_inline` turns a
heading's Markdown into the words a reader sees (`[Install](url)` -> `Install`,
`` `fs.readFile` `` -> `fs.readFile`, `**Note**` -> `Note`). Both are pure and keep to
one line, so line numbers never shift.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

COMMENT_OPEN = "<!--"
COMMENT_CLOSE = "-->"

# A heading without any of these characters has no markup to take away.
_MARKUP_CHARACTER = re.compile(r"[\\`*_\[\]<>&!~]")
CODE_SPAN = re.compile(r"(`+)(?:.*?[^`])?\1(?!`)")


def without_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    """`line` without its HTML comments, and whether a comment is still open after it.

    A `<!--` inside a code span (`` `<!-- like this -->` ``) is code, not a comment.
    """
    if not in_comment and COMMENT_OPEN not in line:
        return line, False
    parts: list[str] = []
    position = 0
    while position <= len(line):
        if in_comment:
            end = line.find(COMMENT_CLOSE, position)
            if end < 0:
                return "".join(parts), True
            position, in_comment = end + len(COMMENT_CLOSE), False
            continue
        start = _comment_start(line, position)
        if start < 0:
            parts.append(line[position:])
            break
        parts.append(line[position:start])
        position, in_comment = start + len(COMMENT_OPEN), True
    return "".join(parts), in_comment


def _comment_start(line: str, position: int) -> int:
    """Where the next `<!--` outside a code span starts, or -1."""
    while True:
        start = line.find(COMMENT_OPEN, position)
        if start < 0:
            return -1
        span = next(
            (m for m in CODE_SPAN.finditer(line, position) if m.start() < start < m.end()),
            None,
        )
        if span is None:
            return start
        position = span.end()


def plain_inline(text: str) -> str:
    """One line of Markdown as the plain words it renders to: link and image text
    without their URLs, code spans as their code, no emphasis marks, no HTML tags,
    entities and backslash escapes resolved."""
    if not _MARKUP_CHARACTER.search(text):
        return text
    return _rendered_plain(text)


@lru_cache(maxsize=4096)
def _rendered_plain(text: str) -> str:
    parts: list[str] = []
    for token in _parser().parseInline(text):
        _collect(token.children or [], parts)
    return "".join(parts)


def _collect(tokens: list[Token], parts: list[str]) -> None:
    for token in tokens:
        if token.type in ("text", "code_inline"):
            parts.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif token.type == "image":
            _collect(token.children or [], parts)  # its alt text
        # Everything else is a mark around text (emphasis, links) or HTML: no words.


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("strikethrough")
