"""The sentences of a passage that best match a question: where a long passage opens,
which sentences are marked in it, and the excerpt a possible passage is listed with.

A sentence matches by how many distinct keys of the question it holds (`normalise`:
content words, stemmed, so `boiling` meets `boil`); of equals the earlier sentence
wins, as a reader would meet it first. Sentences are the support check's
(`split_sentences`), read over the text with the line breaks inside a paragraph
flowed, so a sentence a file wraps over three lines is one sentence. Flowing keeps
every offset, so a sentence's span is a span of the text it was found in.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from tui_assistant.core.display_text import ELLIPSIS, one_line, shortened
from tui_assistant.core.documents.formats import format_of
from tui_assistant.core.documents.markdown_inline import plain_inline
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.retrieval.spelling import Spelling
from tui_assistant.core.sentences import sentence_spans
from tui_assistant.core.words import match_keys, normalise_distinct

# An excerpt's sentence is shortened to this many characters (a table or code run
# can read as one endless sentence).
MAX_SENTENCE_CHARS = 300

# A Markdown code fence: its marks in group 1.
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A line that starts a block of its own: a list item, a heading, a quote, a table row,
# a fence, a reStructuredText directive or comment.
_BLOCK_START = re.compile(r"^ {0,3}(?:[-*+\u2022]\s|\d+[.)]\s|#|>|\||`{3}|~{3}|\.\.\s)")
# A line that no other line joins: a heading or a table row.
_WHOLE_LINE = re.compile(r"^ {0,3}[#|]")
# A Markdown heading: a passage's title already shows it.
_HEADING = re.compile(r" {0,3}#{1,6}(?:\s|$)")
_INDENTED_CODE = re.compile(r"^(?: {4}|\t)")


@dataclass(frozen=True, slots=True)
class SentenceMatch:
    """One sentence of a text: its place among the text's sentences, its span, and how
    many of the question's distinct keys it holds."""

    index: int
    start: int
    end: int
    matched: int


def flowed(text: str) -> str:
    """`text` with the line breaks inside a paragraph turned into spaces, and nothing
    else changed (so every offset stays). A break stays where a block starts or ends:
    a blank line, a list item, a heading, a table row, a quote, a fenced or indented
    code block, a line that ends in a Markdown hard break."""
    lines = text.split("\n")
    code = _in_fences(lines)
    parts: list[str] = []
    for number, line in enumerate(lines):
        parts.append(line)
        if number < len(lines) - 1:
            joins = not code[number] and _joins(line, lines[number + 1])
            parts.append(" " if joins else "\n")
    return "".join(parts)


def _in_fences(lines: list[str]) -> list[bool]:
    """For each line, whether it belongs to a fenced code block (its fences included)."""
    inside: list[bool] = []
    fence: str | None = None
    for line in lines:
        opened = FENCE.match(line)
        inside.append(fence is not None or opened is not None)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
        elif opened:
            fence = opened.group(1)
    return inside


def _joins(line: str, following: str) -> bool:
    """Whether `following` goes on the paragraph (or list item) that `line` is in."""
    return (
        bool(line.strip() and following.strip())
        and not _WHOLE_LINE.match(line)
        and not _BLOCK_START.match(following)
        and not line.endswith(("  ", "\\"))
        and not (_INDENTED_CODE.match(line) and _INDENTED_CODE.match(following))
    )


def matching_sentences(text: str, keys: Collection[str]) -> list[SentenceMatch]:
    """The sentences of `text` that hold any of `keys` (match keys, as `normalise`
    gives), best first: most distinct keys, then the earlier. Headings are left out:
    a passage's title holds them. A key `text` lacks counts as its key one typing slip
    away, as retrieval reads it (`Spelling`: "cahnge" matches "change")."""
    wanted = frozenset(keys)
    if not wanted:
        return []
    held = Counter(match_keys(text))
    missing = [key for key in wanted if key not in held]
    if missing:
        spelling = Spelling(held)
        respelt = (spelling.correct(key, held.__getitem__) for key in missing)
        wanted = wanted | {key for key in respelt if key is not None}
    found = [
        SentenceMatch(index, start, end, len(normalise_distinct(text[start:end]) & wanted))
        for index, start, end in _sentences(text)
    ]
    found = [match for match in found if match.matched]
    found.sort(key=lambda match: (-match.matched, match.index))
    return found


def excerpt(text: str, keys: Collection[str], count: int = 2) -> str:
    """The `count` sentences of `text` that best match `keys`, in the text's order, on
    one line (`…` between sentences that do not follow each other in a paragraph);
    the first sentence when none matches; "" for a text with no sentence."""
    best = sorted(matching_sentences(text, keys)[:count], key=lambda match: match.index)
    if not best:
        best = [SentenceMatch(*sentence, 0) for sentence in _sentences(text)[:1]]
    flow = flowed(text)
    shown: list[str] = []
    for number, match in enumerate(best):
        before = best[number - 1] if number else None
        if before is not None and (
            match.index != before.index + 1 or "\n" in flow[before.end : match.start]
        ):
            shown.append(ELLIPSIS)
        shown.append(shortened(one_line(text[match.start : match.end]), MAX_SENTENCE_CHARS))
    return " ".join(shown)


def _sentences(text: str) -> list[tuple[int, int, int]]:
    """(index, start, end) of each sentence of `text` that a reader reads as prose:
    not a heading, not code in a fence. Found over the flowed text with its code and
    headings blanked (offsets kept), so a fence line, which has no word of its own,
    never joins the sentence before it as a trailing mark would."""
    lines = flowed(text).split("\n")
    code = _in_fences(lines)
    prose = "\n".join(
        " " * len(line) if code[number] or _HEADING.match(line) else line
        for number, line in enumerate(lines)
    )
    return [(index, start, end) for index, (start, end) in enumerate(sentence_spans(prose))]


def prose_sentences(text: str) -> list[str]:
    """The sentences of `text` as a reader reads them: lines a file wraps inside a
    paragraph joined (each sentence on one line, whitespace runs made one space), fenced
    code and headings left out."""
    flow = flowed(text)
    return [" ".join(flow[start:end].split()) for _, start, end in _sentences(text)]


def passage_excerpt(passage: Passage, keys: Collection[str], count: int = 2) -> str:
    """`excerpt` of a passage's text, as plain words: a Markdown passage's sentences
    without their marks (link text without its URL, code without backticks)."""
    shown = excerpt(passage.text, keys, count)
    format = format_of(passage.source_path)
    return plain_inline(shown) if format is not None and format.inline_markdown else shown
