"""The scrolled view of the passage open in the evidence panel, which tells the panel
when its layout changed until the user scrolls it.

The panel keeps a passage's best sentence in view. Where that sentence stands is only
known once the layout is final, which may take several refreshes (a busy machine, the
Markdown still laying out) and changes with every resize: so the reader posts
`Relaid` on each change of its size or its content's, for as long as the user has not
scrolled it since the panel last called `follow`. A user's scroll (wheel, scroll keys,
scroll bar) ends that: their place is never taken from them.
"""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.message import Message
from textual.scrollbar import ScrollDown, ScrollTo, ScrollUp


class PassageReader(VerticalScroll):
    class Relaid(Message):
        """The reader's size or its content's changed, and the user has not scrolled."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # Whether the user scrolled since `follow`.
        self.user_scrolled = False

    def follow(self) -> None:
        """A new passage is open: its place is the panel's again, until the user scrolls."""
        self.user_scrolled = False

    def on_resize(self, event: events.Resize) -> None:
        if not self.user_scrolled:
            self.post_message(self.Relaid())

    def watch_virtual_size(self, size: Size) -> None:
        # The content's layout changed: Textual sends no `Resize` when only this does.
        if not self.user_scrolled:
            self.post_message(self.Relaid())

    # -- what the user scrolls with ---------------------------------------------------
    # Each runs before Textual's own handler of the same event, which does the scroll.

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self.user_scrolled = True

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self.user_scrolled = True

    def on_scroll_to(self, message: ScrollTo) -> None:
        self.user_scrolled = True  # the scroll bar dragged

    def on_scroll_up(self, message: ScrollUp) -> None:
        self.user_scrolled = True  # the scroll bar's track clicked

    def on_scroll_down(self, message: ScrollDown) -> None:
        self.user_scrolled = True

    def action_scroll_up(self) -> None:
        self.user_scrolled = True
        super().action_scroll_up()

    def action_scroll_down(self) -> None:
        self.user_scrolled = True
        super().action_scroll_down()

    def action_page_up(self) -> None:
        self.user_scrolled = True
        super().action_page_up()

    def action_page_down(self) -> None:
        self.user_scrolled = True
        super().action_page_down()

    def action_scroll_home(self) -> None:
        self.user_scrolled = True
        super().action_scroll_home()

    def action_scroll_end(self) -> None:
        self.user_scrolled = True
        super().action_scroll_end()
