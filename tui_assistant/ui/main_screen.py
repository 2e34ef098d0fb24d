"""The main screen: the conversation, the side column (evidence over the library
tree), the question box, the status bar and the footer.

The app makes it its default screen, so the help and the command palette open over
it and `app.query_one` finds its widgets. It only lays them out, and says when they
are mounted (`Ready`); the app decides what they show.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer

from tui_assistant.ui.chat_pane import ChatPane
from tui_assistant.ui.evidence_panel import EvidencePanel
from tui_assistant.ui.library_browser import LibraryBrowser
from tui_assistant.ui.question_box import QuestionBox
from tui_assistant.ui.status_bar import StatusBar


class MainScreen(Screen[None]):
    class Ready(Message):
        """The widgets are mounted: the app can start filling them."""

    def __init__(self, clock: Callable[[], float], *, cursor_blink: bool = True) -> None:
        super().__init__(id="main-screen")
        self._clock = clock
        self._cursor_blink = cursor_blink

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield ChatPane()
            with Vertical(id="side"):
                yield EvidencePanel()
                yield LibraryBrowser()
        question_box = QuestionBox()
        question_box.cursor_blink = self._cursor_blink
        yield question_box
        yield StatusBar(self._clock)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(QuestionBox).focus()
        self.post_message(self.Ready())
