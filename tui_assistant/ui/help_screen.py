"""The f1 help screen: what the panes are and every key the app answers to."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: tuple[tuple[str, str], ...] = (
    ("enter", "ask the question in the question box"),
    ("up / down", "recall earlier questions (in the question box)"),
    ("escape", "stop the request in flight; otherwise back to the question box"),
    ("ctrl+l", "library tree: arrows move, open and close; enter reads; typing filters"),
    ("ctrl+o", "open the evidence passage in $VISUAL or $EDITOR, at its line"),
    ("ctrl+r", "reload the library (only changed files are read again)"),
    ("f1", "this help"),
    ("ctrl+p", "commands: export, copy answer, clear history, theme"),
    ("ctrl+q", "quit"),
)

ABOUT = (
    "Answers come only from the library's passages. Each answer names its passage and "
    "source path; the evidence panel shows that passage with the question's words "
    "highlighted. When no single passage matches, or a model's answer fails the "
    "citation check, the app refuses and the status bar says why."
)


def key_table() -> Content:
    width = max(len(key) for key, _ in KEYS)
    lines = [
        Content.assemble((f"{key:<{width}}", "bold"), "  ", description)
        for key, description in KEYS
    ]
    return Content("\n").join(lines)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 80;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $accent;
        background: $surface;
        padding: 1 2;
    }
    HelpScreen #help-keys { margin: 1 0; }
    HelpScreen #help-close { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="help.close"),
        Binding("f1", "close", "Close", show=False, id="help.close-f1"),
        Binding("q", "close", "Close", show=False, id="help.close-q"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll() as body:
            body.border_title = "Help"
            yield Static(Content(ABOUT), id="help-about")
            yield Static(key_table(), id="help-keys")
            yield Static(Content("escape, f1 or q closes this help"), id="help-close")

    def action_close(self) -> None:
        self.dismiss(None)
