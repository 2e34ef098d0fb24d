"""Provider faults in the full-screen app, through the real `OpenAIProvider`.

The app is built exactly as `tui-assistant` builds it (`load_settings` from the
environment; the app's start-up worker then calls `open_context`) in model mode against the loopback fake server, and
driven with key presses. For each fault the status bar must say what happened in the
documented plain words and the chat must show no answer text: the model's unchecked
text never reaches the screen. The CLI side of the same faults is in
`tests/e2e/test_provider_faults.py`; both take the refusing faults from
`tests.helpers.provider_faults`. This file is about what the TUI shows.

One fake server serves the whole module; each test sets its behaviour first.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.fake_openai_server import (
    Behaviour,
    CitePassage,
    Drip,
    FakeOpenAIServer,
    Hang,
    _Exchange,
    completion_body,
)
from tests.helpers.provider_faults import (
    PASTA,
    PASTA_SOURCE,
    REFUSALS,
    model_settings,
    serve,
    the_one_request,
)
from tests.helpers.tui import (
    ask,
    background_done,
    chat_text,
    concluded,
    running,
    status,
    wait_until,
)
from tui_assistant.settings import load_settings
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.hooks import AppHooks

API_KEY = "sk-test-tui-faults-51c9"
SIZE = (100, 32)
# Short, so the stalled cases end fast; the drip's bytes come faster than this, to show
# that bytes arriving do not keep a call alive. Only the faults that must time out run
# with it: a refusing fault gets the long deadline, so a busy machine cannot turn its
# refusal into a time-out.
DEADLINE = "1"
# Long, for the cancel tests: a closed connection then proves the cancel closed it.
LONG_DEADLINE = "10"


@dataclass(frozen=True)
class Fault:
    behaviour: Behaviour | None  # None: nothing listens on the port
    status: str  # the status bar's words, exactly
    model_text_start: str | None = None  # start of the model's text, never to be shown
    deadline: str = LONG_DEADLINE


TIMED_OUT = f"timed out: no answer within {DEADLINE} s"

FAULTS: dict[str, Fault] = {
    **{
        name: Fault(refusal.behaviour, refusal.status, refusal.model_text_start)
        for name, refusal in REFUSALS.items()
    },
    "hangs": Fault(Hang(), TIMED_OUT, deadline=DEADLINE),
    "drips-a-byte-at-a-time": Fault(Drip(interval=0.3), TIMED_OUT, deadline=DEADLINE),
}


@dataclass(frozen=True)
class LateAnswer(Behaviour):
    """Answers correctly once the test sets `answer_now`, if the client is still there."""

    answer_now: threading.Event = field(default_factory=threading.Event)

    async def respond(self, exchange: _Exchange) -> None:
        while not self.answer_now.is_set():
            if await exchange.client_closes_within(0.02):
                exchange.request.mark_disconnected()
                return
        passage_id = exchange.request.user_payload["passages"][0]["id"]
        await exchange.whole(200, completion_body(f"LATE ANSWER [source:{passage_id}]"))


def model_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, base_url: str, deadline: str
) -> AssistantApp:
    """The app as `tui-assistant` starts it, from these settings in the environment."""
    monkeypatch.chdir(tmp_path)  # no stray `.env` is read
    for name, value in {
        **model_settings(base_url, API_KEY, deadline),
        "TUI_ASSISTANT_LIBRARY": str(BUNDLED_LESSONS),
        "TUI_ASSISTANT_DATA_DIR": str(tmp_path / "data"),
    }.items():
        monkeypatch.setenv(name, value)
    return AssistantApp(load_settings(), hooks=AppHooks(cursor_blink=False))


def finished(app: AssistantApp) -> bool:
    return concluded(app)


@pytest.mark.parametrize("name", FAULTS)
async def test_each_fault_is_named_in_the_status_bar_and_no_answer_is_shown(
    server: FakeOpenAIServer,
    refused_port: int,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
) -> None:
    fault = FAULTS[name]
    base_url = serve(fault.behaviour, server, refused_port)
    before = server.request_count
    app = model_app(monkeypatch, tmp_path, base_url, fault.deadline)
    async with running(app, SIZE) as pilot:
        await background_done(pilot, app)
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: finished(app), timeout=20)
        assert status(app) == fault.status
        shown = chat_text(app)
        # The refusal is in the chat too, with the passage it was about, but no answer.
        assert fault.status in shown
        assert f"passage: {PASTA_SOURCE}" in shown
        assert not app.main.chat.query(".answer")
        if fault.model_text_start is not None:
            assert fault.model_text_start not in shown
        assert "fake server says" not in shown
        assert not app.main.question_box.busy
    if fault.behaviour is not None:
        # One request, with the key: the fault came from the real HTTP exchange.
        request = the_one_request(server, before, API_KEY)
        if fault.status == TIMED_OUT:
            # The stalled connection was closed, not left open.
            assert await asyncio.to_thread(request.disconnected.wait, 5)


async def test_a_correct_answer_is_shown_through_the_same_path(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The control case: the same wiring does show an answer that passes the check."""
    server.behaviour = CitePassage("Use about 10 grams of salt per litre.")
    app = model_app(monkeypatch, tmp_path, server.base_url, LONG_DEADLINE)
    async with running(app, SIZE) as pilot:
        await background_done(pilot, app)
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: finished(app), timeout=10)
        assert status(app) == "answered"
        assert "Use about 10 grams of salt per litre. [source:pasta-water]" in chat_text(app)


@pytest.mark.parametrize("late", [False, True], ids=["hangs", "would-answer-later"])
async def test_escape_cancels_the_real_request_and_closes_its_connection(
    server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    late: bool,
) -> None:
    behaviour = LateAnswer() if late else Hang()
    server.behaviour = behaviour
    before = server.request_count
    app = model_app(monkeypatch, tmp_path, server.base_url, LONG_DEADLINE)
    async with running(app, SIZE) as pilot:
        await background_done(pilot, app)
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: server.request_count == before + 1, timeout=10)
        request = server.requests[-1]
        assert status(app).startswith("asking")
        await pilot.press("escape")
        assert status(app) == "cancelled"
        # The server sees the client go away, well before the deadline would end the call.
        assert await asyncio.to_thread(request.disconnected.wait, float(LONG_DEADLINE) - 2)
        if isinstance(behaviour, LateAnswer):
            behaviour.answer_now.set()  # the moment it would have answered: nobody is there
        assert status(app) == "cancelled"
        assert "LATE ANSWER" not in chat_text(app)
        assert not app.main.chat.query(".answer")
        assert request.bytes_sent == 0
        # The provider is still usable: the next question is answered.
        server.behaviour = CitePassage("Use about 10 grams of salt per litre.")
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app), timeout=10)
        assert "LATE ANSWER" not in chat_text(app)
