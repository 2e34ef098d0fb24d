"""The normaliser: stopwords, the small stemmer (pinned on a cooking vocabulary), whole words."""

from __future__ import annotations

import pytest

from tui_assistant.core.text import clean_display_text, normalise, stem

# Each group must share one stem; different groups must not.
COOKING_FAMILIES = [
    ["boil", "boils", "boiled", "boiling"],
    ["egg", "eggs"],
    ["knife", "knives"],
    ["bake", "bakes", "baked", "baking"],
    ["stir", "stirs", "stirred", "stirring"],
    ["tomato", "tomatoes"],
    ["dish", "dishes"],
    ["berry", "berries"],
    ["fry", "fries", "fried", "frying"],
    ["minute", "minutes"],
    ["salt", "salts", "salted", "salting"],
    ["roll", "rolls", "rolled", "rolling"],
    ["dress", "dressing"],
    ["slice", "slices", "sliced", "slicing"],
    ["loaf", "loaves"],
    ["peel", "peeled", "peeling"],
    ["simmer", "simmers", "simmered", "simmering"],
    ["chop", "chopped", "chopping"],
]


@pytest.mark.parametrize("family", COOKING_FAMILIES, ids=lambda f: f[0])
def test_inflections_of_a_cooking_word_share_one_stem(family: list[str]) -> None:
    assert {stem(word) for word in family} == {stem(family[0])}


def test_different_cooking_words_keep_different_stems() -> None:
    stems = [stem(family[0]) for family in COOKING_FAMILIES]
    assert len(set(stems)) == len(stems)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("boiling", "boil"),
        ("eggs", "egg"),
        ("glass", "glass"),  # -ss is not a plural
        ("citrus", "citrus"),  # nor is -us
        ("seed", "seed"),  # -eed is not a past tense
        ("spring", "spring"),  # no vowel would be left before -ing
        ("shred", "shred"),
        ("stuffing", "stuff"),  # a double f stays
        ("water", "water"),
        ("pasta", "pasta"),
    ],
)
def test_stems_pinned(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_stopwords_and_case_are_dropped() -> None:
    assert normalise("How MUCH salt should I add to the Water?") == ["salt", "add", "water"]


def test_only_stopwords_and_punctuation_normalise_to_nothing() -> None:
    assert normalise("what is the, and why? !!! ... ---") == []


def test_whole_words_only() -> None:
    assert "salt" not in normalise("basalt saltwater")
    assert normalise("basalt") == ["basalt"]


def test_numbers_are_kept_and_single_letters_dropped() -> None:
    assert normalise("cook 6 minutes at 180 c") == ["cook", "6", "minut", "180"]


def test_clean_display_text_removes_escape_sequences_but_keeps_markup_literally() -> None:
    hostile = (
        "a\x1b[31mred\x1b[0m b\x1b]8;;http://x\x07link\x1b]8;;\x07 [bold]c[/] \u202edir\x00\x9b"
    )
    cleaned = clean_display_text(hostile)
    assert cleaned == "ared blink [bold]c[/] dir"


def test_clean_display_text_keeps_newlines_tabs_and_unicode() -> None:
    assert clean_display_text("line 1\n\tline 2 – café 🍝\r\n") == "line 1\n\tline 2 – café 🍝\n"
