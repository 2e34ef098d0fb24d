"""A fake `EmbeddingSource` for fast tests: a hashed bag of words, no model.

Each lower-cased word adds +1 or -1 to one of `dimensions` slots chosen by its hash, and
the sum is scaled to unit length, so texts sharing words are close and the same text
always gives the same vector. It counts the texts it embeds, so a test can tell "nothing
was computed" from "everything was".
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

WORD = re.compile(r"\w+")


def word_vector(text: str, dimensions: int) -> NDArray[np.float32]:
    """The unit vector of `text`'s hashed bag of words (a fixed unit vector when it has none)."""
    vector = np.zeros(dimensions, dtype=np.float32)
    for word in WORD.findall(text.lower()):
        digest = hashlib.sha256(word.encode("utf-8")).digest()
        slot = int.from_bytes(digest[:4], "little") % dimensions
        vector[slot] += 1.0 if digest[4] & 1 else -1.0
    length = float(np.linalg.norm(vector))
    if length == 0.0:
        vector[0] = 1.0
        return vector
    return vector / np.float32(length)


class FakeEmbedder:
    """Deterministic hashed-bag-of-words vectors; `calls` and `texts` count the work."""

    def __init__(self, model_id: str = "fake-bag-of-words@1", dimensions: int = 64) -> None:
        self._model_id = model_id
        self._dimensions = dimensions
        self.calls = 0
        self.texts: list[str] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def embed(
        self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None
    ) -> NDArray[np.float32]:
        self.calls += 1
        self.texts.extend(texts)
        rows = np.zeros((len(texts), self._dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            rows[row] = word_vector(text, self._dimensions)
        if progress is not None:
            progress(len(texts), len(texts))
        return rows
