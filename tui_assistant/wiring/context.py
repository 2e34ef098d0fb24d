"""Assemble the app from settings: library, retriever, provider, service.

The CLI and the TUI both start here, so they cannot be wired differently. The
provider module (and httpx) is imported only in model mode, to keep start-up fast.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant.core.conversation import Conversation
from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.library.library import Library
from tui_assistant.core.library.report import LibraryReport
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import Retriever
from tui_assistant.core.service import AnswerProvider, AnswerService
from tui_assistant.core.words import stem
from tui_assistant.errors import ConfigError, EmbeddingUnavailable, TuiAssistantError
from tui_assistant.registry.libraries import (
    choose_library,
    document_kinds_of,
    with_page_urls,
)
from tui_assistant.settings import Settings
from tui_assistant.store.history import now
from tui_assistant.store.index_store import Progress, open_library, store_path
from tui_assistant.wiring.embedding_status import EmbeddingMonitor, monitor_for
from tui_assistant.wiring.retrieval_choice import (
    RetrievalChoice,
    choose_retrieval,
    identity_without_loading,
    load_embedder,
)

if TYPE_CHECKING:
    from tui_assistant.core.retrieval.dense import PassageVectors
    from tui_assistant.core.retrieval.model_identity import ModelIdentity
    from tui_assistant.providers.embedding import EmbeddingSource

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Embedded:
    """A library's vectors, and the embedding model that made them (and embeds questions);
    `parts` are the vectors of each library it is made of, by name."""

    library: Library
    embedder: EmbeddingSource
    vectors: PassageVectors
    parts: Mapping[str, PassageVectors]


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
    vectors: Embedded | None = None
    # When the library's files were read (UTC, ISO 8601).
    read_at: str = field(default_factory=now)
    # The services of questions narrowed to one of several libraries, made on first use.
    _narrowed: dict[str, AnswerService] = field(
        init=False, default_factory=dict, compare=False, repr=False
    )
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

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the libraries a question searches."""
        return tuple(self.library.parts)

    def with_library(self, library: Library) -> AppContext:
        """The context answering from `library` (after a reload); under `hybrid`,
        lexically until `with_vectors` gives the new library's vectors."""
        service = self.service.with_retriever(build_retriever(self.settings, library))
        return replace(self, library=library, service=service, vectors=None, read_at=now())

    def embed(self, library: Library, progress: Progress | None = None) -> Embedded:
        """`library`'s vectors: stored ones read, missing ones computed and stored (each
        library of several in its own store), with this context's embedding model, else
        the one its choice names (loaded now: the TUI and the MCP server do this in the
        background, so they answer before the model is read). Safe off the event loop:
        it changes nothing here."""
        from tui_assistant.core.retrieval.dense import concatenated_vectors
        from tui_assistant.store.vectors import embed_library

        monitor = self.embedding

        def told(done: int, total: int) -> None:
            monitor.progress(done, total)
            if progress is not None:
                progress(done, total)

        embedder = self.embedder
        parts = list(library.parts.values())
        try:
            if embedder is None:
                embedder = load_embedder(self.choice)
            vectors = {
                part.name: embed_library(
                    part, embedder, store_path(self.settings.data_dir, part.folder), told
                )
                for part in parts
            }
        except BaseException as error:
            if isinstance(error, TuiAssistantError | OSError):  # not a caller's own stop
                monitor.failed(error)
            if embedder is not self.embedder:
                close_embedder(embedder)
            raise
        union = concatenated_vectors(list(vectors.values()), [len(part) for part in parts])
        model = next(iter(vectors.values())).model
        assert model is not None
        monitor.embedded(model, len(library))
        return Embedded(library, embedder, union, vectors)

    def with_vectors(self, embedded: Embedded) -> AppContext | None:
        """The context answering with `hybrid`, if `embedded` holds the vectors of the
        library this one answers from (a reload meanwhile makes them stale: None)."""
        if embedded.library is not self.library:
            return None
        retriever = _hybrid(embedded.library, embedded.vectors, embedded.embedder, self.embedding)
        service = self.service.with_retriever(retriever)
        return replace(self, service=service, embedder=embedded.embedder, vectors=embedded)

    def service_for(self, name: str | None) -> AnswerService:
        """The service answering a question over every library (`name` None), or one of
        several narrowed to library `name` (a package's bare name: its newest version);
        `LookupError` (one line) for an unknown name."""
        name = choose_library(name, self.names)
        if name is None or (name == self.library.name and not self.library.combined):
            return self.service
        if name not in self.library.parts:
            raise LookupError(
                f"no library is named {shortened(one_line(name), 60)}"
                f" (the libraries are {', '.join(self.names)})"
            )
        if not self.library.combined:
            return self.service
        narrowed = self._narrowed.get(name)
        if narrowed is None:
            from tui_assistant.core.library.combined import combine

            view = combine([self.library.parts[name]])
            retriever = build_retriever(self.settings, view)
            if self.vectors is not None and self.embedder is not None:
                retriever = _hybrid(view, self.vectors.parts[name], self.embedder, self.embedding)
            narrowed = self._narrowed[name] = self.service.with_retriever(retriever)
        return narrowed

    def conclude(
        self,
        outcome: Outcome,
        conversation: Conversation | None = None,
        library: str | None = None,
        *,
        write: Callable[[Callable[[], None]], object] | None = None,
    ) -> None:
        """The one end of a finished question, on every surface (`ask`, the MCP tools,
        the TUI). `outcome` becomes the next turn of `conversation` (what follow-ups
        look back at), at once. A question the documents could not answer is kept among
        the gaps, if `TUI_ASSISTANT_GAPS` allows, in the library of the passage it came
        nearest to, else in each library it searched (`library`, or every one). That
        writes a file: now, or handed to `write` (the TUI's worker thread). A write that
        fails is a warning, never the caller's error."""
        from tui_assistant.wiring.gaps import gap_to_keep, keep_gap

        if conversation is not None:
            conversation.add(outcome)
        found = gap_to_keep(self.settings, outcome)
        if found is None:
            return
        keep = partial(keep_gap, self.settings, self.library, found, library)
        if write is None:
            keep()
        else:
            write(keep)

    def reports(self) -> list[LibraryReport]:
        """The report of each library answering now (reads the stores: off the event loop)."""
        from tui_assistant.wiring.report import describe_library

        return [
            describe_library(self.settings, part, self.choice, self.retrieval, self.embedder)
            for part in self.library.parts.values()
        ]

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


def load_library(settings: Settings, progress: Progress | None = None) -> Library:
    """The library from its folder, through the index store in the data folder; several
    libraries as one (`combined.combine`), each through its own store."""
    parts: list[Library] = []
    try:
        for spec in settings.libraries:
            library = open_library(
                spec.folder,
                settings.data_dir,
                stem,
                progress,
                document_kinds_of(spec.folder, settings.document_kinds),
                name=spec.name,
            )
            # A website's passages cite their pages' URLs, from its fetched record.
            parts.append(with_page_urls(library, spec.folder))
    except BaseException:
        for part in parts:
            part.close()
        raise
    if len(parts) == 1:
        return parts[0]
    from tui_assistant.core.library.combined import combine

    return combine(parts)


def _hybrid(
    library: Library,
    vectors: PassageVectors,
    embedder: EmbeddingSource,
    monitor: EmbeddingMonitor,
) -> Retriever:
    """`hybrid` over `library`; a question the embedding source cannot embed is
    answered by words, and `monitor` says so."""
    from tui_assistant.core.retrieval.fallback import FallbackRetriever
    from tui_assistant.core.retrieval.hybrid import HybridRetriever

    hybrid = HybridRetriever(
        library, vectors, embedder.embed_question, vocabulary=embedder.vocabulary
    )
    return FallbackRetriever(
        hybrid, hybrid.lexical, monitor.question_failed, monitor.question_embedded
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


def embedding_identity(context: AppContext) -> ModelIdentity | None:
    """The identity of the vectors a `hybrid` context answers with, when it is known
    without asking a server: the loaded source's, else a local model's from its files.
    None when hybrid is off, the model cannot be read, or only a server can tell."""
    if context.choice.mode != "hybrid":
        return None
    try:
        if context.embedder is not None:
            return context.embedder.identity
        if context.choice.server is None:
            return identity_without_loading(context.choice)
    except (ConfigError, EmbeddingUnavailable):
        return None
    return None


def with_stored_vectors(context: AppContext) -> AppContext:
    """Under `hybrid`, the context answering with it at once when every passage's
    vectors are stored already (a warm start: the model and the vectors are read, nothing
    is embedded); else `context` as it is, to be embedded in the background."""
    if context.choice.mode != "hybrid" or context.vectors is not None:
        return context
    from tui_assistant.store.vectors import stored_vectors

    identity = embedding_identity(context)
    if identity is None:
        return context  # a server is asked, or a problem said, by the background embedding
    for part in context.library.parts.values():
        store = store_path(context.settings.data_dir, part.folder)
        stored = stored_vectors(store, part)
        if not any(model.made(identity) and model.embedded >= len(part) for model in stored):
            return context
    return context.with_vectors(context.embed(context.library)) or context
