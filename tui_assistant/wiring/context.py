"""The app as wired from its settings (`AppContext`), and how a start opens one.

The CLI and the TUI both start here, so they cannot be wired differently. The parts
it is made of are built beside it: the libraries (`libraries`), their retrievers
(`retrievers`), the model provider (`provider`) and the vectors (`library_vectors`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from tui_assistant.core.conversation import Conversation
from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.library.combined import combine
from tui_assistant.core.library.library import Library
from tui_assistant.core.library.report import LibraryReport
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.progress import Progress
from tui_assistant.core.record import EmbeddingCount
from tui_assistant.core.service import AnswerService
from tui_assistant.errors import ConfigError, EmbeddingUnavailable
from tui_assistant.registry.libraries import choose_library
from tui_assistant.settings import Settings
from tui_assistant.store.gaps import record_gap
from tui_assistant.store.history import now
from tui_assistant.wiring.embedding_status import EmbeddingMonitor, monitor_for
from tui_assistant.wiring.gaps import RecordGap, gap_to_keep, keep_gap
from tui_assistant.wiring.libraries import load_library
from tui_assistant.wiring.library_vectors import (
    Embedded,
    close_embedder,
    embed_library,
    embedding_identity,
    stored_count,
)
from tui_assistant.wiring.provider import build_provider
from tui_assistant.wiring.report import describe_library
from tui_assistant.wiring.retrieval_choice import RetrievalChoice, choose_retrieval, load_embedder
from tui_assistant.wiring.retrievers import build_retriever, hybrid_retriever

if TYPE_CHECKING:
    from tui_assistant.providers.embedding import EmbeddingSource

# `load_library` and `build_retriever` are used here, and the surfaces (the TUI, the
# commands, the MCP server) import them from here with the context.
__all__ = [
    "AppContext",
    "NarrowedServices",
    "build_retriever",
    "load_library",
    "open_context",
    "with_stored_vectors",
]

logger = logging.getLogger(__name__)


class NarrowedServices:
    """The services of questions narrowed to one of several libraries, each made on
    first use and kept: a mutable cache that belongs to one context (a reload or new
    vectors make a new context, which starts with none)."""

    def __init__(self) -> None:
        self._by_name: dict[str, AnswerService] = {}

    def get(self, name: str, make: Callable[[], AnswerService]) -> AnswerService:
        """The service for library `name`, made by `make` the first time it is asked."""
        service = self._by_name.get(name)
        if service is None:
            service = self._by_name[name] = make()
        return service


@dataclass(frozen=True)
class AppContext:
    """The app as wired from its settings; it never changes. `choice` is the retrieval
    mode that runs; under `hybrid` the library answers with `ranked` until `with_vectors`
    gives the context that answers by meaning (every surface embeds in the background
    and answers meanwhile; `ask --wait` and `eval` embed before the first answer). A
    reload or new vectors make a new context; the provider is shared by all of them."""

    settings: Settings
    library: Library
    service: AnswerService
    choice: RetrievalChoice = field(default_factory=lambda: RetrievalChoice("ranked"))
    embedder: EmbeddingSource | None = None
    vectors: Embedded | None = None
    # When the library's files were read (UTC, ISO 8601).
    read_at: str = field(default_factory=now)
    # Made afresh for each context (`replace` included): never passed, never compared.
    narrowed: NarrowedServices = field(
        init=False, default_factory=NarrowedServices, compare=False, repr=False
    )
    # The embedding state every surface reads (`embedding.status()`); shared by the
    # contexts a reload or new vectors make.
    embedding: EmbeddingMonitor = field(default_factory=EmbeddingMonitor)

    @property
    def mode_label(self) -> str:
        """`deterministic`, or the model and the provider's host."""
        if self.settings.provider != "openai":
            return "deterministic"
        return f"{self.settings.model} @ {urlsplit(self.settings.base_url).hostname}"

    @property
    def retrieval(self) -> str:
        """The mode answering now (`ranked` while `hybrid` waits for its vectors)."""
        return self.service.retriever.mode

    def incomplete_vectors(self) -> EmbeddingCount | None:
        """Under `hybrid` while this context answers by words, how many of the library's
        passages have their vectors (as far as the embedding has told); None when it
        answers by meaning or its retrieval needs no vectors."""
        if self.choice.mode != "hybrid" or self.vectors is not None:
            return None
        status = self.embedding.status()
        total = len(self.library)
        done = status.done if status.total == total and status.phase != "ready" else 0
        return EmbeddingCount(done=min(done, total), total=total)

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
        return embed_library(
            self.settings, library, self.choice, self.embedder, self.embedding, progress
        )

    def with_vectors(self, embedded: Embedded) -> AppContext | None:
        """The context answering with `hybrid`, if `embedded` holds the vectors of the
        library this one answers from (a reload meanwhile makes them stale: None)."""
        if embedded.library is not self.library:
            return None
        retriever = hybrid_retriever(
            embedded.library, embedded.vectors, embedded.embedder, self.embedding
        )
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
        return self.narrowed.get(name, partial(self._narrowed_to, name))

    def _narrowed_to(self, name: str) -> AnswerService:
        view = combine([self.library.parts[name]])
        retriever = build_retriever(self.settings, view)
        if self.vectors is not None and self.embedder is not None:
            retriever = hybrid_retriever(
                view, self.vectors.parts[name], self.embedder, self.embedding
            )
        return self.service.with_retriever(retriever)

    def conclude(
        self,
        outcome: Outcome,
        conversation: Conversation | None = None,
        library: str | None = None,
        *,
        write: Callable[[Callable[[], None]], object] | None = None,
        record: RecordGap = record_gap,
    ) -> None:
        """The one end of a finished question, on every surface (`ask`, the MCP tools,
        the TUI). `outcome` becomes the next turn of `conversation` (what follow-ups
        look back at), at once. A question the documents could not answer is kept among
        the gaps, if `TUI_ASSISTANT_GAPS` allows, in the library of the passage it came
        nearest to, else in each library it searched (`library`, or every one). That
        writes a file: now, or handed to `write` (the TUI's worker thread), by `record`
        (a server's `GapWriter.put` queues it). A write that fails is a warning, never
        the caller's error."""
        if conversation is not None:
            conversation.add(outcome)
        found = gap_to_keep(self.settings, outcome)
        if found is None:
            return
        keep = partial(keep_gap, self.settings, self.library, found, library, record)
        if write is None:
            keep()
        else:
            write(keep)

    def reports(self) -> list[LibraryReport]:
        """The report of each library answering now (reads the stores: off the event loop)."""
        return [
            describe_library(self.settings, part, self.choice, self.retrieval, self.embedder)
            for part in self.library.parts.values()
        ]

    async def aclose(self) -> None:
        closer = getattr(self.service.provider, "aclose", None)
        if closer is not None:
            await closer()
        close_embedder(self.embedder)


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


def with_stored_vectors(context: AppContext) -> AppContext:
    """Under `hybrid`, the context answering with it at once when every passage's
    vectors are stored already (a warm start: the model and the vectors are read, nothing
    is embedded); else `context` as it is, to be embedded in the background."""
    if context.choice.mode != "hybrid" or context.vectors is not None:
        return context
    identity = embedding_identity(context.choice, context.embedder)
    if identity is None:
        return context  # a server is asked, or a problem said, by the background embedding
    stored = stored_count(context.settings, context.library, identity)
    if stored < len(context.library):
        # How far they are, for every surface to say before the embedding tells more.
        context.embedding.counted(stored, len(context.library))
        return context
    return context.with_vectors(context.embed(context.library)) or context
