"""Watch mode in the running app with thousands of documents: a checkout that rewrites,
removes and adds thousands of files at once is one reload, counted in passages, and
the next change is one reload more."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import write_lesson
from tests.helpers.tui import note, running, wait_until
from tests.helpers.watching import WAIT, passage_ids, watched
from tui_assistant.core.library.library import Library
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.hooks import AppHooks
from tui_assistant.wiring.context import load_library

MINUS = "\N{MINUS SIGN}"


def document(number: int) -> tuple[Path, str]:
    return Path(f"part-{number // 100}"), f"doc-{number}"


async def test_a_checkout_of_thousands_of_files_is_one_reload(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    for number in range(2000):
        part, name = document(number)
        (folder / part).mkdir(parents=True, exist_ok=True)
        write_lesson(folder / part, name, f"Topic {number}", f"Body of document {number}.")
    reloads: list[int] = []

    def counted(settings: Settings, progress: Progress | None) -> Library:
        reloads.append(1)
        return load_library(settings, progress)

    settings = Settings(library=folder, data_dir=tmp_path / "data", retrieval="ranked", watch=True)
    app = AssistantApp(settings, hooks=AppHooks(reload_library=counted, cursor_blink=False))
    async with running(app) as pilot:
        await watched(pilot, app, folder)
        before = len(reloads)

        for number in range(1000):
            part, name = document(number)
            write_lesson(folder / part, name, f"Topic {number}", f"Rewritten {number}.")
        for number in range(1000, 1500):
            part, name = document(number)
            (folder / part / f"{name}.md").unlink()
        for number in range(2000, 2500):
            part, name = document(number)
            (folder / part).mkdir(parents=True, exist_ok=True)
            write_lesson(folder / part, name, f"Topic {number}", f"Body of document {number}.")

        await wait_until(
            pilot,
            lambda: "part-24/doc-2499" in passage_ids(app) and not app.main.library.reloading,
            timeout=WAIT * 3,
        )
        assert note(app) == f"reloaded: +1,500 {MINUS}1,500 passages"
        assert "part-14/doc-1499" not in passage_ids(app)

        write_lesson(folder, "marker", "Marker", "One more change.")
        await wait_until(pilot, lambda: "marker" in passage_ids(app), timeout=WAIT)
        assert note(app) == f"reloaded: +1 {MINUS}0 passages"
        assert len(reloads) - before == 2
