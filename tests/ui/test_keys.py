"""The app names its keys from the bindings that handle them; the core names none."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import not_found
from tui_assistant.core.retrieval.types import NoEvidence
from tui_assistant.ui.dialogs.help_screen import HelpScreen
from tui_assistant.ui.dialogs.library_report_screen import LibraryReportScreen
from tui_assistant.ui.keys import (
    CANCEL,
    MAIN_SCREEN,
    NEXT_PASSAGE,
    PREVIOUS_PASSAGE,
    arrow_keys,
    key_name,
    keys_for,
)


def test_an_unsure_outcome_says_how_many_possible_passages_and_names_no_key() -> None:
    candidates = tuple(
        Passage(id=name, title=name, text="Boil it.", source_path=f"{name}.md")
        for name in ("a", "b", "c")
    )
    unsure = not_found("eggs or pasta?", NoEvidence("close", candidates, ambiguous=True))
    assert unsure.describe() == "not sure: 3 possible passages, best first"
    one = not_found("eggs?", NoEvidence("close", candidates[:1], ambiguous=True))
    assert one.describe() == "not sure: 1 possible passage, best first"
    assert not any(binding.key in unsure.describe() for binding in MAIN_SCREEN)


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
