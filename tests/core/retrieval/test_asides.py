"""Clauses of a question in which the library knows no word are asides: their words are
not counted as words the library lacks."""

from __future__ import annotations

from tui_assistant.core.retrieval.asides import aside_keys, clauses
from tui_assistant.core.words import content_words, stem


def asides_of(question: str, known: set[str]) -> set[str]:
    read = {stem(word): stem(word) for word in content_words(question)}
    return set(aside_keys(question, stem, read, known))


def test_clauses_split_at_punctuation_brackets_and_dashes_but_not_inside_names() -> None:
    assert clauses("newbie here. how do i prune, i'm on a mac (sorry) - thanks!") == [
        "newbie here",
        "how do i prune",
        "i'm on a mac ",
        "sorry",
        "thanks",
    ]
    assert clauses("what does attrs.evolve return at 12:30, a,b?") == [
        "what does attrs.evolve return at 12:30",
        "a,b",
    ]


def test_a_clause_with_no_known_word_beside_one_with_a_known_word_is_an_aside() -> None:
    known = {stem("prune"), stem("apple")}
    assert asides_of("newbie here. when do i prune apple trees", known) == {stem("newbie")}


def test_an_unknown_word_in_the_clause_that_names_the_topic_is_no_aside() -> None:
    known = {stem("prune")}
    assert asides_of("how do i prune kubernetes pods", known) == set()


def test_a_question_the_library_knows_no_word_of_has_no_aside() -> None:
    assert asides_of("newbie here. how do i deploy kubernetes", {stem("prune")}) == set()


def test_a_word_also_written_in_a_known_clause_is_no_aside() -> None:
    known = {stem("prune")}
    assert asides_of("kubernetes, argh. how do i prune kubernetes", known) == {stem("argh")}


def test_a_dropped_word_is_not_counted() -> None:
    read: dict[str, str | None] = {"prune": "prune", "shuld": None}
    assert aside_keys("prune it. shuld", stem, read, {"prune"}) == frozenset()
