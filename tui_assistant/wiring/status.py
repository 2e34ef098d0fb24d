"""What the app answering now is made of, per library: the `status` command and tool.

For each library: its documents and passages, how many passages have their vectors
ready and of which model, when its files were read, whether they are watched, and the
retrieval answering now; for a fetched library, its package, version, origin and when
it was fetched, so an answer's freshness can be told. Reads the stores (stored vectors
are counted, nothing is embedded): call it off the event loop.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.registry.libraries import fetched_origin
from tui_assistant.store.index_store import store_path
from tui_assistant.wiring.context import AppContext
from tui_assistant.wiring.library_vectors import embedding_identity
from tui_assistant.wiring.store_setting import shown_store, uses_postgres


class LibraryStatus(BaseModel):
    name: str = Field(description="the library's name, as `search` and `gaps` take it")
    documents: int
    passages: int
    vectors: int = Field(
        description="passages whose vectors are ready (hybrid retrieval needs all of them)"
    )
    embedding_model: str | None = Field(
        description="the sentence-embedding model of those vectors; null when hybrid is off"
    )
    read_at: str = Field(description="when the library's files were last read (UTC, ISO 8601)")
    watch: bool = Field(description="whether files that change are read again by themselves")
    retrieval: str = Field(description="the retrieval mode answering now")
    embedding_problem: str | None = Field(
        default=None,
        description="why passages or questions cannot be embedded now (one line); null when fine",
    )
    package: str | None = Field(
        default=None, description="the package a fetched library is of; null for a folder"
    )
    version: str | None = Field(
        default=None, description="the package's version; null for a folder"
    )
    origin: str | None = Field(
        default=None,
        description="where a fetched library came from: pypi, npm, web or git; null for a folder",
    )
    fetched_at: str | None = Field(
        default=None,
        description="when a fetched library was fetched (UTC, ISO 8601); null for a folder",
    )
    embedding_per_second: float | None = Field(
        default=None,
        description="while passages are embedded: how many a second, lately",
    )
    embedding: EmbeddingProgressFacts | None = Field(
        default=None,
        description="while the vectors are incomplete (answered by words meanwhile): how "
        "far they are, how fast and how long is left; null when complete or not needed",
    )
    store: str = Field(
        default="sqlite",
        description="where the index is kept: sqlite, or the PostgreSQL URL, password masked",
    )


class EmbeddingProgressFacts(BaseModel):
    done: int = Field(description="the library's passages whose vectors are computed")
    total: int = Field(description="the library's passages")
    rate: float | None = Field(
        description="passages embedded a second lately; null when none is being embedded now"
    )
    eta_seconds: float | None = Field(
        description="seconds left at that rate; null when it cannot be told"
    )


class StatusResult(BaseModel):
    libraries: list[LibraryStatus]


def status_of(context: AppContext, watching: bool) -> StatusResult:
    """Each library of `context` as it answers now; `watching` says whether this process
    reads changed files again by itself."""
    identity = embedding_identity(context.choice, context.embedder)
    embedding = context.embedding.status()
    if identity is not None:
        model: str | None = identity.name
    elif context.choice.server is not None:
        model = context.choice.server.model
    else:
        model = None
    store = shown_store(context.settings)
    libraries = []
    for name, part in context.library.parts.items():
        ready = _vectors_ready(context, part, identity)
        embedding_now = embedding.phase == "embedding"
        rate = round(embedding.per_second, 1) if embedding_now and embedding.per_second else None
        eta = embedding.eta_seconds if embedding_now and rate else None
        incomplete = context.choice.mode == "hybrid" and ready < len(part)
        libraries.append(
            LibraryStatus(
                name=name,
                documents=len(part.documents),
                passages=len(part),
                vectors=ready,
                embedding_model=model,
                read_at=context.read_at,
                watch=watching,
                retrieval=context.retrieval,
                embedding_problem=embedding.problem,
                **fetched_origin(part.folder),
                embedding_per_second=rate,
                embedding=EmbeddingProgressFacts(
                    done=ready,
                    total=len(part),
                    rate=rate,
                    eta_seconds=round(eta) if eta is not None else None,
                )
                if incomplete
                else None,
                store=store,
            )
        )
    return StatusResult(libraries=libraries)


def _vectors_ready(context: AppContext, part: Library, identity: ModelIdentity | None) -> int:
    """All of the library's passages once hybrid answers; before, those whose vectors
    of `identity` are in the store already."""
    if context.vectors is not None:
        return len(part)
    if identity is None:
        return 0
    if uses_postgres(context.settings):
        # psycopg loads only for a PostgreSQL store.
        from tui_assistant.wiring.shared_store import stored_vectors as shared_vectors

        stored = shared_vectors(context.settings, part)
    else:
        # numpy loads with the first vectors, never for a start that answers by words.
        from tui_assistant.store.vectors import stored_vectors

        stored = stored_vectors(store_path(context.settings.data_dir, part.folder), part)
    return max((model.embedded for model in stored if model.made(identity)), default=0)
