"""Watch mode in the running app, with real files and the real watcher: a document added,
edited and removed while the app runs is reloaded by itself (`reloaded: +1 −0
passages`) and answers; a question asked during that reload waits for it; changes
while an answer is awaited reload after it; TUI_ASSISTANT_WATCH=false runs no watcher
and ctrl+r still reloads; the palette's "Library report" shows the report."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

from textual.widgets import Static

from tests.helpers import write_lesson
from tests.helpers.tui import (
    HangingProvider,
    SlowReload,
    ask,
    concluded,
    make_app,
    make_context,
    note,
    notices,
    run_command,
    running,
    status,
    wait_until,
)
from tests.helpers.watching import passage_ids, watched
from tui_assistant.settings import Settings
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.dialogs.library_report_screen import LibraryReportScreen
from tui_assistant.ui.hooks import AppHooks
from tui_assistant.ui.screens.screen_library import WATCH_GROUP

BOILER = "The boiler pressure should sit between one and one and a half bar when cold."
# Settling, reloading and a loaded machine: generous, and only ever waited on.
RELOAD_WAIT = 20.0
MINUS = "\N{MINUS SIGN}"


def settings_for(folder: Path, tmp_path: Path, watch: bool = True) -> Settings:
    # The other UI tests turn watch mode off (conftest); these name it.
    return Settings(library=folder, data_dir=tmp_path / "data", retrieval="ranked", watch=watch)


def library_of_three(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", "Salt the water well.")
    write_lesson(folder, "boiled-eggs", "Boiled eggs", "Six minutes for a runny yolk.")
    write_lesson(folder, "knife-care", "Knife care", "Dry the knife by hand.")
    return folder


def watchers(app: AssistantApp) -> list[object]:
    return [worker for worker in app.main.workers if worker.group == WATCH_GROUP]


def boiler_text(app: AssistantApp) -> str:
    passage = app.main.context.library.get("boiler")
    return "" if passage is None else passage.text


async def test_a_document_added_edited_and_removed_is_reloaded_by_itself(
    tmp_path: Path,
) -> None:
    folder = library_of_three(tmp_path)
    app = AssistantApp(settings_for(folder, tmp_path), hooks=AppHooks(cursor_blink=False))
    async with running(app) as pilot:
        await watched(pilot, app, folder)

        write_lesson(folder, "boiler", "Boiler pressure", BOILER)
        await wait_until(pilot, lambda: "boiler" in passage_ids(app), timeout=RELOAD_WAIT)
        assert note(app) == f"reloaded: +1 {MINUS}0 passages"
        await ask(pilot, "what pressure should the boiler be at")
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
        assert app.main.evidence.passage is not None and app.main.evidence.passage.id == "boiler"

        write_lesson(folder, "boiler", "Boiler pressure", BOILER + " Top it up when low.")
        await wait_until(pilot, lambda: "Top it up" in boiler_text(app), timeout=RELOAD_WAIT)
        assert note(app) == f"reloaded: +1 {MINUS}1 passages"

        (folder / "boiler.md").unlink()
        await wait_until(pilot, lambda: "boiler" not in passage_ids(app), timeout=RELOAD_WAIT)
        assert note(app) == f"reloaded: +0 {MINUS}1 passages"


async def test_a_question_asked_during_a_watch_reload_waits_for_the_new_library(
    tmp_path: Path,
) -> None:
    folder = library_of_three(tmp_path)
    slow = SlowReload()
    app = AssistantApp(
        settings_for(folder, tmp_path), hooks=AppHooks(reload_library=slow, cursor_blink=False)
    )
    try:
        async with running(app) as pilot:
            write_lesson(folder, "boiler", "Boiler pressure", BOILER)
            # Until the watcher is up, a write may go unseen: touch until it reloads.
            for number in itertools.count():
                if slow.reported.is_set():
                    break
                assert number < 10, "the watcher never reloaded"
                write_lesson(folder, f"probe-{number}", f"Probe {number}", "Probe text.")
                try:
                    await wait_until(pilot, slow.reported.is_set, timeout=5)
                except AssertionError:
                    continue
            await wait_until(pilot, lambda: status(app) == "reloading 3/9 files")

            await ask(pilot, "what pressure should the boiler be at")
            assert note(app) == "the question waits for the reload"
            slow.release.set()

            await wait_until(
                pilot, lambda: status(app) == "answered" and concluded(app), timeout=RELOAD_WAIT
            )
            assert (
                app.main.evidence.passage is not None and app.main.evidence.passage.id == "boiler"
            )
    finally:
        slow.release.set()


async def test_changes_while_an_answer_is_awaited_reload_after_it(tmp_path: Path) -> None:
    folder = library_of_three(tmp_path)
    hanging = HangingProvider()
    context = make_context(folder, tmp_path / "data", hanging, watch=True)
    app = make_app(context)
    async with running(app) as pilot:
        await watched(pilot, app, folder)
        await ask(pilot, "how much salt goes in pasta water")
        await wait_until(pilot, lambda: status(app).startswith("asking"))

        write_lesson(folder, "boiler", "Boiler pressure", BOILER)
        await wait_until(pilot, lambda: app.main.library.changed_on_disk, timeout=RELOAD_WAIT)
        assert "boiler" not in passage_ids(app) and not app.main.library.reloading

        await pilot.press("escape")
        await wait_until(pilot, lambda: "boiler" in passage_ids(app), timeout=RELOAD_WAIT)
        assert note(app) == f"reloaded: +1 {MINUS}0 passages"


async def test_with_watch_mode_off_no_watcher_runs_and_ctrl_r_reloads(tmp_path: Path) -> None:
    folder = library_of_three(tmp_path)
    app = AssistantApp(
        settings_for(folder, tmp_path, watch=False), hooks=AppHooks(cursor_blink=False)
    )
    async with running(app) as pilot:
        assert watchers(app) == []
        write_lesson(folder, "boiler", "Boiler pressure", BOILER)

        await pilot.press("ctrl+r")

        await wait_until(pilot, lambda: note(app) == f"reloaded: +1 {MINUS}0 passages")
        assert watchers(app) == []


async def test_with_watch_mode_on_one_watcher_runs_until_quitting(tmp_path: Path) -> None:
    folder = library_of_three(tmp_path)
    app = AssistantApp(settings_for(folder, tmp_path), hooks=AppHooks(cursor_blink=False))
    async with running(app) as pilot:
        await wait_until(pilot, lambda: len(watchers(app)) == 1)
        [worker] = watchers(app)
        assert worker.is_running  # type: ignore[attr-defined]
    assert worker.is_finished  # type: ignore[attr-defined]


async def test_a_folder_that_cannot_be_watched_says_so_and_the_app_goes_on(
    tmp_path: Path,
) -> None:
    folder = library_of_three(tmp_path)
    context = make_context(folder, tmp_path / "data", watch=True)
    shutil.rmtree(folder)  # the texts live on in the index store's snapshot
    app = make_app(context)
    async with running(app) as pilot:
        await wait_until(pilot, lambda: any("watch mode is off" in n for n in notices(app)))
        assert [n for n in notices(app) if "watch mode is off" in n] == [
            "watch mode is off: the library folder cannot be watched "
            "(it does not exist); ctrl+r reloads by hand"
        ]
        await ask(pilot, "how much salt goes in pasta water")
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))


async def test_the_palette_shows_the_library_report(tmp_path: Path) -> None:
    folder = library_of_three(tmp_path)
    (folder / "latin1.md").write_bytes("# Café\n\nCrème.\n".encode("latin-1"))
    app = AssistantApp(
        settings_for(folder, tmp_path, watch=False), hooks=AppHooks(cursor_blink=False)
    )
    async with running(app) as pilot:
        await run_command(pilot, app, "Library report")
        await wait_until(pilot, lambda: isinstance(app.screen, LibraryReportScreen))
        screen = app.screen
        assert isinstance(screen, LibraryReportScreen)
        report = screen.query_one("#report-text", Static)
        await wait_until(pilot, lambda: str(report.render()).startswith("library:"))

        lines = str(report.render()).splitlines()
        assert "documents: 3 (md 3)" in lines
        assert "  not UTF-8: 1" in lines and "    latin1.md" in lines
        assert "vectors: off (TUI_ASSISTANT_RETRIEVAL is ranked)" in lines

        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, LibraryReportScreen))
