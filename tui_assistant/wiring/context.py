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
from tui_assistant.errors import ConfigError
from tui_assistant.locations import bundled_lessons_dir
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress, open_library, store_path
from tui_assistant.wiring.retrieval_choice import (
    RetrievalChoice,
    choose_retrieval,
    load_embedder,
    model_id_without_loading,
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

        embedder = self.embedder if self.embedder is not None else load_embedder(self.choice)
        store = store_path(self.settings.data_dir, library_folder(self.settings))
        return Embedded(library, embedder, embed_library(library, embedder, store, progress))

    def with_vectors(self, embedded: Embedded) -> AppContext | None:
        """The context answering with `hybrid`, if `embedded` holds the vectors of the
        library this one answers from (a reload meanwhile makes them stale: None)."""
        if embedded.library is not self.library:
            return None
        from tui_assistant.core.retrieval.hybrid import HybridRetriever

        embedder = embedded.embedder
        retriever = HybridRetriever(
            embedded.library, embedded.vectors, lambda question: embedder.embed([question])[0]
        )
        service = self.service.with_retriever(retriever)
        return replace(self, service=service, embedder=embedder, vectors=embedded.vectors)

    def report(self) -> LibraryReport:
        """The library report of what answers now (reads the store: off the event loop)."""
        model_id = self.embedder.model_id if self.embedder is not None else None
        return describe_library(self.settings, self.library, self.choice, self.retrieval, model_id)

    async def aclose(self) -> None:
        closer = getattr(self.service.provider, "aclose", None)
        if closer is not None:
            await closer()


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
    context = AppContext(settings, library, service, choice, embedder)
    if embedder is not None and embed_now:
        hybrid = context.with_vectors(context.embed(library, embedding))
        assert hybrid is not None  # the vectors are of this very library
        return hybrid
    return context


def describe_library(
    settings: Settings,
    library: Library,
    choice: RetrievalChoice,
    retrieval: str,
    model_id: str | None = None,
) -> LibraryReport:
    """The report of `library` as loaded with `settings`, from what the data folder holds:
    nothing is embedded, and no model is loaded (`model_id` names the loaded one, else it
    comes from the model's weights hash). `retrieval` is the mode answering now."""
    store = store_path(settings.data_dir, library_folder(settings))
    size = 0
    for part in (store, Path(f"{store}-wal")):
        with contextlib.suppress(OSError):
            size += part.stat().st_size
    if choice.mode != "hybrid":
        reason = choice.note or f"TUI_ASSISTANT_RETRIEVAL is {settings.retrieval}"
        vectors = VectorFacts(None, reason=reason)
    else:
        from tui_assistant.store.vectors import stored_vectors

        model = model_id or model_id_without_loading(choice)
        stored_model, embedded = stored_vectors(store, library)
        vectors = VectorFacts(model, embedded if stored_model == model else 0)
    return build_report(library, retrieval, StoreFacts(str(store), size), vectors)
