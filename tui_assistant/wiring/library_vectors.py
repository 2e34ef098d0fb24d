"""A library's vectors for `hybrid`: read from its stores, the missing ones embedded
and stored, and whether a warm start finds them all stored already."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tui_assistant.core.library.library import Library
from tui_assistant.core.progress import Progress
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.errors import ConfigError, EmbeddingUnavailable, TuiAssistantError
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import store_path
from tui_assistant.wiring.embedding_status import EmbeddingMonitor
from tui_assistant.wiring.retrieval_choice import (
    RetrievalChoice,
    identity_without_loading,
    load_embedder,
)
from tui_assistant.wiring.store_setting import uses_postgres

if TYPE_CHECKING:
    from tui_assistant.core.retrieval.dense import PassageVectors
    from tui_assistant.providers.embedding import EmbeddingSource


@dataclass(frozen=True, slots=True)
class Embedded:
    """A library's vectors, and the embedding model that made them (and embeds questions);
    `parts` are the vectors of each library it is made of, by name."""

    library: Library
    embedder: EmbeddingSource
    vectors: PassageVectors
    parts: Mapping[str, PassageVectors]


def embed_library(
    settings: Settings,
    library: Library,
    choice: RetrievalChoice,
    embedder: EmbeddingSource | None,
    monitor: EmbeddingMonitor,
    progress: Progress | None = None,
) -> Embedded:
    """`library`'s vectors: stored ones read, missing ones computed and stored (each
    library of several in its own store), with `embedder`, else the model `choice` names
    (loaded now, and closed again if embedding fails). `monitor` follows the progress
    and hears of a failure."""
    # numpy loads with the first vectors, never for a start that answers by words.
    from tui_assistant.core.retrieval.dense import concatenated_vectors
    from tui_assistant.store.vectors import embed_library as embed_part

    given = embedder
    parts = list(library.parts.values())
    whole = len(library)
    # Passages of the parts embedded before the one under way.
    finished = [0]

    def told_of(part: Library) -> Progress:
        # A part counts the passages it still lacks: told as passages of the whole
        # library that have their vectors (those stored before this run included).
        def told(done: int, total: int) -> None:
            have = finished[0] + len(part) - total + done
            monitor.progress(have, whole)
            if progress is not None:
                progress(have, whole)

        return told

    try:
        if embedder is None:
            embedder = load_embedder(choice)
        vectors = {}
        for part in parts:
            vectors[part.name] = _embedded(settings, part, embedder, embed_part, told_of(part))
            finished[0] += len(part)
    except BaseException as error:
        if isinstance(error, TuiAssistantError | OSError):  # not a caller's own stop
            monitor.failed(error)
        if embedder is not given:
            close_embedder(embedder)
        raise
    union = concatenated_vectors(list(vectors.values()), [len(part) for part in parts])
    model = next(iter(vectors.values())).model
    assert model is not None
    monitor.embedded(model, len(library))
    return Embedded(library, embedder, union, vectors)


def _embedded(
    settings: Settings,
    part: Library,
    embedder: EmbeddingSource,
    embed_part: Callable[..., PassageVectors],
    told: Progress,
) -> PassageVectors:
    """One library's vectors through its store: its SQLite file, or the shared store."""
    if not uses_postgres(settings):
        return embed_part(part, embedder, store_path(settings.data_dir, part.folder), told)
    # psycopg loads only for a PostgreSQL store.
    from tui_assistant.wiring.shared_store import part_vectors

    return part_vectors(settings, part, embedder, embed_part, told)


def close_embedder(embedder: EmbeddingSource | None) -> None:
    """Let go of an embedding server's connections (a local model has none)."""
    close = getattr(embedder, "close", None)
    if close is not None:
        close()


def embedding_identity(
    choice: RetrievalChoice, embedder: EmbeddingSource | None
) -> ModelIdentity | None:
    """The identity of the vectors a `hybrid` choice answers with, when it is known
    without asking a server: the loaded source's (`embedder`), else a local model's from
    its files. None when hybrid is off, the model cannot be read, or only a server can
    tell."""
    if choice.mode != "hybrid":
        return None
    try:
        if embedder is not None:
            return embedder.identity
        if choice.server is None:
            return identity_without_loading(choice)
    except (ConfigError, EmbeddingUnavailable):
        return None
    return None


def stored_count(settings: Settings, library: Library, identity: ModelIdentity) -> int:
    """How many passages of `library` have all their vectors of the model `identity`
    names in the stores (each library of several in its own store)."""
    # numpy loads with the first vectors, never for a start that answers by words.
    from tui_assistant.store.vectors import stored_vectors

    count = 0
    for part in library.parts.values():
        if uses_postgres(settings):
            # psycopg loads only for a PostgreSQL store.
            from tui_assistant.wiring.shared_store import stored_vectors as shared_vectors

            stored = shared_vectors(settings, part)
        else:
            stored = stored_vectors(store_path(settings.data_dir, part.folder), part)
        count += max((model.embedded for model in stored if model.made(identity)), default=0)
    return count


def all_stored(settings: Settings, library: Library, identity: ModelIdentity) -> bool:
    """Whether the stores hold the vectors of every passage of `library`, made by the
    model `identity` names."""
    return stored_count(settings, library, identity) >= len(library)
