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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class PassageVectors:
    """Every piece's vector (rows, unit length), the passage number of each row, and
    the model that made them (None when not known)."""

    matrix: NDArray[np.float32]
    passages: NDArray[np.int32]
    model: ModelIdentity | None = None


def concatenated_vectors(parts: Sequence[PassageVectors], sizes: Sequence[int]) -> PassageVectors:
    """The vectors of several libraries' passages as those of their union, where the
    second library's passage numbers follow the first one's `sizes[0]`, and so on."""
    if len(parts) == 1:
        return parts[0]
    offsets = np.cumsum([0, *sizes[:-1]])
    return PassageVectors(
        np.concatenate([part.matrix for part in parts]),
        np.concatenate(
            [part.passages + offset for part, offset in zip(parts, offsets, strict=True)]
        ).astype(np.int32),
    )


class DenseIndex:
    """The piece vectors of a library, ready to rank passages for questions."""

    def __init__(self, vectors: ArrayLike, piece_passage: ArrayLike) -> None:
        """`vectors[i]` is a unit vector of a piece of passage number `piece_passage[i]`."""
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
        self.background = _background(self._vectors, owners[order])

    def best_cosines(self, question: ArrayLike, passages: int) -> NDArray[np.float32]:
        """Every passage's best-piece cosine to `question`, by passage number (for
        `passages` passages; -1 for one without pieces)."""
        vector = np.asarray(question, dtype=np.float32)
        if vector.shape != (self.dimensions,):
            raise ValueError(f"question vector must have shape ({self.dimensions},)")
        best = np.full(passages, -1.0, dtype=np.float32)
        if self._passages.size:
            # numpy's own loop, not BLAS: a BLAS product would start its threads for each
            # question, which costs many times the product when calls run at once.
            cosines = np.einsum("ij,j->i", self._vectors, vector)
            best[self._passages] = np.maximum.reduceat(cosines, self._starts)
        return best


def _background(vectors: NDArray[np.float32], owners: NDArray[np.generic]) -> Background:
    """The mean cosine between pieces of different passages, from evenly spaced samples
    of the pieces (the same every time for the same vectors)."""
    count = vectors.shape[0]
    if count < 2:
        return Background()
    rows = np.unique(np.linspace(0, count - 1, min(count, BACKGROUND_ROWS)).astype(np.intp))
    columns = np.unique(np.linspace(0, count - 1, min(count, BACKGROUND_COLUMNS)).astype(np.intp))
    cosines = vectors[rows] @ vectors[columns].T
    apart = owners[rows][:, None] != owners[columns][None, :]
    found = cosines[apart].astype(np.float64)
    return Background(float(found.mean())) if found.size else Background()
