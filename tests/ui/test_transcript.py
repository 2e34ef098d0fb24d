"""The conversation's one owner: stored turns first, then the session's, each made once."""

from __future__ import annotations

from tui_assistant.core.outcome import Reason, cancelled, refused
from tui_assistant.core.record import Turn
from tui_assistant.ui.transcript import Transcript

ASKED_AT = "2026-01-02T03:04:05+00:00"


def test_stored_turns_come_before_the_sessions_and_only_the_session_is_followed_up() -> None:
    transcript = Transcript()
    first = cancelled("boil eggs", None)
    turn = transcript.add(first, ASKED_AT)
    stored = Turn.of(refused("an old question", Reason.NO_EVIDENCE), ASKED_AT)
    transcript.add_earlier([stored])
    assert turn == Turn.of(first, ASKED_AT)
    assert [t.question for t in transcript.turns] == ["an old question", "boil eggs"]
    # Only a question's end adds to the session; stored turns never do.
    assert transcript.session.outcomes == []
    assert transcript.holds(turn) and not transcript.holds(Turn.of(first, ASKED_AT))
    transcript.session.add(first)
    transcript.clear()
    assert transcript.turns == [] and transcript.session.outcomes == []
    assert not transcript.holds(turn)
