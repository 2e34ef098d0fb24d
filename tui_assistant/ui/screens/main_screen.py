"""The main screen: the conversation, the side column (evidence over the library
tree), the question box, the status bar and the footer; and the life of a question.

Every question goes through `AnswerService`: `start` (retrieval, deterministic answer)
runs at once; a model answer is awaited in one exclusive async worker that `escape`
cancels. The service owns the deadline. The screen remembers which request is current
(`pending`), so an answer that arrives after a cancel is dropped, never shown. A
question asked during a reload is shown in the chat and `held` until the new library
is in. Each outcome is concluded once: recorded in the `Transcript` (the one owner of
the conversation), drawn, then written to the history off the event loop.

The library's life (load, reload, vectors, watch) is the screen's too, kept in its
`ScreenLibrary`. Widgets post messages up and never reach into each other. The app
makes this screen its default and asks it for what it needs (`load_error`, `say`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen

from tui_assistant.core.conversation import Conversation
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.record import Turn
from tui_assistant.core.service import PendingAnswer
from tui_assistant.errors import ConfigError, LibraryError, os_error_words
from tui_assistant.settings import Settings
from tui_assistant.ui import keys
from tui_assistant.ui.editor import open_in_editor
from tui_assistant.ui.history_writer import HistoryWriter
from tui_assistant.ui.hooks import AppHooks
from tui_assistant.ui.messages import LibraryEvent, PassageChosen, QuestionAsked
from tui_assistant.ui.screens.main_keys import key_groups
from tui_assistant.ui.screens.screen_library import ScreenLibrary
from tui_assistant.ui.transcript import Transcript
from tui_assistant.ui.widgets.chat_pane import ChatPane, TurnView
from tui_assistant.ui.widgets.evidence_panel import EvidencePanel
from tui_assistant.ui.widgets.key_footer import KeyFooter
from tui_assistant.ui.widgets.library_panel import LibraryPanel
from tui_assistant.ui.widgets.question_box import QuestionBox
from tui_assistant.ui.widgets.side_column import SideColumn
from tui_assistant.ui.widgets.status_bar import StatusBar
from tui_assistant.wiring.context import AppContext

# A question asked during a reload, and its place in the chat.
Held = tuple[str, TurnView]


class MainScreen(Screen[None]):
    class Ready(Message):
        """The widgets are mounted: the app can start filling them."""

    BINDINGS: ClassVar[list[BindingType]] = keys.MAIN_SCREEN
    # The keys of this screen and of the widgets on it, for the help.
    key_groups = staticmethod(key_groups)

    # The request in flight, a question held for a reload, one being retrieved (`hybrid`,
    # in a thread): a change refreshes the footer (Stop is offered only while one is set).
    pending: var[PendingAnswer | None] = var(None, init=False, bindings=True)
    held: var[Held | None] = var(None, init=False, bindings=True)
    retrieving: var[tuple[str, TurnView] | None] = var(None, init=False, bindings=True)

    def __init__(
        self,
        settings: Settings,
        *,
        history: HistoryWriter,
        run_in_terminal: Callable[[list[str]], int],
        hooks: AppHooks,
    ) -> None:
        super().__init__(id="main-screen")
        # Made here, so what it holds outlives the screen's widgets (`load_error`).
        self.library = ScreenLibrary(
            self,
            settings,
            hooks,
            reload_over=self.reload_over,
            reload_if_changed=self.reload_if_changed,
        )
        self.library_panel = LibraryPanel()
        self.transcript = Transcript()
        self.history = history
        self._clock = hooks.clock
        # Runs the editor with the app suspended; its exit status.
        self._run_in_terminal = run_in_terminal
        self._cursor_blink = hooks.cursor_blink
        self._pending_view: TurnView | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield ChatPane()
            yield SideColumn(EvidencePanel(), self.library_panel)
        question_box = QuestionBox()
        question_box.cursor_blink = self._cursor_blink
        yield question_box
        yield StatusBar(self._clock)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.question_box.focus()
        self.post_message(self.Ready())

    @property
    def chat(self) -> ChatPane:
        return self.query_one(ChatPane)

    @property
    def evidence(self) -> EvidencePanel:
        return self.query_one(EvidencePanel)

    @property
    def question_box(self) -> QuestionBox:
        return self.query_one(QuestionBox)

    @property
    def status_bar(self) -> StatusBar:
        return self.query_one(StatusBar)

    def say(self, note: str | None = None, notice: str | None = None, warning: bool = True) -> None:
        """What a command did: a `note` on the status bar, a `notice` in the chat."""
        if note is not None:
            self.status_bar.note = note
        if notice is not None:
            self.chat.add_notice(notice, warning=warning)

    @property
    def turns(self) -> Sequence[Turn]:
        return self.transcript.turns

    @property
    def context(self) -> AppContext:
        """The library and the service answering now (once the library is loaded)."""
        return self.library.context

    @property
    def loaded(self) -> bool:
        """The library is in: questions are answered from it."""
        return self.library.loaded

    @property
    def load_error(self) -> LibraryError | ConfigError | None:
        """Why the library's first load failed (the app then ends with status 2)."""
        return self.library.load_error

    def load_library(self) -> None:  # in the background, its progress on the status bar
        self.library.load()

    async def close_library(self) -> None:  # its work stopped, its connections let go
        await self.library.close()

    @work(group="history")
    async def load_history(self) -> None:
        """Read the library's stored conversation off the event loop, so start-up never waits."""
        loaded = await self.history.load()
        self.chat.show_history(loaded)
        self.transcript.add_earlier(loaded.turns)
        self.question_box.remember_earlier([turn.question for turn in loaded.turns])

    # -- asking ---------------------------------------------------------------

    @property
    def in_flight(self) -> bool:
        """A question is being retrieved or answered: its library must stay meanwhile."""
        return self.pending is not None or self.retrieving is not None

    @property
    def busy(self) -> bool:
        """A question is in flight or held for a reload."""
        return self.pending is not None or self.held is not None or self.retrieving is not None

    @on(QuestionAsked)
    def _ask(self, message: QuestionAsked) -> None:
        self.status_bar.note = ""
        if self.busy:
            self.app.bell()  # one request at a time; the typed question stays in the box
            return
        if not self.library.loaded:
            # The question stays in the box, to be asked again once the library is in.
            self.app.bell()
            self.status_bar.note = "indexing…: ask again once the library is loaded"
            return
        question = message.question
        self.question_box.accept(question)
        if self.library.reloading:
            self.held = (question, self.chat.begin_turn(question))
            self.status_bar.note = "the question waits for the reload"
            self.question_box.set_busy(True)
            return
        self._start_question(question, None)

    def reload_over(self) -> None:
        """The reload ended (swapped in, or failed): a held question goes on."""
        if self.held is None:
            self.status_bar.show_ready()
        else:
            question, view = self.held
            self.held = None
            self._start_question(question, view)
        self.reload_if_changed()

    @on(LibraryEvent)
    def _library_event(self, message: LibraryEvent) -> None:
        self.library.show(message.event)

    def reload_if_changed(self) -> None:
        """Documents changed on disk are read again, but not while an answer is awaited
        (`_conclude` comes back here)."""
        if not self.in_flight:
            self.library.start_reload(if_changed=True)

    def _start_question(self, question: str, view: TurnView | None) -> None:
        if self.context.retrieval != "hybrid":
            # Words only: retrieval takes milliseconds, and is done at once.
            self._started(question, view, self.context.service.start(question, self.session))
            return
        # The question's embedding may wait on a model server: never on the event loop.
        self.retrieving = (question, view or self.chat.begin_turn(question))
        self.status_bar.show_asking()
        self.question_box.set_busy(True)
        self._retrieve(question, self.retrieving[1])

    @property
    def session(self) -> Conversation:
        return self.transcript.session

    @work(exclusive=True, group="retrieve", exit_on_error=False)
    async def _retrieve(self, question: str, view: TurnView) -> None:
        """Hybrid retrieval in a thread; Esc (`action_cancel`) ends the wait at once."""
        service, session = self.context.service, self.session
        step = await asyncio.to_thread(service.start, question, session)
        if self.retrieving is None or self.retrieving[1] is not view:
            return  # cancelled meanwhile: never shown
        self.retrieving = None
        self._started(question, view, step)

    def _started(self, question: str, view: TurnView | None, step: Outcome | PendingAnswer) -> None:
        if isinstance(step, Outcome):
            self._conclude(step, view)
            return
        self._pending_view = view or self.chat.begin_turn(question)
        self.pending = step
        self.evidence.show_evidence(step.evidence, question)
        self.status_bar.show_asking()
        self.question_box.set_busy(True)
        # Draw `asking` first, then call the provider: the screen answers the key at
        # once, and the app is idle (so Esc is read at once) while the model thinks.
        self.call_after_refresh(self._send, step)

    def _send(self, pending: PendingAnswer) -> None:
        if self.pending is pending:  # not cancelled before the screen was drawn
            self._await_answer(pending)

    @work(exclusive=True, group="ask", exit_on_error=False)
    async def _await_answer(self, pending: PendingAnswer) -> None:
        """The provider call. Cancelling this worker cancels the call itself."""
        # The service bounds the call by its deadline and ends it as an outcome, whatever
        # the provider does; a cancel (`action_cancel`) raises CancelledError here.
        outcome = await self.context.service.finish(pending)
        if self.pending is not pending:
            return  # cancelled while the answer was on its way: never shown
        self._conclude(outcome, self._pending_view)

    def action_cancel(self) -> None:
        self.status_bar.note = ""
        if self.retrieving is not None:
            question, view = self.retrieving
            self.retrieving = None
            self.workers.cancel_group(self, "retrieve")
            self._conclude(self.context.service.cancelled(question), view)
            return
        if self.held is not None:
            question, view = self.held
            self.held = None
            self._conclude(self.context.service.cancelled(question), view)
            return
        pending = self.pending
        if pending is None:
            return
        self.workers.cancel_group(self, "ask")
        self._conclude(self.context.service.cancelled(pending), self._pending_view)

    def _conclude(self, outcome: Outcome, view: TurnView | None) -> None:
        """The single end of every question: the status bar says it at once; the turn
        is recorded now, then drawn and stored right after that frame."""
        self.pending = None
        self._pending_view = None
        self.status_bar.show_outcome(outcome)
        self.question_box.set_busy(False)
        asked_at = datetime.now(UTC).isoformat(timespec="seconds")
        turn = self.transcript.add(outcome, asked_at)
        self.history.append(outcome, asked_at)  # queued to its thread: quitting keeps it
        self.context.conclude(outcome, self.session, write=self._write_gap)
        self.call_after_refresh(self._show_concluded, outcome, turn, view)
        self.reload_if_changed()  # documents that changed on disk meanwhile

    def _write_gap(self, write: Callable[[], None]) -> None:
        self.run_worker(write, thread=True, group="gaps")

    def _show_concluded(self, outcome: Outcome, turn: Turn, view: TurnView | None) -> None:
        if not self.transcript.holds(turn):
            return  # the history was cleared meanwhile
        if view is not None and view.is_attached:
            self.chat.conclude(view, turn)
        else:
            self.chat.add_turn(turn)
        self.evidence.show_outcome(outcome)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            # Only with a question in flight or held; otherwise escape keeps its usual
            # meaning and reaches `focus_question`.
            return self.busy
        if action == "focus_question":
            return self.focused is not self.question_box
        if action == "evidence_step":
            return self.evidence.can_step
        return True

    # -- the library, passages, editor ------------------------------------------

    def action_reload(self) -> None:
        """Read the library again (only changed files are indexed); a question asked
        meanwhile waits for the new library. Not while an answer is awaited."""
        self.status_bar.note = ""
        if self.in_flight:
            self.status_bar.note = "reload after the answer: a question is in flight"
        elif (refused_now := self.library.start_reload()) is not None:
            self.status_bar.note = refused_now

    def action_focus_question(self) -> None:
        self.status_bar.note = ""
        self.question_box.focus()

    def action_focus_library(self) -> None:
        self.status_bar.note = ""
        self.library_panel.library_browser.library_tree.focus()

    def action_evidence_step(self, by: int) -> None:
        """The next or previous passage in the evidence panel; for a refusal, into the
        list of closest passages (up/down, enter opens one)."""
        self.evidence.step(by)

    @on(PassageChosen)
    def _show_passage(self, message: PassageChosen) -> None:
        if not self.library.loaded:
            return
        passage = self.context.library.get(message.passage_id)
        if passage is not None:
            self.evidence.show_passage(passage)

    def action_open_in_editor(self) -> None:
        passage = self.evidence.passage
        if passage is None:
            self.status_bar.note = "no passage shown to open"
        elif not self.library.loaded:
            self.status_bar.note = "that passage is no longer in the library"
        else:
            self.status_bar.note = open_in_editor(
                self.context.library, passage, self._run_in_terminal
            )

    # -- commands (ctrl+p) ------------------------------------------------------

    async def clear_history(self) -> None:
        if self.busy:
            self.action_cancel()
        try:
            await self.history.clear()
        except OSError as error:
            self.chat.add_notice(f"history not cleared: {os_error_words(error)}")
            return
        self.transcript.clear()
        self.question_box.forget()
        await self.chat.clear_turns()
        self.evidence.show_hint()
        if self.library.loaded:
            self.status_bar.show_ready()
        self.chat.add_notice("history cleared", warning=False)
