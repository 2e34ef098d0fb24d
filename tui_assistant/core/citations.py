"""The citation check: a model answer is accepted only if it cites exactly the evidence.

Pure and total: any string in, a `CitationCheck` out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_ANSWER_CHARS = 16_000

# Anything between `[source:` and `]` is a marker, so an invented or malformed id is
# still seen (and rejected) rather than ignored.
CITATION_MARKER = re.compile(r"\[\s*source\s*:\s*([^\]\n]*?)\s*\]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CitationCheck:
    accepted: bool
    cited_ids: tuple[str, ...]
    problem: str | None = None


def check_citations(answer: str, evidence_id: str) -> CitationCheck:
    """Accept `answer` only if it is non-blank, not too long, cites at least once, and
    every `[source:ID]` marker names `evidence_id` exactly (case-sensitive)."""
    if not answer.strip():
        return CitationCheck(False, (), "blank answer")
    if len(answer) > MAX_ANSWER_CHARS:
        return CitationCheck(False, (), f"answer longer than {MAX_ANSWER_CHARS:,} characters")
    markers = list(CITATION_MARKER.finditer(answer))
    if not markers:
        return CitationCheck(False, (), "no [source:ID] citation")
    cited = tuple(marker.group(1) for marker in markers)
    exact = f"[source:{evidence_id}]"
    if any(marker.group(0) != exact for marker in markers):
        return CitationCheck(False, cited, "cites a source it was not given")
    return CitationCheck(True, tuple(dict.fromkeys(cited)))


def strip_citations(answer: str) -> str:
    """The answer without its citation markers (for scoring sentences)."""
    return CITATION_MARKER.sub("", answer)
