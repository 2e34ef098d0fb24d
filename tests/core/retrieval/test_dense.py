"""Every passage's cosine to a question: the cosine of its best piece."""

from __future__ import annotations

import pytest

# The `semantic` extra (CI installs it); without it these tests cannot run.
pytest.importorskip("numpy")

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.properties import PROPERTY
from tui_assistant.core.retrieval.dense import DenseIndex


def unit(*values: float) -> list[float]:
    vector = np.array(values, dtype=np.float64)
    return list(vector / np.linalg.norm(vector))


def test_a_passage_is_scored_by_its_best_piece() -> None:
    vectors = [unit(1, 0, 0), unit(0, 1, 0), unit(0, 0, 1), unit(1, 1, 0)]
    cosines = DenseIndex(vectors, [0, 0, 1, 2]).best_cosines(unit(0, 1, 0), passages=3)
    assert cosines.tolist() == pytest.approx([1.0, 0.0, np.sqrt(0.5)], abs=1e-7)


def test_pieces_of_one_passage_need_not_be_next_to_each_other() -> None:
    vectors = [unit(1, 0), unit(0, 1), unit(-1, 0)]
    cosines = DenseIndex(vectors, [1, 0, 1]).best_cosines(unit(-1, 0), passages=2)
    assert cosines.tolist() == pytest.approx([0.0, 1.0], abs=1e-7)


def test_best_cosines_gives_every_passage_its_best_piece_and_minus_one_without() -> None:
    vectors = [unit(1, 0, 0), unit(0, 1, 0), unit(1, 1, 0), unit(0, 0, 1)]
    index = DenseIndex(vectors, [2, 0, 2, 0])  # passage 1 has no piece
    cosines = index.best_cosines(unit(1, 0, 0), passages=3)
    assert cosines.tolist() == pytest.approx([0.0, -1.0, 1.0])


def test_an_empty_index_gives_every_passage_minus_one() -> None:
    index = DenseIndex(np.zeros((0, 4), dtype=np.float32), np.zeros(0, dtype=np.int64))
    assert index.best_cosines(unit(1, 0, 0, 0), passages=2).tolist() == [-1.0, -1.0]


def test_a_question_of_the_wrong_size_or_a_piece_without_a_passage_is_refused() -> None:
    index = DenseIndex([unit(1, 0)], [0])
    with pytest.raises(ValueError):
        index.best_cosines(unit(1, 0, 0), passages=1)
    with pytest.raises(ValueError):
        DenseIndex([unit(1, 0)], [0, 1])
    with pytest.raises(ValueError):
        DenseIndex([unit(1, 0)], [0.5])


@PROPERTY
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    pieces=st.integers(min_value=1, max_value=60),
    passages=st.integers(min_value=1, max_value=20),
)
def test_best_cosines_match_a_plain_loop(seed: int, pieces: int, passages: int) -> None:
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(pieces, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = rng.integers(0, passages, size=pieces)
    question = vectors[rng.integers(0, pieces)]
    expected = [-1.0] * passages
    for vector, owner in zip(vectors, owners, strict=True):
        expected[int(owner)] = max(expected[int(owner)], float(vector @ question))

    cosines = DenseIndex(vectors, owners).best_cosines(question, passages)

    assert cosines.tolist() == pytest.approx(expected, abs=1e-6)


def test_the_background_is_the_mean_cosine_between_pieces_of_different_passages() -> None:
    # Passage 0 has two pieces; across passages they meet passage 1 at 0.6 and 1.0.
    vectors = [unit(1, 0), unit(0.6, 0.8), unit(0.6, 0.8)]
    index = DenseIndex(vectors, [0, 1, 0])
    pairs = [0.6, 0.6, 1.0, 1.0]  # (0,1), (1,0), (1,2), (2,1)
    assert index.background.location == pytest.approx(sum(pairs) / len(pairs), abs=1e-6)


def test_closeness_runs_from_the_background_to_a_perfect_match() -> None:
    index = DenseIndex([unit(1, 0, 0), unit(0, 1, 0), unit(0, 0, 1)], [0, 1, 2])
    background = index.background
    assert background.location == pytest.approx(0.0, abs=1e-7)
    assert background.scaled(1.0) == pytest.approx(1.0)
    assert background.scaled(background.location) == pytest.approx(0.0)


def test_closeness_is_the_same_for_cosines_shifted_and_scaled_as_unit_vectors_allow() -> None:
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((40, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = np.arange(40) // 2
    question = vectors[0] * 0.8 + vectors[7] * 0.2
    question /= np.linalg.norm(question)
    # A model whose every cosine is 0.3 * cosine + 0.7: the vectors scaled, one shared
    # extra dimension.
    scale = np.float32(np.sqrt(0.3))
    extra = np.float32(np.sqrt(0.7))
    other = np.hstack([vectors * scale, np.full((40, 1), extra, dtype=np.float32)])
    other_question = np.append(question * scale, extra).astype(np.float32)
    mine, theirs = DenseIndex(vectors, owners), DenseIndex(other, owners)
    cosines = mine.best_cosines(question, 20)
    other_cosines = theirs.best_cosines(other_question, 20)
    assert other_cosines.min() > 0.4 > cosines.min()
    for cosine, other_cosine in zip(cosines, other_cosines, strict=True):
        assert theirs.background.scaled(float(other_cosine)) == pytest.approx(
            mine.background.scaled(float(cosine)), abs=1e-5
        )
