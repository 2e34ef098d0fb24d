"""The f1 help screen: what the panes are, and every key from the bindings themselves
(app, screen and widgets), so the help cannot drift from what the keys do."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from tui_assistant.ui.dialogs.panel_screen import PanelScreen
from tui_assistant.ui.keys import NEXT_PASSAGE, key_name, keys_for

# Where a group of keys works, and the bindings in it (in the order shown).
KeyGroup = tuple[str, Sequence[BindingType]]


ABOUT = (
    "Answers come only from the library's passages. Each answer names its passage and "
    "source path; the evidence panel shows that passage with the question's words "
    "highlighted and the sentences that match them in view. When several passages might "
    "answer and none clearly does, the status bar says 'not sure': they are listed, best "
    "first, the best one open. When no passage is close, or a model's answer fails the "
    "citation check, the app refuses and says why; the closest passages are listed as "
    f"places to look. {key_name(NEXT_PASSAGE.key)} goes into a list; there a number "
    "opens a passage."
)


def key_rows(groups: Iterable[KeyGroup]) -> list[tuple[str, str]]:
    """One (key, what it does) row per binding users press, titled by group; a
    binding's tooltip is its longer wording, else its description."""
    rows: list[tuple[str, str]] = []
    for title, bindings in groups:
        shown = [
            binding
            for binding in bindings
            if isinstance(binding, Binding) and not binding.system and binding.description
        ]
        if shown:
            rows.append(("", title))
            rows += [(key_name(b.key), b.tooltip or b.description) for b in shown]
    return rows


class HelpScreen(PanelScreen):
    DEFAULT_CSS = """
    HelpScreen #help-keys {
        layout: grid;
        grid-size: 2;
        grid-columns: auto 1fr;
        grid-gutter: 0 2;
        height: auto;
        margin: 1 0;
    }
    HelpScreen #help-keys .key { text-style: bold; }
    HelpScreen #help-keys .group { column-span: 2; text-style: bold underline; }
    HelpScreen #help-keys .group.-later { margin-top: 1; }
    HelpScreen #help-close { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="help.close"),
        Binding("f1", "close", "Close", show=False, id="help.close-f1"),
        Binding("q", "close", "Close", show=False, id="help.close-q"),
    ]

    def __init__(self, keys: Iterable[KeyGroup]) -> None:
        super().__init__()
        self._keys = tuple(keys)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as body:
            body.border_title = "Help"
            yield Static(Content(ABOUT), id="help-about")
            with Grid(id="help-keys"):
                for number, (key, description) in enumerate(key_rows(self._keys)):
                    if key:
                        yield Static(Content(key), classes="key")
                        yield Static(Content(description))
                    else:  # a group's title
                        yield Static(
                            Content(description), classes="group" + " -later" * bool(number)
                        )
            closes = f"{keys_for(self.BINDINGS, 'close')} closes this help"
            yield Static(Content(closes), id="help-close")
