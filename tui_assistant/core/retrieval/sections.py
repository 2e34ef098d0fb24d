"""Telling a section from its neighbours: the fused ranking's first places, ordered again.

Most wrong first passages are another section of the right document: an overview next to
its detail, a document's opening beside the section a question is about. The fused
ranking's first `RERANK_DEPTH` places are ordered again by a weighted sum of what tells
them apart (`section_features`): how much of the question's words each holds, how close
each is in meaning against the others, and whether it opens its document (an opening
summarises the whole document, so it is near many questions without answering them).
The weights are fitted with the confidence models (`fitted.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tui_assistant.core.library.library import Library

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from tui_assistant.core.retrieval.ranked import Ranking

# The fused ranking's places that are ordered again.
RERANK_DEPTH = 10

SECTION_FEATURES = ("word_score", "word_share", "meaning", "opening")


@dataclass(frozen=True, slots=True)
class SectionWeights:
    """The weight of each of `section_features`' numbers in a passage's score."""

    word_score: float
    word_share: float
    meaning: float
    opening: float

    def score(self, features: Sequence[float]) -> float:
        weights = (self.word_score, self.word_share, self.meaning, self.opening)
        return math.fsum(weight * value for weight, value in zip(weights, features, strict=True))


def opening_passages(library: Library) -> frozenset[int]:
    """The passage numbers that open their document (its first passage)."""
    first_positions = {document.first for document in library.documents if document.count}
    return frozenset(
        number for number, position in enumerate(library.positions) if position in first_positions
    )


def section_features(
    numbers: Sequence[int],
    similarities: NDArray[np.float32],
    ranking: Ranking | None,
    openings: frozenset[int],
) -> list[tuple[float, float, float, float]]:
    """Per passage, what `SectionWeights` weighs: its word score over the best word
    score, the share of the question's word weight it matches, its cosine below the best
    cosine in spreads of the question's cosines over the library, and whether it opens
    its document. Spreads of the question's own cosines make the third the same for any
    model whose cosines are another's shifted and scaled."""
    with_pieces = similarities[similarities > -1.0]
    best_cosine = float(with_pieces.max()) if with_pieces.size else 0.0
    spread = float(with_pieces.std()) if with_pieces.size else 0.0
    top_word = max(ranking.scores.values()) if ranking is not None and ranking.scores else 0.0
    rows = []
    for number in numbers:
        cosine = float(similarities[number])
        word = ranking.scores.get(number, 0.0) if ranking is not None else 0.0
        rows.append(
            (
                word / top_word if top_word > 0 else 0.0,
                ranking.share_of(number) if ranking is not None else 0.0,
                (cosine - best_cosine) / spread if spread > 0 else 0.0,
                float(number in openings),
            )
        )
    return rows


def order_sections(
    numbers: Sequence[int],
    similarities: NDArray[np.float32],
    ranking: Ranking | None,
    openings: frozenset[int],
    weights: SectionWeights,
) -> tuple[list[int], float]:
    """`numbers` by their section score, best first (equal scores keep their order), and
    the best score's lead over the next (1.0 with one passage)."""
    features = section_features(numbers, similarities, ranking, openings)
    scores = [weights.score(row) for row in features]
    places = sorted(range(len(numbers)), key=lambda place: -scores[place])
    lead = scores[places[0]] - scores[places[1]] if len(places) > 1 else 1.0
    return [numbers[place] for place in places], lead
