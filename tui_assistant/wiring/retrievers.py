"""The retriever a library answers with: by words for the settings' mode, or `hybrid`
once its vectors are in (the mode itself is chosen in `retrieval_choice`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.fallback import FallbackRetriever
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import Retriever
from tui_assistant.settings import Settings
from tui_assistant.wiring.embedding_status import EmbeddingMonitor

if TYPE_CHECKING:
    from tui_assistant.core.retrieval.dense import PassageVectors
    from tui_assistant.providers.embedding import EmbeddingSource


def build_retriever(settings: Settings, library: Library) -> Retriever:
    """The lexical retriever for the settings' mode (`hybrid` and `auto` start as
    `ranked`; `AppContext.with_vectors` turns hybrid on)."""
    if settings.retrieval == "keyword":
        return KeywordRetriever(library)
    return RankedRetriever(library)


def hybrid_retriever(
    library: Library,
    vectors: PassageVectors,
    embedder: EmbeddingSource,
    monitor: EmbeddingMonitor,
) -> Retriever:
    """`hybrid` over `library`; a question the embedding source cannot embed is
    answered by words, and `monitor` says so."""
    # numpy loads with the first vectors, never for a start that answers by words.
    from tui_assistant.core.retrieval.hybrid import HybridRetriever

    hybrid = HybridRetriever(
        library, vectors, embedder.embed_question, vocabulary=embedder.vocabulary
    )
    return FallbackRetriever(
        hybrid, hybrid.lexical, monitor.question_failed, monitor.question_embedded
    )
