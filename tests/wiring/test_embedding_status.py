"""The one embedding state every surface reads, and questions answered by words (and
said so once) while the embedding server cannot embed them."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import respx

pytest.importorskip("numpy")

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.embedding import word_vectors_answer
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.errors import EmbeddingServerError
from tui_assistant.providers import embedding_server_answers
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import AppContext, open_context
from tui_assistant.wiring.embedding_status import EmbeddingMonitor, EmbeddingStatus

BASE = "http://127.0.0.1:8089/v1"
URL = f"{BASE}/embeddings"
UNREACHABLE = EmbeddingServerError(
    "the embedding server at 127.0.0.1:8089 cannot be reached (refused; 3 tries)",
    "embedding server unreachable",
)


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding_server_answers, "FIRST_PAUSE_SECONDS", 0.001)


@pytest.fixture
def mocked() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as router:
        yield router


def server_settings(tmp_path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        library=BUNDLED_LESSONS,
        data_dir=tmp_path,
        retrieval="auto",
        embedding_base_url=BASE,
        embedding_model="nomic-embed-text",
    )


def answered(context: AppContext, question: str) -> Outcome:
    outcome = context.service.start(question, Conversation())
    assert isinstance(outcome, Outcome)
    return outcome


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_the_status_follows_an_embedding_run() -> None:
    monitor = EmbeddingMonitor(EmbeddingStatus("server", "127.0.0.1:8089", "m", phase="waiting"))
    seen: list[EmbeddingStatus] = []
    monitor.watch(seen.append)
    monitor.progress(40, 300)
    assert monitor.status().bar_text == "embedding 40/300 passages"
    monitor.failed(UNREACHABLE)
    failed = monitor.status()
    assert failed.phase == "failed" and failed.bar_text == "embedding server unreachable"
    assert failed.problem == str(UNREACHABLE)
    identity = ModelIdentity("m", 768, "search_query: ", "search_document: ")
    monitor.embedded(identity, 300)
    ready = monitor.status()
    assert (ready.phase, ready.problem, ready.bar_text) == ("ready", None, "")
    assert (ready.source, ready.where, ready.model, ready.identity) == (
        "server",
        "127.0.0.1:8089",
        "m",
        identity,
    )
    assert (ready.done, ready.total, ready.per_second) == (300, 300, None)
    # Watchers hear of a problem coming and going, not of progress.
    assert [status.problem for status in seen] == [str(UNREACHABLE), None]


def test_the_status_says_how_fast_a_run_goes_and_how_long_is_left() -> None:
    now = [100.0]
    monitor = EmbeddingMonitor(EmbeddingStatus("server", "127.0.0.1:8089", "m"), lambda: now[0])
    monitor.progress(191, 570)  # resumed: 191 were stored before this run
    assert monitor.status().per_second is None
    now[0] += 4.0
    monitor.progress(251, 570)
    status = monitor.status()
    assert status.per_second == pytest.approx(15.0)
    assert status.eta_seconds == pytest.approx(319 / 15.0)
    assert status.bar_text == "embedding 251/570 passages, 15/s, about 21 s left"


def test_the_count_never_goes_back_while_the_total_stays() -> None:
    monitor = EmbeddingMonitor(EmbeddingStatus("local", None, "m", phase="waiting"))
    monitor.counted(300, 500)  # stored before the run, in every library
    monitor.progress(200, 500)  # a run in the first of two libraries, the second not counted
    assert (monitor.status().done, monitor.status().total) == (300, 500)


def test_questions_the_server_cannot_embed_are_answered_by_words_and_said_once(
    mocked: respx.MockRouter, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    route = mocked.post(URL).mock(side_effect=word_vectors_answer)
    context = open_context(server_settings(tmp_path))
    assert context.retrieval == "hybrid"
    assert answered(context, "how much salt for pasta water").retrieval == "hybrid"
    assert context.embedding.status().phase == "ready"

    route.side_effect = lambda request: httpx.Response(500)
    with caplog.at_level(logging.WARNING):
        first = answered(context, "How much salt should I add to pasta water?")
        second = answered(context, "what salt for pasta")
    assert first.retrieval == second.retrieval == "ranked"
    # Ranked by words, the pasta passage still answers.
    assert first.answered and first.evidence is not None
    assert first.evidence.passage.id == "pasta-water"
    assert warnings_of(caplog) == [
        "the embedding server at 127.0.0.1:8089 failed (HTTP 500; one try);"
        " answering by words (ranked)"
    ]
    assert context.retrieval == "ranked"
    assert context.embedding.status().bar_text == "embedding server failing"

    route.side_effect = word_vectors_answer
    assert answered(context, "salt the pasta water").retrieval == "hybrid"
    assert context.retrieval == "hybrid"
    assert context.embedding.status().problem is None


def test_a_search_the_server_cannot_embed_ranks_by_words(
    mocked: respx.MockRouter, tmp_path: Path
) -> None:
    route = mocked.post(URL).mock(side_effect=word_vectors_answer)
    context = open_context(server_settings(tmp_path))
    assert context.service.search("how much salt for pasta water", 3).outcome.retrieval == "hybrid"

    route.side_effect = lambda request: httpx.Response(500)
    searched = context.service.search("How much salt should I add to pasta water?", 3)
    assert searched.outcome.retrieval == "ranked"
    best = searched.scored[0][0]
    assert context.library.passage(best).id == "pasta-water"
    assert context.embedding.status().bar_text == "embedding server failing"


def test_a_server_that_cannot_be_reached_at_start_leaves_ranked_and_says_why(
    mocked: respx.MockRouter, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    mocked.post(URL).mock(side_effect=httpx.ConnectError("refused"))
    with caplog.at_level(logging.WARNING):
        context = open_context(server_settings(tmp_path))
    assert context.retrieval == "ranked"
    assert answered(context, "how much salt for pasta water").retrieval == "ranked"
    status = context.embedding.status()
    assert status.phase == "failed" and status.short == "embedding server unreachable"
    assert warnings_of(caplog) == [
        "the embedding server at 127.0.0.1:8089 cannot be reached"
        " (could not connect to the server; 3 tries); answering by words (ranked)"
    ]
