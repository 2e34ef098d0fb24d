"""The TUI with embeddings from a server: the status bar says in one line when the
server cannot be reached or fails a question, for as long as it lasts, and the
retrieval part says what answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import respx

pytest.importorskip("numpy")

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.embedding import word_vectors_answer
from tests.helpers.tui import ask, chat_text, concluded, running, status_line, wait_until
from tui_assistant.providers import embedding_server_answers
from tui_assistant.settings import Settings
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.hooks import AppHooks

BASE = "http://127.0.0.1:8089/v1"
SIZE = (120, 32)


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding_server_answers, "FIRST_PAUSE_SECONDS", 0.001)


@pytest.fixture
def mocked() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as router:
        yield router


def app_with_server(tmp_path: Path, base_url: str = BASE) -> AssistantApp:
    settings = Settings(  # type: ignore[call-arg]
        library=BUNDLED_LESSONS,
        data_dir=tmp_path,
        retrieval="auto",
        watch=False,
        embedding_base_url=base_url,
        embedding_model="nomic-embed-text",
    )
    return AssistantApp(settings, hooks=AppHooks(cursor_blink=False))


async def test_a_server_that_cannot_be_reached_is_one_line_in_the_status_bar(
    tmp_path: Path, refused_port: int
) -> None:
    app = app_with_server(tmp_path, f"http://127.0.0.1:{refused_port}/v1")
    async with running(app, SIZE) as pilot:
        await wait_until(pilot, lambda: "embedding server unreachable" in status_line(app))
        assert status_line(app).endswith("3 passages · ranked")
        assert "\n" not in status_line(app)
        assert f"the embedding server at 127.0.0.1:{refused_port} cannot be reached" in chat_text(
            app
        )
        await ask(pilot, "How much salt should I add to pasta water?")
        await wait_until(pilot, lambda: concluded(app))
        assert app.main.transcript.session.outcomes[-1].retrieval == "ranked"
        # The problem stays in view after the answer.
        assert "embedding server unreachable" in status_line(app)


async def test_a_question_the_server_fails_is_answered_by_words_while_the_bar_says_why(
    tmp_path: Path, mocked: respx.MockRouter
) -> None:
    route = mocked.post(f"{BASE}/embeddings").mock(side_effect=word_vectors_answer)
    app = app_with_server(tmp_path)
    async with running(app, SIZE) as pilot:
        await wait_until(pilot, lambda: status_line(app).endswith("3 passages · hybrid"))
        route.side_effect = lambda request: httpx.Response(503)
        await ask(pilot, "How much salt should I add to pasta water?")
        await wait_until(pilot, lambda: concluded(app))
        assert app.main.transcript.session.outcomes[-1].retrieval == "ranked"
        await wait_until(pilot, lambda: "embedding server rate-limits" in status_line(app))
        assert status_line(app).endswith("3 passages · ranked")

        route.side_effect = word_vectors_answer
        await ask(pilot, "how long do eggs boil")
        await wait_until(
            pilot, lambda: len(app.main.transcript.session.outcomes) == 2 and concluded(app)
        )
        assert app.main.transcript.session.outcomes[-1].retrieval == "hybrid"
        await wait_until(pilot, lambda: "embedding server" not in status_line(app))
        assert status_line(app).endswith("3 passages · hybrid")
