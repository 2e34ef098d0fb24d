"""Hybrid retrieval: the lexical ranking and a sentence-embedding ranking, fused.

`TUI_ASSISTANT_RETRIEVAL=hybrid`. The lexical side is `ranked` (BM25F) without its
refusal; the dense side scores each passage by the cosine similarity of its best piece
to the question. The two rankings are fused by reciprocal rank fusion
(`core.fusion`), and the best fused passage is shown only when it is close enough in
meaning to the question: its cosine similarity must reach `MIN_SIMILARITY`. A BM25 score
means nothing from one library to the next; a cosine threshold carried over between
the development sets (docs/retrieval.md).
"""

from __future__ import annotations

from collections.abc import Callable
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

# The best fused passage's cosine similarity to the question must reach this; chosen on
# the found/refused curves of every development set together (docs/retrieval.md).
MIN_SIMILARITY = 0.45
# How deep each ranking goes into the fusion.
FUSION_DEPTH = 50

NOT_CLOSE = "nothing in the library is close in meaning to the question"

EmbedQuestion = Callable[[str], "NDArray[np.float32]"]


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
        k: int = RRF_K,
    ) -> None:
        self.library = library
        self.lexical = RankedRetriever(library)
        self.dense = DenseIndex(vectors.matrix, vectors.passages)
        self.embed_question = embed_question
        self.min_similarity = min_similarity
        self.k = k

    def similarities(self, question: str) -> NDArray[np.float32]:
        """Every passage's best-piece cosine similarity to `question`, by number."""
        return self.dense.best_cosines(self.embed_question(question), len(self.library))

    def fused(self, question: str) -> tuple[list[int], NDArray[np.float32]]:
        """Passage numbers, best fused first, and every passage's cosine similarity."""
        similarities = self.similarities(question)
        depth = min(FUSION_DEPTH, len(similarities))
        dense = np.argpartition(-similarities, depth - 1)[:depth].tolist()
        dense_order = sorted(dense, key=lambda number: (-similarities[number], number))
        ranking = self.lexical.rank(question)
        lexical_order = best_numbers(ranking.scores, FUSION_DEPTH) if ranking else []
        fused = reciprocal_rank_fusion([lexical_order, dense_order], self.k)
        return [number for number, _ in fused], similarities

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        order, similarities = self.fused(question)
        best = order[0]
        if float(similarities[best]) < self.min_similarity:
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
