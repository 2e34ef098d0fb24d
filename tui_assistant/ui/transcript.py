"""The conversation's one owner: every turn on screen, and this session's outcomes.

Stored turns (read back from the history) come first, then this session's. Each
outcome becomes its `Turn` (its record, as history keeps it) once, here; export and
copy read these turns, and follow-ups ("repeat that") look back through the session's
outcomes, which history never feeds (history is never evidence).
"""

from __future__ import annotations

from collections.abc import Sequence

from tui_assistant.core.conversation import Conversation
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.record import Turn


class Transcript:
    def __init__(self) -> None:
        self._turns: list[Turn] = []
        self.session = Conversation()

    @property
    def turns(self) -> Sequence[Turn]:
        """Every turn, oldest first."""
        return list(self._turns)

    def add(self, outcome: Outcome, asked_at: str) -> Turn:
        """The turn of one outcome of this session, kept to show (the question's end,
        `AppContext.conclude`, adds the outcome to `session`)."""
        turn = Turn.of(outcome, asked_at)
        self._turns.append(turn)
        return turn

    def holds(self, turn: Turn) -> bool:
        return any(kept is turn for kept in reversed(self._turns))

    def add_earlier(self, turns: Sequence[Turn]) -> None:
        """Turns from the stored history, older than anything of this session."""
        self._turns[:0] = turns

    def clear(self) -> None:
        self._turns.clear()
        self.session.clear()
