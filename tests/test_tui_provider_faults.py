"""Provider faults in the full-screen app, through the real `OpenAIProvider`.

The app is built exactly as `tui-assistant` builds it (`load_settings` from the
environment, then `open_context`) in model mode against the loopback fake server, and
driven with key presses. For each fault the status bar must say what happened in the
contract's plain words and the chat must show no answer text: the model's unchecked
text never reaches the screen. The CLI side of the same faults is in
`test_provider_faults.py`; this file is about what the TUI shows.

One fake server serves the whole module; each test sets its behaviour first.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.conftest import BUNDLED_LESSONS
from tests.fake_openai_server import (
    MIB,
    NO_CHOICES,
    NOT_JSON,
    NULL_CONTENT,
    Behaviour,
    CitePassage,
    CloseMidBody,
    Drip,
    FakeOpenAIServer,
    Hang,
    HugeBody,
    Redirect,
    Reply,
    Status,
    _Exchange,
    completion_body,
)
from tests.tui_fakes import ask, wait_until
from tui_assistant.context import open_context
from tui_assistant.core.outcome import Reason, describe_reason
from tui_assistant.settings import load_settings
from tui_assistant.ui.app import AssistantApp

API_KEY = "sk-test-tui-faults-51c9"
PASTA = "How much salt should I add to pasta water?"
SIZE = (100, 32)
# Short, so the stalled cases end fast; the drip's bytes come faster than this, to show
# that bytes arriving do not keep a call alive.
DEADLINE = "1"
# Long, for the cancel tests: a closed connection then proves the cancel closed it.
LONG_DEADLINE = "10"
UNUSED_TARGET = "http://127.0.0.1:9/v1/chat/completions"


@dataclass(frozen=True)
class Fault:
    behaviour: Behaviour | None  # None: nothing listens on the port
    status: str  # the status bar's words, exactly
    model_text: str | None = None  # text the model sent, which must never be shown


def refused(reason: Reason, detail: str) -> str:
    return f"refused: {describe_reason(reason)} ({detail})"


def unverified(content: str, detail: str) -> Fault:
    return Fault(Reply(content), refused(Reason.UNVERIFIED, detail), model_text=content)


def provider_error(behaviour: Behaviour | None, detail: str) -> Fault:
    return Fault(behaviour, refused(Reason.PROVIDER_ERROR, detail))


TIMED_OUT = f"timed out: no answer within {DEADLINE} s"

FAULTS: dict[str, Fault] = {
    "invented-citation": unverified(
        "Use a handful of salt. [source:salt-bible]", "cites a source it was not given"
    ),
    "no-citation": unverified("Use a generous handful of salt.", "no [source:ID] citation"),
    "http-401": provider_error(Status(401), "HTTP 401: the server refused the API key"),
    "http-429": provider_error(Status(429), "HTTP 429: rate limited or out of credit"),
    "http-500": provider_error(Status(500), "HTTP 500"),
    "http-503": provider_error(Status(503), "HTTP 503"),
    "redirect-302": provider_error(
        Redirect(UNUSED_TARGET, 302), "HTTP 302: redirects are not followed"
    ),
    "not-json": provider_error(NOT_JSON, "the response is not JSON"),
    "no-choices": provider_error(NO_CHOICES, "the response has no choices"),
    "null-content": provider_error(NULL_CONTENT, "the response has no answer text"),
    "connection-refused": provider_error(None, "could not connect to the server"),
    "huge-body": provider_error(HugeBody(size=20 * MIB), "the response is larger than 1024 KiB"),
    "closes-mid-body": provider_error(
        CloseMidBody(), "the connection broke before the answer was complete"
    ),
    "hangs": Fault(Hang(), TIMED_OUT),
    "drips-a-byte-at-a-time": Fault(Drip(interval=0.3), TIMED_OUT),
}


@dataclass(frozen=True)
class LateAnswer(Behaviour):
    """Answers correctly, but only after `delay` seconds, if the client is still there."""

    delay: float

    async def respond(self, exchange: _Exchange) -> None:
        if await exchange.client_closes_within(self.delay):
            exchange.request.mark_disconnected()
            return
        passage_id = exchange.request.user_payload["passages"][0]["id"]
        await exchange.whole(200, completion_body(f"LATE ANSWER [source:{passage_id}]"))


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as running:
        yield running


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A loopback port that is bound (so nobody else takes it) but not listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def model_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, base_url: str, deadline: str
) -> AssistantApp:
    """The app as `tui-assistant` starts it, from these settings in the environment."""
    monkeypatch.chdir(tmp_path)  # no stray `.env` is read
    for name, value in {
        "TUI_ASSISTANT_PROVIDER": "openai",
        "TUI_ASSISTANT_BASE_URL": base_url,
        "TUI_ASSISTANT_API_KEY": API_KEY,
        "TUI_ASSISTANT_MODEL": "fake-model",
        "TUI_ASSISTANT_DEADLINE_SECONDS": deadline,
        "TUI_ASSISTANT_LESSONS_DIR": str(BUNDLED_LESSONS),
        "TUI_ASSISTANT_DATA_DIR": str(tmp_path / "data"),
    }.items():
        monkeypatch.setenv(name, value)
    return AssistantApp(open_context(load_settings()), cursor_blink=False)


def status(app: AssistantApp) -> str:
    return str(app.status_bar.query_one("#status-outcome", Static).render())


def finished(app: AssistantApp) -> bool:
    return status(app) != "ready" and not status(app).startswith("asking")


def chat_text(app: AssistantApp) -> str:
    return "\n".join(str(static.render()) for static in app.chat.query(Static))


@pytest.mark.parametrize("name", FAULTS)
async def test_each_fault_is_named_in_the_status_bar_and_no_answer_is_shown(
    server: FakeOpenAIServer,
    refused_port: int,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
) -> None:
    fault = FAULTS[name]
    if fault.behaviour is None:
        base_url = f"http://127.0.0.1:{refused_port}/v1"
    else:
        server.behaviour = fault.behaviour
        base_url = server.base_url
    before = server.request_count
    app = model_app(monkeypatch, tmp_path, base_url, DEADLINE)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: finished(app), timeout=10)
        assert status(app) == fault.status
        shown = chat_text(app)
        # The refusal is in the chat too, with the lesson it was about, but no answer.
        assert fault.status in shown
        assert "lesson: lessons/pasta-water.md" in shown
        assert not app.chat.query(".answer")
        if fault.model_text is not None:
            assert fault.model_text[:20] not in shown
        assert "fake server says" not in shown
        assert not app.question_box.busy
    if fault.behaviour is not None:
        # One request, with the key: the fault came from the real HTTP exchange.
        assert server.request_count == before + 1
        assert server.requests[-1].headers["authorization"] == f"Bearer {API_KEY}"
        if fault.status == TIMED_OUT:
            # The stalled connection was closed, not left open.
            assert await asyncio.to_thread(server.requests[-1].disconnected.wait, 5)


async def test_a_correct_answer_is_shown_through_the_same_path(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The control case: the same wiring does show an answer that passes the check."""
    server.behaviour = CitePassage("Use about 10 grams of salt per litre.")
    app = model_app(monkeypatch, tmp_path, server.base_url, DEADLINE)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: finished(app), timeout=10)
        assert status(app) == "answered"
        assert "Use about 10 grams of salt per litre. [source:pasta-water]" in chat_text(app)


@pytest.mark.parametrize(
    "behaviour", [Hang(), LateAnswer(delay=0.5)], ids=["hangs", "would-answer-later"]
)
async def test_escape_cancels_the_real_request_and_closes_its_connection(
    server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    behaviour: Behaviour,
) -> None:
    server.behaviour = behaviour
    before = server.request_count
    app = model_app(monkeypatch, tmp_path, server.base_url, LONG_DEADLINE)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: server.request_count == before + 1, timeout=10)
        request = server.requests[-1]
        assert status(app).startswith("asking")
        pressed = time.monotonic()
        await pilot.press("escape")
        assert status(app) == "cancelled"
        # The server sees the client go away at once, long before the deadline.
        assert await asyncio.to_thread(request.disconnected.wait, 3)
        assert time.monotonic() - pressed < 3
        # Past the moment the server would have answered: still nothing shown.
        await pilot.pause(0.8)
        assert status(app) == "cancelled"
        assert "LATE ANSWER" not in chat_text(app)
        assert not app.chat.query(".answer")
        assert request.bytes_sent == 0
        # The provider is still usable: the next question is answered.
        server.behaviour = CitePassage("Use about 10 grams of salt per litre.")
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: status(app) == "answered", timeout=10)
