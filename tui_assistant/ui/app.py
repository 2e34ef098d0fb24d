"""The full-screen app: settings, the main screen, the theme, help and quitting.

`MainScreen` holds the library and the life of each question; the app installs it as
its default screen (handing it the `AppHooks` a test may give), asks it for what it
needs (the library's load error, its context), keeps the chosen theme across runs,
opens the help (built from the bindings) and, on quitting, waits for the history
writes still queued.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import App, InvalidThemeError, ScreenStackError, SystemCommand
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.theme import Theme

from tui_assistant import PROG
from tui_assistant.errors import os_error_words
from tui_assistant.settings import Settings
from tui_assistant.ui.core_warnings import NoticeHandler, show_core_warnings, stop_showing
from tui_assistant.ui.dialogs.help_screen import HelpScreen
from tui_assistant.ui.dialogs.library_report_screen import LibraryReportScreen
from tui_assistant.ui.history_writer import HistoryWriter
from tui_assistant.ui.hooks import AppHooks
from tui_assistant.ui.screens.main_screen import MainScreen
from tui_assistant.ui.screens.screen_library import NOT_LOADED
from tui_assistant.ui.widgets.status_bar import plural
from tui_assistant.wiring import session


class AssistantApp(App[int]):
    TITLE = PROG
    # Absolute, so a subclass defined elsewhere (a benchmark, a test) finds it too.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    # The stylesheet gives the evidence more of a narrow screen (a Textual class attribute).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", tooltip="this help", id="app.help"),
        Binding(
            "ctrl+p",
            "command_palette",
            "palette",
            show=False,
            tooltip="commands: export, copy answer, clear history, library report, theme",
            id="app.commands",
        ),
        Binding("ctrl+q", "quit", "Quit", priority=True, tooltip="quit", id="app.quit"),
        Binding("ctrl+c", "help_quit", show=False, system=True, id="app.help-quit"),
    ]

    def __init__(self, settings: Settings, *, hooks: AppHooks | None = None) -> None:
        super().__init__()
        self.settings = settings
        hooks = hooks or AppHooks()
        store = hooks.history or session.open_history(settings)
        self._history = HistoryWriter(store, self._show_core_warning)
        self.state_file = session.open_app_state(settings)
        self.main = MainScreen(
            settings, history=self._history, run_in_terminal=self.run_in_terminal, hooks=hooks
        )
        self._core_warnings: NoticeHandler | None = None
        self._saved_theme = ""

    def get_default_screen(self) -> MainScreen:
        return self.main

    @on(MainScreen.Ready)
    def _start_up(self) -> None:
        # Before anything else, so no warning logged while starting up is lost.
        self._core_warnings = show_core_warnings(self._show_core_warning)
        self._restore_theme()
        self.main.load_history()
        self.main.load_library()

    def run_in_terminal(self, argv: list[str]) -> int:
        """Run `argv` in the terminal with the app suspended; its exit status."""
        with self.suspend():
            return subprocess.run(argv, check=False).returncode

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.main.say("")
            self.push_screen(HelpScreen([("Anywhere", self.BINDINGS), *MainScreen.key_groups()]))

    # -- the theme, kept across runs ------------------------------------------

    def _restore_theme(self) -> None:
        loaded = self.state_file.load()
        if loaded.warning is not None:
            self._show_core_warning(f"warning: {loaded.warning}")
        if loaded.theme is not None:
            try:
                self.theme = loaded.theme
            except InvalidThemeError:
                self._show_core_warning(f"warning: theme {loaded.theme!r} is not known")
        self._saved_theme = self.theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, theme: Theme) -> None:
        if theme.name != self._saved_theme:  # a choice, not the start-up's own setting
            self._saved_theme = theme.name
            self._save_theme(theme.name)

    @work(thread=True, group="state")
    def _save_theme(self, name: str) -> None:
        try:
            self.state_file.save_theme(name)
        except OSError as error:
            with contextlib.suppress(RuntimeError):  # the app may be gone meanwhile
                self.call_from_thread(
                    self._show_core_warning,
                    f"warning: theme not saved ({os_error_words(error)})",
                )

    # -- commands (ctrl+p) ----------------------------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        main = self.main
        export = "Save the conversation as Markdown, with each answer's source path"
        yield SystemCommand("Export conversation", export, self.action_export)
        yield SystemCommand(
            "Copy latest answer", "Copy it to the clipboard", self.copy_latest_answer
        )
        yield SystemCommand("Clear history", "Forget the stored conversation", main.clear_history)
        report = "Documents and passages by kind, skipped files, the store, the vectors"
        yield SystemCommand("Library report", report, self.show_library_report)

    def show_library_report(self) -> None:
        """The library report (command palette), over the main screen."""
        if not self.main.loaded:
            self.main.say(NOT_LOADED)
            return
        self.push_screen(LibraryReportScreen(self.main.context.reports))

    def action_export(self) -> Path | None:
        """Save the conversation as Markdown into the data folder's `exports/`; the file,
        or None."""
        turns = self.main.turns
        try:
            path = session.export(self.settings, turns)
        except OSError as error:
            self.main.say("export failed", f"export failed: {os_error_words(error)}")
            return None
        # The bar says what was just done (not, say, the editor's note before it); the
        # chat says where the file went.
        done = f"exported {plural(len(turns), 'turn')}"
        self.main.say(done, f"{done} to {path}", warning=False)
        return path

    def copy_latest_answer(self) -> None:
        text = session.latest_answer(self.main.turns)
        if text is None:
            self.main.say(notice="nothing to copy yet: no answered question")
            return
        self.copy_to_clipboard(text)
        self.main.say(notice="copied the latest answer to the clipboard", warning=False)

    def _show_core_warning(self, text: str) -> None:
        """A warning the core logged (see `core_warnings`), as a notice in the chat."""
        with contextlib.suppress(NoMatches, ScreenStackError):
            # Not mounted yet, or shutting down: the chat pane is gone.
            self.main.say(notice=text)

    async def on_unmount(self) -> None:
        # Quitting right after an answer must not lose its record.
        await self._history.flush()
        self._history.close()
        if self._core_warnings is not None:
            stop_showing(self._core_warnings)
            self._core_warnings = None
        await self.main.close_library()


def run_app(settings: Settings, *, headless: bool = False) -> int:
    """Run the app until the user quits; the exit code for the CLI.

    Raises the error that ended the library's first load (the CLI prints it on one
    line and exits 2).
    """
    app = AssistantApp(settings)
    app.run(headless=headless)
    if app.main.load_error is not None:
        raise app.main.load_error
    return app.return_code or 0
