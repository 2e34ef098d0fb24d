"""The API key never leaks from the full-screen app: not into the screen, the history,
an export, the clipboard, a screenshot, logs, or the settings' repr.

The real app, built as `tui-assistant` builds it (settings from the environment; its
start-up worker calls `open_context`), runs in model mode against the loopback fake server with a
distinctive key, through one turn of each kind: answered, an unverified answer that
quotes the key back, a 401 whose error body quotes the key, a timeout and a cancel.
Then the conversation is exported and copied through the command palette and a
screenshot is saved, and `assert_key_absent` (from `tests.helpers.secret_leaks`) searches
every file under the test's folder (history, exports, call ledger, index cache,
screenshot), the clipboard, the screen's text, the captured terminal output and logs,
and the settings' repr and str.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.fake_openai_server import (
    Behaviour,
    CitePassage,
    FakeOpenAIServer,
    Hang,
    _Exchange,
    completion_body,
)
from tests.helpers.secret_leaks import QuotingStatus, assert_key_absent
from tests.helpers.tui import ask, background_done, run_command, running, status, wait_until
from tui_assistant.settings import load_settings
from tui_assistant.store.ledger import LEDGER_FILE_NAME
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.hooks import AppHooks

# Distinctive and new every run, so no fixture text or cached file can contain it.
KEY = f"sk-test-TUILEAK-{secrets.token_hex(12)}"
PASTA = "How much salt should I add to pasta water?"
SIZE = (110, 36)


@dataclass(frozen=True)
class EchoKeyAnswer(Behaviour):
    """A model that repeats the credential it received, citing an invented source."""

    async def respond(self, exchange: _Exchange) -> None:
        credential = exchange.request.headers.get("authorization", "")
        answer = f"Your credential is {credential} [source:keys]"
        await exchange.whole(200, completion_body(answer))


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as running:
        yield running


def screen_text(app: AssistantApp) -> str:
    return "\n".join(str(static.render()) for static in app.screen.query(Static))


async def test_the_key_is_nowhere_the_app_shows_or_writes(
    server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    data, cwd = tmp_path / "data", tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    for name, value in {
        "TUI_ASSISTANT_PROVIDER": "openai",
        "TUI_ASSISTANT_BASE_URL": server.base_url,
        "TUI_ASSISTANT_API_KEY": KEY,
        "TUI_ASSISTANT_MODEL": "fake-model",
        "TUI_ASSISTANT_DEADLINE_SECONDS": "3",
        # A limit makes the app keep the call ledger: one more file it writes.
        "TUI_ASSISTANT_MONTHLY_CALL_LIMIT": "1000",
        "TUI_ASSISTANT_LIBRARY": str(BUNDLED_LESSONS),
        "TUI_ASSISTANT_DATA_DIR": str(data),
        # Not auto: with or without the semantic extra, no note on the retrieval mode.
        "TUI_ASSISTANT_RETRIEVAL": "ranked",
    }.items():
        monkeypatch.setenv(name, value)
    # Everything any library logs, down to debug: a leak through a log would show here.
    caplog.set_level(logging.DEBUG)
    server.script(CitePassage("Use about 10 grams of salt per litre."), EchoKeyAnswer())
    server.script(QuotingStatus(401), Hang(), Hang())

    app = AssistantApp(load_settings(), hooks=AppHooks(cursor_blink=False))
    seen_on_screen: list[str] = []
    screenshots: list[Path] = []
    async with running(app, SIZE) as pilot:
        await background_done(pilot, app)
        for number, expected in enumerate(
            (
                "answered",
                "refused: the model's answer failed the citation check",
                "refused: the provider did not return a usable answer (HTTP 401",
                "timed out",
            )
        ):
            await ask(pilot, PASTA)
            await wait_until(
                pilot, lambda count=number + 1: len(app.main.transcript.turns) == count, timeout=10
            )
            assert status(app).startswith(expected)
            seen_on_screen.append(screen_text(app))
            # The screen as it was while each turn's outcome was on it.
            screenshots.append(Path(app.save_screenshot(f"turn-{number}.svg", path=str(cwd))))
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: server.request_count == 5, timeout=10)
        await pilot.press("escape")
        assert status(app) == "cancelled"

        await run_command(pilot, app, "export conv")
        await run_command(pilot, app, "copy latest")
        screenshots.append(Path(app.save_screenshot("end.svg", path=str(cwd))))
        seen_on_screen.append(screen_text(app))
        clipboard = app.clipboard
        context = app.main.context
        history_file = app.main.history.store.path

    # The key was really sent with every request, so the search had something to find.
    assert [request.headers["authorization"] for request in server.requests] == [
        f"Bearer {KEY}"
    ] * 5
    # The places exist and hold what they should, so searching them means something.
    [export] = list((data / "exports").glob("*.md"))
    assert "Use about 10 grams of salt per litre." in export.read_text(encoding="utf-8")
    history = [json.loads(line) for line in history_file.read_text().splitlines()]
    assert [row["outcome"]["outcome"] for row in history] == [
        "answered",
        "refused",
        "refused",
        "timed_out",
        "cancelled",
    ]
    assert (data / LEDGER_FILE_NAME).is_file()
    assert "Use about 10 grams of salt per litre." in clipboard
    # Screenshots write spaces as &#160;, so look for words without spaces.
    assert "answered" in screenshots[0].read_text(encoding="utf-8")
    assert "cancelled" in screenshots[-1].read_text(encoding="utf-8")

    settings = context.settings
    captured = capfd.readouterr()
    searched = assert_key_absent(
        KEY,
        [
            tmp_path,  # data folder (history, exports, ledger, cache) and the screenshot
            clipboard,
            *seen_on_screen,
            captured.out,
            captured.err,
            caplog.text,
            repr(settings),
            str(settings),
            str(settings.model_dump()),
            repr(context),
            repr(context.service.provider),
        ],
    )
    assert searched >= 5 + 13
