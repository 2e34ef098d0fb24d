"""Assemble the app from settings: library, retriever, provider, service.

The CLI and the TUI both start here, so they cannot be wired differently. The
provider module (and httpx) is imported only in model mode, to keep start-up fast.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant.core.library.library import Library
from tui_assistant.core.library.report import LibraryReport, StoreFacts, VectorFacts, build_report
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import Retriever
from tui_assistant.core.service import AnswerProvider, AnswerService
from tui_assistant.core.words import stem
from tui_assistant.errors import ConfigError, EmbeddingUnavailable, TuiAssistantError
from tui_assistant.locations import bundled_lessons_dir
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress, open_library, store_path
from tui_assistant.wiring.embedding_status import EmbeddingMonitor, monitor_for, vector_facts
from tui_assistant.wiring.retrieval_choice import (
    RetrievalChoice,
    choose_retrieval,
    load_embedder,
)

if TYPE_CHECKING:
    from tui_assistant.core.retrieval.dense import PassageVectors
    from tui_assistant.providers.embedding import EmbeddingSource

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Embedded:
    """A library's vectors, and the embedding model that made them (and embeds questions)."""

    library: Library
    embedder: EmbeddingSource
    vectors: PassageVectors


@dataclass(frozen=True)
class AppContext:
    """The app as wired from its settings; it never changes. `choice` is the retrieval
    mode that runs; under `hybrid` the library answers with `ranked` until `with_vectors`
    gives the context that answers by meaning (the TUI and the MCP server embed in the
    background; `ask` and `eval` embed before the first answer). A reload or new vectors
    make a new context; the provider is shared by all of them."""

    settings: Settings
    library: Library
    service: AnswerService
    choice: RetrievalChoice = field(default_factory=lambda: RetrievalChoice("ranked"))
    embedder: EmbeddingSource | None = None
    vectors: PassageVectors | None = None
    # The embedding state every surface reads (`embedding.status()`); shared by the
    # contexts a reload or new vectors make.
    embedding: EmbeddingMonitor = field(default_factory=EmbeddingMonitor)

    @property
    def mode_label(self) -> str:
        """`deterministic`, or the model and the provider's host."""
        if self.settings.provider != "openai":
            return "deterministic"
        from urllib.parse import urlsplit

        return f"{self.settings.model} @ {urlsplit(self.settings.base_url).hostname}"

    @property
    def retrieval(self) -> str:
        """The mode answering now (`ranked` while `hybrid` waits for its vectors)."""
        return self.service.retriever.mode

    def with_library(self, library: Library) -> AppContext:
        """The context answering from `library` (after a reload); under `hybrid`,
        lexically until `with_vectors` gives the new library's vectors."""
        service = self.service.with_retriever(build_retriever(self.settings, library))
        return replace(self, library=library, service=service, vectors=None)

    def embed(self, library: Library, progress: Progress | None = None) -> Embedded:
        """`library`'s vectors: stored ones read, missing ones computed and stored, with
        this context's embedding model, else the one its choice names (loaded now: the
        TUI and the MCP server do this in the background, so they answer before the
        model is read). Safe off the event loop: it changes nothing here."""
        from tui_assistant.store.vectors import embed_library

        store = store_path(self.settings.data_dir, library_folder(self.settings))
        monitor = self.embedding

        def told(done: int, total: int) -> None:
            monitor.progress(done, total)
            if progress is not None:
                progress(done, total)

        embedder = self.embedder
        try:
            if embedder is None:
                embedder = load_embedder(self.choice)
            vectors = embed_library(library, embedder, store, told)
        except BaseException as error:
            if isinstance(error, TuiAssistantError | OSError):  # not a caller's own stop
                monitor.failed(error)
            if embedder is not self.embedder:
                close_embedder(embedder)
            raise
        assert vectors.model is not None
        monitor.embedded(vectors.model, len(library))
        return Embedded(library, embedder, vectors)

    def with_vectors(self, embedded: Embedded) -> AppContext | None:
        """The context answering with `hybrid`, if `embedded` holds the vectors of the
        library this one answers from (a reload meanwhile makes them stale: None)."""
        if embedded.library is not self.library:
            return None
        from tui_assistant.core.retrieval.fallback import FallbackRetriever
        from tui_assistant.core.retrieval.hybrid import HybridRetriever

        embedder = embedded.embedder
        hybrid = HybridRetriever(embedded.library, embedded.vectors, embedder.embed_question)
        # A question the server cannot embed is answered by words, and said so.
        retriever = FallbackRetriever(
            hybrid,
            hybrid.lexical,
            self.embedding.question_failed,
            self.embedding.question_embedded,
        )
        service = self.service.with_retriever(retriever)
        return replace(self, service=service, embedder=embedder, vectors=embedded.vectors)

    def report(self) -> LibraryReport:
        """The library report of what answers now (reads the store, may ask an embedding
        server once: off the event loop)."""
        return describe_library(
            self.settings, self.library, self.choice, self.retrieval, self.embedder
        )

    async def aclose(self) -> None:
        closer = getattr(self.service.provider, "aclose", None)
        if closer is not None:
            await closer()
        close_embedder(self.embedder)


def close_embedder(embedder: EmbeddingSource | None) -> None:
    """Let go of an embedding server's connections (a local model has none)."""
    close = getattr(embedder, "close", None)
    if close is not None:
        close()


def library_folder(settings: Settings) -> Path:
    return settings.library if settings.library is not None else bundled_lessons_dir()


def load_library(settings: Settings, progress: Progress | None = None) -> Library:
    """The library from its folder, through the index store in the data folder."""
    return open_library(
        library_folder(settings), settings.data_dir, stem, progress, settings.document_kinds
    )


def build_retriever(settings: Settings, library: Library) -> Retriever:
    """The lexical retriever for the settings' mode (`hybrid` and `auto` start as
    `ranked`; `AppContext.with_vectors` turns hybrid on)."""
    if settings.retrieval == "keyword":
        return KeywordRetriever(library)
    return RankedRetriever(library)


def build_provider(settings: Settings, data_dir: Path) -> AnswerProvider | None:
    """The model provider in `openai` mode, else None (deterministic answers).

    Its one `httpx.AsyncClient` lives as long as the app run; `AppContext.aclose`
    closes it. The ledger exists only when a monthly limit is set.
    """
    if settings.provider != "openai":
        return None
    from tui_assistant.providers.openai import OpenAIProvider, new_http_client
    from tui_assistant.store.ledger import CallLedger

    limit = settings.monthly_call_limit
    return OpenAIProvider(
        client=new_http_client(settings.deadline_seconds),
        base_url=settings.base_url,
        model=settings.model,
        api_key=settings.api_key,
        ledger=CallLedger(data_dir, limit) if limit is not None else None,
    )


def open_context(
    settings: Settings,
    progress: Progress | None = None,
    embedding: Progress | None = None,
    embed_now: bool = True,
    fetching: Progress | None = None,
) -> AppContext:
    """Load the library and build the service; raises `LibraryError` or `ConfigError`.

    Under `hybrid`, with `embed_now`, the model is loaded here and the library's
    missing vectors are computed (`embedding(done, total)` reports it) before the
    first answer; without, the caller embeds later (`AppContext.embed`, which loads a
    model `auto` found on first use).
    """
    data_dir = settings.data_dir
    choice = choose_retrieval(settings, data_dir, fetching)
    embedder = None
    # Named explicitly, an unusable model ends the start (exit 2); found by `auto`, the
    # TUI reads it in the background and only says that hybrid retrieval is off.
    named = settings.retrieval == "hybrid" or bool(settings.embedding_model)
    if choice.mode == "hybrid" and (embed_now or named):
        try:
            embedder = load_embedder(choice)
        except ConfigError as error:
            if named:
                raise
            # `auto` found a model the user never named, and it is unusable.
            choice = RetrievalChoice("ranked", note=f"hybrid retrieval is off ({error})")
    if choice.note is not None:
        logger.warning("%s; using ranked", choice.note)
    library = load_library(settings, progress)
    service = AnswerService(
        retriever=build_retriever(settings, library),
        provider=build_provider(settings, data_dir),
        support_mode=settings.support_check,
        deadline_seconds=settings.deadline_seconds,
        passages_sent=settings.passages,
    )
    context = AppContext(
        settings, library, service, choice, embedder, embedding=monitor_for(choice)
    )
    if embedder is not None and embed_now:
        try:
            embedded = context.embed(library, embedding)
        except EmbeddingUnavailable as error:
            # The server failed: answer by words, saying so once; what was embedded
            # is stored, and the next start goes on from there.
            logger.warning("%s; answering by words (ranked)", error)
            return context
        hybrid = context.with_vectors(embedded)
        assert hybrid is not None  # the vectors are of this very library
        return hybrid
    return context


def describe_library(
    settings: Settings,
    library: Library,
    choice: RetrievalChoice,
    retrieval: str,
    embedder: EmbeddingSource | None = None,
) -> LibraryReport:
    """The report of `library` as loaded with `settings`, from what the data folder holds:
    nothing is embedded, and no local model is loaded (`embedder` is the source in use,
    if any); an embedding server is asked once for its model's dimensions, which also
    tells whether it can be reached. `retrieval` is the mode answering now."""
    store = store_path(settings.data_dir, library_folder(settings))
    size = 0
    for part in (store, Path(f"{store}-wal")):
        with contextlib.suppress(OSError):
            size += part.stat().st_size
    if choice.mode != "hybrid":
        reason = choice.note or f"TUI_ASSISTANT_RETRIEVAL is {settings.retrieval}"
        vectors = VectorFacts(None, reason=reason)
    else:
        vectors = vector_facts(store, library, choice, embedder)
    return build_report(library, retrieval, StoreFacts(str(store), size), vectors)
