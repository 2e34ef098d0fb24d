"""Hybrid retrieval: the lexical ranking and a sentence-embedding ranking, fused.

`TUI_ASSISTANT_RETRIEVAL=hybrid`. The lexical side is `ranked` (BM25F) without its
refusal; the dense side scores each passage by the cosine similarity of its best piece
to the question. The two rankings are fused by reciprocal rank fusion (`fusion`), and
the fused ranking's first places ordered again by the section score (`sections`), which
tells a section from its neighbours. How sure the result is comes from `confidence`:
how close the best passage is against the library's background, the share of the
question's words it matches, where each ranking puts the other's best, its section
score's lead (counted as far as it is close to the question), and whether the runner-up
is its neighbour. Neither a BM25 score nor a raw cosine means the same from one library
or model to the next; these signals, fitted across the development sets together,
carried over to a set left out of the fit (docs/retrieval.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.confidence import (
    CLOSE_MEANING_GAP,
    SENT_MEANING_GAP,
    Assessment,
    ConfidenceModel,
    Signals,
    assess,
    conclude,
)
from tui_assistant.core.retrieval.dense import Background, DenseIndex, PassageVectors
from tui_assistant.core.retrieval.fitted import HYBRID_MODEL, SECTION_WEIGHTS
from tui_assistant.core.retrieval.fusion import RRF_K, reciprocal_rank_fusion
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.ranked import RankedRetriever, word_signals
from tui_assistant.core.retrieval.sections import (
    RERANK_DEPTH,
    CosineSpread,
    SectionWeights,
    order_sections,
)
from tui_assistant.core.retrieval.spelling import ModelSpelling
from tui_assistant.core.retrieval.types import (
    NEAREST_SHOWN,
    Evidence,
    Mode,
    NoEvidence,
    Ranking,
    Search,
    best_numbers,
)
from tui_assistant.core.words import stem

if TYPE_CHECKING:
    from numpy.typing import NDArray

# How deep each ranking goes into the fusion.
FUSION_DEPTH = 50
# Passages this close in closeness (`Background.scaled`) are equally close in meaning
# (see `meaning_order`); about 0.01 of cosine for all-MiniLM-L6-v2.
MEANING_TIE = 0.015
EmbedQuestion = Callable[[str], "NDArray[np.float32]"]


@dataclass(frozen=True)
class Fused:
    """One question's fused ranking (passage numbers, best first), every passage's
    cosine similarity, the word ranking it came from, and the best passage's signals."""

    order: list[int]
    similarities: NDArray[np.float32]
    ranking: Ranking | None
    signals: Signals
    # The best passage and the runner-up are equal in both rankings.
    tied: bool
    background: Background

    def closeness(self, numbers: Sequence[int]) -> list[float]:
        """How close each passage is in meaning (`Background.scaled`)."""
        return [self.background.scaled(float(self.similarities[number])) for number in numbers]


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
        sections: SectionWeights = SECTION_WEIGHTS,
        vocabulary: Iterable[str] = (),
    ) -> None:
        """`vocabulary`: the embedding model's whole words, lower case; a question word
        that neither it nor the library knows is given to the model respelt
        (`ModelSpelling`). Empty (a model server's): questions go as typed."""
        self.library = library
        self.lexical = RankedRetriever(library)
        self.spelling = ModelSpelling(vocabulary, self.lexical.frequency, self.key)
        self.dense = DenseIndex(
            vectors.matrix, vectors.passages, vectors.search, vectors.background
        )
        self.embed_question = embed_question
        self.model = model
        self.k = k
        self.sections = sections
        self.marks = self.lexical.marks

    def similarities(self, question: str, also: Sequence[int] = ()) -> NDArray[np.float32]:
        """Every passage's best-piece cosine similarity to `question`, by number (exact
        for the nearest and for `also` when the ranking runs in the store)."""
        vector = self.embed_question(self.spelling.respelt(question))
        return self.dense.best_cosines(vector, len(self.library), also)

    def fused(self, question: str) -> Fused:
        """The fused ranking, every passage's cosine similarity, and the signals of the
        best fused passage."""
        ranking = self.lexical.rank(question)
        lexical_order = best_numbers(ranking.scores, FUSION_DEPTH) if ranking else []
        return self.fuse(self.similarities(question, lexical_order), ranking, lexical_order)

    def fuse(
        self,
        similarities: NDArray[np.float32],
        ranking: Ranking | None,
        lexical_order: list[int] | None = None,
    ) -> Fused:
        """`fused` from a question's cosines and its word ranking: reciprocal rank fusion
        of both rankings, then its first places ordered by `SectionWeights`.
        `lexical_order`: the ranking's first `FUSION_DEPTH` places, when already known."""
        background = self.dense.background
        depth = min(FUSION_DEPTH, len(similarities))
        dense = np.argpartition(-similarities, depth - 1)[:depth].tolist()
        if lexical_order is None:
            lexical_order = best_numbers(ranking.scores, FUSION_DEPTH) if ranking else []
        dense_order = meaning_order(dense, similarities, lexical_order, background)
        rrf = [number for number, _ in reciprocal_rank_fusion([lexical_order, dense_order], self.k)]
        # The spread of the question's cosines, worked out once for both of its users.
        spread = CosineSpread.of(similarities)
        head, lead = order_sections(
            rrf[:RERANK_DEPTH], similarities, ranking, self.marks, self.sections, spread
        )
        order = head + rrf[RERANK_DEPTH:]
        documents = {self.library.info(number).document for number in order[:2]}
        signals = replace(
            fused_signals(
                order[0], similarities, dense_order, lexical_order, ranking, background, spread
            ),
            section_lead=lead,
            neighbour=float(len(order) > 1 and len(documents) == 1),
            document_words=(
                float(self.lexical.document_words(ranking, order[0])) if ranking else 0.0
            ),
        )
        tied = len(order) > 1 and _same(order[0], order[1], similarities, ranking, background)
        return Fused(order, similarities, ranking, signals, tied, background)

    def assess(self, fused: Fused) -> Assessment:
        """The fused ranking judged by the confidence model."""
        closeness = fused.closeness(fused.order[: max(NEAREST_SHOWN, 1)])
        return assess(
            self.model,
            fused.order,
            closeness,
            CLOSE_MEANING_GAP,
            fused.signals,
            fused.tied,
            SENT_MEANING_GAP,
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
        # The word ranking's own matches: its keys are the respelt ones, so the passage
        # shown is marked at the words the question meant.
        matched = tuple(fused.ranking.matched.get(best, ())) if fused.ranking else ()
        found = conclude(
            self.library,
            self.assess(fused),
            count,
            matched_words=matched,
            score=round(float(similarities[best]), 4),
            runner_up_score=(round(float(similarities[order[1]]), 4) if len(order) > 1 else None),
            mode=self.mode,
            read_words=tuple(fused.ranking.weights) if fused.ranking else (),
        )
        return Search(found, scored)


def meaning_order(
    numbers: list[int],
    similarities: NDArray[np.float32],
    lexical_order: list[int],
    background: Background,
) -> list[int]:
    """`numbers` by cosine similarity, best first. Closeness within `MEANING_TIE` of each
    other says the same; between such passages (copies of a page for another
    provider or version) the word ranking decides, so a question's distinguishing word
    ("azure", "v2") puts its own copy first in both rankings."""
    place = {number: rank for rank, number in enumerate(lexical_order)}
    unplaced = len(lexical_order)
    return sorted(
        numbers,
        key=lambda number: (
            -_meaning_step(float(similarities[number]), background),
            place.get(number, unplaced),
            number,
        ),
    )


def _meaning_step(cosine: float, background: Background) -> int:
    """`cosine`'s closeness in steps of `MEANING_TIE`: equal steps are equally close."""
    return round(background.scaled(cosine) / MEANING_TIE)


def fused_signals(
    best: int,
    similarities: NDArray[np.float32],
    dense_order: list[int],
    lexical_order: list[int],
    ranking: Ranking | None,
    background: Background,
    cosines: CosineSpread | None = None,
) -> Signals:
    """The confidence signals of the best fused passage `best`. Its cosine counts as
    closeness (`Background.scaled`), so the signals mean the same for any model.
    `cosines`: `similarities`' spread, when already worked out."""
    cosine = float(similarities[best])
    word = word_signals(ranking, best, lexical_order)
    cosines = cosines or CosineSpread.of(similarities)
    spread = cosines.spread if cosines.count > 1 else 0.0
    standing = (cosine - cosines.mean) / spread if spread > 0 else 0.0
    return Signals(
        cosine=cosine,
        closeness=background.scaled(cosine),
        word_lead=word.word_lead,
        matched_share=word.matched_share,
        known_share=word.known_share,
        unknown_share=word.unknown_share,
        title_share=word.title_share,
        evidence=word.evidence,
        title_evidence=word.title_evidence,
        sole_match=word.sole_match,
        own_words=word.own_words,
        standing=standing,
        word_rank_of_meaning_best=_reciprocal_place(lexical_order, dense_order[0]),
        meaning_rank_of_word_best=(
            _reciprocal_place(dense_order, lexical_order[0]) if lexical_order else 0.0
        ),
    )


def _same(
    first: int,
    second: int,
    similarities: NDArray[np.float32],
    ranking: Ranking | None,
    background: Background,
) -> bool:
    """Whether two passages score the same words and the same closeness in meaning."""
    scores = ranking.scores if ranking is not None else {}
    return scores.get(first, 0.0) == scores.get(second, 0.0) and _meaning_step(
        float(similarities[first]), background
    ) == _meaning_step(float(similarities[second]), background)


def _reciprocal_place(order: list[int], number: int) -> float:
    """1 / the 1-based place of `number` in `order`; 0.0 when absent."""
    try:
        return 1.0 / (order.index(number) + 1)
    except ValueError:
        return 0.0
