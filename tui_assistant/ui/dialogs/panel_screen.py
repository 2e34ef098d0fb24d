"""A modal screen over the main screen: one bordered panel in the middle that scrolls,
and keys that close it (the help, the library report)."""

from __future__ import annotations

from textual.screen import ModalScreen


class PanelScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    PanelScreen { align: center middle; }
    PanelScreen > VerticalScroll {
        width: 80;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $accent;
        background: $surface;
        padding: 1 2;
    }
    """

    def action_close(self) -> None:
        self.dismiss(None)
