"""Adjacent word pairs: the question's wording as written, found or not in a passage."""

from __future__ import annotations

import pytest

from tui_assistant.core.retrieval.word_pairs import (
    BINDING,
    adjacent_pairs,
    key_sequence,
    pair_share,
    passage_pairs,
    question_pairs,
)
from tui_assistant.core.words import STOPWORDS, stem


def test_a_sequence_keeps_stopwords_as_they_are_and_keys_content_words() -> None:
    assert key_sequence("Time off after pages", stem) == ["tim", "off", "after", "pag"]


def test_a_lone_letter_parts_its_neighbours_and_a_dropped_word_joins_them() -> None:
    assert adjacent_pairs(key_sequence("ctrl x tab", stem)) == set()
    joined = key_sequence("bind trying tab", stem, lambda key: key == "try")
    assert adjacent_pairs(joined) == {("bind", "tab")}


def test_two_stopwords_side_by_side_are_no_pair() -> None:
    assert adjacent_pairs(key_sequence("is it off", stem)) == set()
    assert adjacent_pairs(key_sequence("time off", stem)) == {("tim", "off")}


def test_only_words_that_bind_make_a_question_pair() -> None:
    weights = {"licens": 3.0, "django": 0.5, "distribut": 2.0}
    found = question_pairs("Which license is Django distributed under?", stem, weights)
    # "license is" and "is Django": an auxiliary binds to nothing in particular, and
    # parts the words beside it.
    assert found == {("django", "distribut"): 2.5, ("distribut", "under"): 2.0}


def test_a_question_pair_is_of_its_words_as_the_ranking_reads_them() -> None:
    weights = {"long": 1.0, "night": 2.0, "pag": 1.5}
    read = {"nihgt": "night", "shuld": None}
    found = question_pairs(
        "a long nihgt page shuld pay", stem, weights, lambda key: read.get(key, key)
    )
    # The misspelt word is read as the library's, and the mistyped stopword, which the
    # ranking leaves out, parts "page" from "pay".
    assert found == {("long", "night"): 3.0, ("night", "pag"): 3.5}


def test_binding_words_are_stopwords() -> None:
    assert BINDING <= STOPWORDS


def test_a_passage_has_no_pair_across_its_title_and_text() -> None:
    assert passage_pairs("Night", "pages wake", stem) == {("pag", "wak")}


def test_the_share_is_of_the_question_pair_weight_the_passage_holds() -> None:
    question = {("long", "night"): 3.0, ("night", "pag"): 1.0}
    assert pair_share(question, passage_pairs("", "a long night", stem)) == pytest.approx(0.75)
    assert pair_share(question, passage_pairs("", "night, long", stem)) == 0.0
    assert pair_share({}, passage_pairs("", "a long night", stem)) == 0.0
