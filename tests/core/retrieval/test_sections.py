"""The section score: the fused ranking's first places ordered by what tells a section
from its neighbours. Rankings are made by hand; the shipped weights decide."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("numpy")

import numpy as np

from tui_assistant.core.retrieval.fitted import RANKED_SECTION_WEIGHTS, SECTION_WEIGHTS
from tui_assistant.core.retrieval.sections import (
    Marks,
    is_announcement,
    order_sections,
    section_features,
)
from tui_assistant.core.retrieval.types import Ranking
from tui_assistant.core.retrieval.word_pairs import passage_pairs
from tui_assistant.core.words import stem


def ranking(scores: dict[int, float], matched: dict[int, list[str]]) -> Ranking:
    best = max(scores, key=lambda number: scores[number])
    return Ranking(
        passage_number=best,
        matched_words=tuple(matched[best]),
        score=scores[best],
        runner_up_score=None,
        margin=0.0,
        matched_share=1.0,
        scores=scores,
        matched=matched,
        weights={"chain": 1.0, "oil": 1.0, "tyre": 1.0},
        total_weight=3.0,
        key_count=3,
    )


def test_a_documents_opening_does_not_outrank_a_section_as_close_to_the_question() -> None:
    similarities = np.array([0.7, 0.7, 0.2], dtype=np.float32)
    words = ranking({0: 2.0, 1: 2.0}, {0: ["chain", "oil"], 1: ["chain", "oil"]})
    # Passage 0 opens the document; 1 is one of its sections.
    for numbers in ([0, 1], [1, 0]):
        order, lead = order_sections(numbers, similarities, words, frozenset({0}), SECTION_WEIGHTS)
        assert order == [1, 0]
        assert lead > 0


def test_between_neighbours_the_one_holding_more_of_the_question_wins() -> None:
    similarities = np.array([0.6, 0.6, 0.1], dtype=np.float32)
    words = ranking({0: 1.0, 1: 2.0}, {0: ["chain"], 1: ["chain", "oil"]})
    order, _ = order_sections([0, 1], similarities, words, frozenset(), SECTION_WEIGHTS)
    assert order == [1, 0]


def test_between_neighbours_with_the_same_words_the_closer_in_meaning_wins() -> None:
    similarities = np.array([0.55, 0.7, 0.1, 0.2], dtype=np.float32)
    words = ranking({0: 2.0, 1: 2.0}, {0: ["chain", "oil"], 1: ["chain", "oil"]})
    order, _ = order_sections([0, 1], similarities, words, frozenset(), SECTION_WEIGHTS)
    assert order == [1, 0]


@pytest.mark.parametrize(("scale", "shift"), [(0.3, 0.7), (2.0, -0.5), (1.0, 0.2)])
def test_the_features_are_the_same_for_a_model_whose_cosines_are_shifted_and_scaled(
    scale: float, shift: float
) -> None:
    similarities = np.array([0.61, 0.42, 0.18, 0.05, 0.33], dtype=np.float32)
    other = (similarities * np.float32(scale) + np.float32(shift)).astype(np.float32)
    words = ranking({0: 1.5, 2: 0.5}, {0: ["chain", "oil"], 2: ["tyre"]})
    numbers = [0, 1, 2, 3]
    for mine, theirs in zip(
        section_features(numbers, similarities, words, frozenset({3})),
        section_features(numbers, other, words, frozenset({3})),
        strict=True,
    ):
        assert mine == pytest.approx(theirs, abs=1e-5)


def test_one_passage_leads_by_one() -> None:
    similarities = np.array([0.5], dtype=np.float32)
    order, lead = order_sections([0], similarities, None, frozenset(), SECTION_WEIGHTS)
    assert order == [0] and lead == 1.0


@pytest.mark.parametrize(
    "document",
    [
        "blog/announcing-vite5.md",
        "CHANGELOG.md",
        "docs/release-notes.md",
        "docs/releasenotes.rst",
        "changes.rst",
        "news/whatsnew-2024.md",
    ],
)
def test_release_announcements_changelogs_and_blog_posts_are_marked(document: str) -> None:
    assert is_announcement(document)


@pytest.mark.parametrize(
    "document",
    [
        "guide/dep-pre-bundling.md",
        "cmds/history.md",
        "releases.md",
        "changes/per-environment-apis.md",
        "reference/commandline/build.md",
    ],
)
def test_guides_and_reference_pages_are_not_marked(document: str) -> None:
    assert not is_announcement(document)


def test_the_page_titled_with_the_question_beats_an_announcement_as_close() -> None:
    # Passage 0 is a blog post that mentions the words as often as passage 1, the page
    # whose title holds them; both equally close in meaning.
    similarities = np.array([0.6, 0.6, 0.1, 0.2], dtype=np.float32)
    words = replace(
        ranking({0: 2.0, 1: 2.0}, {0: ["chain", "oil"], 1: ["chain", "oil"]}),
        in_title={1: ["chain", "oil"]},
    )
    marks = Marks(announcements=frozenset({0}))
    for numbers in ([0, 1], [1, 0]):
        order, _ = order_sections(numbers, similarities, words, marks, SECTION_WEIGHTS)
        assert order == [1, 0]
        ranked_order, _ = order_sections(numbers, None, words, marks, RANKED_SECTION_WEIGHTS)
        assert ranked_order == [1, 0]


def test_the_section_holding_the_questions_wording_side_by_side_beats_a_sibling() -> None:
    # Both sections hold the question's words, equally often and as close in meaning;
    # passage 1 holds "chain oil" as the question puts it, passage 0 has them apart.
    similarities = np.array([0.6, 0.6, 0.1, 0.2], dtype=np.float32)
    texts = {0: "Oil the hub; check the chain.", 1: "Chain oil goes on the inside of the links."}
    words = replace(
        ranking({0: 2.0, 1: 2.0}, {0: ["chain", "oil"], 1: ["chain", "oil"]}),
        pairs={("chain", "oil"): 2.0},
    )
    marks = Marks(pairs_of=lambda number: passage_pairs("", texts[number], stem))
    features = section_features([0, 1], similarities, words, marks)
    assert [row[-1] for row in features] == [0.0, 1.0]
    for numbers in ([0, 1], [1, 0]):
        order, _ = order_sections(numbers, similarities, words, marks, SECTION_WEIGHTS)
        assert order == [1, 0]
        ranked_order, _ = order_sections(numbers, None, words, marks, RANKED_SECTION_WEIGHTS)
        assert ranked_order == [1, 0]


def test_without_passage_pairs_the_wording_counts_for_no_section() -> None:
    words = replace(
        ranking({0: 2.0, 1: 1.0}, {0: ["chain", "oil"], 1: ["chain"]}),
        pairs={("chain", "oil"): 2.0},
    )
    assert [row[-1] for row in section_features([0, 1], None, words, frozenset())] == [0.0, 0.0]
