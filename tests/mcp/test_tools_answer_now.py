"""The MCP tools while a library's vectors are computed: `search` and `ask` answer at
once by words and say how far the vectors are (`embedding`), null once they are in;
`status` gives each library's count, rate and time left. The embedding runs in a thread
with a fake model whose batches the test releases, and a clock the test moves."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from tests.cli.held_model import HeldEmbedder
from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import make_context
from tui_assistant.mcp.tools.ask import ask
from tui_assistant.mcp.tools.search import search
from tui_assistant.mcp.tools.status import status
from tui_assistant.wiring.context import AppContext
from tui_assistant.wiring.embedding_status import EmbeddingMonitor, EmbeddingStatus
from tui_assistant.wiring.library_tools import LibraryTools
from tui_assistant.wiring.library_vectors import Embedded
from tui_assistant.wiring.retrieval_choice import RetrievalChoice

PASTA = "how much salt for pasta water"


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.01)


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


class Embedding:
    """`context`'s vectors computed in a thread, as the MCP server's lifecycle does;
    `told` counts its progress reports (one at the start, one after each batch)."""

    def __init__(self, context: AppContext) -> None:
        self.result: list[Embedded] = []
        self.told = 0

        def progress(done: int, total: int) -> None:
            self.told += 1

        self.thread = threading.Thread(
            target=lambda: self.result.append(context.embed(context.library, progress)),
            daemon=True,
        )
        self.thread.start()


@pytest.fixture
def held() -> Iterator[HeldEmbedder]:
    embedder = HeldEmbedder()
    yield embedder
    embedder.release()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def context(tmp_path: Path, held: HeldEmbedder, clock: Clock) -> AppContext:
    """The bundled lessons under `hybrid`, nothing embedded yet."""
    context = make_context(BUNDLED_LESSONS, tmp_path, retrieval="hybrid")
    monitor = EmbeddingMonitor(EmbeddingStatus("local", None, "fake", phase="waiting"), clock)
    return replace(context, choice=RetrievalChoice("hybrid"), embedder=held, embedding=monitor)


async def test_search_and_ask_answer_by_words_at_once_then_by_meaning(
    context: AppContext, held: HeldEmbedder
) -> None:
    embedding = Embedding(context)
    tools = LibraryTools(context)
    found = search(tools, PASTA)
    assert found.retrieval == "ranked" and found.passages[0].id == "pasta-water"
    assert found.model_dump()["embedding"] == {"done": 0, "total": 3}
    asked = await ask(tools, PASTA)
    assert asked.outcome == "answered" and asked.retrieval == "ranked"
    assert asked.model_dump()["embedding"] == {"done": 0, "total": 3}

    held.release()
    embedding.thread.join(20)
    hybrid = context.with_vectors(embedding.result[0])
    assert hybrid is not None
    tools = LibraryTools(hybrid)
    found = search(tools, PASTA)
    assert found.retrieval == "hybrid" and found.model_dump()["embedding"] is None
    asked = await ask(tools, PASTA)
    assert asked.retrieval == "hybrid" and asked.model_dump()["embedding"] is None


def test_status_gives_the_count_the_rate_and_the_time_left(
    context: AppContext, held: HeldEmbedder, clock: Clock
) -> None:
    tools = LibraryTools(context)
    (before,) = status(tools).model_dump()["libraries"]
    assert before["embedding"] == {"done": 0, "total": 3, "rate": None, "eta_seconds": None}

    embedding = Embedding(context)
    wait_until(lambda: embedding.told == 1, "the run starts")
    # One piece a second (a passage may have several) until one passage is left.
    while context.embedding.status().done < 2:
        reports = embedding.told + 1
        clock.now += 1.0
        held.release(1)
        wait_until(lambda: embedding.told >= reports, "a batch is embedded and told")  # noqa: B023
    told = context.embedding.status()
    (during,) = status(tools).model_dump()["libraries"]
    assert during["retrieval"] == "ranked"
    assert told.per_second is not None and told.eta_seconds is not None
    assert during["embedding"] == {
        "done": 2,
        "total": 3,
        "rate": round(told.per_second, 1),
        "eta_seconds": round(told.eta_seconds),
    }

    held.release()
    embedding.thread.join(20)
    hybrid = context.with_vectors(embedding.result[0])
    assert hybrid is not None
    (after,) = status(LibraryTools(hybrid)).model_dump()["libraries"]
    assert after["embedding"] is None and after["retrieval"] == "hybrid"
