"""Ranked retrieval (`TUI_ASSISTANT_RETRIEVAL=ranked`): BM25F ranking that still refuses.

Also pins `keyword` results, because ranked-only query processing must never change them.
"""

from __future__ import annotations

import builtins
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import memory_library
from tui_assistant.context import build_retriever
from tui_assistant.core.library import Library
from tui_assistant.core.passages import Passage
from tui_assistant.core.ranked import RankedRetriever
from tui_assistant.core.retrieval import KeywordRetriever
from tui_assistant.settings import Settings

MakeLibrary = Callable[[Mapping[str, tuple[str, str]]], Path]
PROJECT_ROOT = Path(__file__).resolve().parent.parent
BUNDLED_LESSONS = PROJECT_ROOT / "lessons"
DJANGO_FAQ_CASES = PROJECT_ROOT / "eval" / "django-faq.jsonl"
DJANGO_FAQ_LESSONS = PROJECT_ROOT / "eval" / "django-faq-lessons"

# Six lessons that all mention knives: "knife" says little here, "ceramic" a lot.
KITCHEN = {
    "ceramic-knives": (
        "Brittle blades",
        "A ceramic knife keeps its edge for a long time but chips if you twist it.",
    ),
    "whetstones": (
        "Whetstones",
        "Sharpen a steel knife on a whetstone, keeping the same angle on every stroke.",
    ),
    "honing": ("Honing", "Hone a knife on a steel rod; honing is not the same as sharpening."),
    "storage": ("Knife storage", "Keep each knife in a block or on a magnetic strip."),
    "boards": ("Cutting boards", "Cut on wood so the knife edge lasts; glass dulls a knife."),
    "bread": ("Bread knives", "A serrated knife saws through crust without crushing the crumb."),
}


def retrievers(folder: Path) -> tuple[KeywordRetriever, RankedRetriever]:
    library = memory_library(folder)
    return KeywordRetriever(library), RankedRetriever(library)


def test_ranked_picks_the_lesson_with_the_rare_word_where_keyword_ties(
    make_library: MakeLibrary,
) -> None:
    keyword, ranked = retrievers(make_library(KITCHEN))
    question = "How do I sharpen a ceramic knife?"
    # keyword: ceramic-knives and whetstones both match two distinct words (a tie).
    assert keyword.retrieve(question) is None
    evidence = ranked.retrieve(question)
    assert evidence is not None
    assert evidence.passage.id == "ceramic-knives"


def test_ranked_answers_a_one_word_question_that_keyword_refuses(
    make_library: MakeLibrary,
) -> None:
    keyword, ranked = retrievers(make_library(KITCHEN))
    assert keyword.retrieve("Tell me about serrated blades") is None
    evidence = ranked.retrieve("serrated")
    assert evidence is not None
    assert evidence.passage.id == "bread"
    assert evidence.matched_words == ("serrat",)


def test_evidence_reports_matched_words_score_and_runner_up(make_library: MakeLibrary) -> None:
    _, ranked = retrievers(make_library(KITCHEN))
    evidence = ranked.retrieve("Which knife edge chips on a ceramic board?")
    assert evidence is not None
    assert evidence.passage.id == "ceramic-knives"
    # Matched words come in question order, as normalised keys.
    assert evidence.matched_words == ("knif", "edg", "chip", "ceramic")
    assert evidence.runner_up_score is not None
    assert evidence.score > evidence.runner_up_score > 0


def test_runner_up_is_none_when_only_one_lesson_matches(make_library: MakeLibrary) -> None:
    _, ranked = retrievers(make_library(KITCHEN))
    evidence = ranked.retrieve("magnetic strip")
    assert evidence is not None
    assert evidence.passage.id == "storage"
    assert evidence.runner_up_score is None


def test_an_exact_tie_at_the_top_refuses(make_library: MakeLibrary) -> None:
    twins = {
        "first": ("Resting dough", "Rest the dough for an hour before rolling it out."),
        "second": ("Resting dough", "Rest the dough for an hour before rolling it out."),
        "other": ("Pastry", "Keep butter cold when making pastry."),
    }
    _, ranked = retrievers(make_library(twins))
    assert ranked.retrieve("How long should dough rest before rolling?") is None


def test_a_runner_up_within_the_margin_refuses(make_library: MakeLibrary) -> None:
    close = {
        "stock": ("Chicken stock", "Simmer chicken bones with onion for three hours."),
        "soup": ("Chicken soup", "Simmer chicken with onion and carrot for one hour."),
        "bread": ("Bread", "Bake bread in a hot oven."),
    }
    library = memory_library(make_library(close))
    question = "How long do I simmer chicken bones?"
    confident = RankedRetriever(library, min_margin=0.0, min_matched_share=0.0)
    evidence = confident.retrieve(question)
    assert evidence is not None and evidence.runner_up_score is not None
    margin = (evidence.score - evidence.runner_up_score) / evidence.score
    strict = RankedRetriever(library, min_margin=margin + 0.05, min_matched_share=0.0)
    assert strict.retrieve(question) is None


def test_too_little_of_the_question_matched_refuses(make_library: MakeLibrary) -> None:
    _, ranked = retrievers(make_library(KITCHEN))
    # Only "knife" matches; "oxtail", "braise" and "marrow" appear nowhere.
    assert ranked.retrieve("Which knife do I need to braise oxtail with marrow?") is None
    # The same lessons answer a question whose telling words they do hold.
    assert ranked.retrieve("Which knife chips if twisted?") is not None


def test_a_question_sharing_no_word_with_the_library_refuses(make_library: MakeLibrary) -> None:
    _, ranked = retrievers(make_library(KITCHEN))
    assert ranked.retrieve("What is the capital of Australia?") is None
    assert ranked.retrieve("How do I do it?") is None  # stopwords only
    assert ranked.retrieve("") is None


def test_question_framing_words_do_not_count_in_ranked(make_library: MakeLibrary) -> None:
    lessons = {
        "thinking": ("Thinking ahead", "Make a plan: know what you will try first."),
        "storage": ("Knife storage", "Keep each knife in a block or on a magnetic strip."),
        "boards": ("Cutting boards", "Cut on wood so the knife edge lasts."),
    }
    _, ranked = retrievers(make_library(lessons))
    # Counted as topic words, think/know/try/make would hand this to "Thinking ahead".
    evidence = ranked.retrieve("I'm thinking I know how to try to make a knife block")
    assert evidence is not None
    assert evidence.passage.id == "storage"
    assert evidence.matched_words == ("knif", "block")


def test_ranked_never_reads_lesson_files(monkeypatch: pytest.MonkeyPatch) -> None:
    lessons = [
        Passage(lesson_id, title, text, f"nowhere/{lesson_id}.md")
        for lesson_id, (title, text) in KITCHEN.items()
    ]
    ranked = RankedRetriever(Library.from_passages(lessons))

    def no_file_access(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("retrieval touched the file system")

    monkeypatch.setattr(builtins, "open", no_file_access)
    monkeypatch.setattr(os, "scandir", no_file_access)
    monkeypatch.setattr(Path, "read_text", no_file_access)
    monkeypatch.setattr(Path, "read_bytes", no_file_access)
    evidence = ranked.retrieve("ceramic knife")
    assert evidence is not None
    assert evidence.passage.id == "ceramic-knives"


def test_settings_choose_the_retrieval_mode(make_library: MakeLibrary) -> None:
    library = memory_library(make_library(KITCHEN))
    assert isinstance(build_retriever(Settings(retrieval="ranked"), library), RankedRetriever)
    assert isinstance(build_retriever(Settings(retrieval="keyword"), library), KeywordRetriever)


def test_ask_json_in_ranked_mode_shows_why_the_lesson_won(
    make_library: MakeLibrary, run_cli: Callable[..., Any]
) -> None:
    folder = make_library(KITCHEN)
    result = run_cli(
        "ask",
        "--json",
        "--lessons",
        str(folder),
        "How do I sharpen a ceramic knife?",
        "What is the capital of Australia?",
        env={"TUI_ASSISTANT_RETRIEVAL": "ranked"},
    )
    assert result.returncode == 0, result.stderr
    answered, refused = result.json_lines()
    assert answered["outcome"] == "answered"
    assert answered["lesson_id"] == "ceramic-knives"
    assert answered["matched_words"] == ["ceramic", "knif"]
    assert answered["score"] > answered["runner_up_score"] > 0
    assert refused["outcome"] == "refused"
    assert refused["reason"] == "no_evidence"
    assert refused["lesson_id"] is None


def test_ranked_meets_the_refusal_goal_on_the_committed_django_faq_set() -> None:
    """On the small Django set: most unanswerable questions refused, more answered than keyword."""
    cases = [json.loads(line) for line in DJANGO_FAQ_CASES.read_text().splitlines() if line]
    keyword, ranked = retrievers(DJANGO_FAQ_LESSONS)

    def right(retriever: KeywordRetriever | RankedRetriever, answerable: bool) -> int:
        count = 0
        for case in cases:
            if (case["expect_lesson"] is not None) != answerable:
                continue
            evidence = retriever.retrieve(case["question"])
            got = None if evidence is None else evidence.passage.id
            count += got == case["expect_lesson"]
        return count

    unanswerable = sum(case["expect_lesson"] is None for case in cases)
    assert unanswerable >= 40
    assert right(ranked, answerable=False) >= 0.8 * unanswerable
    assert right(ranked, answerable=True) > right(keyword, answerable=True)


# Keyword results pinned: ranked-only query processing must leave them exactly as they were.
KEYWORD_ON_BUNDLED_LESSONS = [
    ("How much salt goes in pasta water?", "pasta-water", ("salt", "goe", "pasta", "water"), 7),
    (
        "How long do I boil eggs for a runny yolk?",
        "boiled-eggs",
        ("long", "boil", "egg", "runny", "yolk"),
        7,
    ),
    ("How do I sharpen a kitchen knife?", "knife-care", ("sharpen", "kitchen", "knif"), 5),
    (
        "Why does my boiled egg have a green ring?",
        "boiled-eggs",
        ("boil", "egg", "green", "ring"),
        6,
    ),
    ("I'm trying to store knives", "knife-care", ("stor", "knif"), 3),
    ("boiling water", None, (), 0),  # pasta-water and boiled-eggs tie at 2
    ("What is the capital of France?", None, (), 0),
]


@pytest.mark.parametrize(("question", "lesson_id", "matched", "score"), KEYWORD_ON_BUNDLED_LESSONS)
def test_keyword_results_on_bundled_lessons_are_unchanged(
    question: str, lesson_id: str | None, matched: tuple[str, ...], score: int
) -> None:
    keyword, _ = retrievers(BUNDLED_LESSONS)
    evidence = keyword.retrieve(question)
    if lesson_id is None:
        assert evidence is None
    else:
        assert evidence is not None
        assert (evidence.passage.id, evidence.matched_words, evidence.score) == (
            lesson_id,
            matched,
            score,
        )


def test_keyword_results_on_a_fixture_are_unchanged(make_library: MakeLibrary) -> None:
    keyword, _ = retrievers(make_library(KITCHEN))
    results = {
        question: (evidence.passage.id, evidence.score) if evidence else None
        for question in [
            "How do I sharpen a ceramic knife?",
            "I'm trying to sharpen my knife on a whetstone",
            "What knife do you need for bread crust?",
            "magnetic strip",
            "Does glass dull a knife?",
        ]
        for evidence in [keyword.retrieve(question)]
    }
    assert results == {
        "How do I sharpen a ceramic knife?": None,
        "I'm trying to sharpen my knife on a whetstone": ("whetstones", 4),
        "What knife do you need for bread crust?": ("bread", 5),
        "magnetic strip": ("storage", 2),
        "Does glass dull a knife?": ("boards", 3),
    }
