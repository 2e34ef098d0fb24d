"""Hybrid retrieval: the lexical ranking and a sentence-embedding ranking, fused.

`TUI_ASSISTANT_RETRIEVAL=hybrid`. The lexical side is `ranked` (BM25F) without its
refusal; the dense side scores each passage by the cosine similarity of its best piece
to the question. The two rankings are fused by reciprocal rank fusion
(`core.fusion`), and the best fused passage is shown only when it is close enough in
meaning to the question: its cosine similarity reaches `MIN_SIMILARITY` on its own, or
`MIN_AGREED_SIMILARITY` when the lexical and the dense ranking both put it first. A
BM25 score means nothing from one library to the next; cosine thresholds, with the two
rankings' agreement, carried over between the development sets (docs/retrieval.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from tui_assistant.core.dense import DenseIndex
from tui_assistant.core.fusion import RRF_K, reciprocal_rank_fusion
from tui_assistant.core.index import KeyFunction
from tui_assistant.core.library import Library
from tui_assistant.core.ranked import RankedRetriever
from tui_assistant.core.retrieval import (
    NEAREST_SHOWN,
    Evidence,
    Mode,
    NoEvidence,
    best_numbers,
    holds,
    question_keys,
)
from tui_assistant.core.text import stem

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from tui_assistant.store.vectors import PassageVectors

# The best fused passage's cosine similarity to the question must reach MIN_SIMILARITY,
# or MIN_AGREED_SIMILARITY when both rankings put it first. Chosen on the found/refused
# curves of every development set together (docs/retrieval.md, scripts/hybrid_curve.py):
# documentation's unanswerable questions are often close to some passage, so a cosine
# alone must be high to refuse them, and agreement is what lets a lower one through.
MIN_SIMILARITY = 0.575
MIN_AGREED_SIMILARITY = 0.35
# How deep each ranking goes into the fusion.
FUSION_DEPTH = 50
# Question vectors remembered: a question is often scored twice in a row (the verdict,
# then the best passages the MCP server's `search` lists), and embedding it is most of
# the cost of a hybrid question.
QUESTIONS_REMEMBERED = 32

NOT_CLOSE = "nothing in the library is close in meaning to the question"

EmbedQuestion = Callable[[str], "NDArray[np.float32]"]


@dataclass(frozen=True)
class Fused:
    """One question's fused ranking (passage numbers, best first), every passage's
    cosine similarity, and whether the lexical and dense rankings agree on the best."""

    order: list[int]
    similarities: NDArray[np.float32]
    agreed: bool


class HybridRetriever:
    """BM25F and best-piece cosine similarity, fused; refuses what is not close in meaning."""

    key: KeyFunction = staticmethod(stem)
    mode: Mode = "hybrid"

    def __init__(
        self,
        library: Library,
        vectors: PassageVectors,
        embed_question: EmbedQuestion,
        min_similarity: float = MIN_SIMILARITY,
        min_agreed_similarity: float = MIN_AGREED_SIMILARITY,
        k: int = RRF_K,
    ) -> None:
        self.library = library
        self.lexical = RankedRetriever(library)
        self.dense = DenseIndex(vectors.matrix, vectors.passages)
        self.embed_question = lru_cache(maxsize=QUESTIONS_REMEMBERED)(embed_question)
        self.min_similarity = min_similarity
        self.min_agreed_similarity = min_agreed_similarity
        self.k = k

    def similarities(self, question: str) -> NDArray[np.float32]:
        """Every passage's best-piece cosine similarity to `question`, by number."""
        return self.dense.best_cosines(self.embed_question(question), len(self.library))

    def fused(self, question: str) -> Fused:
        """The fused ranking, every passage's cosine similarity, and whether both
        rankings put the best fused passage first."""
        similarities = self.similarities(question)
        depth = min(FUSION_DEPTH, len(similarities))
        dense = np.argpartition(-similarities, depth - 1)[:depth].tolist()
        dense_order = sorted(dense, key=lambda number: (-similarities[number], number))
        ranking = self.lexical.rank(question)
        lexical_order = best_numbers(ranking.scores, FUSION_DEPTH) if ranking else []
        order = [
            number for number, _ in reciprocal_rank_fusion([lexical_order, dense_order], self.k)
        ]
        agreed = lexical_order[:1] == dense_order[:1] == order[:1]
        return Fused(order, similarities, agreed)

    def scored(self, question: str, count: int) -> list[tuple[int, float]]:
        """The best `count` passages in fused order, each with its cosine similarity
        to the question (the number the refusal is judged on)."""
        fused = self.fused(question)
        return [
            (number, round(float(fused.similarities[number]), 4)) for number in fused.order[:count]
        ]

    def accepts(self, fused: Fused) -> bool:
        """Whether the best fused passage is close enough in meaning to be shown."""
        similarity = float(fused.similarities[fused.order[0]])
        if fused.agreed:
            return similarity >= self.min_agreed_similarity
        return similarity >= self.min_similarity

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        fused = self.fused(question)
        order, similarities = fused.order, fused.similarities
        best = order[0]
        if not self.accepts(fused):
            nearest = tuple(map(self.library.passage, order[:NEAREST_SHOWN]))
            return NoEvidence(NOT_CLOSE, nearest, self.mode)
        index = self.library.index
        matched = tuple(
            key
            for key in question_keys(question, self.key)
            if holds(index.title(key).numbers, best) or holds(index.body(key).numbers, best)
        )
        return Evidence(
            passages=tuple(map(self.library.passage, order[:count])),
            matched_words=matched,
            score=round(float(similarities[best]), 4),
            runner_up_score=(round(float(similarities[order[1]]), 4) if len(order) > 1 else None),
            mode=self.mode,
        )
