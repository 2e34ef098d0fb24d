"""The full-screen app: chat, evidence, passage browser, question box, status bar.

The layout is `MainScreen`. The library loads in the background (`LibraryApp`), whose
worker posts its progress and result as messages handled here; the question box
answers once it is loaded (a question asked before stays in the box), and `ctrl+r`
reloads it. A question asked during a reload waits for the new library.

Every question goes through `AnswerService`: `start` (retrieval, deterministic answer)
runs at once; a model answer is awaited in one exclusive async worker that `escape`
cancels. The service owns the deadline. The app remembers which request is current,
so an answer that arrives after a cancel is dropped, never shown. History (one file
per library) is written off the event loop (`HistoryWriter`), and quitting waits for
the writes still queued.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import InvalidThemeError, ScreenStackError, SystemCommand
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.theme import Theme

from tui_assistant.context import library_folder, load_library
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.outcome import Outcome, Reason, cancelled, refused
from tui_assistant.core.service import PendingAnswer
from tui_assistant.settings import Settings
from tui_assistant.store.app_state import AppState
from tui_assistant.store.history import HistoryStore, Turn, export_conversation, latest_answer
from tui_assistant.ui.chat_pane import TurnView
from tui_assistant.ui.core_warnings import NoticeHandler, show_core_warnings, stop_showing
from tui_assistant.ui.editor import open_in_editor
from tui_assistant.ui.help_screen import HelpScreen
from tui_assistant.ui.history_writer import HistoryWriter
from tui_assistant.ui.library_app import (
    ContextStarter,
    LibraryApp,
    LibraryLoader,
    open_without_vectors,
)
from tui_assistant.ui.main_screen import MainScreen
from tui_assistant.ui.messages import (
    PassageChosen,
    QuestionAsked,
)


class AssistantApp(LibraryApp):
    TITLE = "tui-assistant"
    # Absolute, so a subclass defined elsewhere (a benchmark, a test) finds it too.
    CSS_PATH = Path(__file__).with_name("app.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Stop", priority=True, id="app.cancel"),
        Binding("escape", "focus_question", "Back", id="app.focus-question"),
        Binding("ctrl+l", "focus_library", "Library", id="app.focus-library"),
        Binding("ctrl+o", "open_in_editor", "Edit", id="app.open-in-editor"),
        Binding("ctrl+down", "evidence_step(1)", "Next passage", id="app.next-passage"),
        Binding("ctrl+up", "evidence_step(-1)", "Previous passage", id="app.previous-passage"),
        Binding("ctrl+r", "reload", "Reload", id="app.reload"),
        Binding("f1", "help", "Help", id="app.help"),
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
        Binding("ctrl+c", "help_quit", show=False, system=True, id="app.help-quit"),
    ]

    def __init__(
        self,
        settings: Settings,
        *,
        start: ContextStarter = open_without_vectors,
        reload_library: LibraryLoader = load_library,
        clock: Callable[[], float] = time.monotonic,
        history: HistoryStore | None = None,
        cursor_blink: bool = True,
    ) -> None:
        super().__init__(settings, start=start, reload_library=reload_library)
        self.clock = clock
        self.data_dir = settings.data_folder
        self.history = history or HistoryStore(self.data_dir, library=library_folder(settings))
        self.state_file = AppState(self.data_dir)
        self.conversation = Conversation()
        # Every turn on screen, oldest first: stored ones, then this session's.
        self.turns: list[Turn] = []
        self.pending: PendingAnswer | None = None
        self._pending_view: TurnView | None = None
        # A question asked during a reload, shown in the chat, asked once it is in.
        self.waiting: tuple[str, TurnView] | None = None
        self._cursor_blink = cursor_blink
        self._history = HistoryWriter(self.history, self._show_core_warning)
        self._core_warnings: NoticeHandler | None = None
        self._saved_theme = ""

    # -- layout ---------------------------------------------------------------

    def get_default_screen(self) -> MainScreen:
        return MainScreen(self.clock, cursor_blink=self._cursor_blink)

    @on(MainScreen.Ready)
    def _start_up(self) -> None:
        # Before anything else, so no warning logged while starting up is lost.
        self._core_warnings = show_core_warnings(self._show_core_warning)
        self._restore_theme()
        self._load_history()
        self.load_context()

    def reload_ended(self) -> None:
        if self.waiting is None:
            super().reload_ended()
            return
        question, view = self.waiting
        self.waiting = None
        self._start_question(question, view)

    def reload_refused(self) -> str | None:
        if self.pending is not None:
            return "reload after the answer: a question is in flight"
        return None

    # -- history --------------------------------------------------------------

    @work(group="history")
    async def _load_history(self) -> None:
        """Read the library's stored conversation off the event loop, so start-up never waits."""
        loaded = await self._history.load()
        self.chat.show_history(loaded)
        self.turns[:0] = loaded.turns
        self.question_box.remember_earlier([turn.question for turn in loaded.turns])

    # -- asking ---------------------------------------------------------------

    @on(QuestionAsked)
    def _ask(self, message: QuestionAsked) -> None:
        self.status_bar.note = ""
        if self.pending is not None or self.waiting is not None:
            self.bell()  # one request at a time; the typed question stays in the box
            return
        if not self.loaded:
            # The question stays in the box, to be asked again once the library is in.
            self.bell()
            self.status_bar.note = "indexing…: ask again once the library is loaded"
            return
        question = message.question
        self.question_box.accept(question)
        if self.reloading:
            self.waiting = (question, self.chat.begin_turn(question))
            self.status_bar.note = "the question waits for the reload"
            self.question_box.set_busy(True)
            self.refresh_bindings()
            return
        self._start_question(question, None)

    def _start_question(self, question: str, view: TurnView | None) -> None:
        step = self.context.service.start(question, self.conversation)
        if isinstance(step, Outcome):
            self._conclude(step, view)
            return
        self.pending = step
        self._pending_view = view or self.chat.begin_turn(question)
        self.evidence.show_evidence(step.evidence, question)
        self.status_bar.show_asking()
        self.question_box.set_busy(True)
        self.refresh_bindings()
        # Draw `asking` first, then call the provider: the screen answers the key at
        # once, and the app is idle (so Esc is read at once) while the model thinks.
        self.call_after_refresh(self._send, step)

    def _send(self, pending: PendingAnswer) -> None:
        if self.pending is pending:  # not cancelled before the screen was drawn
            self._await_answer(pending)

    @work(exclusive=True, group="ask", exit_on_error=False)
    async def _await_answer(self, pending: PendingAnswer) -> None:
        """The provider call. Cancelling this worker cancels the call itself."""
        try:
            # The service bounds the call by its deadline and reports `timed out`.
            outcome = await self.context.service.finish(pending)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a provider bug must end as a refusal, not a crash
            outcome = refused(
                pending.question,
                Reason.PROVIDER_ERROR,
                pending.evidence,
                f"unexpected {type(error).__name__}",
                pending.evidence.passages,
            ).with_elapsed(pending.elapsed_ms())
        if self.pending is not pending:
            return  # cancelled while the answer was on its way: never shown
        self._conclude(outcome, self._pending_view)

    def action_cancel(self) -> None:
        self.status_bar.note = ""
        if self.waiting is not None:
            question, view = self.waiting
            self.waiting = None
            self._conclude(cancelled(question, None), view)
            return
        pending = self.pending
        if pending is None:
            return
        self.workers.cancel_group(self, "ask")
        outcome = cancelled(pending.question, pending.evidence, pending.evidence.passages)
        self._conclude(outcome.with_elapsed(pending.elapsed_ms()), self._pending_view)

    def action_focus_question(self) -> None:
        self.status_bar.note = ""
        self.question_box.focus()

    def action_evidence_step(self, by: int) -> None:
        """The next or previous passage in the evidence panel; for a refusal, into the
        list of closest passages (up/down, enter opens one)."""
        if self.evidence.nearest and not self.evidence.passages:
            self.evidence.query_one("#evidence-nearest").focus()
        else:
            self.evidence.step(by)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            # Only with a question in flight or waiting, and help or the palette closes
            # first; otherwise escape keeps its usual meaning and reaches `focus_question`.
            busy = self.pending is not None or self.waiting is not None
            return busy and len(self.screen_stack) == 1
        if action == "focus_question":
            return self.focused is not self.question_box
        if action == "evidence_step":
            evidence = self.evidence
            return len(evidence.passages) > 1 or bool(evidence.nearest and not evidence.passages)
        return True

    def _conclude(self, outcome: Outcome, view: TurnView | None) -> None:
        """Record, store and show one outcome: the single end of every question."""
        self.pending = None
        self._pending_view = None
        self.conversation.add(outcome)
        asked_at = datetime.now(UTC).isoformat(timespec="seconds")
        turn = Turn.from_outcome(outcome, asked_at)
        self._history.append(outcome, asked_at)
        self.turns.append(turn)
        if view is not None and view.is_attached:
            self.chat.conclude(view, turn)
        else:
            self.chat.add_turn(turn)
        self.evidence.show_outcome(outcome)
        self.status_bar.show_outcome(outcome.describe(), outcome.kind.value)
        self.question_box.set_busy(False)
        self.refresh_bindings()
        self.reload_changed()  # documents that changed on disk meanwhile

    # -- passages, editor, help -----------------------------------------------

    def action_focus_library(self) -> None:
        self.status_bar.note = ""
        self.library_browser.library_tree.focus()

    @on(PassageChosen)
    def _show_passage(self, message: PassageChosen) -> None:
        if not self.loaded:
            return
        passage = self.context.library.get(message.passage_id)
        if passage is not None:
            self.evidence.show_passage(passage)

    def action_open_in_editor(self) -> None:
        passage = self.evidence.passage
        if passage is None:
            self.status_bar.note = "no passage shown to open"
        elif not self.loaded:
            self.status_bar.note = "that passage is no longer in the library"
        else:
            self.status_bar.note = open_in_editor(
                self.context.library, passage, self.run_in_terminal
            )

    def run_in_terminal(self, argv: list[str]) -> int:
        """Run `argv` in the terminal with the app suspended; its exit status."""
        with self.suspend():
            return subprocess.run(argv, check=False).returncode

    def action_help(self) -> None:
        self.status_bar.note = ""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    # -- the theme, kept across runs ------------------------------------------

    def _restore_theme(self) -> None:
        loaded = self.state_file.load()
        if loaded.warning is not None:
            self._show_core_warning(f"warning: {loaded.warning}")
        if loaded.theme is not None:
            try:
                self.theme = loaded.theme
            except InvalidThemeError:
                self._show_core_warning(f"warning: theme {loaded.theme!r} is not known")
        self._saved_theme = self.theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, theme: Theme) -> None:
        if theme.name != self._saved_theme:  # a choice, not the start-up's own setting
            self._saved_theme = theme.name
            self._save_theme(theme.name)

    @work(thread=True, group="state")
    def _save_theme(self, name: str) -> None:
        try:
            self.state_file.save_theme(name)
        except OSError as error:
            with contextlib.suppress(RuntimeError):  # the app may be gone meanwhile
                self.call_from_thread(
                    self._show_core_warning,
                    f"warning: theme not saved ({error.strerror or error})",
                )

    # -- commands (ctrl+p) ----------------------------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        export = "Save the conversation as Markdown, with each answer's source path"
        yield SystemCommand("Export conversation", export, self.action_export)
        yield SystemCommand("Copy latest answer", "Copy it to the clipboard", self.action_copy)
        yield SystemCommand(
            "Clear history", "Forget the stored conversation", self.action_clear_history
        )

    def action_export(self) -> Path | None:
        try:
            path = export_conversation(self.turns, self.data_dir / "exports")
        except OSError as error:
            self.chat.add_notice(f"export failed: {error.strerror or error}")
            return None
        self.chat.add_notice(f"exported {len(self.turns)} turns to {path}", warning=False)
        return path

    def action_copy(self) -> None:
        text = latest_answer(self.turns)
        if text is None:
            self.chat.add_notice("nothing to copy yet: no answered question")
            return
        self.copy_to_clipboard(text)
        self.chat.add_notice("copied the latest answer to the clipboard", warning=False)

    async def action_clear_history(self) -> None:
        if self.pending is not None or self.waiting is not None:
            self.action_cancel()
        try:
            await self._history.clear()
        except OSError as error:
            self.chat.add_notice(f"history not cleared: {error.strerror or error}")
            return
        self.turns.clear()
        self.conversation.clear()
        self.question_box.forget()
        await self.chat.clear_turns()
        self.evidence.show_hint()
        if self.loaded:
            self.status_bar.show_ready()
        self.chat.add_notice("history cleared", warning=False)

    def _show_core_warning(self, text: str) -> None:
        """A warning the core logged (see `core_warnings`), as a notice in the chat."""
        try:
            chat = self.chat
        except (NoMatches, ScreenStackError):
            return  # shutting down: the chat pane is already gone
        chat.add_notice(text)

    async def on_unmount(self) -> None:
        # Quitting right after an answer must not lose its record.
        await self._history.flush()
        self._history.close()
        if self._core_warnings is not None:
            stop_showing(self._core_warnings)
            self._core_warnings = None
        await self.close_library()


def run_app(settings: Settings, *, headless: bool = False) -> int:
    """Run the app until the user quits; the exit code for the CLI.

    Raises the error that ended the library's first load (the CLI prints it on one
    line and exits 2).
    """
    app = AssistantApp(settings)
    app.run(headless=headless)
    if app.load_error is not None:
        raise app.load_error
    return app.return_code or 0
