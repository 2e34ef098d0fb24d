"""The citation check: a model answer is accepted only if it cites the passages it was sent.

Pure and total: any string in, a `CitationCheck` out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

MAX_ANSWER_CHARS = 16_000

# Anything between `[source:` and `]` is a marker, so an invented or malformed id is
# still seen (and rejected) rather than ignored.
CITATION_MARKER = re.compile(r"\[\s*source\s*:\s*([^\]\n]*?)\s*\]", re.IGNORECASE)

NOT_GIVEN = "cites a passage it was not sent"


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """The verdict; `cited_ids` are the ids an accepted answer cites (distinct, in the
    order they first appear), empty when refused."""

    accepted: bool
    cited_ids: tuple[str, ...] = ()
    problem: str | None = None


def check_citations(answer: str, sent_ids: Iterable[str]) -> CitationCheck:
    """Accept `answer` only if it is non-blank, not too long, cites at least once, and
    every `[source:ID]` marker is spelled exactly so with ID one of `sent_ids`
    (case-sensitive). What the passages themselves say plays no part."""
    allowed = {sent_ids} if isinstance(sent_ids, str) else set(sent_ids)
    if not answer.strip():
        return CitationCheck(False, problem="blank answer")
    if len(answer) > MAX_ANSWER_CHARS:
        return CitationCheck(False, problem=f"answer longer than {MAX_ANSWER_CHARS:,} characters")
    markers = list(CITATION_MARKER.finditer(answer))
    if not markers:
        return CitationCheck(False, problem="no [source:ID] citation")
    for marker in markers:
        if marker.group(1) not in allowed or marker.group(0) != f"[source:{marker.group(1)}]":
            return CitationCheck(False, problem=NOT_GIVEN)
    return CitationCheck(True, tuple(dict.fromkeys(marker.group(1) for marker in markers)))


def cited_in(text: str) -> list[str]:
    """The ids of the markers in `text`, in order (repeats kept)."""
    return [marker.group(1) for marker in CITATION_MARKER.finditer(text)]


def strip_citations(answer: str) -> str:
    """The answer without its citation markers (for scoring sentences)."""
    return CITATION_MARKER.sub("", answer)
