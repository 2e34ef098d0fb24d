"""The question box: enter asks, up/down recall earlier questions, busy while asking."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input

from tui_assistant.ui.keys import CANCEL, key_name
from tui_assistant.ui.messages import QuestionAsked

IDLE_PLACEHOLDER = "Ask a question about the library, then press enter"
BUSY_PLACEHOLDER = f"Waiting for the answer… ({key_name(CANCEL.key, short=True)} to stop)"


class QuestionBox(Input):
    DEFAULT_CSS = """
    QuestionBox { border: tall $accent; }
    QuestionBox.-busy { border: tall $warning; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Ask", tooltip="ask the question", id="question.ask"),
        Binding(
            "up",
            "recall(-1)",
            "Earlier question",
            show=False,
            tooltip="recall an earlier question",
            id="question.recall-earlier",
        ),
        Binding(
            "down",
            "recall(1)",
            "Later question",
            show=False,
            tooltip="a later question, then the draft",
            id="question.recall-later",
        ),
    ]

    def __init__(self) -> None:
        super().__init__(placeholder=IDLE_PLACEHOLDER, id="question", select_on_focus=False)
        self.border_title = "Question"
        self.asked: list[str] = []
        # Position in `asked` while recalling; len(asked) means "the line being typed".
        self._recall_position = 0
        self._draft = ""

    @property
    def busy(self) -> bool:
        return self.has_class("-busy")

    def set_busy(self, busy: bool) -> None:
        """Show that a request is in flight; the typed text stays editable."""
        self.set_class(busy, "-busy")
        self.placeholder = BUSY_PLACEHOLDER if busy else IDLE_PLACEHOLDER
        self.border_title = "Question · asking" if busy else "Question"

    def remember_earlier(self, questions: list[str]) -> None:
        """Questions from the stored history, older than anything asked in this session."""
        self.asked[:0] = questions
        self._recall_position = len(self.asked)

    def accept(self, question: str) -> None:
        """The app took the question: remember it and empty the box."""
        if not self.asked or self.asked[-1] != question:
            self.asked.append(question)
        self._recall_position = len(self.asked)
        self._draft = ""
        self.value = ""

    def forget(self) -> None:
        self.asked.clear()
        self._recall_position = 0

    async def action_submit(self) -> None:
        question = self.value.strip()
        if question:
            self.post_message(QuestionAsked(question))

    def action_recall(self, step: int) -> None:
        if not self.asked:
            return
        if self._recall_position == len(self.asked):
            self._draft = self.value
        position = min(max(self._recall_position + step, 0), len(self.asked))
        if position == self._recall_position:
            return
        self._recall_position = position
        self.value = self._draft if position == len(self.asked) else self.asked[position]
        self.cursor_position = len(self.value)
