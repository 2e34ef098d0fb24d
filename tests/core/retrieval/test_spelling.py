"""Reading a question word no passage holds as the library's word one slip away."""

from __future__ import annotations

from collections import Counter

import pytest

from tui_assistant.core.retrieval.spelling import (
    ModelSpelling,
    Spelling,
    correct_as_typed,
    one_edit_apart,
    slip_of_stopword,
)
from tui_assistant.core.words import stem


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


@pytest.mark.parametrize(
    ("typed", "expected"),
    # A slip in an inflection: the stemmer cuts the word elsewhere ("simmerign" keeps
    # its whole self as a key), so only the word as typed is one slip from "simmering".
    [("simmerign", "simmer"), ("boilnig", "boil"), ("peelnig", "peel")],
)
def test_a_slip_inside_an_inflected_word_is_read_as_its_key(typed: str, expected: str) -> None:
    counts = Counter({"simmer": 2, "peel": 3, "egg": 9, "boil": 4})
    assert Spelling(counts).correct(stem(typed), counts.__getitem__) is None
    assert correct_as_typed(typed, stem, counts.__getitem__) == expected


def test_a_word_as_typed_is_not_read_as_one_a_changed_letter_or_its_first_letter_away() -> None:
    frequency = Counter({"boil": 4, "cook": 3, "bake": 2}).__getitem__
    assert correct_as_typed("coaking", stem, frequency) is None  # a letter changed
    assert correct_as_typed("xooking", stem, frequency) is None  # first letter
    assert correct_as_typed("boils", stem, frequency) is None  # its own key
    assert correct_as_typed("bakd", stem, frequency) is None  # too short to guess


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


# A model's whole words, and how many passages hold each key of a small library.
VOCABULARY = ["change", "order", "result", "bread", "break", "resize", "reside", "sharpen"]
LIBRARY_KEYS = {"chang": 3, "order": 5, "result": 2, "break": 4, "resid": 1, "kubernet": 7}


def model_spelling(vocabulary: list[str] = VOCABULARY) -> ModelSpelling:
    return ModelSpelling(vocabulary, lambda key: LIBRARY_KEYS.get(key, 0), stem)


def test_a_word_neither_the_model_nor_the_library_knows_goes_to_the_model_respelt() -> None:
    question = "Does the order cahnge the RESULT?"
    assert model_spelling().respelt(question) == "Does the order change the RESULT?"


def test_a_mistyped_stopword_goes_to_the_model_as_the_stopword() -> None:
    # No passage's key is a stopword; the model reads "wihch" as pieces all the same.
    assert model_spelling().respelt("wihch order, sholud I?") == "which order, should I?"


def test_words_the_model_or_the_library_knows_stay_as_typed() -> None:
    # "bread" is a word to the model though no passage holds it; the library holds
    # "kubernetes" though the model does not know it; "wiht" is too short to guess.
    question = "bake bread on kubernetes wiht care"
    assert model_spelling().respelt(question) == question


def test_a_changed_letter_is_not_read_as_a_slip() -> None:
    # "resize" is one changed letter from "reside", which both know; "rezise" is a swap.
    assert model_spelling(["reside"]).respelt("resize it") == "resize it"
    assert model_spelling().respelt("rseide here") == "reside here"


def test_without_the_models_words_a_question_goes_as_typed() -> None:
    assert model_spelling([]).respelt("does it cahnge") == "does it cahnge"
