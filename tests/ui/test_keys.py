"""The app names its keys from the bindings that handle them; the core names none."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding

from tui_assistant.core.outcome import Reason, cancelled, refused
from tui_assistant.ui.help_screen import HelpScreen
from tui_assistant.ui.keys import (
    CANCEL,
    MAIN_SCREEN,
    NEXT_PASSAGE,
    PREVIOUS_PASSAGE,
    arrow_keys,
    key_name,
    keys_for,
    status_words,
)
from tui_assistant.ui.library_report_screen import LibraryReportScreen


def test_an_ambiguous_refusal_says_which_key_steps_through_its_candidates() -> None:
    outcome = refused("eggs or pasta?", Reason.AMBIGUOUS)
    assert outcome.describe() == "refused: several passages might answer this"
    assert status_words(outcome) == "refused: several passages might answer this: ctrl+down to step"
    assert status_words(cancelled("q", None)) == "cancelled"


def test_keys_are_written_from_their_bindings() -> None:
    assert arrow_keys(NEXT_PASSAGE, PREVIOUS_PASSAGE) == "ctrl+↓↑"
    assert arrow_keys(NEXT_PASSAGE, replace(PREVIOUS_PASSAGE, key="f7")) == "ctrl+down / f7"
    assert key_name(CANCEL.key, short=True) == "esc" and key_name(CANCEL.key) == "escape"
    assert key_name("left_square_bracket") == "["
    assert keys_for(HelpScreen.BINDINGS, "close") == "escape, f1 or q"
    assert keys_for(LibraryReportScreen.BINDINGS, "close") == "escape or q"


def test_every_main_screen_key_is_one_of_its_bindings() -> None:
    assert NEXT_PASSAGE in MAIN_SCREEN and PREVIOUS_PASSAGE in MAIN_SCREEN
    assert all(isinstance(binding, Binding) and binding.id for binding in MAIN_SCREEN)
