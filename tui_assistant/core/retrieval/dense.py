"""Dense ranking: passages by the cosine of their best piece to a question.

Every passage is embedded as one or more pieces (`fusion.split_pieces`); all vectors have
unit length, so a dot product is the cosine. `DenseIndex` keeps the piece vectors grouped
by passage, so one question costs one matrix-vector product and one grouped maximum:
a few milliseconds at 50,000 pieces, with no approximate index to build or keep.

A cosine's scale belongs to the model: one model's unrelated texts meet at 0.1, another's
at 0.7, and both give 1.0 for a text and itself. `Background` is the library's own
yardstick for its model, the mean cosine between pieces of different passages, so
retrieval can say how far a cosine stands between what unrelated text of this library
reaches and a perfect match. For unit vectors a model whose cosines are another's shifted
and scaled (`a * cosine + 1 - a`, since a text's cosine with itself stays 1) gives the
same closeness.

A library too large to keep its vectors in memory ranks in the store instead: its
`PassageVectors` then carries a `DenseSearch` (the database's HNSW index) and, in
memory, only a sample of its passages' vectors and the library's background. The
ranking's candidates come from the search; the rest of the library takes the sample's
cosines, so the spread of a question's cosines over the library is the one measured.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tui_assistant.core.retrieval.model_identity import ModelIdentity

# Pieces compared with each other to measure the background: enough for a steady mean,
# few enough to cost milliseconds at 50,000 pieces.
BACKGROUND_ROWS = 64
BACKGROUND_COLUMNS = 2048


@dataclass(frozen=True, slots=True)
class Background:
    """The mean cosine between pieces of different passages of one library (0.0 when
    it has no two passages with pieces)."""

    location: float = 0.0

    def scaled(self, cosine: float) -> float:
        """How close `cosine` is: 0.0 at the background, 1.0 for a perfect match."""
        room = 1.0 - self.location
        return (cosine - self.location) / room if room > 1e-6 else 0.0


class DenseSearch(Protocol):
    """Passages near a question, found outside memory (the store's HNSW index)."""

    def nearest(
        self, question: NDArray[np.float32], also: Sequence[int]
    ) -> tuple[dict[int, float], dict[int, float]]:
        """The best-piece cosines of the passages nearest `question` (at least
        `NEAREST_PASSAGES` where the library has them), and those of the passages `also`,
        each by passage number."""
        ...


# Passages a `DenseSearch` finds for each question: past the fusion's depth, so its
# ranking's first places are those of the whole library.
NEAREST_PASSAGES = 64


@dataclass(frozen=True)
class PassageVectors:
    """Every piece's vector (rows, unit length), the passage number of each row, and
    the model that made them (None when not known). With `search`, the rows are those
    of a sample of the passages, and `background` is the whole library's."""

    matrix: NDArray[np.float32]
    passages: NDArray[np.int32]
    model: ModelIdentity | None = None
    search: DenseSearch | None = None
    background: Background | None = None


def concatenated_vectors(parts: Sequence[PassageVectors], sizes: Sequence[int]) -> PassageVectors:
    """The vectors of several libraries' passages as those of their union, where the
    second library's passage numbers follow the first one's `sizes[0]`, and so on."""
    if len(parts) == 1:
        return parts[0]
    offsets = np.cumsum([0, *sizes[:-1]])
    matrix = np.concatenate([part.matrix for part in parts])
    passages = np.concatenate(
        [part.passages + offset for part, offset in zip(parts, offsets, strict=True)]
    ).astype(np.int32)
    if all(part.search is None for part in parts):
        return PassageVectors(matrix, passages)
    searches = [
        part.search or _MemorySearch(DenseIndex(part.matrix, part.passages), size)
        for part, size in zip(parts, sizes, strict=True)
    ]
    return PassageVectors(matrix, passages, search=_Together(searches, [int(o) for o in offsets]))


class DenseIndex:
    """The piece vectors of a library, ready to rank passages for questions."""

    def __init__(
        self,
        vectors: ArrayLike,
        piece_passage: ArrayLike,
        search: DenseSearch | None = None,
        background: Background | None = None,
    ) -> None:
        """`vectors[i]` is a unit vector of a piece of passage number `piece_passage[i]`;
        with `search`, of a sample of the passages (`PassageVectors`)."""
        matrix = np.asarray(vectors, dtype=np.float32)
        owners = np.asarray(piece_passage)
        if matrix.ndim != 2 or owners.shape != (matrix.shape[0],):
            raise ValueError("need a (pieces, dimensions) matrix and one passage per piece")
        if owners.size and not np.issubdtype(owners.dtype, np.integer):
            raise ValueError("passage numbers must be integers")
        order = np.argsort(owners, kind="stable")
        self._vectors: NDArray[np.float32] = np.ascontiguousarray(matrix[order])
        passages, starts = np.unique(owners[order], return_index=True)
        self._passages: NDArray[np.int64] = passages.astype(np.int64)
        self._starts: NDArray[np.intp] = starts.astype(np.intp)
        self.dimensions = matrix.shape[1]
        self.search = search
        self.background = background or _background(self._vectors, owners[order])

    def best_cosines(
        self, question: ArrayLike, passages: int, also: Sequence[int] = ()
    ) -> NDArray[np.float32]:
        """Every passage's best-piece cosine to `question`, by passage number (for
        `passages` passages; -1 for one without pieces). With a `search`, exact for the
        passages it finds and for `also`; the others take the sample's cosines, below
        the ones found."""
        vector = np.asarray(question, dtype=np.float32)
        if vector.shape != (self.dimensions,):
            raise ValueError(f"question vector must have shape ({self.dimensions},)")
        best = np.full(passages, -1.0, dtype=np.float32)
        # numpy's own loop, not BLAS: a BLAS product would start its threads for each
        # question, which costs many times the product when calls run at once.
        sample = (
            np.maximum.reduceat(np.einsum("ij,j->i", self._vectors, vector), self._starts)
            if self._passages.size
            else np.zeros(0, np.float32)
        )
        if self.search is None:
            best[self._passages] = sample
            return best
        nearest, exact = self.search.nearest(vector, also)
        if sample.size:
            floor = min(nearest.values(), default=1.0)
            best[:] = np.minimum(np.resize(sample, passages), np.nextafter(floor, -2.0))
            best[self._passages] = sample
        for found in (nearest, exact):
            if found:
                best[np.fromiter(found, np.int64)] = np.fromiter(found.values(), np.float32)
        return best


class _MemorySearch:
    """`DenseSearch` over vectors in memory: a small library beside a large one."""

    def __init__(self, index: DenseIndex, passages: int) -> None:
        self.index = index
        self.passages = passages

    def nearest(
        self, question: NDArray[np.float32], also: Sequence[int]
    ) -> tuple[dict[int, float], dict[int, float]]:
        best = self.index.best_cosines(question, self.passages)
        count = min(NEAREST_PASSAGES, self.passages)
        found = np.argpartition(-best, count - 1)[:count] if count else np.zeros(0, np.intp)
        return (
            {int(number): float(best[number]) for number in found},
            {number: float(best[number]) for number in also},
        )


class _Together:
    """`DenseSearch` over several libraries' searches, the second's numbers following
    the first's, and so on."""

    def __init__(self, searches: Sequence[DenseSearch], offsets: Sequence[int]) -> None:
        self.parts = list(zip(searches, offsets, [*offsets[1:], None], strict=True))

    def nearest(
        self, question: NDArray[np.float32], also: Sequence[int]
    ) -> tuple[dict[int, float], dict[int, float]]:
        nearest: dict[int, float] = {}
        exact: dict[int, float] = {}
        for search, start, end in self.parts:
            own = [n - start for n in also if n >= start and (end is None or n < end)]
            found, given = search.nearest(question, own)
            nearest.update({number + start: cosine for number, cosine in found.items()})
            exact.update({number + start: cosine for number, cosine in given.items()})
        return nearest, exact


def background_pieces(owners: NDArray[np.generic]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The pieces (indices into `owners`, the passage of each piece) whose cosines make
    the background: evenly spaced rows and columns of the pieces in passage order."""
    order = np.argsort(owners, kind="stable")
    count = order.size
    rows = np.unique(np.linspace(0, count - 1, min(count, BACKGROUND_ROWS)).astype(np.intp))
    columns = np.unique(np.linspace(0, count - 1, min(count, BACKGROUND_COLUMNS)).astype(np.intp))
    return order[rows], order[columns]


def background_between(
    rows: NDArray[np.float32],
    row_owners: NDArray[np.generic],
    columns: NDArray[np.float32],
    column_owners: NDArray[np.generic],
) -> Background:
    """The mean cosine between the `rows` and `columns` pieces of different passages."""
    cosines = rows @ columns.T
    apart = row_owners[:, None] != column_owners[None, :]
    found = cosines[apart].astype(np.float64)
    return Background(float(found.mean())) if found.size else Background()


def _background(vectors: NDArray[np.float32], owners: NDArray[np.generic]) -> Background:
    """The mean cosine between pieces of different passages, from evenly spaced samples
    of the pieces (the same every time for the same vectors); `vectors` and `owners` in
    passage order."""
    if vectors.shape[0] < 2:
        return Background()
    rows, columns = background_pieces(owners)
    return background_between(vectors[rows], owners[rows], vectors[columns], owners[columns])
