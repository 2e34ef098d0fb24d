"""Messages inside the app: small dataclasses, one per user intent or background event.

The widgets post the user's intents (`QuestionAsked`, `PassageChosen`) up to the main
screen, which handles each with `@on`. The screen's library draws each event of the
library's life at once; one posted to the screen as a `LibraryEvent` (`post_message` is
safe from any thread) is drawn the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from tui_assistant.wiring.library_events import EmbeddingProgress, Indexing, LifecycleEvent


@dataclass
class QuestionAsked(Message):
    """The user pressed enter in the question box with a non-blank question."""

    question: str


@dataclass
class PassageChosen(Message):
    """The user picked a passage in the passage browser to read it in the evidence panel."""

    passage_id: str


@dataclass
class LibraryEvent(Message):
    """One event of the library's life (`wiring.lifecycle`)."""

    event: LifecycleEvent

    def can_replace(self, message: Message) -> bool:
        # Only the latest count matters: a newer report replaces one not yet shown.
        if not isinstance(message, LibraryEvent):
            return False
        new, old = self.event, message.event
        if isinstance(new, Indexing) and isinstance(old, Indexing):
            return new.reloading == old.reloading
        return isinstance(new, EmbeddingProgress) and isinstance(old, EmbeddingProgress)
