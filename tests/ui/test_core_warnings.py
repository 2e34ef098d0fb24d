"""Warnings the core logs reach the user as notices in the chat while the app runs.

While the full-screen app runs, Textual captures stderr, so the CLI's warning lines
would be lost; the app shows them in the chat pane instead, for as long as it runs.
The real case is a damaged call ledger, met in the worker thread that counts a call.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.fake_openai_server import CitePassage, FakeOpenAIServer
from tests.helpers.tui import (
    ask,
    concluded,
    make_app,
    make_context,
    notices,
    running,
    status,
    wait_until,
)
from tui_assistant.settings import load_settings
from tui_assistant.store.ledger import LEDGER_FILE_NAME
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.core_warnings import CORE_LOGGER_NAME, NoticeHandler
from tui_assistant.ui.hooks import AppHooks

SIZE = (100, 32)
PASTA = "How much salt should I add to pasta water?"


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(CitePassage("Use about 10 grams of salt per litre.")) as running:
        yield running


def notice_handlers() -> list[logging.Handler]:
    return [h for h in logging.getLogger(CORE_LOGGER_NAME).handlers if isinstance(h, NoticeHandler)]


async def test_a_damaged_call_ledger_is_a_notice_in_the_chat(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    # A whole record, then the start of one whose writer was killed.
    (data / LEDGER_FILE_NAME).write_text("2020-01-01T08:00:00Z\n2020-01-0")
    monkeypatch.chdir(tmp_path)
    for name, value in {
        "TUI_ASSISTANT_PROVIDER": "openai",
        "TUI_ASSISTANT_BASE_URL": server.base_url,
        "TUI_ASSISTANT_API_KEY": "sk-test-core-warnings",
        "TUI_ASSISTANT_MONTHLY_CALL_LIMIT": "100",
        "TUI_ASSISTANT_LIBRARY": str(BUNDLED_LESSONS),
        "TUI_ASSISTANT_DATA_DIR": str(data),
        # Not auto: with or without the semantic extra, no note on the retrieval mode.
        "TUI_ASSISTANT_RETRIEVAL": "ranked",
    }.items():
        monkeypatch.setenv(name, value)
    app = AssistantApp(load_settings(), hooks=AppHooks(cursor_blink=False))
    async with running(app, SIZE) as pilot:
        await pilot.pause()
        assert notices(app) == []
        await ask(pilot, PASTA)
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app), timeout=10)
        await wait_until(pilot, lambda: bool(notices(app)))
        [notice] = notices(app)
        assert notice.startswith(f"warning: call ledger {data / LEDGER_FILE_NAME}")
        assert notice.endswith("skipped 1 unreadable line(s); they are not counted")
    assert server.request_count == 1
    # The app's handler went with the app.
    assert notice_handlers() == []


async def test_warnings_from_the_app_thread_and_other_threads_are_shown_cleaned(
    tmp_path: Path,
) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    core_logger = logging.getLogger(f"{CORE_LOGGER_NAME}.core.somewhere")
    async with running(app, SIZE) as pilot:
        await pilot.pause()
        core_logger.warning("on the app thread: \x1b[31mred\x1b[0m %s", "[bold]x[/]")
        await asyncio.to_thread(core_logger.warning, "from a worker thread")
        core_logger.info("not a warning")
        await wait_until(pilot, lambda: len(notices(app)) == 2)
        assert notices(app) == [
            "warning: on the app thread: red [bold]x[/]",
            "warning: from a worker thread",
        ]
        # The app still answers as usual.
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
    assert notice_handlers() == []
    # After the app has gone, a warning is no longer routed to it (and breaks nothing).
    core_logger.warning("after the app")


# -- the library's reading problems at start ----------------------------------------


def broken_library(tmp_path: Path) -> Path:
    folder = tmp_path / "kitchen"
    folder.mkdir()
    (folder / "pasta-water.md").write_text("# Salting pasta water\n\nTen grams a litre.\n")
    for number in range(12):
        (folder / f"broken-{number:02}.md").write_bytes(b"# Broken\n\n\x00\n")
    return folder


async def test_problems_met_before_are_one_notice_in_a_small_conversation(
    tmp_path: Path,
) -> None:
    folder, data = broken_library(tmp_path), tmp_path / "data"
    make_context(folder, data)  # the first start, which met them all
    app = make_app(make_context(folder, data))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "reading notes" in " ".join(notices(app)))
        assert [" ".join(text.split()) for text in notices(app)] == [
            "warning: 12 reading notes, see the Library report (command palette)"
        ]
        assert app.main.chat.region.height > 0


async def test_a_first_start_with_many_problems_is_one_notice(tmp_path: Path) -> None:
    folder, data = broken_library(tmp_path), tmp_path / "data"
    app = make_app(make_context(folder, data))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "reading notes" in " ".join(notices(app)))
        assert [" ".join(text.split()) for text in notices(app)] == [
            "warning: 12 reading notes (12 new: broken-00.md, broken-01.md and 10 more),"
            " see the Library report (command palette)"
        ]


async def test_a_new_problem_is_named_as_new_in_the_one_notice(tmp_path: Path) -> None:
    folder, data = broken_library(tmp_path), tmp_path / "data"
    make_context(folder, data)
    (folder / "late.md").write_text("")
    app = make_app(make_context(folder, data))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "reading notes" in " ".join(notices(app)))
        shown = [" ".join(text.split()) for text in notices(app)]
        assert shown == [
            "warning: 13 reading notes (1 new: late.md), see the Library report (command palette)"
        ]
