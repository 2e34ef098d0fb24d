"""Messages inside the app: small dataclasses, one per user intent or background event.

The widgets post the user's intents (`QuestionAsked`, `PassageChosen`); the library's
loading worker posts its progress and result from its thread (`post_message` is safe
there), and the app handles each with `@on`.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from tui_assistant.core.library.changes import PassageChanges
from tui_assistant.core.library.library import Library
from tui_assistant.wiring.context import AppContext, Embedded
from tui_assistant.wiring.embedding_status import EmbeddingStatus


@dataclass
class QuestionAsked(Message):
    """The user pressed enter in the question box with a non-blank question."""

    question: str


@dataclass
class PassageChosen(Message):
    """The user picked a passage in the passage browser to read it in the evidence panel."""

    passage_id: str


@dataclass
class LibraryProgress(Message):
    """Files read so far by the first load, or by a reload."""

    done: int
    total: int
    reloading: bool

    def can_replace(self, message: Message) -> bool:
        # Only the latest count matters: a newer report replaces one not yet shown.
        return isinstance(message, LibraryProgress) and message.reloading == self.reloading


@dataclass
class LibraryLoaded(Message):
    """The first load is done: the library and the service answering from it."""

    context: AppContext


@dataclass
class LibraryReloaded(Message):
    """A reload read the library again; the app swaps it in. `changes` counts the
    passages that came in and went away."""

    library: Library
    changes: PassageChanges


@dataclass
class LibraryFailed(Message):
    """Loading ended with `error` (any exception); `reason` is its one-line wording."""

    error: Exception
    reason: str
    reloading: bool


@dataclass
class EmbeddingProgress(Message):
    """Passages embedded so far for semantic retrieval."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, EmbeddingProgress)


@dataclass
class EmbeddingReady(Message):
    """Every passage is embedded; `retrieval` names the retrieval now in use."""

    retrieval: str


@dataclass
class VectorsComputed(Message):
    """A library's vectors are computed (or read back from the store)."""

    embedded: Embedded


@dataclass
class EmbeddingFailed(Message):
    """Embedding stopped; the library keeps answering lexically. `reason` is one line."""

    reason: str


@dataclass
class EmbeddingTrouble(Message):
    """The embedding source's problem came or went (`status.problem`); posted from
    whichever thread saw it."""

    status: EmbeddingStatus
