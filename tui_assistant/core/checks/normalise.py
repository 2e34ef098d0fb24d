"""What the answer checks compare: the one quote grammar of answers, and the one reading of
"the same text" that every check (quote, support, draft) applies to both sides.

Normalised, text loses what a writer may change without changing the words: case, runs
of whitespace, quote characters (straight and curly, single and double are all one),
dashes, and Markdown markup (emphasis `*` `_`, backticks, `[text](url)` read as its
text, heading `#`s, list bullets, `>` of block quotes, HTML comments). Nothing else is
forgiven: no ellipsis joining two pieces, no changed word.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# The one quote grammar of answers (the quote check and the support check): text on one
# line between straight double quotes `"..."`, curly double quotes `“...”` or guillemets
# `«...»`. Single quotes, straight or curly, are left out: they are far more often
# apostrophes. Backticks mark code, not quotation.
# Marks with nothing between them pair up too, so `"" and "x"` reads as two quotes.
_QUOTED = re.compile(r'"([^"\n]*)"|“([^”\n]*)”|«([^»\n]*)»')

# Punctuation at a quote's edges is the writer's, not the source's.
EDGE_PUNCTUATION = " \t.,;:!?…"

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")
_LINE_MARKUP = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:#{1,6}[ \t]+|[-*+•][ \t]+|\d+[.)][ \t]+)?", re.M)
_EMPHASIS = frozenset("*_`")
_SAME = str.maketrans(
    {
        # Straight, curly, low, reversed and prime quote marks, single and double.
        **dict.fromkeys(
            '"\u201c\u201d\u201e\u201f\u00ab\u00bb\u2018\u2019\u201a\u201b\u2032\u2033', "'"
        ),
        # Hyphen, non-breaking hyphen, figure, en, em and bar dashes, minus sign.
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
        "…": "...",
    }
)


@dataclass(frozen=True, slots=True)
class Quoted:
    """One quoted string of a text: where it stands (its marks included) and its words."""

    start: int
    end: int
    inner: str

    @property
    def words(self) -> str:
        """What it quotes: its text without the writer's punctuation at the edges."""
        return self.inner.strip(EDGE_PUNCTUATION)


def quoted_strings(text: str) -> Iterator[Quoted]:
    """The quoted strings of `text`, in order, by the one quote grammar above."""
    for match in _QUOTED.finditer(text):
        inner = next(group for group in match.groups() if group is not None)
        yield Quoted(match.start(), match.end(), inner)


def flat(text: str) -> str:
    """`text` normalised as the module docstring says: what every check compares."""
    return flatten(text)[0]


def flatten(text: str) -> tuple[str, list[int]]:
    """`text` normalised (`flat`), and for each character of the result the index in
    `text` it comes from (so a quote found in a passage maps back to its lines)."""
    dropped = bytearray(len(text))

    def drop(start: int, end: int) -> None:
        dropped[start:end] = b"\x01" * (end - start)

    for match in _HTML_COMMENT.finditer(text):
        drop(*match.span())
    for match in _LINK.finditer(text):
        drop(match.start(), match.start(1))
        drop(match.end(1), match.end())
    for match in _LINE_MARKUP.finditer(text):
        drop(*match.span())
    flattened: list[str] = []
    origin: list[int] = []
    for index, character in enumerate(text):
        if dropped[index] or character in _EMPHASIS:
            continue
        if character.isspace():
            if flattened and flattened[-1] != " ":
                flattened.append(" ")
                origin.append(index)
            continue
        for piece in character.translate(_SAME).casefold():
            flattened.append(piece)
            origin.append(index)
    if flattened and flattened[-1] == " ":
        flattened.pop()
        origin.pop()
    return "".join(flattened), origin
