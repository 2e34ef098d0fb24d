"""The events of the library's life (`lifecycle.LibraryLifecycle`), each a frozen
dataclass delivered to its owner's callback on the owner's event loop."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.library.changes import PassageChanges
from tui_assistant.wiring.context import AppContext
from tui_assistant.wiring.embedding_status import EmbeddingStatus


@dataclass(frozen=True, slots=True)
class Indexing:
    """Files read so far by the first load, or by a reload."""

    done: int
    total: int
    reloading: bool


@dataclass(frozen=True, slots=True)
class Loaded:
    """The first load is done: the context answering now (with hybrid already when every
    vector was stored)."""

    context: AppContext


@dataclass(frozen=True, slots=True)
class LoadFailed:
    """A load or reload ended with `error`; `reason` is its one line. A failed reload
    leaves the loaded library answering."""

    error: Exception
    reason: str
    reloading: bool


@dataclass(frozen=True, slots=True)
class Reloaded:
    """The library read again is swapped in; `changes` counts what came and went."""

    context: AppContext
    changes: PassageChanges


@dataclass(frozen=True, slots=True)
class EmbeddingProgress:
    """Passages embedded so far."""

    done: int
    total: int


@dataclass(frozen=True, slots=True)
class HybridOn:
    """Every passage has its vectors: `context` answers with hybrid."""

    context: AppContext


@dataclass(frozen=True, slots=True)
class EmbeddingFailed:
    """Embedding stopped; the library keeps answering lexically. `reason` is one line;
    `status` the embedding state it left (a server's problem stays in it)."""

    reason: str
    status: EmbeddingStatus


@dataclass(frozen=True, slots=True)
class ChangedOnDisk:
    """Documents or folders of a library changed (paths relative to its folder)."""

    paths: frozenset[str]


@dataclass(frozen=True, slots=True)
class WatchFailed:
    """A library folder cannot be watched; `reason` is one line."""

    folder: Path
    reason: str


@dataclass(frozen=True, slots=True)
class EmbeddingStatusChanged:
    """The embedding source's problem came or went (`status.problem`): an embedding
    server unreachable, a question it could not embed."""

    status: EmbeddingStatus


LifecycleEvent = (
    Indexing
    | Loaded
    | LoadFailed
    | Reloaded
    | EmbeddingProgress
    | HybridOn
    | EmbeddingFailed
    | ChangedOnDisk
    | WatchFailed
    | EmbeddingStatusChanged
)
