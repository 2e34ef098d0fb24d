"""Ranking passages by the cosine of their best piece."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.properties import PROPERTY
from tui_assistant.core.dense import DenseIndex, best_piece_ranking


def unit(*values: float) -> list[float]:
    vector = np.array(values, dtype=np.float64)
    return list(vector / np.linalg.norm(vector))


def test_a_passage_is_scored_by_its_best_piece() -> None:
    vectors = [unit(1, 0, 0), unit(0, 1, 0), unit(0, 0, 1), unit(1, 1, 0)]
    owners = [10, 10, 20, 30]
    ranked = best_piece_ranking(vectors, owners, unit(0, 1, 0), n=3)
    assert [passage for passage, _ in ranked] == [10, 30, 20]
    assert ranked[0][1] == pytest.approx(1.0)
    assert ranked[1][1] == pytest.approx(np.sqrt(0.5))
    assert ranked[2][1] == pytest.approx(0.0, abs=1e-7)


def test_pieces_of_one_passage_need_not_be_next_to_each_other() -> None:
    vectors = [unit(1, 0), unit(0, 1), unit(-1, 0)]
    index = DenseIndex(vectors, [5, 6, 5])
    assert len(index) == 2
    assert index.ranked(unit(-1, 0), n=5) == [(5, pytest.approx(1.0)), (6, pytest.approx(0.0))]


def test_only_n_passages_come_back_and_ties_go_in_passage_order() -> None:
    vectors = [unit(1, 0)] * 4 + [unit(0, 1)]
    index = DenseIndex(vectors, [9, 3, 7, 1, 2])
    assert [passage for passage, _ in index.ranked(unit(1, 0), n=2)] == [1, 3]
    assert [passage for passage, _ in index.ranked(unit(1, 0), n=10)] == [1, 3, 7, 9, 2]
    assert index.ranked(unit(1, 0), n=0) == []


def test_an_empty_index_ranks_nothing() -> None:
    index = DenseIndex(np.zeros((0, 4), dtype=np.float32), np.zeros(0, dtype=np.int64))
    assert len(index) == 0
    assert index.ranked(unit(1, 0, 0, 0), n=5) == []


def test_a_question_of_the_wrong_size_is_refused() -> None:
    index = DenseIndex([unit(1, 0)], [0])
    with pytest.raises(ValueError):
        index.ranked(unit(1, 0, 0), n=1)
    with pytest.raises(ValueError):
        DenseIndex([unit(1, 0)], [0, 1])


@PROPERTY
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    pieces=st.integers(min_value=1, max_value=60),
    passages=st.integers(min_value=1, max_value=20),
    n=st.integers(min_value=1, max_value=25),
)
def test_ranking_matches_a_plain_loop(seed: int, pieces: int, passages: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(pieces, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = rng.integers(0, passages, size=pieces)
    question = vectors[rng.integers(0, pieces)]
    best: dict[int, float] = {}
    for vector, owner in zip(vectors, owners, strict=True):
        best[int(owner)] = max(best.get(int(owner), -2.0), float(vector @ question))
    expected = sorted(best.items(), key=lambda item: (-item[1], item[0]))[:n]
    ranked = DenseIndex(vectors, owners).ranked(question, n)
    # Passage order may differ only between cosines equal to rounding.
    assert [score for _, score in ranked] == pytest.approx(
        [score for _, score in expected], abs=1e-6
    )
    assert all(score == pytest.approx(best[passage], abs=1e-6) for passage, score in ranked)
    assert len({passage for passage, _ in ranked}) == len(ranked)


def test_best_cosines_gives_every_passage_its_best_piece_and_minus_one_without() -> None:
    vectors = [unit(1, 0, 0), unit(0, 1, 0), unit(1, 1, 0), unit(0, 0, 1)]
    index = DenseIndex(vectors, [2, 0, 2, 0])  # passage 1 has no piece
    cosines = index.best_cosines(unit(1, 0, 0), passages=3)
    assert cosines.tolist() == pytest.approx([0.0, -1.0, 1.0])
    assert [number for number, _ in index.ranked(unit(1, 0, 0), 2)] == [2, 0]
