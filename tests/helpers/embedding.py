"""A fake `EmbeddingSource` for fast tests: a hashed bag of words, no model.

Each lower-cased word adds +1 or -1 to one of `dimensions` slots chosen by its hash, and
the sum is scaled to unit length, so texts sharing words are close and the same text
always gives the same vector. It counts the texts it embeds, so a test can tell "nothing
was computed" from "everything was".
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Sequence

import httpx
import numpy as np
from numpy.typing import NDArray

from tui_assistant.core.retrieval.model_identity import ModelIdentity

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
    """Deterministic hashed-bag-of-words vectors in batches of `batch_size`; `calls`
    counts the texts' batches and questions, `texts` every text embedded (a question
    after `query_prefix`, a piece after `document_prefix`)."""

    vocabulary: frozenset[str] = frozenset()

    def __init__(
        self,
        model_id: str = "fake-bag-of-words@1",
        dimensions: int = 64,
        *,
        batch_size: int = 64,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> None:
        self._model_id = model_id
        self._dimensions = dimensions
        self.batch_size = batch_size
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.calls = 0
        self.texts: list[str] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimensions(self) -> int:
        return self._dimensions

    @property
    def identity(self) -> ModelIdentity:
        return ModelIdentity(
            self._model_id, self._dimensions, self.query_prefix, self.document_prefix
        )

    def embed(
        self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None
    ) -> NDArray[np.float32]:
        """Every text's row, in order, in batches like `embed_batches`."""
        rows = np.zeros((len(texts), self._dimensions), dtype=np.float32)
        done = 0
        for positions, vectors in self.embed_batches(texts):
            rows[positions] = vectors
            done += len(positions)
            if progress is not None:
                progress(done, len(texts))
        return rows

    def embed_batches(
        self, texts: Sequence[str]
    ) -> Iterator[tuple[list[int], NDArray[np.float32]]]:
        for start in range(0, len(texts), self.batch_size):
            positions = list(range(start, min(start + self.batch_size, len(texts))))
            yield positions, self.vectors([self.document_prefix + texts[at] for at in positions])

    def embed_question(self, question: str) -> NDArray[np.float32]:
        return self.vectors([self.query_prefix + question])[0]

    def vectors(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls += 1
        self.texts.extend(texts)
        rows = np.zeros((len(texts), self._dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            rows[row] = word_vector(text, self._dimensions)
        return rows


def word_vectors_answer(request: httpx.Request, dimensions: int = 64) -> httpx.Response:
    """An OpenAI-compatible embeddings server's answer (for respx): each input's
    bag-of-words vector, by index."""
    texts = json.loads(request.content)["input"]
    data = [
        {"object": "embedding", "index": index, "embedding": word_vector(text, dimensions).tolist()}
        for index, text in enumerate(texts)
    ]
    return httpx.Response(200, json={"object": "list", "data": data, "model": "fake"})
