"""The keyword rule, one test per clause, so breaking any clause fails a test."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from tests.helpers import BUNDLED_LESSONS, memory_library
from tui_assistant.core.retrieval import Evidence, KeywordRetriever

MakeLibrary = Callable[[Mapping[str, tuple[str, str]]], Path]


def retrieve(folder: Path, question: str) -> Evidence | None:
    return KeywordRetriever(memory_library(folder)).retrieve(question)


def winner(folder: Path, question: str) -> str | None:
    evidence = retrieve(folder, question)
    return evidence.passage.id if evidence else None


def test_the_pasta_water_question_finds_the_pasta_lesson() -> None:
    evidence = retrieve(BUNDLED_LESSONS, "How much salt should I add to pasta water?")
    assert evidence is not None
    assert evidence.passage.id == "pasta-water"
    assert evidence.passage.source_path == "lessons/pasta-water.md"


def test_unrelated_question_finds_nothing_in_bundled_lessons() -> None:
    assert retrieve(BUNDLED_LESSONS, "What is the capital of France?") is None


def test_repeating_a_question_word_does_not_raise_a_score(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "alpha": ("Alpha", "Salt and pepper."),
            "beta": ("Beta", "Pepper, thyme and garlic."),
        }
    )
    # Counted by occurrence, "salt" x3 would make alpha win 4 to 3.
    assert winner(folder, "salt salt salt pepper thyme garlic") == "beta"


def test_repeating_a_word_in_a_lesson_does_not_raise_its_score(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "alpha": ("Alpha", "Salt salt salt salt salt and pepper pepper."),
            "beta": ("Beta", "Salt, pepper and thyme."),
        }
    )
    assert winner(folder, "salt pepper thyme") == "beta"


def test_a_title_word_scores_two_and_a_body_word_one(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "titled": ("Salt and pepper", "Nothing else here."),
            "wordy": ("Kitchen notes", "Salt, pepper and thyme."),
        }
    )
    evidence = retrieve(folder, "salt pepper thyme")
    assert evidence is not None
    assert (evidence.passage.id, evidence.score, evidence.runner_up_score) == ("titled", 4, 3)


def test_a_word_in_title_and_body_counts_once(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "both": ("Salt", "Salt and pepper."),
            "body": ("Kitchen notes", "Salt, pepper and thyme."),
        }
    )
    # 2 (salt, title) + 1 (pepper) = 3 ties with 1 + 1 + 1 = 3: no lesson.
    assert winner(folder, "salt pepper thyme") is None


def test_one_matching_word_is_never_enough(make_library: MakeLibrary) -> None:
    folder = make_library({"salt": ("Salt", "All about salt and nothing more.")})
    assert winner(folder, "salt") is None
    assert winner(folder, "salt crystals") is None
    assert winner(folder, "salt nothing") == "salt"


def test_a_tie_at_the_best_score_returns_no_lesson(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "first": ("First", "Boil the eggs."),
            "second": ("Second", "Boil more eggs."),
            "third": ("Third", "Something else."),
        }
    )
    assert winner(folder, "boil eggs") is None


def test_a_tie_below_the_best_score_does_not_matter(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "best": ("Boiling eggs", "Boil the eggs for six minutes."),
            "second": ("Second", "Boil more eggs."),
            "third": ("Third", "Boil eggs too."),
        }
    )
    assert winner(folder, "boil eggs six minutes") == "best"


def test_stopwords_never_count_as_matches(make_library: MakeLibrary) -> None:
    folder = make_library({"note": ("What is this", "It is what it is, and how.")})
    assert winner(folder, "what is it and how is this") is None


def test_suffix_rules_let_inflections_meet(make_library: MakeLibrary) -> None:
    folder = make_library({"eggs": ("Boiling eggs", "Cook them."), "other": ("Knives", "Sharpen.")})
    assert winner(folder, "boiled egg") == "eggs"
    assert winner(folder, "sharpening knife") == "other"


def test_matching_is_by_whole_words_not_substrings(make_library: MakeLibrary) -> None:
    folder = make_library({"rock": ("Rocks", "Basalt is a dark volcanic rock.")})
    assert winner(folder, "salt rock") is None
    assert winner(folder, "basalt rock") == "rock"


def test_evidence_lists_matched_words_in_question_order(make_library: MakeLibrary) -> None:
    folder = make_library({"eggs": ("Boiling eggs", "Six minutes for a runny yolk.")})
    evidence = retrieve(folder, "Runny yolk: how many minutes to boil eggs?")
    assert evidence is not None
    assert evidence.matched_words == ("runny", "yolk", "minut", "boil", "egg")
    assert evidence.runner_up_score is None
