"""Dense ranking: passages by the cosine of their best piece to a question.

Every passage is embedded as one or more pieces (`fusion.split_pieces`); all vectors have
unit length, so a dot product is the cosine. `DenseIndex` keeps the piece vectors grouped
by passage, so one question costs one matrix-vector product and one grouped maximum:
a few milliseconds at 50,000 pieces, with no approximate index to build or keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True)
class PassageVectors:
    """Every piece's vector (rows, unit length) and the passage number of each row."""

    matrix: NDArray[np.float32]
    passages: NDArray[np.int32]


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

    def best_cosines(self, question: ArrayLike, passages: int) -> NDArray[np.float32]:
        """Every passage's best-piece cosine to `question`, by passage number (for
        `passages` passages; -1 for one without pieces)."""
        vector = np.asarray(question, dtype=np.float32)
        if vector.shape != (self.dimensions,):
            raise ValueError(f"question vector must have shape ({self.dimensions},)")
        best = np.full(passages, -1.0, dtype=np.float32)
        if self._passages.size:
            best[self._passages] = np.maximum.reduceat(self._vectors @ vector, self._starts)
        return best
