"""Reading a question word no passage holds as the library's word one slip away."""

from __future__ import annotations

import pytest

from tui_assistant.core.retrieval.spelling import Spelling, one_edit_apart, slip_of_stopword


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


@pytest.mark.parametrize("typed", ["shuld", "sholud", "atfer", "thrugh", "whcih", "eveery"])
def test_a_mistyped_stopword_is_known_as_one(typed: str) -> None:
    assert slip_of_stopword(typed)


@pytest.mark.parametrize(
    "typed",
    # Stopwords as typed, topic words a changed letter away from one (would, while,
    # after), words a slip from a short stopword (once), and short keys.
    ["should", "world", "white", "alter", "ounce", "whch", "prune"],
)
def test_a_topic_word_is_not_taken_for_a_mistyped_stopword(typed: str) -> None:
    assert not slip_of_stopword(typed)
