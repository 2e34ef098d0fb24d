"""The library loaded in the background: progress before `ready`, a load that fails,
reloading with ctrl+r, embedding progress, and the one-line status bar."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.widgets import Static

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    CitingProvider,
    HangingProvider,
    SlowReload,
    SlowStart,
    ask,
    chat_text,
    concluded,
    labels,
    make_app,
    make_context,
    note,
    running,
    status,
    status_line,
    wait_until,
)
from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import Reason
from tui_assistant.errors import LibraryError, ProviderFailure
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress
from tui_assistant.ui.app import AssistantApp, run_app
from tui_assistant.ui.hooks import AppHooks
from tui_assistant.ui.messages import LibraryEvent
from tui_assistant.wiring.context import AppContext
from tui_assistant.wiring.library_events import EmbeddingProgress, HybridOn

SIZE = (100, 32)


async def test_progress_is_shown_before_ready_and_questions_wait(tmp_path: Path) -> None:
    context = make_context(BUNDLED_LESSONS, tmp_path)
    slow = SlowStart(context)
    app = AssistantApp(context.settings, hooks=AppHooks(start=slow, cursor_blink=False))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: status(app) == "indexing 1,200/20,000 files")
            assert not app.main.library.loaded
            await ask(pilot, "how much salt for pasta water")
            assert app.main.question_box.value == "how much salt for pasta water"
            assert "ask again once the library is loaded" in note(app)
            assert app.main.transcript.turns == []
            slow.release.set()
            await wait_until(pilot, lambda: status(app) == "ready")
            assert "3 passages" in str(
                app.main.status_bar.query_one("#status-mode", Static).render()
            )
            # The note stays until the next action: asking again clears it.
            assert "ask again once the library is loaded" in note(app)
            await pilot.press("enter")
            await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
    finally:
        slow.release.set()


async def test_a_missing_library_folder_ends_the_app_with_status_2(tmp_path: Path) -> None:
    settings = Settings(library=tmp_path / "missing", data_dir=tmp_path / "data")
    app = AssistantApp(settings, hooks=AppHooks(cursor_blink=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 2
    assert isinstance(app.main.library.load_error, LibraryError)
    assert "does not exist" in str(app.main.library.load_error)


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
        assert note(app) == "reloaded: +1 \N{MINUS SIGN}0 passages"
        assert status(app) == "ready"
        assert "8 passages" in str(app.main.status_bar.query_one("#status-mode", Static).render())
        await pilot.press("ctrl+l", "right")
        assert "  Rice" in labels(app.main.library_panel.library_browser.library_tree)
        await pilot.press("escape")
        await ask(pilot, "rinse rice first")
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
        assert (
            app.main.evidence.passage is not None and app.main.evidence.passage.id == "cooking/rice"
        )


async def test_a_failed_reload_keeps_the_loaded_library(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        moved = nested.with_name("moved")
        os.rename(nested, moved)
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: note(app).startswith("reload failed"))
        assert "does not exist" in note(app)
        assert len(app.main.context.library) == 7
        await ask(pilot, "ten grams salt litre")
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))


async def test_reload_is_refused_while_a_question_is_in_flight(tmp_path: Path) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: provider.started.is_set())
        await pilot.press("ctrl+r")
        assert note(app) == "reload after the answer: a question is in flight"
        assert not app.main.library.reloading
        await pilot.press("escape")
        assert status(app) == "cancelled"
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: note(app).startswith("reloaded"))


async def test_an_unexpected_error_in_the_first_load_ends_as_one_line(tmp_path: Path) -> None:
    def broken_start(settings: Settings, progress: Progress | None) -> AppContext:
        raise sqlite3.OperationalError("disk I/O error")

    settings = Settings(library=BUNDLED_LESSONS, data_dir=tmp_path)
    app = AssistantApp(settings, hooks=AppHooks(start=broken_start, cursor_blink=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 2
    assert isinstance(app.main.library.load_error, LibraryError)
    assert str(app.main.library.load_error) == (
        "the library could not be loaded: OperationalError: disk I/O error"
    )


def slowly_reloading(library: Path, tmp_path: Path) -> tuple[AssistantApp, SlowReload]:
    """The app on `library`, whose reloads wait for the `SlowReload` to be released."""
    context = make_context(library, tmp_path / "data")
    slow = SlowReload()
    app = AssistantApp(
        context.settings,
        hooks=AppHooks(start=lambda s, p: context, reload_library=slow, cursor_blink=False),
    )
    return app, slow


async def test_reloading_shows_its_count_and_a_question_waits_for_the_new_library(
    nested: Path, tmp_path: Path
) -> None:
    app, slow = slowly_reloading(nested, tmp_path)
    try:
        async with running(app, SIZE) as pilot:
            (nested / "cooking" / "rice.md").write_text("# Rice\n\nRinse it first.\n")
            await pilot.press("ctrl+r")
            await wait_until(pilot, lambda: status(app) == "reloading 3/9 files")
            await ask(pilot, "rinse rice first")
            # Not answered from the library being replaced: the question waits.
            assert "> rinse rice first" in chat_text(app)
            assert app.main.transcript.turns == []
            assert status(app) == "reloading 3/9 files"
            assert app.main.question_box.value == ""
            slow.release.set()
            await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
            # The status bar says it at once; the evidence is drawn a frame later.
            await wait_until(pilot, lambda: app.main.evidence.passage is not None)
            assert app.main.evidence.passage is not None
            assert app.main.evidence.passage.id == "cooking/rice"
            assert note(app) == "reloaded: +1 \N{MINUS SIGN}0 passages"
            assert not app.main.question_box.busy
    finally:
        slow.release.set()


async def test_escape_drops_a_question_waiting_for_a_reload(nested: Path, tmp_path: Path) -> None:
    app, slow = slowly_reloading(nested, tmp_path)
    try:
        async with running(app, SIZE) as pilot:
            await pilot.press("ctrl+r")
            await wait_until(pilot, lambda: status(app).startswith("reloading"))
            await ask(pilot, "ten grams salt litre")
            await pilot.press("escape")
            assert status(app) == "cancelled"
            assert [turn.record.outcome for turn in app.main.transcript.turns] == ["cancelled"]
            slow.release.set()
            await wait_until(pilot, lambda: note(app).startswith("reloaded"))
            assert status(app) == "ready"
            assert len(app.main.transcript.turns) == 1
    finally:
        slow.release.set()


async def test_embedding_progress_shows_beside_the_mode_then_the_retrieval_mode(
    tmp_path: Path,
) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await wait_until(pilot, lambda: status(app) == "ready")
        app.main.post_message(LibraryEvent(EmbeddingProgress(40, 300)))
        await wait_until(pilot, lambda: "embedding 40/300" in status_line(app))
        # The latest outcome keeps its place, first; the progress sits after it.
        assert status(app) == "ready"
        line = status_line(app)
        assert line.startswith("ready  embedding 40/300 ")
        assert line.endswith("deterministic · 3 passages · ranked")
        hybrid = SimpleNamespace(retrieval="hybrid")
        app.main.post_message(LibraryEvent(HybridOn(hybrid)))  # type: ignore[arg-type]
        await wait_until(pilot, lambda: "embedding" not in status_line(app))
        assert status_line(app).endswith("deterministic · 3 passages · hybrid")


async def test_a_note_stays_until_the_next_action(tmp_path: Path) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, provider.started.is_set)
        await pilot.press("ctrl+r")
        assert note(app) == "reload after the answer: a question is in flight"
        provider.release.set()
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
        assert note(app) == "reload after the answer: a question is in flight"
        await pilot.press("ctrl+l")
        assert note(app) == ""


@pytest.mark.parametrize("size", [(80, 24), (120, 35), (40, 12)])
async def test_the_status_bar_is_one_line_with_the_outcome_first(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    class LongRefusal(CitingProvider):
        async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
            raise ProviderFailure(Reason.PROVIDER_ERROR, "HTTP 503 " + "and more words " * 12)

    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, LongRefusal()))
    async with running(app, size) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: status(app).startswith("refused"))
        await pilot.press("ctrl+o")  # a note beside it too ("no editor", or the like)
        await wait_until(pilot, lambda: note(app) != "")
        await wait_until(pilot, lambda: status_line(app).startswith("refused: the pr"))
        line = status_line(app)
        assert app.main.status_bar.region.height == 1
        assert "\n" not in line
        assert len(line) <= size[0] - 2
        # The outcome takes the line, cut at its end; nothing else squeezes in.
        assert line.endswith("…")
        assert "deterministic" not in line


async def test_pages_that_only_include_other_documents_are_one_warning(tmp_path: Path) -> None:
    library = tmp_path / "docs"
    library.mkdir()
    (library / "split.rst").write_text("split\n=====\n\nSplit a string at a delimiter.\n")
    for name in ("split0", "split-again", "split-too", "split-more"):
        (library / f"{name}.rst").write_text(".. include:: split.rst\n")
    app = make_app(make_context(library, tmp_path / "data"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.library.loaded)
        await wait_until(pilot, lambda: "reading notes" in chat_text(app))
        text = " ".join(chat_text(app).split())
        assert (
            "warning: 4 reading notes (4 new: split-again.rst, split-more.rst and 2 more),"
            " see the Library report (command palette)"
        ) in text
        assert "skipped file split0.rst" not in text
