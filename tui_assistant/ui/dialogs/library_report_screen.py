"""The command palette's "Library report": the same report as `tui-assistant library`,
over the main screen.

Building it reads every passage's text once (to count the stored vectors), so it runs
in a thread worker while the screen says so; closing the screen cancels it. The report
is shown as plain text: file names in it are untrusted and never read as markup.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from tui_assistant.core.display_text import error_line
from tui_assistant.core.library.report import LibraryReport
from tui_assistant.core.library.report_text import format_report
from tui_assistant.ui.dialogs.panel_screen import PanelScreen
from tui_assistant.ui.keys import keys_for

# The report of each library the app answers from.
ReportBuilder = Callable[[], list[LibraryReport]]


class LibraryReportScreen(PanelScreen):
    DEFAULT_CSS = """
    LibraryReportScreen > VerticalScroll { width: 100; }
    LibraryReportScreen #report-close { color: $text-muted; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="report.close"),
        Binding("q", "close", "Close", show=False, id="report.close-q"),
    ]

    def __init__(self, build: ReportBuilder) -> None:
        super().__init__(id="library-report")
        self._build = build

    def compose(self) -> ComposeResult:
        with VerticalScroll() as body:
            body.border_title = "Library report"
            yield Static(Content("reading the library report…"), id="report-text")
            closes = f"{keys_for(self.BINDINGS, 'close')} closes this report"
            yield Static(Content(closes), id="report-close")

    def on_mount(self) -> None:
        self._make_report()

    @work(thread=True, exclusive=True, group="report", exit_on_error=False)
    def _make_report(self) -> None:
        try:
            text = "\n\n".join(map(format_report, self._build()))
        except Exception as error:  # a store that cannot be read must not end the app
            text = f"the library report failed: {error_line(error)}"
        with contextlib.suppress(RuntimeError):  # the app quit meanwhile
            self.app.call_from_thread(self._show, text)

    def _show(self, text: str) -> None:
        if self.is_attached:
            self.query_one("#report-text", Static).update(Content(text))
