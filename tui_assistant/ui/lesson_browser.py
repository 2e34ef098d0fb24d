"""The lesson browser: every lesson by title, filtered by typing while it has focus."""

from __future__ import annotations

from collections.abc import Sequence

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui_assistant.core.library import PassageInfo
from tui_assistant.ui.literal import one_line
from tui_assistant.ui.messages import LessonChosen


def matches_filter(lesson: PassageInfo, text: str) -> bool:
    """Every typed word appears in the title or id (case-insensitive)."""
    haystack = f"{lesson.title} {lesson.id}".casefold()
    return all(word in haystack for word in text.casefold().split())


class LessonList(OptionList):
    """The list itself. Printable keys edit the filter; arrows and enter work as usual."""

    def __init__(self, lessons: Sequence[PassageInfo]) -> None:
        super().__init__(id="lesson-list")
        self.lessons = tuple(lessons)
        self.filter_text = ""
        self.shown: tuple[PassageInfo, ...] = ()

    def on_mount(self) -> None:
        # Filled after the first frame: a large library must not delay `ready`.
        self.call_after_refresh(self.apply_filter, "")

    def apply_filter(self, text: str) -> None:
        self.filter_text = text
        self.shown = tuple(lesson for lesson in self.lessons if matches_filter(lesson, text))
        self.clear_options()
        # Content, never a str: a lesson title is untrusted and must not be read as markup.
        self.add_options(Option(Content(one_line(lesson.title))) for lesson in self.shown)
        if self.shown:
            self.highlighted = 0
        browser = self.parent
        if isinstance(browser, Widget):
            # Content, not a str: a border title string would be parsed as markup.
            browser.border_subtitle = Content(
                f"filter: {one_line(text)} ({len(self.shown)})" if text else "type to filter"
            )

    def on_key(self, event: events.Key) -> None:
        if event.key == "backspace" and self.filter_text:
            self.apply_filter(self.filter_text[:-1])
        elif event.is_printable and event.character and event.key != "enter":
            self.apply_filter(self.filter_text + event.character)
        else:
            return
        event.stop()
        event.prevent_default()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.shown):
            self.post_message(LessonChosen(self.shown[event.option_index].id))


class LessonBrowser(Vertical):
    DEFAULT_CSS = """
    LessonBrowser {
        border: round $secondary;
        border-title-color: $text-secondary;
        height: 1fr;
        min-height: 5;
    }
    LessonBrowser:focus-within { border: round $accent; }
    LessonBrowser > OptionList { border: none; height: 1fr; padding: 0; }
    LessonBrowser > OptionList:focus { border: none; }
    """

    def __init__(self, lessons: Sequence[PassageInfo]) -> None:
        super().__init__(id="lessons")
        self.border_title = f"Lessons ({len(lessons)}) ctrl+l"
        self.border_subtitle = "type to filter"
        self._lessons = lessons

    def compose(self) -> ComposeResult:
        yield LessonList(self._lessons)

    @property
    def lesson_list(self) -> LessonList:
        return self.query_one(LessonList)
