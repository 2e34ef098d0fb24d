"""Text split into sentences, each an exact substring of it: the one sentence splitter
of the checks (support, quotes), the excerpts and the prompt."""

from __future__ import annotations

import re

from tui_assistant.core.checks.citations import strip_citations
from tui_assistant.core.checks.normalise import quoted_strings

# A sentence ends at . ! or ? (plus closing quotes or brackets) followed by whitespace.
_SENTENCE_END = re.compile(r"[.!?][\"'”\u2019)\]]*(?=\s)")
_ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "approx.", "cf.", "etc.")
# A list bullet or numbered-list marker at the start of a line is not part of the sentence.
_LIST_MARKER = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|#+)\s+")

_WORD_CHARACTER = re.compile(r"[^\W_]")


def split_sentences(answer: str) -> list[str]:
    """The sentences of `answer`, each an exact substring of it, in order.

    Lines are split at sentence ends; a line break always ends a sentence (list items),
    a list marker is left out, and a quoted string is never split. A citation marker
    that follows a sentence's full stop ("... boil. [source:id]") belongs to it.
    """
    return [answer[start:end] for start, end in sentence_spans(answer)]


def sentence_spans(answer: str) -> list[tuple[int, int]]:
    """Where each of `split_sentences(answer)` stands in `answer`: (start, end) offsets."""
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in answer.splitlines(keepends=True):
        marker = _LIST_MARKER.match(line)
        start = marker.end() if marker else 0
        inside_quotes = [(quoted.start, quoted.end) for quoted in quoted_strings(line)]
        for end_match in _SENTENCE_END.finditer(line, start):
            end = end_match.end()
            if any(left < end < right for left, right in inside_quotes):
                continue
            if line[start:end].casefold().endswith(_ABBREVIATIONS):
                continue
            _add_span(spans, answer, offset + start, offset + end)
            start = end
        _add_span(spans, answer, offset + start, offset + len(line))
        offset += len(line)
    return spans


def _add_span(spans: list[tuple[int, int]], answer: str, start: int, end: int) -> None:
    """Add the stripped span, or join a lone citation marker to the sentence before it."""
    text = answer[start:end]
    if not text.strip():
        return
    start += len(text) - len(text.lstrip())
    end -= len(text) - len(text.rstrip())
    if spans and not _WORD_CHARACTER.search(strip_citations(answer[start:end])):
        spans[-1] = (spans[-1][0], end)
    else:
        spans.append((start, end))
