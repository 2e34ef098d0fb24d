"""The core's warnings shown in the chat pane: those it logs (a damaged call ledger,
say), and the library's problems as a start says them (`library_warning_lines`).

The core reports such problems through the `tui_assistant` logger and never imports
Textual. The CLI prints them to stderr, but while the full-screen app runs Textual
captures stderr and the line would be lost. So for the length of a run the app adds
this handler, which turns each warning into a notice line in the chat.

Warnings can come from any thread: the ledger is read in a worker thread (through
`asyncio.to_thread`). From another thread the notice is handed to the app's event loop
with `call_soon_threadsafe`, which never blocks the logging thread; `call_from_thread`
would wait for the loop and could hang a worker while the app shuts down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterable

from tui_assistant.core.library.start_warnings import start_warning_lines

CORE_LOGGER_NAME = "tui_assistant"
# Where the TUI lists every problem of the library.
FULL_LIST = "the Library report (command palette)"


class NoticeHandler(logging.Handler):
    """Passes `warning: <message>` for each WARNING-or-worse record to `show`, always
    on the thread of the event loop it was created on."""

    def __init__(self, show: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self._show = show
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = f"warning: {record.getMessage()}"
        except Exception:  # a malformed log call must not break the caller
            self.handleError(record)
            return
        if threading.get_ident() == self._loop_thread:
            self._show(text)
            return
        # A closed loop means the app is gone, and with it the chat pane.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._show, text)


def library_warning_lines(problems: Iterable[object]) -> list[str]:
    """The library's problems as the chat says them at start, in at most one line
    pointing to the report (`start_warning_lines`)."""
    return start_warning_lines(problems, FULL_LIST)


def show_core_warnings(show: Callable[[str], None]) -> NoticeHandler:
    """Start passing the core's warnings to `show`; undo with `stop_showing`."""
    handler = NoticeHandler(show)
    logging.getLogger(CORE_LOGGER_NAME).addHandler(handler)
    return handler


def stop_showing(handler: NoticeHandler) -> None:
    logging.getLogger(CORE_LOGGER_NAME).removeHandler(handler)
