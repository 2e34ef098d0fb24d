"""The full-screen app: chat, evidence, lesson browser, question box, status bar.

Every question goes through `AnswerService`: `start` (retrieval, deterministic answer)
runs at once; a model answer is awaited in one exclusive async worker that `escape`
cancels. The app remembers which request is current, so an answer that arrives after
a cancel is dropped, never shown.

History is written (`append`, with its `fsync`) on one writer thread, so a slow disk
never holds up the screen; one thread keeps the records in the order of the turns,
and quitting waits for the writes still queued.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import App, ComposeResult, ScreenStackError, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer

from tui_assistant.context import AppContext
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.history import HistoryStore, LoadedHistory, Turn, export_markdown
from tui_assistant.core.outcome import Outcome, Reason, cancelled, refused, timed_out
from tui_assistant.core.service import PendingAnswer
from tui_assistant.core.text import clean_display_text
from tui_assistant.ui.chat_pane import ChatPane, TurnView
from tui_assistant.ui.core_warnings import NoticeHandler, show_core_warnings, stop_showing
from tui_assistant.ui.evidence_panel import EvidencePanel
from tui_assistant.ui.help_screen import HelpScreen
from tui_assistant.ui.lesson_browser import LessonBrowser
from tui_assistant.ui.messages import LessonChosen, QuestionAsked
from tui_assistant.ui.question_box import QuestionBox
from tui_assistant.ui.status_bar import StatusBar

# A provider is meant to enforce its own deadline; this margin is the app's backstop
# for one that does not, so a request can never hang the status bar on `asking`.
DEADLINE_GRACE_SECONDS = 1.0


class AssistantApp(App[int]):
    TITLE = "tui-assistant"
    # Absolute, so a subclass defined elsewhere (a benchmark, a test) finds it too.
    CSS_PATH = Path(__file__).with_name("app.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Stop", priority=True, id="app.cancel"),
        Binding("escape", "focus_question", "Back", id="app.focus-question"),
        Binding("ctrl+l", "focus_lessons", "Lessons", id="app.focus-lessons"),
        Binding("f1", "help", "Help", id="app.help"),
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
        Binding("ctrl+c", "help_quit", show=False, system=True, id="app.help-quit"),
    ]

    def __init__(
        self,
        context: AppContext,
        *,
        clock: Callable[[], float] = time.monotonic,
        history: HistoryStore | None = None,
        cursor_blink: bool = True,
    ) -> None:
        super().__init__()
        self.context = context
        self.clock = clock
        self.history = history or HistoryStore(context.data_dir)
        self.conversation = Conversation()
        # Every turn on screen, oldest first: stored ones, then this session's.
        self.turns: list[Turn] = []
        self.pending: PendingAnswer | None = None
        self._pending_view: TurnView | None = None
        self._cursor_blink = cursor_blink
        self.history_loaded = False
        # Every history read and write, in order, off the event loop.
        self._history_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history")
        self._history_writes: set[asyncio.Future[Turn]] = set()
        self._core_warnings: NoticeHandler | None = None

    # -- layout ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        library = self.context.library
        with Horizontal(id="main"):
            yield ChatPane()
            with Vertical(id="side"):
                yield EvidencePanel()
                yield LessonBrowser(library.passages)
        question_box = QuestionBox()
        question_box.cursor_blink = self._cursor_blink
        yield question_box
        yield StatusBar(self.context.mode_label, len(library), self.clock)
        yield Footer()

    def on_mount(self) -> None:
        # Before anything else, so no warning logged while starting up is lost.
        self._core_warnings = show_core_warnings(self._show_core_warning)
        self.question_box.focus()
        for problem in self.context.library.problems:
            self.chat.add_notice(f"warning: {problem}")
        self._load_history()

    @property
    def chat(self) -> ChatPane:
        return self.query_one(ChatPane)

    @property
    def evidence(self) -> EvidencePanel:
        return self.query_one(EvidencePanel)

    @property
    def lesson_browser(self) -> LessonBrowser:
        return self.query_one(LessonBrowser)

    @property
    def question_box(self) -> QuestionBox:
        return self.query_one(QuestionBox)

    @property
    def status_bar(self) -> StatusBar:
        return self.query_one(StatusBar)

    # -- history --------------------------------------------------------------

    @work(group="history")
    async def _load_history(self) -> None:
        """Read the stored conversation off the event loop, so start-up never waits."""
        loop = asyncio.get_running_loop()
        loaded = await loop.run_in_executor(self._history_writer, self.history.load)
        self._show_history(loaded)

    def _show_history(self, loaded: LoadedHistory) -> None:
        for warning in loaded.warnings:
            self.chat.add_notice(f"warning: {warning}")
        if loaded.turns:
            shown = len(loaded.turns)
            note = f"earlier conversation ({shown} turn{'s' if shown != 1 else ''})"
            if loaded.total > shown:
                note += f", the last {shown} of {loaded.total}"
            self.chat.add_earlier_turns(loaded.turns, note)
            self.turns[:0] = loaded.turns
            self.question_box.remember_earlier([turn.question for turn in loaded.turns])
        self.history_loaded = True

    # -- asking ---------------------------------------------------------------

    @on(QuestionAsked)
    def _ask(self, message: QuestionAsked) -> None:
        if self.pending is not None:
            self.bell()  # one request at a time; the typed question stays in the box
            return
        question = message.question
        self.question_box.accept(question)
        step = self.context.service.start(question, self.conversation)
        if isinstance(step, Outcome):
            self._conclude(step, None)
            return
        self.pending = step
        self._pending_view = self.chat.begin_turn(question)
        self.evidence.show_evidence(step.evidence)
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
        service = self.context.service
        deadline = service.provider.deadline_seconds if service.provider else 0.0
        try:
            async with asyncio.timeout(deadline + DEADLINE_GRACE_SECONDS):
                outcome = await service.finish(pending)
        except TimeoutError:
            detail = f"no answer within {deadline:g} s"
            outcome = timed_out(pending.question, pending.evidence, detail).with_elapsed(
                pending.elapsed_ms()
            )
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a provider bug must end as a refusal, not a crash
            outcome = refused(
                pending.question,
                Reason.PROVIDER_ERROR,
                pending.evidence,
                f"unexpected {type(error).__name__}",
            ).with_elapsed(pending.elapsed_ms())
        if self.pending is not pending:
            return  # cancelled while the answer was on its way: never shown
        self._conclude(outcome, self._pending_view)

    def action_cancel(self) -> None:
        pending = self.pending
        if pending is None:
            return
        self.workers.cancel_group(self, "ask")
        outcome = cancelled(pending.question, pending.evidence)
        self._conclude(outcome.with_elapsed(pending.elapsed_ms()), self._pending_view)

    def action_focus_question(self) -> None:
        self.question_box.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            # Only with a request in flight, and help or the palette closes first;
            # otherwise escape keeps its usual meaning and reaches `focus_question`.
            return self.pending is not None and len(self.screen_stack) == 1
        if action == "focus_question":
            return self.focused is not self.question_box
        return True

    def _conclude(self, outcome: Outcome, view: TurnView | None) -> None:
        """Record, store and show one outcome: the single end of every question."""
        self.pending = None
        self._pending_view = None
        self.conversation.add(outcome)
        asked_at = datetime.now(UTC).isoformat(timespec="seconds")
        turn = Turn.from_outcome(outcome, asked_at)
        self._save_turn(outcome, asked_at)
        self.turns.append(turn)
        if view is not None and view.is_attached:
            self.chat.conclude(view, turn)
        else:
            self.chat.add_turn(turn)
        if outcome.evidence is not None:
            self.evidence.show_evidence(outcome.evidence)
        else:
            self.evidence.show_hint()
        self.status_bar.show_outcome(outcome.describe(), outcome.kind.value)
        self.question_box.set_busy(False)
        self.refresh_bindings()

    def _save_turn(self, outcome: Outcome, asked_at: str) -> None:
        """Queue the turn's record for the writer thread; the screen does not wait."""
        loop = asyncio.get_running_loop()
        writing = loop.run_in_executor(self._history_writer, self.history.append, outcome, asked_at)
        self._history_writes.add(writing)
        writing.add_done_callback(self._turn_saved)

    def _turn_saved(self, writing: asyncio.Future[Turn]) -> None:
        self._history_writes.discard(writing)
        error = None if writing.cancelled() else writing.exception()
        if isinstance(error, OSError):
            self._show_core_warning(f"warning: history not saved ({error.strerror or error})")
        elif error is not None:
            self._show_core_warning(f"warning: history not saved ({type(error).__name__})")

    async def flush_history(self) -> None:
        """Wait until every queued history write has reached the disk."""
        if self._history_writes:
            await asyncio.gather(*self._history_writes, return_exceptions=True)

    # -- lessons, help --------------------------------------------------------

    def action_focus_lessons(self) -> None:
        self.lesson_browser.lesson_list.focus()

    @on(LessonChosen)
    def _show_lesson(self, message: LessonChosen) -> None:
        passage = self.context.library.get(message.passage_id)
        if passage is not None:
            self.evidence.show_lesson(passage)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    # -- commands (ctrl+p) ----------------------------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(
            "Export conversation",
            "Save the conversation as Markdown, with each answer's source path",
            self.action_export,
        )
        yield SystemCommand(
            "Copy latest answer", "Copy the latest answer to the clipboard", self.action_copy
        )
        yield SystemCommand(
            "Clear history", "Forget the stored conversation", self.action_clear_history
        )

    def action_export(self) -> Path | None:
        folder = self.context.data_dir / "exports"
        name = datetime.now(UTC).strftime("conversation-%Y%m%d-%H%M%S.md")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(export_markdown(self.turns), encoding="utf-8")
        except OSError as error:
            self.chat.add_notice(f"export failed: {error.strerror or error}")
            return None
        self.chat.add_notice(f"exported {len(self.turns)} turns to {path}", warning=False)
        return path

    def action_copy(self) -> None:
        latest = next((turn for turn in reversed(self.turns) if turn.answered), None)
        if latest is None:
            self.chat.add_notice("nothing to copy yet: no answered question")
            return
        text = clean_display_text(latest.answer or "")
        if latest.source_path:
            text += f"\n\nsource: {latest.source_path}"
        self.copy_to_clipboard(text)
        self.chat.add_notice("copied the latest answer to the clipboard", warning=False)

    async def action_clear_history(self) -> None:
        if self.pending is not None:
            self.action_cancel()
        loop = asyncio.get_running_loop()
        try:
            # On the writer thread, after the appends queued before it.
            await loop.run_in_executor(self._history_writer, self.history.clear)
        except OSError as error:
            self.chat.add_notice(f"history not cleared: {error.strerror or error}")
            return
        self.turns.clear()
        self.conversation.clear()
        self.question_box.forget()
        await self.chat.clear_turns()
        self.evidence.show_hint()
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
        await self.flush_history()
        self._history_writer.shutdown(wait=True)
        if self._core_warnings is not None:
            stop_showing(self._core_warnings)
            self._core_warnings = None
        await self.context.aclose()


def run_app(context: AppContext) -> int:
    """Run the app until the user quits; the exit code for the CLI."""
    app = AssistantApp(context)
    app.run()
    return app.return_code or 0
