"""The library loaded in the background: progress before `ready`, a load that fails,
and reloading with ctrl+r."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    HangingProvider,
    SlowStart,
    ask,
    labels,
    make_app,
    make_context,
    note,
    running,
    status,
    wait_until,
)
from tui_assistant.errors import LibraryError
from tui_assistant.settings import Settings
from tui_assistant.ui.app import AssistantApp, run_app

SIZE = (100, 32)


async def test_progress_is_shown_before_ready_and_questions_wait(tmp_path: Path) -> None:
    context = make_context(BUNDLED_LESSONS, tmp_path)
    slow = SlowStart(context)
    app = AssistantApp(context.settings, start=slow, cursor_blink=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: status(app) == "indexing 1,200/20,000 files")
            assert not app.loaded
            await ask(pilot, "how much salt for pasta water")
            assert app.question_box.value == "how much salt for pasta water"
            assert "ask again once the library is loaded" in note(app)
            assert app.turns == []
            slow.release.set()
            await wait_until(pilot, lambda: status(app) == "ready")
            assert "3 passages" in str(app.status_bar.query_one("#status-mode", Static).render())
            await pilot.press("enter")
            await wait_until(pilot, lambda: status(app) == "answered")
    finally:
        slow.release.set()


async def test_a_missing_library_folder_ends_the_app_with_status_2(tmp_path: Path) -> None:
    settings = Settings(library=tmp_path / "missing", data_dir=tmp_path / "data")
    app = AssistantApp(settings, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 2
    assert isinstance(app.load_error, LibraryError)
    assert "does not exist" in str(app.load_error)


def test_run_app_raises_the_load_error_for_the_cli(tmp_path: Path) -> None:
    settings = Settings(library=tmp_path / "missing", data_dir=tmp_path / "data")
    with pytest.raises(LibraryError, match="does not exist"):
        run_app(settings, headless=True)


async def test_ctrl_r_picks_up_an_added_file(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        (nested / "cooking" / "rice.md").write_text("# Rice\n\nRinse it first.\n")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: note(app).startswith("reloaded"))
        assert note(app) == "reloaded: 8 passages (+1)"
        assert status(app) == "ready"
        assert "8 passages" in str(app.status_bar.query_one("#status-mode", Static).render())
        await pilot.press("ctrl+l", "right")
        assert "  Rice" in labels(app.library_browser.library_tree)
        await pilot.press("escape")
        await ask(pilot, "rinse rice first")
        await wait_until(pilot, lambda: status(app) == "answered")
        assert app.evidence.passage is not None and app.evidence.passage.id == "cooking/rice"


async def test_a_failed_reload_keeps_the_loaded_library(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        moved = nested.with_name("moved")
        os.rename(nested, moved)
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: note(app).startswith("reload failed"))
        assert "does not exist" in note(app)
        assert len(app.context.library) == 7
        await ask(pilot, "ten grams salt litre")
        await wait_until(pilot, lambda: status(app) == "answered")


async def test_reload_is_refused_while_a_question_is_in_flight(tmp_path: Path) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: provider.started.is_set())
        await pilot.press("ctrl+r")
        assert note(app) == "reload after the answer: a question is in flight"
        assert not app.reloading
        await pilot.press("escape")
        assert status(app) == "cancelled"
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: note(app).startswith("reloaded"))
