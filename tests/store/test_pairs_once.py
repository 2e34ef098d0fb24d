"""A library's word pairs split once and kept packed (`PairTable`) rank a development
set's questions exactly as the pairs split afresh for every question did: the same
passages, in the same order, with the same scores and verdicts, by words and fused."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.dense import PassageVectors
from tui_assistant.core.retrieval.hybrid import HybridRetriever
from tui_assistant.core.retrieval.pair_table import PairTable
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.sections import Marks
from tui_assistant.core.retrieval.word_pairs import Pair, passage_pairs
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library

EVAL = Path(__file__).resolve().parents[2] / "eval"
DIMENSIONS = 16


@pytest.fixture
def library(data_dir: Path) -> Iterator[Library]:
    opened = open_library(EVAL / "fastify-docs", data_dir, stem)
    yield opened
    opened.close()


def questions() -> list[str]:
    lines = (EVAL / "fastify-docs.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines] + ["kubernetes ingress"]


def split_afresh(library: Library) -> Marks:
    """The marks with every passage's pairs split again whenever a question needs them."""

    def pairs_of(number: int) -> frozenset[Pair]:
        passage = library.passage(number)
        return passage_pairs(passage.title, passage.text, stem)

    return replace(Marks.of(library, stem), pairs_of=pairs_of)


def vector(text: str) -> NDArray[np.float32]:
    """A fixed unit vector per text, so meaning takes part in the fused order."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")
    found = np.random.default_rng(seed).standard_normal(DIMENSIONS).astype(np.float32)
    return found / np.float32(np.linalg.norm(found))


def test_the_packed_table_holds_a_pair_exactly_when_the_passage_does(library: Library) -> None:
    table = Marks.of(library, stem).pairs_of
    assert isinstance(table, PairTable)
    numbers = range(0, len(library), 7)
    every: set[Pair] = {("no-such-word", "of")}
    for number in numbers:
        passage = library.passage(number)
        every |= passage_pairs(passage.title, passage.text, stem)
    for number in numbers:
        passage = library.passage(number)
        split = passage_pairs(passage.title, passage.text, stem)
        held = table(number)
        assert len(held) == len(split)
        assert {pair for pair in every if pair in held} == split


def test_a_passage_is_split_once_however_often_it_is_asked_about() -> None:
    reads: list[int] = []

    def read(number: int) -> tuple[str, str]:
        reads.append(number)
        return "Chain care", f"Chain oil goes on the links of bike {number}."

    table = PairTable(read, stem)
    for _ in range(3):
        for number in range(300):  # more than a small memo of recent passages kept
            assert ("chain", "oil") in table(number)
    assert reads == list(range(300)) and table.kept == 300


def test_ranked_answers_are_unchanged(library: Library) -> None:
    kept, afresh = RankedRetriever(library), RankedRetriever(library)
    afresh.marks = split_afresh(library)
    for question in questions():
        got, expected = kept.search(question, 3, 10), afresh.search(question, 3, 10)
        assert got.scored == expected.scored, question
        assert got.found == expected.found, question


def test_hybrid_answers_are_unchanged(library: Library) -> None:
    matrix = np.stack([vector(library.info(n).title) for n in range(len(library))])
    vectors = PassageVectors(matrix, np.arange(len(library), dtype=np.int32))
    kept = HybridRetriever(library, vectors, vector)
    afresh = HybridRetriever(library, vectors, vector)
    afresh.marks = split_afresh(library)
    for question in questions():
        got, expected = kept.search(question, 3, 10), afresh.search(question, 3, 10)
        assert got.scored == expected.scored, question
        assert got.found == expected.found, question
