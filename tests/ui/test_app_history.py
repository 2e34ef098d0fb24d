"""History in the app: it survives a restart, damage is a warning, and commands use it."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    ask,
    chat_text,
    history_loaded,
    make_app,
    make_context,
    notices,
    run_command,
    running,
    status,
    wait_until,
)
from tui_assistant.core.outcome import Outcome, Reason
from tui_assistant.store.app_state import STATE_FILE_NAME
from tui_assistant.store.history import HistoryStore
from tui_assistant.ui.widgets.chat_pane import TurnView

SIZE = (100, 32)


async def test_history_is_shown_again_after_a_restart(tmp_path: Path) -> None:
    first = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(first, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await ask(pilot, "what is the capital of france")
        await wait_until(pilot, lambda: len(first.main.transcript.turns) == 2)
        await pilot.press("ctrl+q")

    second = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(second, SIZE) as pilot:
        await history_loaded(second)
        await pilot.pause()
        shown = chat_text(second)
        assert "earlier conversation (2 turns)" in shown
        assert "> how much salt for pasta water" in shown
        assert "source: lessons/pasta-water.md" in shown
        assert "> what is the capital of france\nrefused: no passage" in shown
        assert status(second) == "ready"
        # Earlier questions can be recalled too.
        await pilot.press("up")
        assert second.main.question_box.value == "what is the capital of france"


async def test_a_damaged_history_record_is_a_warning_not_fatal(tmp_path: Path) -> None:
    first = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(first, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(first.main.transcript.turns) == 1)
    with first.main.history.store.path.open("ab") as file:
        file.write(b"\x00\xffgarbage [bold]x[/]\n")

    second = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(second, SIZE) as pilot:
        await history_loaded(second)
        await pilot.pause()
        notices = [str(static.render()) for static in second.main.chat.query(".notice")]
        assert any("removed damaged history record on line 2" in notice for notice in notices)
        assert "> how much salt for pasta water" in chat_text(second)
        await ask(pilot, "how long to boil eggs")
        await wait_until(pilot, lambda: status(second) == "answered")


async def test_history_never_holds_the_api_key(tmp_path: Path) -> None:
    secret = "sk-test-DO-NOT-STORE-1234567890"
    context = make_context(BUNDLED_LESSONS, tmp_path, api_key=secret)
    app = make_app(context)
    async with running(app, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(app.main.transcript.turns) == 1)
    stored = app.main.history.store.path.read_text(encoding="utf-8")
    assert "salt for pasta water" in stored
    assert secret not in stored


async def test_export_command_writes_markdown_with_source_paths(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, (80, 24)) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(app.main.transcript.turns) == 1)
        await run_command(pilot, app, "export conv")
        # The notice saying where the file went is scrolled into view.
        notice = app.main.chat.query(".info").last()
        await wait_until(pilot, lambda: app.main.chat.region.contains_region(notice.region))
        exports = list((tmp_path / "exports").glob("*.md"))
        assert len(exports) == 1
        markdown = exports[0].read_text(encoding="utf-8")
        assert "## how much salt for pasta water" in markdown
        assert "lessons/pasta-water.md" in markdown
        assert str(exports[0]) in chat_text(app)


async def test_copy_command_puts_the_latest_answer_on_the_clipboard(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await ask(pilot, "what is the capital of france")
        await wait_until(pilot, lambda: len(app.main.transcript.turns) == 2)
        await run_command(pilot, app, "copy latest")
        assert "10 grams of salt per litre" in app.clipboard
        assert app.clipboard.endswith("source: lessons/pasta-water.md:1–11")


async def test_clear_history_command_empties_screen_and_file(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(app.main.transcript.turns) == 1)
        await run_command(pilot, app, "clear history")
        assert not app.main.chat.query(TurnView)
        assert "history cleared" in chat_text(app)
        assert status(app) == "ready"
    again = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(again, SIZE) as pilot:
        await history_loaded(again)
        assert again.main.transcript.turns == []
        assert "salt for pasta" not in chat_text(again)


class SlowDisk(HistoryStore):
    """A history store whose appends block until the test lets them through, and
    which records the thread each append ran on."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir / "conversation.jsonl")
        self.release = threading.Event()
        self.threads: list[threading.Thread] = []

    def append(self, outcome: Outcome, asked_at: str | None = None) -> None:
        self.threads.append(threading.current_thread())
        assert self.release.wait(10), "the test never let the write through"
        return super().append(outcome, asked_at)


def stored_questions(store: HistoryStore) -> list[str]:
    if not store.path.exists():
        return []
    stored = store.path.read_text(encoding="utf-8")
    return [json.loads(line)["outcome"]["question"] for line in stored.splitlines()]


async def test_a_slow_history_write_never_holds_up_the_screen(tmp_path: Path) -> None:
    store = SlowDisk(tmp_path)
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path), history=store)
    asked = ["how much salt for pasta water", "how long to boil eggs"]
    async with app.run_test(size=SIZE) as pilot:
        await history_loaded(app)
        for question in asked:
            await ask(pilot, question)
        # Both answers are on screen while the first write is still stuck on the disk.
        await wait_until(
            pilot, lambda: len(app.main.transcript.turns) == 2 and status(app) == "answered"
        )
        assert "> how long to boil eggs" in chat_text(app)
        assert stored_questions(store) == []
        assert store.threads and store.threads[0] is not threading.main_thread()
        store.release.set()
        await wait_until(pilot, lambda: stored_questions(store) == asked)
    assert len(set(store.threads)) == 1  # one writer thread: the order of the turns


async def test_quitting_waits_for_the_writes_still_queued(tmp_path: Path) -> None:
    store = SlowDisk(tmp_path)
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path), history=store)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(app.main.transcript.turns) == 1)
        # Let the write through only once the app is on its way out.
        threading.Timer(0.2, store.release.set).start()
        await pilot.press("ctrl+q")
    assert stored_questions(store) == ["how much salt for pasta water"]


async def test_a_failed_history_write_is_a_warning(tmp_path: Path) -> None:
    class FullDisk(HistoryStore):
        def append(self, outcome: Outcome, asked_at: str | None = None) -> None:
            raise OSError(28, "No space left on device")

    app = make_app(
        make_context(BUNDLED_LESSONS, tmp_path), history=FullDisk(tmp_path / "conversation.jsonl")
    )
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: "history not saved" in chat_text(app))
        assert "warning: history not saved (No space left on device)" in chat_text(app)
        assert status(app) == "answered"


async def test_each_library_has_its_own_conversation(nested: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = make_app(make_context(BUNDLED_LESSONS, data))
    async with running(first, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(first.main.transcript.turns) == 1)

    other = make_app(make_context(nested, data))
    async with running(other, SIZE) as pilot:
        await history_loaded(other)
        assert other.main.transcript.turns == []
        assert "salt for pasta water" not in chat_text(other)
        await ask(pilot, "soak the whetstone")
        await wait_until(pilot, lambda: len(other.main.transcript.turns) == 1)
        await pilot.press("up")
        assert other.main.question_box.value == "soak the whetstone"

    back = make_app(make_context(BUNDLED_LESSONS, data))
    async with running(back, SIZE) as pilot:
        await history_loaded(back)
        shown = chat_text(back)
        assert "> how much salt for pasta water" in shown
        assert "whetstone" not in shown
    assert first.main.history.store.path != other.main.history.store.path
    assert first.main.history.store.path.parent == data / "history"


async def test_the_old_shared_history_file_is_left_alone(tmp_path: Path) -> None:
    old = tmp_path / "history.jsonl"
    old.write_bytes(b"not read any more, not deleted\n")
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await history_loaded(app)
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: stored_questions(app.main.history.store) != [])
        assert notices(app) == []
    assert old.read_bytes() == b"not read any more, not deleted\n"


async def test_history_keeps_the_first_4000_characters_of_a_question(tmp_path: Path) -> None:
    long_question = "salt " * 1_000_000  # 5 MB
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await ask(pilot, long_question)
        await wait_until(pilot, lambda: stored_questions(app.main.history.store) != [])
        assert status(app).startswith("refused")
        assert app.main.transcript.session.outcomes[-1].reason is Reason.TOO_LONG
    [stored] = stored_questions(app.main.history.store)
    assert stored == long_question[:4000]


async def test_the_chosen_theme_is_kept_across_restarts(tmp_path: Path) -> None:
    first = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(first, SIZE) as pilot:
        assert first.theme != "nord"
        first.theme = "nord"  # what the palette's theme command does
        await wait_until(pilot, lambda: (tmp_path / STATE_FILE_NAME).exists())

    again = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(again, SIZE):
        assert again.theme == "nord"


async def test_a_broken_state_file_is_a_one_line_warning(tmp_path: Path) -> None:
    (tmp_path / STATE_FILE_NAME).write_bytes(b'{"theme": [oops\n\x00')
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await wait_until(pilot, lambda: notices(app) != [])
        [warning] = notices(app)
        assert warning.startswith(f"warning: ignored {tmp_path / STATE_FILE_NAME}:")
        assert "\n" not in warning
        assert status(app) == "ready"
        assert app.theme == "textual-dark"


async def test_after_an_export_the_status_bar_says_so_not_what_came_before(
    tmp_path: Path,
) -> None:
    from tests.helpers.tui import note
    from tui_assistant.ui.editor import BACK_FROM_EDITOR

    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, (80, 24)) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(app.main.transcript.turns) == 1)
        app.main.status_bar.note = BACK_FROM_EDITOR  # as after ctrl+o
        await run_command(pilot, app, "export conv")
        await wait_until(pilot, lambda: list((tmp_path / "exports").glob("*.md")) != [])
        assert note(app) == "exported 1 turn"
