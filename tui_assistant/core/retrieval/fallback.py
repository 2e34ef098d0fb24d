"""Retrieval by meaning that answers by words when a question cannot be embedded.

Hybrid retrieval needs the question's vector; when the embedding server cannot be
reached or answers badly (`EmbeddingUnavailable`), the question is answered by the
lexical retriever instead, so the outcome's `retrieval` says `ranked`, and
`on_failure` is told, so the app can say why. `mode` is the mode answering now: the
fallback's while questions fail, the primary's once one is embedded again.
"""

from __future__ import annotations

from collections.abc import Callable

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.types import Evidence, Mode, NoEvidence, Retriever, Search
from tui_assistant.errors import EmbeddingUnavailable


class FallbackRetriever:
    """`primary` (hybrid) while questions can be embedded, else `fallback` (ranked)."""

    def __init__(
        self,
        primary: Retriever,
        fallback: Retriever,
        on_failure: Callable[[EmbeddingUnavailable], None],
        on_success: Callable[[], None],
    ) -> None:
        self.primary = primary
        self.fallback = fallback
        self.library: Library = primary.library
        # The mode answering now.
        self.mode: Mode = primary.mode
        self._on_failure = on_failure
        self._on_success = on_success

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        try:
            found = self.primary.retrieve(question, count)
        except EmbeddingUnavailable as error:
            self._failed(error)
            return self.fallback.retrieve(question, count)
        self._succeeded()
        return found

    def search(self, question: str, count: int, limit: int) -> Search:
        try:
            found = self.primary.search(question, count, limit)
        except EmbeddingUnavailable as error:
            self._failed(error)
            return self.fallback.search(question, count, limit)
        self._succeeded()
        return found

    def _failed(self, error: EmbeddingUnavailable) -> None:
        self.mode = self.fallback.mode
        self._on_failure(error)

    def _succeeded(self) -> None:
        self.mode = self.primary.mode
        self._on_success()
