"""The pure parts of hybrid retrieval: the pieces a passage is embedded as, and the fusion
of several rankings into one.

A sentence-embedding model reads a few hundred tokens at most and blurs a long text into
one average, so a passage is embedded as pieces of at most `max_chars` characters of its
text, each after the passage's title path, and is later scored by its best piece.

Rankings are fused by reciprocal rank fusion: a passage's score is the sum over the
rankings of `1 / (k + rank)` (rank 1 for the first place), so a passage found near the top
by both the lexical and the dense ranking beats one that only one of them puts first.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

PIECE_CHARS = 900
RRF_K = 60


def split_pieces(title: str, text: str, max_chars: int = PIECE_CHARS) -> list[str]:
    """The texts embedded for one passage: `title + "\\n" + chunk` per chunk of `text`.

    Each chunk is at most `max_chars` characters of `text`, cut at blank lines between
    paragraphs, else between lines, else between words, else anywhere; together the
    chunks hold every non-blank character of `text` in order. A passage with no text is
    one piece, its title.
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    chunks = list(_chunks(text.strip(), max_chars))
    if not chunks:
        return [title]
    return [f"{title}\n{chunk}" if title else chunk for chunk in chunks]


def _chunks(text: str, limit: int) -> Iterator[str]:
    if not text:
        return
    if len(text) <= limit:
        yield text
        return
    for separator in ("\n\n", "\n", " "):
        parts = [part.strip() for part in text.split(separator)]
        parts = [part for part in parts if part]
        if len(parts) > 1:
            yield from _packed(parts, separator, limit)
            return
    for start in range(0, len(text), limit):
        yield text[start : start + limit]


def _packed(parts: list[str], separator: str, limit: int) -> Iterator[str]:
    """Consecutive parts joined while they fit; a part too long alone is cut finer."""
    current = ""
    for part in parts:
        if len(part) > limit:
            if current:
                yield current
                current = ""
            yield from _chunks(part, limit)
        elif not current:
            current = part
        elif len(current) + len(separator) + len(part) <= limit:
            current = f"{current}{separator}{part}"
        else:
            yield current
            current = part
    if current:
        yield current


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[int]], k: int = RRF_K
) -> list[tuple[int, float]]:
    """Passage numbers with their fused scores, best first.

    A passage listed twice in one ranking counts at its first place there. Equal scores
    keep the order in which the passages first appear, reading the rankings in turn.
    """
    if k < 0:
        raise ValueError("k must not be negative")
    terms: dict[int, list[float]] = {}
    for ranking in rankings:
        seen: set[int] = set()
        for rank, passage in enumerate(ranking, start=1):
            if passage in seen:
                continue
            seen.add(passage)
            terms.setdefault(passage, []).append(1.0 / (k + rank))
    # fsum is exact before its one rounding, so equal rank sets give equal scores.
    scored = [(passage, math.fsum(values)) for passage, values in terms.items()]
    scored.sort(key=lambda item: -item[1])
    return scored
