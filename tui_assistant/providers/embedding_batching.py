"""Questions embedded together: `QuestionBatcher`.

Many agents (or threads) asking at once would each run the model for one short
question; run on a batch, the model does the same work for all of them in little more
time than for one. A `QuestionBatcher` keeps one thread of its own in front of an
embedding function: every question that arrives while the model is busy waits, and when
the model is free they are all embedded in one call (up to `max_batch`; a question
arriving on an idle model waits `collect_seconds` for company). Callers block only on
their own question's future, from any thread, never an event loop's.

Questions asked again come from a small cache (least recently used first out) keyed by
the model's identity and the text, so a question repeated by a team's agents answers at
lexical speed and vectors of one model never answer for another.

A batch that fails is tried again one question at a time, so a question the model (or
its server) cannot embed fails alone: the others get their vectors. A fault that is not
about the questions (`EmbeddingUnavailable.every_text`: a server down, rate limiting or
refusing the key) fails them all at once instead, with its own error: a request for each
would only add to the load of a failing server and keep the questions waiting longer.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from tui_assistant.errors import EmbeddingUnavailable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Vector = NDArray[np.float32]
    Matrix = NDArray[np.float32]

# Long enough for the questions of agents that send at the same moment to meet, short
# next to the model's own time for a question (about 15 ms for all-MiniLM-L6-v2 here).
COLLECT_SECONDS: Final = 0.002
# Questions handed to the model at once; the local model splits a batch this size over
# its threads itself, so a bigger batch keeps every core busy.
MAX_BATCH: Final = 256
CACHE_SIZE: Final = 2048


@dataclass
class BatchCounts:
    """How the questions were batched, for measuring (`benchmarks/`)."""

    batches: int = 0
    questions: int = 0
    cached: int = 0
    largest: int = 0

    @property
    def mean(self) -> float:
        return self.questions / self.batches if self.batches else 0.0


class QuestionBatcher:
    """`embed(question)` for any thread: waiting questions embedded in one batch by
    `embed_many` (the texts' rows, in order), repeated ones from a cache keyed by
    `identity()` (what tells the model's vectors from another's) and the text."""

    def __init__(
        self,
        embed_many: Callable[[Sequence[str]], Matrix],
        identity: Callable[[], Hashable],
        *,
        collect_seconds: float = COLLECT_SECONDS,
        max_batch: int = MAX_BATCH,
        cache_size: int = CACHE_SIZE,
    ) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self._embed_many = embed_many
        self._identity = identity
        self.collect_seconds = collect_seconds
        self.max_batch = max_batch
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[Hashable, str], Vector] = OrderedDict()
        self._waiting: deque[tuple[str, Future[Vector]]] = deque()
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self.counts = BatchCounts()

    @property
    def waiting(self) -> int:
        """How many questions wait for the model now."""
        return len(self._waiting)

    def embed(self, text: str) -> Vector:
        """`text`'s vector, computed with the others waiting (or cached); the error of
        its own embedding when it fails, or its batch's for a fault of every text."""
        key = (self._identity(), text)
        with self._ready:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                self.counts.cached += 1
                return cached
            future: Future[Vector] = Future()
            self._waiting.append((text, future))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="question-embedding", daemon=True
                )
                self._thread.start()
            self._ready.notify()
        vector = future.result()
        with self._ready:
            self._cache[key] = vector
            self._cache.move_to_end(key)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return vector

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._waiting:
                    # An idle thread ends; the next question starts another.
                    if not self._ready.wait(timeout=30.0) and not self._waiting:
                        self._thread = None
                        return
            if self.collect_seconds > 0:
                time.sleep(self.collect_seconds)
            with self._ready:
                taken = [
                    self._waiting.popleft() for _ in range(min(self.max_batch, len(self._waiting)))
                ]
            self._embed_batch(taken)

    def _embed_batch(self, taken: list[tuple[str, Future[Vector]]]) -> None:
        texts = [text for text, _ in taken]
        self._count(len(texts))
        try:
            rows = self._embed_many(texts)
        except BaseException as error:
            every_text = isinstance(error, EmbeddingUnavailable) and error.every_text
            if len(taken) > 1 and not every_text:
                # Each on its own, so only a question that cannot be embedded fails.
                for one in taken:
                    self._embed_batch([one])
                return
            for _, future in taken:
                future.set_exception(error)
            return
        for (_, future), row in zip(taken, rows, strict=True):
            future.set_result(row)

    def _count(self, size: int) -> None:
        counts = self.counts
        counts.batches += 1
        counts.questions += size
        counts.largest = max(counts.largest, size)
