"""The normaliser: stopwords, the small stemmer (pinned on a cooking vocabulary), whole
words; and, for any Unicode text, no exception and bare-word keys."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.properties import (
    ESCAPE_STARTS,
    PROPERTY,
    any_text,
    stopwords,
    text_without_escapes,
    vocabulary_words,
)
from tui_assistant.core.display_text import clean_display_text
from tui_assistant.core.words import (
    STOPWORDS,
    content_words,
    match_keys,
    normalise_distinct,
    stem,
    words,
)

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
    assert match_keys("How MUCH salt should I add to the Water?") == ["salt", "add", "water"]


def test_only_stopwords_and_punctuation_normalise_to_nothing() -> None:
    assert match_keys("what is the, and why? !!! ... ---") == []


def test_whole_words_only() -> None:
    assert "salt" not in match_keys("basalt saltwater")
    assert match_keys("basalt") == ["basalt"]


def test_numbers_are_kept_and_single_letters_dropped() -> None:
    assert match_keys("cook 6 minutes at 180 c") == ["cook", "6", "minut", "180"]


def test_clean_display_text_removes_escape_sequences_but_keeps_markup_literally() -> None:
    hostile = (
        "a\x1b[31mred\x1b[0m b\x1b]8;;http://x\x07link\x1b]8;;\x07 [bold]c[/] \u202edir\x00\x9b"
    )
    cleaned = clean_display_text(hostile)
    assert cleaned == "ared blink [bold]c[/] dir"


@given(st.text(alphabet=st.characters(codec=None, exclude_categories=())))
def test_clean_display_text_leaves_no_control_bidi_or_surrogate_and_is_stable(text: str) -> None:
    cleaned = clean_display_text(text)
    bidi = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert all(
        char in "\n\t" or (unicodedata.category(char) not in ("Cc", "Cs") and char not in bidi)
        for char in cleaned
    )
    assert clean_display_text(cleaned) == cleaned


def test_clean_display_text_keeps_newlines_tabs_and_unicode() -> None:
    assert clean_display_text("line 1\n\tline 2 – café 🍝\r\n") == "line 1\n\tline 2 – café 🍝\n"


# --- properties: any text -----------------------------------------------------------


@PROPERTY
@given(any_text)
def test_normalise_takes_any_text_and_keys_are_bare_words(text: str) -> None:
    keys = match_keys(text)

    for key in keys:
        assert key
        assert not any(char.isspace() for char in key)
        assert "'" not in key
    assert normalise_distinct(text) == frozenset(keys)


@PROPERTY
@given(any_text)
def test_normalise_is_the_concatenation_over_the_words(text: str) -> None:
    found = words(text)

    assert all(word and not any(char.isspace() for char in word) for word in found)
    assert match_keys(text) == [key for word in found for key in match_keys(word)]


@PROPERTY
@given(text_without_escapes)
def test_normalise_is_the_concatenation_over_whitespace_separated_chunks(text: str) -> None:
    assert match_keys(text) == [key for chunk in text.split() for key in match_keys(chunk)]


@PROPERTY
@given(
    # Escape-free: an unclosed escape sequence swallows what follows it, so inserting
    # a word after one changes what it swallows (see `without_escape_sequences`).
    st.lists(
        st.one_of(
            vocabulary_words,
            st.text(st.characters(exclude_characters=ESCAPE_STARTS), min_size=1, max_size=12),
        ),
        max_size=12,
    ),
    st.lists(stopwords, max_size=12),
    st.randoms(use_true_random=False),
)
def test_stopwords_never_contribute_a_key(
    content: list[str], extra_stopwords: list[str], random: object
) -> None:
    """Sprinkling stopwords into a text never changes its keys."""
    mixed = list(content)
    for stopword in extra_stopwords:
        mixed.insert(random.randrange(len(mixed) + 1), stopword)  # type: ignore[attr-defined]

    assert match_keys(" ".join(mixed)) == match_keys(" ".join(content))


def test_every_stopword_alone_has_no_key() -> None:
    for stopword in STOPWORDS:
        assert match_keys(stopword) == [], stopword
        assert match_keys(stopword.upper()) == [], stopword


# -- languages written without spaces ----------------------------------------------


def test_cjk_runs_become_overlapping_character_pairs() -> None:
    assert content_words("沸騰水") == ["沸騰", "騰水"]
    assert content_words("パスタを茹でる") == ["パス", "スタ", "タを", "を茹", "茹で", "でる"]
    assert content_words("보일러 압력") == ["보일", "일러", "압력"]


def test_a_lone_cjk_character_stays_itself() -> None:
    assert content_words("a 水 b") == ["水"]
    assert content_words("盐。") == ["盐"]


def test_cjk_next_to_other_letters_splits_there_and_other_words_stay_as_they_were() -> None:
    assert content_words("python3の使い方") == ["python3", "の使", "使い", "い方"]
    assert content_words("Boiling 塩水 eggs") == ["boiling", "塩水", "eggs"]
    assert match_keys("Boiling eggs") == ["boil", "egg"]


def test_punctuation_ends_a_cjk_run() -> None:
    assert content_words("刀具，保养") == ["刀具", "保养"]
