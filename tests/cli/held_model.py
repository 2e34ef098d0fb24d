"""A fake embedding model whose work a test holds and releases (`held_hybrid` in
`conftest.py` puts it in place of a real one)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

from tests.helpers.embedding import FakeEmbedder

# A held batch gives up by itself after this long (a test that forgot to release it).
HELD_SECONDS = 20.0


class HeldEmbedder(FakeEmbedder):
    """A fake embedding model whose batches of passages wait for `release` (one batch
    each), so "the vectors are not all computed yet" is a condition a test holds; its
    questions are embedded at once. `pieces` counts the passages' pieces handed back."""

    def __init__(self, batch_size: int = 1) -> None:
        super().__init__(batch_size=batch_size)
        self._permits = threading.Semaphore(0)
        self.pieces = 0

    def release(self, batches: int = 1_000) -> None:
        for _ in range(batches):
            self._permits.release()

    def embed_batches(
        self, texts: Sequence[str]
    ) -> Iterator[tuple[list[int], NDArray[np.float32]]]:
        for batch in super().embed_batches(texts):
            if not self._permits.acquire(timeout=HELD_SECONDS):
                raise AssertionError("a held batch of passages was never released")
            self.pieces += len(batch[0])
            yield batch
