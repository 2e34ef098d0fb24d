"""Assemble the app from settings: library, retriever, provider, service.

The CLI and the TUI both start here, so they cannot be wired differently. The
provider module (and httpx) is imported only in model mode, to keep start-up fast.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.gaps import GapList, gap_of, group_gaps
from tui_assistant.core.library.library import Library
from tui_assistant.core.library.report import LibraryReport, StoreFacts, VectorFacts, build_report
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import Retriever
from tui_assistant.core.service import AnswerProvider, AnswerService
from tui_assistant.core.words import stem
from tui_assistant.errors import ConfigError
from tui_assistant.settings import Settings
from tui_assistant.store.gaps import gaps_path, read_gaps, record_gap
from tui_assistant.store.history import now
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

        embedder = self.embedder if self.embedder is not None else load_embedder(self.choice)
        parts = list(library.parts.values())
        vectors = {
            part.name: embed_library(
                part, embedder, store_path(self.settings.data_dir, part.folder), progress
            )
            for part in parts
        }
        union = concatenated_vectors(list(vectors.values()), [len(part) for part in parts])
        return Embedded(library, embedder, union, vectors)

    def with_vectors(self, embedded: Embedded) -> AppContext | None:
        """The context answering with `hybrid`, if `embedded` holds the vectors of the
        library this one answers from (a reload meanwhile makes them stale: None)."""
        if embedded.library is not self.library:
            return None
        retriever = _hybrid(embedded.library, embedded.vectors, embedded.embedder)
        service = self.service.with_retriever(retriever)
        return replace(self, service=service, embedder=embedded.embedder, vectors=embedded)

    def service_for(self, name: str | None) -> AnswerService:
        """The service answering a question over every library (`name` None), or one of
        several narrowed to library `name`; `LookupError` (one line) for an unknown name."""
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
                retriever = _hybrid(view, self.vectors.parts[name], self.embedder)
            narrowed = self._narrowed[name] = self.service.with_retriever(retriever)
        return narrowed

    def record_gap(self, outcome: Outcome, library: str | None = None) -> None:
        """Keep `outcome` among the questions the documents could not answer, if it is
        one and `TUI_ASSISTANT_GAPS` allows: in the library of the passage it came
        nearest to, else in each library it searched (`library`, or every one). A write
        that fails is a warning, never the caller's error."""
        if not self.settings.gaps:
            return
        found = gap_of(outcome, now())
        if found is None:
            return
        near, gap = found
        names = [near] if near is not None else [library] if library else list(self.names)
        for name in names:
            part = self.library.parts.get(name or "")
            if part is None and not self.library.combined:
                part = self.library
            if part is None:
                continue
            try:
                record_gap(gaps_path(self.settings.data_dir, part.folder), gap)
            except OSError as error:
                logger.warning("question not kept in gaps (%s)", error.strerror or error)

    def reports(self) -> list[LibraryReport]:
        """The report of each library answering now (reads the stores: off the event loop)."""
        model_id = self.embedder.model_id if self.embedder is not None else None
        return [
            describe_library(self.settings, part, self.choice, self.retrieval, model_id)
            for part in self.library.parts.values()
        ]

    async def aclose(self) -> None:
        closer = getattr(self.service.provider, "aclose", None)
        if closer is not None:
            await closer()


def library_folder(settings: Settings) -> Path:
    """The (first) library's folder."""
    return settings.libraries[0].folder


def library_folders(settings: Settings) -> tuple[Path, ...]:
    return tuple(spec.folder for spec in settings.libraries)


def load_library(settings: Settings, progress: Progress | None = None) -> Library:
    """The library from its folder, through the index store in the data folder; several
    libraries as one (`combined.combine`), each through its own store."""
    parts: list[Library] = []
    try:
        for spec in settings.libraries:
            parts.append(
                open_library(
                    spec.folder,
                    settings.data_dir,
                    stem,
                    progress,
                    settings.document_kinds,
                    name=spec.name,
                )
            )
    except BaseException:
        for part in parts:
            part.close()
        raise
    if len(parts) == 1:
        return parts[0]
    from tui_assistant.core.library.combined import combine

    return combine(parts)


def _hybrid(library: Library, vectors: PassageVectors, embedder: EmbeddingSource) -> Retriever:
    from tui_assistant.core.retrieval.hybrid import HybridRetriever

    return HybridRetriever(library, vectors, lambda question: embedder.embed([question])[0])


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


def with_stored_vectors(context: AppContext) -> AppContext:
    """Under `hybrid`, the context answering with it at once when every passage's
    vectors are stored already (a warm start: the model and the vectors are read, nothing
    is embedded); else `context` as it is, to be embedded in the background."""
    if context.choice.mode != "hybrid" or context.vectors is not None:
        return context
    from tui_assistant.store.vectors import stored_vectors

    try:
        model = (
            context.embedder.model_id
            if context.embedder is not None
            else model_id_without_loading(context.choice)
        )
    except ConfigError:
        return context  # the background embedding says why
    for part in context.library.parts.values():
        store = store_path(context.settings.data_dir, part.folder)
        stored_model, embedded = stored_vectors(store, part)
        if stored_model != model or embedded < len(part):
            return context
    return context.with_vectors(context.embed(context.library)) or context


def list_gaps(settings: Settings, library: str | None = None, limit: int | None = None) -> GapList:
    """The questions the libraries could not answer, grouped (`gaps`); `library` narrows
    to one of them by name (`LookupError` for an unknown one). Reads no library."""
    specs = settings.libraries
    chosen = [spec for spec in specs if library is None or spec.name == library]
    if not chosen:
        names = ", ".join(spec.name for spec in specs)
        raise LookupError(
            f"no library is named {shortened(one_line(library or ''), 60)}"
            f" (the libraries are {names})"
        )
    return group_gaps(
        [(spec.name, read_gaps(gaps_path(settings.data_dir, spec.folder))) for spec in chosen],
        prefix_ids=len(specs) > 1,
        limit=limit,
    )


def describe_library(
    settings: Settings,
    library: Library,
    choice: RetrievalChoice,
    retrieval: str,
    model_id: str | None = None,
) -> LibraryReport:
    """The report of `library` (read from one folder) as loaded with `settings`, from
    what the data folder holds: nothing is embedded, and no model is loaded (`model_id`
    names the loaded one, else it comes from the model's weights hash). `retrieval` is
    the mode answering now."""
    store = store_path(settings.data_dir, library.folder)
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
