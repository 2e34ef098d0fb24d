"""The full-screen app: chat, evidence, lesson browser, question box, status bar.

The screen is drawn at once; the library is loaded (indexed where files changed) in a
thread worker that reports its progress to the status bar, and the question box
answers once it is loaded (a question asked before stays in the box). `ctrl+r`
reloads the library the same way and swaps it in on the app's thread.

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
import contextlib
import os
import shlex
import subprocess
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import App, ComposeResult, ScreenStackError, SuspendNotSupported, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import get_current_worker

from tui_assistant.context import AppContext, load_library, open_context
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.history import HistoryStore, LoadedHistory, Turn, export_markdown
from tui_assistant.core.library import Library, LibraryError
from tui_assistant.core.outcome import Outcome, Reason, cancelled, refused, timed_out
from tui_assistant.core.passages import Passage
from tui_assistant.core.service import PendingAnswer
from tui_assistant.core.store import Progress
from tui_assistant.core.text import clean_display_text
from tui_assistant.locations import default_data_dir
from tui_assistant.settings import Settings
from tui_assistant.ui.chat_pane import ChatPane, TurnView
from tui_assistant.ui.core_warnings import NoticeHandler, show_core_warnings, stop_showing
from tui_assistant.ui.evidence_panel import EvidencePanel
from tui_assistant.ui.help_screen import HelpScreen
from tui_assistant.ui.lesson_browser import LessonBrowser
from tui_assistant.ui.literal import one_line
from tui_assistant.ui.messages import PassageChosen, QuestionAsked
from tui_assistant.ui.question_box import QuestionBox
from tui_assistant.ui.status_bar import StatusBar, plural, progress_text

# A provider is meant to enforce its own deadline; this margin is the app's backstop
# for one that does not, so a request can never hang the status bar on `asking`.
DEADLINE_GRACE_SECONDS = 1.0
# Indexing progress is drawn at most this often: each report waits for the app's thread.
PROGRESS_INTERVAL_SECONDS = 0.05

# Builds the context (library, service) from settings; runs in a thread worker.
ContextStarter = Callable[[Settings, Progress | None], AppContext]
# Reads the library again for a reload; runs in a thread worker.
LibraryLoader = Callable[[Settings, Progress | None], Library]


class _Abandoned(Exception):
    """Raised from a progress report to stop indexing that nobody waits for any more."""


def editor_command(environ: Mapping[str, str], path: Path, line: int) -> list[str] | None:
    """`$VISUAL` (else `$EDITOR`) split like a shell would, plus `+LINE FILE`; None
    when neither is set. The path is the library's own, never one a model wrote."""
    for variable in ("VISUAL", "EDITOR"):
        value = environ.get(variable, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError:  # an unbalanced quote: take the words as they are
                words = value.split()
            if words:
                return [*words, f"+{line}", os.fspath(path)]
    return None


class AssistantApp(App[int]):
    TITLE = "tui-assistant"
    # Absolute, so a subclass defined elsewhere (a benchmark, a test) finds it too.
    CSS_PATH = Path(__file__).with_name("app.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Stop", priority=True, id="app.cancel"),
        Binding("escape", "focus_question", "Back", id="app.focus-question"),
        Binding("ctrl+l", "focus_lessons", "Lessons", id="app.focus-lessons"),
        Binding("ctrl+o", "open_in_editor", "Edit", id="app.open-in-editor"),
        Binding("ctrl+r", "reload", "Reload", id="app.reload"),
        Binding("f1", "help", "Help", id="app.help"),
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
        Binding("ctrl+c", "help_quit", show=False, system=True, id="app.help-quit"),
    ]

    def __init__(
        self,
        settings: Settings,
        *,
        start: ContextStarter = open_context,
        reload_library: LibraryLoader = load_library,
        clock: Callable[[], float] = time.monotonic,
        history: HistoryStore | None = None,
        cursor_blink: bool = True,
    ) -> None:
        super().__init__()
        self.settings = settings
        self._start = start
        self._reload_library = reload_library
        self._loaded_context: AppContext | None = None
        # A LibraryError that ended the first load: `run_app` reports it and exits 2.
        self.load_error: LibraryError | None = None
        self.reloading = False
        self.clock = clock
        self.data_dir = settings.data_dir or default_data_dir()
        self.history = history or HistoryStore(self.data_dir)
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
        with Horizontal(id="main"):
            yield ChatPane()
            with Vertical(id="side"):
                yield EvidencePanel()
                yield LessonBrowser()
        question_box = QuestionBox()
        question_box.cursor_blink = self._cursor_blink
        yield question_box
        yield StatusBar(self.clock)
        yield Footer()

    def on_mount(self) -> None:
        # Before anything else, so no warning logged while starting up is lost.
        self._core_warnings = show_core_warnings(self._show_core_warning)
        self.question_box.focus()
        self._load_history()
        self._load_context()

    @property
    def loaded(self) -> bool:
        """True once the library is loaded and questions are answered."""
        return self._loaded_context is not None

    @property
    def context(self) -> AppContext:
        """The library and the service; only once `loaded`."""
        if self._loaded_context is None:
            raise RuntimeError("the library is not loaded yet")
        return self._loaded_context

    # -- loading the library --------------------------------------------------

    def _progress(self, report: Callable[[int, int], None]) -> Progress:
        """A progress callback for the worker thread running it: draws at most every
        PROGRESS_INTERVAL_SECONDS (and the last step), and stops the work with
        `_Abandoned` once the worker is cancelled (the app is quitting)."""
        worker = get_current_worker()
        last = [0.0]

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Abandoned
            now = time.monotonic()
            if done < total and now - last[0] < PROGRESS_INTERVAL_SECONDS:
                return
            last[0] = now
            try:
                self.call_from_thread(report, done, total)
            except RuntimeError:  # the app is no longer running
                raise _Abandoned from None

        return progress

    def _from_thread(self, callback: Callable[..., object], *args: object) -> None:
        """Run `callback` on the app's thread, unless the app has stopped meanwhile."""
        with contextlib.suppress(RuntimeError):
            self.call_from_thread(callback, *args)

    @work(thread=True, exclusive=True, group="library")
    def _load_context(self) -> None:
        """The first load: the whole context, built off the app's thread."""
        try:
            context = self._start(self.settings, self._progress(self.status_bar.show_progress))
        except _Abandoned:
            return
        except LibraryError as error:
            self._from_thread(self._start_failed, error)
            return
        self._from_thread(self._started, context)

    def _start_failed(self, error: LibraryError) -> None:
        self.load_error = error
        self.exit(return_code=2)

    def _started(self, context: AppContext) -> None:
        self._loaded_context = context
        library = context.library
        self.status_bar.show_library(context.mode_label, len(library))
        self.lesson_browser.set_library(library)
        for problem in library.problems:
            self.chat.add_notice(f"warning: {problem}")
        self.status_bar.show_ready()
        self.refresh_bindings()

    def action_reload(self) -> None:
        if not self.loaded:
            self.status_bar.show_note("still indexing: the library is not loaded yet")
        elif self.pending is not None:
            self.status_bar.show_note("reload after the answer: a question is in flight")
        elif self.reloading:
            self.status_bar.show_note("already reloading")
        else:
            self.reloading = True
            self.status_bar.show_note("reloading…")
            self._reload(self.context.settings)

    @work(thread=True, exclusive=True, group="library")
    def _reload(self, settings: Settings) -> None:
        """Read the library again (only changed files are indexed) off the app's thread."""
        try:
            library = self._reload_library(settings, self._progress(self._show_reloading))
        except _Abandoned:
            return
        except LibraryError as error:
            self._from_thread(self._reload_failed, str(error))
            return
        except Exception as error:  # a store that cannot be read must not end the app
            self._from_thread(self._reload_failed, f"{type(error).__name__}: {error}")
            return
        self._from_thread(self._reloaded, library)

    def _show_reloading(self, done: int, total: int) -> None:
        self.status_bar.show_note(progress_text("reloading", done, total))

    def _reload_failed(self, reason: str) -> None:
        self.reloading = False
        self.status_bar.show_note(f"reload failed, still using the loaded library: {reason}")

    def _reloaded(self, library: Library) -> None:
        self.reloading = False
        context = self.context
        known = {str(problem) for problem in context.library.problems}
        before = len(context.library)
        context.use_library(library)
        self.status_bar.show_library(context.mode_label, len(library))
        self.lesson_browser.set_library(library)
        for problem in library.problems:
            if str(problem) not in known:
                self.chat.add_notice(f"warning: {problem}")
        change = len(library) - before
        changed = f" ({change:+,})" if change else ""
        self.status_bar.show_note(f"reloaded: {plural(len(library), 'passage')}{changed}")

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
        if not self.loaded:
            # The question stays in the box, to be asked again once the library is in.
            self.bell()
            self.status_bar.show_note("indexing…: ask again once the library is loaded")
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
        self.lesson_browser.lesson_tree.focus()

    @on(PassageChosen)
    def _show_passage(self, message: PassageChosen) -> None:
        if not self.loaded:
            return
        passage = self.context.library.get(message.passage_id)
        if passage is not None:
            self.evidence.show_passage(passage)

    # -- open in editor -------------------------------------------------------

    def passage_file(self, passage: Passage) -> Path | None:
        """The evidence passage's file: the library folder joined with the document
        path the library itself recorded; None when it is no longer in the library."""
        if not self.loaded:
            return None
        library = self.context.library
        number = library.number_of(passage.id)
        if number is None:
            return None
        return Path(library.folder) / library.info(number).document

    def action_open_in_editor(self) -> None:
        passage = self.evidence.passage
        if passage is None:
            self.status_bar.show_note("no passage shown to open")
            return
        path = self.passage_file(passage)
        if path is None:
            self.status_bar.show_note("that passage is no longer in the library")
            return
        argv = editor_command(os.environ, path, passage.line)
        if argv is None:
            self.status_bar.show_note("no editor: set $VISUAL or $EDITOR")
            return
        try:
            status = self.run_in_terminal(argv)
        except SuspendNotSupported:
            self.status_bar.show_note("cannot open an editor: this terminal cannot be suspended")
            return
        except OSError as error:
            reason = error.strerror or str(error)
            self.status_bar.show_note(f"editor {one_line(argv[0])} did not start: {reason}")
            return
        if status != 0:
            self.status_bar.show_note(f"editor exited with status {status}")
        else:
            self.status_bar.show_note("back from the editor: ctrl+r reloads the library")

    def run_in_terminal(self, argv: list[str]) -> int:
        """Run `argv` in the terminal with the app suspended; its exit status."""
        with self.suspend():
            return subprocess.run(argv, check=False).returncode

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
        folder = self.data_dir / "exports"
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
        await self.flush_history()
        self._history_writer.shutdown(wait=True)
        if self._core_warnings is not None:
            stop_showing(self._core_warnings)
            self._core_warnings = None
        self.workers.cancel_group(self, "library")
        if self._loaded_context is not None:
            await self._loaded_context.aclose()


def run_app(settings: Settings, *, headless: bool = False) -> int:
    """Run the app until the user quits; the exit code for the CLI.

    Raises the `LibraryError` that ended the library's first load (the CLI prints it
    on one line and exits 2).
    """
    app = AssistantApp(settings)
    app.run(headless=headless)
    if app.load_error is not None:
        raise app.load_error
    return app.return_code or 0
