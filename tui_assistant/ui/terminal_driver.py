"""A terminal driver that reports a lone Esc as soon as it can be told apart.

Most terminals send the Esc key as a lone ESC byte, the byte that also starts every
escape sequence (arrows, mouse, paste). The key is only known once no more bytes
follow within the escape delay. Textual's own input thread notices that at its next
0.1 s poll, so Esc, the key that cancels a request, took 0.1 s or more to arrive.

This driver polls every few milliseconds while an escape delay is running (and at
Textual's usual 0.1 s otherwise), and shortens the delay to 40 ms, near Neovim's
50 ms `ttimeoutlen` and plenty for a sequence written in one piece. A user's
`ESCDELAY` (milliseconds, as in curses) still wins. The parser is Textual's
own; Textual is pinned, and this driver is its only private import.
"""

from __future__ import annotations

import os
import selectors
import time
from codecs import getincrementaldecoder
from collections.abc import Mapping

from textual import constants
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

DEFAULT_ESCAPE_DELAY_SECONDS = 0.04
# How often to look for the end of an escape delay while one may be running.
ESCAPE_POLL_SECONDS = 0.005
IDLE_POLL_SECONDS = 0.1
READ_BYTES = 4096


def escape_delay_seconds(environment: Mapping[str, str]) -> float:
    """The user's `ESCDELAY` when set (Textual parsed it), else our shorter default."""
    if "ESCDELAY" in environment:
        return constants.ESCAPE_DELAY
    return DEFAULT_ESCAPE_DELAY_SECONDS


class PromptEscapeDriver(LinuxDriver):
    """Textual's Linux/macOS driver with a prompt lone Esc; see the module docstring."""

    def run_input_thread(self) -> None:
        delay = escape_delay_seconds(os.environ)
        # The parser reads the delay from Textual's constants each time it waits.
        constants.ESCAPE_DELAY = delay  # type: ignore[misc]
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        # A select()-based selector: macOS cannot poll a terminal with kqueue.
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        last_input = -1.0
        try:
            while not self.exit_event.is_set():
                settling = time.monotonic() - last_input <= delay
                timeout = ESCAPE_POLL_SECONDS if settling else IDLE_POLL_SECONDS
                if selector.select(timeout):
                    data = os.read(self.fileno, READ_BYTES)
                    if not data:  # input closed (a pipe): nothing more will come
                        self.exit_event.wait(IDLE_POLL_SECONDS)
                        continue
                    last_input = time.monotonic()
                    for event in parser.feed(decode(data)):
                        self.process_message(event)
                for event in parser.tick():
                    self.process_message(event)
        finally:
            selector.close()
