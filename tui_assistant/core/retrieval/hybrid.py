"""Hybrid retrieval: the lexical ranking and a sentence-embedding ranking, fused.

`TUI_ASSISTANT_RETRIEVAL=hybrid`. The lexical side is `ranked` (BM25F) without its
refusal; the dense side scores each passage by the cosine similarity of its best piece
to the question. The two rankings are fused by reciprocal rank fusion
(`core.fusion`). How sure the result is comes from `core.confidence`: whether both
rankings put the same passage first, its cosine similarity and its lead over the next
passage, its word score's lead, the share of the question's words it matches, and where
each ranking puts the other's best. A BM25 score means nothing from one library to the
next; these signals, fitted across the development sets together, carried over to a set
left out of the fit (docs/retrieval.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.confidence import (
    CLOSE_COSINE_GAP,
    HYBRID_MODEL,
    Assessment,
    ConfidenceModel,
    Signals,
    assess,
    conclude,
)
from tui_assistant.core.retrieval.dense import DenseIndex, PassageVectors
from tui_assistant.core.retrieval.fusion import RRF_K, reciprocal_rank_fusion
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.keyword import holds
from tui_assistant.core.retrieval.ranked import RankedRetriever, Ranking
from tui_assistant.core.retrieval.types import (
    NEAREST_SHOWN,
    Evidence,
    Mode,
    NoEvidence,
    Search,
    best_numbers,
    question_keys,
)
from tui_assistant.core.words import stem

if TYPE_CHECKING:
    from numpy.typing import NDArray

# How deep each ranking goes into the fusion.
FUSION_DEPTH = 50
# Cosine similarities this close are the same closeness in meaning (see `meaning_order`).
MEANING_TIE = 0.01
EmbedQuestion = Callable[[str], "NDArray[np.float32]"]


@dataclass(frozen=True)
class Fused:
    """One question's fused ranking (passage numbers, best first), every passage's
    cosine similarity, the word ranking it came from, and the best passage's signals."""

    order: list[int]
    similarities: NDArray[np.float32]
    agreed: bool
    ranking: Ranking | None
    signals: Signals
    # The best passage and the runner-up are equal in both rankings.
    tied: bool = False


class HybridRetriever:
    """BM25F and best-piece cosine similarity, fused; answers only when sure."""

    key: KeyFunction = staticmethod(stem)
    mode: Mode = "hybrid"

    def __init__(
        self,
        library: Library,
        vectors: PassageVectors,
        embed_question: EmbedQuestion,
        model: ConfidenceModel = HYBRID_MODEL,
        k: int = RRF_K,
    ) -> None:
        self.library = library
        self.lexical = RankedRetriever(library)
        self.dense = DenseIndex(vectors.matrix, vectors.passages)
        self.embed_question = embed_question
        self.model = model
        self.k = k

    def similarities(self, question: str) -> NDArray[np.float32]:
        """Every passage's best-piece cosine similarity to `question`, by number."""
        return self.dense.best_cosines(self.embed_question(question), len(self.library))

    def fused(self, question: str) -> Fused:
        """The fused ranking, every passage's cosine similarity, and the signals of the
        best fused passage."""
        similarities = self.similarities(question)
        depth = min(FUSION_DEPTH, len(similarities))
        dense = np.argpartition(-similarities, depth - 1)[:depth].tolist()
        ranking = self.lexical.rank(question)
        lexical_order = best_numbers(ranking.scores, FUSION_DEPTH) if ranking else []
        dense_order = meaning_order(dense, similarities, lexical_order)
        order = [
            number for number, _ in reciprocal_rank_fusion([lexical_order, dense_order], self.k)
        ]
        agreed = lexical_order[:1] == dense_order[:1] == order[:1]
        signals = fused_signals(order[0], similarities, dense_order, lexical_order, ranking)
        tied = len(order) > 1 and _same(order[0], order[1], similarities, ranking)
        return Fused(order, similarities, agreed, ranking, signals, tied)

    def assess(self, fused: Fused) -> Assessment:
        """The fused ranking judged by the confidence model."""
        order = fused.order[: max(NEAREST_SHOWN, 1)]
        closeness = [float(fused.similarities[number]) for number in order]
        return assess(
            self.model, fused.order, closeness, CLOSE_COSINE_GAP, fused.signals, fused.tied
        )

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        return self.search(question, count, 0).found

    def search(self, question: str, count: int, limit: int) -> Search:
        """The verdict, and the best `limit` passages in fused order, each with its
        cosine similarity to the question (one of the numbers the confidence is judged on)."""
        fused = self.fused(question)
        order, similarities = fused.order, fused.similarities
        scored = tuple((number, round(float(similarities[number]), 4)) for number in order[:limit])
        best = order[0]
        index = self.library.index
        matched = tuple(
            key
            for key in question_keys(question, self.key)
            if holds(index.title(key).numbers, best) or holds(index.body(key).numbers, best)
        )
        found = conclude(
            self.library,
            self.assess(fused),
            count,
            matched_words=matched,
            score=round(float(similarities[best]), 4),
            runner_up_score=(round(float(similarities[order[1]]), 4) if len(order) > 1 else None),
            mode=self.mode,
        )
        return Search(found, scored)


def meaning_order(
    numbers: list[int], similarities: NDArray[np.float32], lexical_order: list[int]
) -> list[int]:
    """`numbers` by cosine similarity, best first. Cosines within `MEANING_TIE` of each
    other say the same; between such passages (copies of a page for another provider or
    version) the word ranking decides, so a question's distinguishing word ("azure",
    "v2") puts its own copy first in both rankings."""
    place = {number: rank for rank, number in enumerate(lexical_order)}
    unplaced = len(lexical_order)
    return sorted(
        numbers,
        key=lambda number: (
            -round(float(similarities[number]) / MEANING_TIE),
            place.get(number, unplaced),
            number,
        ),
    )


def fused_signals(
    best: int,
    similarities: NDArray[np.float32],
    dense_order: list[int],
    lexical_order: list[int],
    ranking: Ranking | None,
) -> Signals:
    """The confidence signals of the best fused passage `best`."""
    cosine = float(similarities[best])
    other_dense = next((number for number in dense_order if number != best), None)
    cosine_lead = cosine - float(similarities[other_dense]) if other_dense is not None else 1.0
    word_lead = matched_share = 0.0
    if ranking is not None and lexical_order:
        scores = ranking.scores
        top = scores[lexical_order[0]]
        other_word = next((number for number in lexical_order if number != best), None)
        own = scores.get(best, 0.0)
        word_lead = (own - (scores[other_word] if other_word is not None else 0.0)) / top
        matched_share = ranking.share_of(best)
    return Signals(
        agreed=float(lexical_order[:1] == dense_order[:1] == [best]),
        cosine=cosine,
        cosine_lead=cosine_lead,
        word_lead=word_lead,
        matched_share=matched_share,
        word_rank_of_meaning_best=_reciprocal_place(lexical_order, dense_order[0]),
        meaning_rank_of_word_best=(
            _reciprocal_place(dense_order, lexical_order[0]) if lexical_order else 0.0
        ),
    )


def _same(
    first: int, second: int, similarities: NDArray[np.float32], ranking: Ranking | None
) -> bool:
    """Whether two passages score the same words and the same closeness in meaning."""
    scores = ranking.scores if ranking is not None else {}
    return scores.get(first, 0.0) == scores.get(second, 0.0) and round(
        float(similarities[first]) / MEANING_TIE
    ) == round(float(similarities[second]) / MEANING_TIE)


def _reciprocal_place(order: list[int], number: int) -> float:
    """1 / the 1-based place of `number` in `order`; 0.0 when absent."""
    try:
        return 1.0 / (order.index(number) + 1)
    except ValueError:
        return 0.0
