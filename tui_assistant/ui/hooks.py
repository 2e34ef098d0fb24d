"""What a test, a benchmark or the screenshots put in place of the real thing: one
dataclass the app takes and hands to its main screen. The defaults are the real app's."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from tui_assistant.wiring.context import load_library
from tui_assistant.wiring.lifecycle import ContextStarter, LibraryLoader, open_without_vectors
from tui_assistant.wiring.session import HistoryStore


@dataclass(frozen=True, slots=True)
class AppHooks:
    # Builds the library and the answering service at start-up (in a thread).
    start: ContextStarter = open_without_vectors
    # Reads the library again for a reload (in a thread).
    reload_library: LibraryLoader = load_library
    # The status bar's elapsed seconds while asking.
    clock: Callable[[], float] = time.monotonic
    # The stored conversation; None: the data folder's.
    history: HistoryStore | None = None
    # Off in tests and screenshots, so two frames of one state draw the same.
    cursor_blink: bool = True
