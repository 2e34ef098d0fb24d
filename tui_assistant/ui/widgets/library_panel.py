"""The library panel: the library's tree, as the screen gives it.

It draws the library it is handed (`show_library`) and nothing else: the library's
life is the main screen's (`screens/screen_library.py`). Choosing a passage in the
tree posts `PassageChosen` up to the screen.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical

from tui_assistant.core.library.library import Library
from tui_assistant.ui.widgets.library_browser import LibraryBrowser


class LibraryPanel(Vertical):
    DEFAULT_CSS = """
    LibraryPanel { height: 1fr; }
    LibraryPanel > LibraryBrowser { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__(id="library-panel")
        self.library_browser = LibraryBrowser()

    def compose(self) -> ComposeResult:
        yield self.library_browser

    def show_library(self, library: Library) -> None:
        """The tree of `library` (after a reload: in place of the one shown)."""
        self.library_browser.set_library(library)
