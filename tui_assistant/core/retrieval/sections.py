"""Telling a section from its neighbours: the fused ranking's first places, ordered again.

Most wrong first passages are another section of the right document: an overview next to
its detail, a document's opening beside the section a question is about. The fused
ranking's first `RERANK_DEPTH` places are ordered again by a weighted sum of what tells
them apart (`section_features`): how much of the question's words each holds, how close
each is in meaning against the others, whether it opens its document (an opening
summarises the whole document, so it is near many questions without answering them),
how much of the question its title holds (a page titled "Dependency Pre-Bundling" is
about the question "what is dependency pre-bundling?"; a page that mentions the words is
not), whether it is a release announcement, a changelog or a blog post (they mention
every feature again, in passing), and how much of the question's wording it holds as
written, its word pairs side by side (`word_pairs`: "time off", not "time" here and "off"
there). The weights are fitted with the confidence models (`fitted.py`). `ranked` orders
its own first places the same way, without the meaning.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.pair_table import PairTable
from tui_assistant.core.retrieval.types import Ranking
from tui_assistant.core.retrieval.word_pairs import Pair, pair_share

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


# The fused ranking's places that are ordered again.
RERANK_DEPTH = 10

SECTION_FEATURES = (
    "word_score",
    "word_share",
    "meaning",
    "opening",
    "title_share",
    "announcement",
    "pair_share",
)
# Path words of a document that announces or logs changes rather than teaching:
# `blog/announcing-vite5.md`, `CHANGELOG.md`, `docs/release-notes.md`, `news/2024.md`.
ANNOUNCEMENT_WORDS = frozenset(
    "blog blogs posts announcing announcement announcements changelog changelogs"
    " whatsnew releasenotes".split()
)
# A document named only this (CHANGES.md, NEWS.rst) is a changelog.
CHANGELOG_NAMES = frozenset({"changes", "changelog", "news"})


@dataclass(frozen=True, slots=True)
class SectionWeights:
    """The weight of each of `section_features`' numbers in a passage's score."""

    word_score: float
    word_share: float
    meaning: float
    opening: float
    title_share: float = 0.0
    announcement: float = 0.0
    pair_share: float = 0.0

    def score(self, features: Sequence[float]) -> float:
        weights = (
            self.word_score,
            self.word_share,
            self.meaning,
            self.opening,
            self.title_share,
            self.announcement,
            self.pair_share,
        )
        return math.fsum(weight * value for weight, value in zip(weights, features, strict=True))


@dataclass(frozen=True, slots=True)
class Marks:
    """What the section score knows of a library's passages besides the question: the
    numbers of those that open their document and of release announcements, changelogs
    and blog posts, and each passage's adjacent word pairs (`pairs_of`: a library's
    `PairTable`, split once when first asked; none without it)."""

    openings: frozenset[int] = frozenset()
    announcements: frozenset[int] = frozenset()
    pairs_of: Callable[[int], Container[Pair]] | None = field(default=None, compare=False)

    @classmethod
    def of(cls, library: Library, key: KeyFunction) -> Marks:
        def read(number: int) -> tuple[str, str]:
            passage = library.passage(number)
            return passage.title, passage.text

        pairs_of = PairTable(read, key)
        return cls(opening_passages(library), announcement_passages(library), pairs_of)


def opening_passages(library: Library) -> frozenset[int]:
    """The passage numbers that open their document (its first passage)."""
    first_positions = {document.first for document in library.documents if document.count}
    return frozenset(
        number for number, position in enumerate(library.positions) if position in first_positions
    )


def announcement_passages(library: Library) -> frozenset[int]:
    """The passage numbers of documents that announce or log changes (by their path)."""
    marked: dict[str, bool] = {}
    found = []
    for number in range(len(library)):
        document = library.info(number).document
        if document not in marked:
            marked[document] = is_announcement(document)
        if marked[document]:
            found.append(number)
    return frozenset(found)


def is_announcement(document: str) -> bool:
    """Whether a document's path says it is a blog post, an announcement or a changelog."""
    path = document.lower().replace("\\", "/")
    stem_part = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    name = stem_part.rsplit("/", 1)[-1]
    words = {word for word in re.split(r"[/_\-. ]+", stem_part) if word}
    joined = re.sub(r"[_\-. ]", "", name)
    return (
        bool(words & ANNOUNCEMENT_WORDS)
        or name in CHANGELOG_NAMES
        or joined in {"releasenotes", "changelog", "whatsnew"}
    )


@dataclass(frozen=True, slots=True)
class CosineSpread:
    """A question's cosines over the passages that have pieces: how many, the best, the
    mean and the standard deviation."""

    count: int
    best: float
    mean: float
    spread: float

    @classmethod
    def of(cls, similarities: NDArray[np.float32]) -> CosineSpread:
        with_pieces = similarities[similarities > -1.0]
        if not with_pieces.size:
            return cls(0, 0.0, 0.0, 0.0)
        return cls(
            int(with_pieces.size),
            float(with_pieces.max()),
            float(with_pieces.mean()),
            float(with_pieces.std()),
        )


def section_features(
    numbers: Sequence[int],
    similarities: NDArray[np.float32] | None,
    ranking: Ranking | None,
    marks: Marks | frozenset[int],
    cosines: CosineSpread | None = None,
) -> list[tuple[float, float, float, float, float, float, float]]:
    """Per passage, what `SectionWeights` weighs: its word score over the best word
    score, the share of the question's word weight it matches, its cosine below the best
    cosine in spreads of the question's cosines over the library (0 without cosines),
    whether it opens its document, the share of the question's word weight its title
    holds, whether it announces or logs changes, and the share of the question's word
    pair weight it holds side by side (0 without `marks.pairs_of`). Spreads of the
    question's own cosines make the third the same for any model whose cosines are
    another's shifted and scaled. `marks`: a `Marks`, or the openings alone; `cosines`:
    `similarities`' spread, when already worked out."""
    if not isinstance(marks, Marks):
        marks = Marks(openings=marks)
    best_cosine = spread = 0.0
    if similarities is not None:
        cosines = cosines or CosineSpread.of(similarities)
        best_cosine, spread = cosines.best, cosines.spread
    top_word = max(ranking.scores.values()) if ranking is not None and ranking.scores else 0.0
    pairs = ranking.pairs if ranking is not None and marks.pairs_of is not None else {}
    rows = []
    for number in numbers:
        cosine = float(similarities[number]) if similarities is not None else best_cosine
        word = ranking.scores.get(number, 0.0) if ranking is not None else 0.0
        rows.append(
            (
                word / top_word if top_word > 0 else 0.0,
                ranking.share_of(number) if ranking is not None else 0.0,
                (cosine - best_cosine) / spread if spread > 0 else 0.0,
                float(number in marks.openings),
                ranking.title_share_of(number) if ranking is not None else 0.0,
                float(number in marks.announcements),
                pair_share(pairs, marks.pairs_of(number)) if pairs and marks.pairs_of else 0.0,
            )
        )
    return rows


def order_sections(
    numbers: Sequence[int],
    similarities: NDArray[np.float32] | None,
    ranking: Ranking | None,
    marks: Marks | frozenset[int],
    weights: SectionWeights,
    cosines: CosineSpread | None = None,
) -> tuple[list[int], float]:
    """`numbers` by their section score, best first (equal scores keep their order), and
    the best score's lead over the next (1.0 with one passage)."""
    features = section_features(numbers, similarities, ranking, marks, cosines)
    scores = [weights.score(row) for row in features]
    places = sorted(range(len(numbers)), key=lambda place: -scores[place])
    lead = scores[places[0]] - scores[places[1]] if len(places) > 1 else 1.0
    return [numbers[place] for place in places], lead
