"""Reading a question word no passage holds as the library's word one slip away."""

from __future__ import annotations

import pytest

from tui_assistant.core.retrieval.spelling import Spelling, one_edit_apart


@pytest.mark.parametrize(
    ("typed", "known"),
    [("punctru", "punctur"), ("happn", "happen"), ("brakke", "brake"), ("recieve", "receive")],
)
def test_one_slip_apart(typed: str, known: str) -> None:
    assert one_edit_apart(typed, known) and one_edit_apart(known, typed)


@pytest.mark.parametrize(
    ("typed", "known"), [("prune", "prune"), ("prune", "brunei"), ("trees", "terse")]
)
def test_not_one_slip_apart(typed: str, known: str) -> None:
    assert not one_edit_apart(typed, known)


def test_the_key_more_passages_hold_wins_and_short_words_stay_as_typed() -> None:
    counts = {"chain": 3, "chair": 9, "boil": 4}
    spelling = Spelling(counts)
    assert spelling.correct("chaij", counts.__getitem__) == "chair"
    assert spelling.correct("bol", counts.__getitem__) is None  # too short to guess
    assert spelling.correct("xhain", counts.__getitem__) is None  # first letter kept
    assert spelling.correct("zebra", counts.__getitem__) is None
