"""The pieces a passage is embedded as, and reciprocal rank fusion."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.properties import PROPERTY
from tui_assistant.core.retrieval.fusion import reciprocal_rank_fusion, split_pieces

TITLE = "Docker › Build › Cache"


def chunks(pieces: list[str], title: str = TITLE) -> list[str]:
    prefix = f"{title}\n"
    assert all(piece.startswith(prefix) for piece in pieces)
    return [piece.removeprefix(prefix) for piece in pieces]


def visible(text: str) -> str:
    return "".join(text.split())


# -- split_pieces -----------------------------------------------------------------


def test_a_short_passage_is_one_piece_with_its_title() -> None:
    assert split_pieces(TITLE, "Layers are cached.\n") == [f"{TITLE}\nLayers are cached."]


def test_a_passage_without_text_is_embedded_as_its_title() -> None:
    assert split_pieces(TITLE, "  \n\n ") == [TITLE]


def test_long_text_is_cut_between_paragraphs_first() -> None:
    first = "Alpha " * 100  # 600 characters
    second = "Beta " * 100
    text = f"{first.strip()}\n\n{second.strip()}"
    assert chunks(split_pieces(TITLE, text, max_chars=900)) == [first.strip(), second.strip()]


def test_paragraphs_that_fit_together_share_a_piece() -> None:
    text = "one\n\ntwo\n\n" + "x" * 20
    assert chunks(split_pieces(TITLE, text, max_chars=12)) == ["one\n\ntwo", "x" * 12, "x" * 8]


def test_a_long_paragraph_is_cut_between_lines_then_words() -> None:
    lines = "\n".join(f"line {n} " + "word " * 30 for n in range(10))
    pieces = chunks(split_pieces(TITLE, lines, max_chars=200))
    assert all(len(piece) <= 200 for piece in pieces)
    assert all(piece.startswith("line ") for piece in pieces)  # every cut at a line
    words = chunks(split_pieces(TITLE, "word " * 100, max_chars=52))
    assert all(set(piece.split()) == {"word"} for piece in words)  # no word is cut


def test_a_word_longer_than_a_piece_is_cut_anywhere() -> None:
    assert chunks(split_pieces(TITLE, "a" * 25, max_chars=10)) == ["a" * 10, "a" * 10, "a" * 5]


def test_max_chars_must_be_positive() -> None:
    with pytest.raises(ValueError):
        split_pieces(TITLE, "text", max_chars=0)


text_pieces = st.lists(
    st.one_of(
        st.text(alphabet="abc xyz", min_size=1, max_size=40),
        st.sampled_from(["\n", "\n\n", " ", "\t", "  \n"]),
        st.text(alphabet="q", min_size=30, max_size=120),
    ),
    max_size=40,
).map("".join)


@PROPERTY
@given(text=text_pieces, max_chars=st.integers(min_value=1, max_value=200))
def test_pieces_are_never_over_max_and_cover_all_text_in_order(text: str, max_chars: int) -> None:
    pieces = split_pieces("T", text, max_chars=max_chars)
    if not visible(text):
        assert pieces == ["T"]
        return
    cut = chunks(pieces, "T")
    assert all(0 < len(piece) <= max_chars for piece in cut)
    assert visible("".join(cut)) == visible(text)


# -- reciprocal_rank_fusion -------------------------------------------------------


def test_a_passage_both_rankings_place_high_beats_one_only_one_places_first() -> None:
    lexical = [7, 3, 9]
    dense = [5, 3, 7]
    fused = reciprocal_rank_fusion([lexical, dense], k=60)
    assert [passage for passage, _ in fused] == [7, 3, 5, 9]


def test_scores_are_sums_of_reciprocal_ranks() -> None:
    fused = dict(reciprocal_rank_fusion([[1, 2], [2]], k=10))
    assert fused[1] == pytest.approx(1 / 11)
    assert fused[2] == pytest.approx(1 / 12 + 1 / 11)


def test_ties_keep_the_order_of_first_appearance() -> None:
    fused = reciprocal_rank_fusion([[4, 8], [8, 4]])
    assert [passage for passage, _ in fused] == [4, 8]
    assert fused[0][1] == fused[1][1]
    swapped = reciprocal_rank_fusion([[8, 4], [4, 8]])
    assert [passage for passage, _ in swapped] == [8, 4]


def test_a_passage_repeated_in_one_ranking_counts_once_at_its_best_place() -> None:
    fused = dict(reciprocal_rank_fusion([[1, 1, 2]], k=0))
    assert fused == {1: 1.0, 2: 1 / 3}


def test_no_rankings_fuse_to_nothing() -> None:
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []


rankings = st.lists(
    st.lists(st.integers(min_value=0, max_value=30), unique=True, max_size=30), max_size=4
)


@PROPERTY
@given(rankings=rankings, k=st.integers(min_value=0, max_value=100))
def test_fusion_is_sorted_complete_and_independent_of_ranking_order_in_score(
    rankings: list[list[int]], k: int
) -> None:
    fused = reciprocal_rank_fusion(rankings, k=k)
    scores = [score for _, score in fused]
    assert scores == sorted(scores, reverse=True)
    assert {passage for passage, _ in fused} == {p for ranking in rankings for p in ranking}
    assert dict(reciprocal_rank_fusion(list(reversed(rankings)), k=k)) == dict(fused)
