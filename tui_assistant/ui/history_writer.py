"""The stored conversation, read and written off the event loop.

Every load, append and clear runs on one background thread, in the order asked, so a
slow disk never holds up the screen and the turns reach the file in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from tui_assistant.core.outcome import Outcome
from tui_assistant.errors import os_error_words
from tui_assistant.wiring.session import HistoryStore, LoadedHistory


class HistoryWriter:
    def __init__(self, store: HistoryStore, on_failed_write: Callable[[str], None]) -> None:
        self.store = store
        self._on_failed_write = on_failed_write
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history")
        self._writes: set[asyncio.Future[None]] = set()

    async def load(self) -> LoadedHistory:
        return await asyncio.get_running_loop().run_in_executor(self._thread, self.store.load)

    def append(self, outcome: Outcome, asked_at: str) -> None:
        """Queue the turn's record; a failed write is reported, the screen never waits."""
        loop = asyncio.get_running_loop()
        writing = loop.run_in_executor(self._thread, self.store.append, outcome, asked_at)
        self._writes.add(writing)
        writing.add_done_callback(self._written)

    def _written(self, writing: asyncio.Future[None]) -> None:
        self._writes.discard(writing)
        error = None if writing.cancelled() else writing.exception()
        if isinstance(error, OSError):
            self._on_failed_write(f"warning: history not saved ({os_error_words(error)})")
        elif error is not None:
            self._on_failed_write(f"warning: history not saved ({type(error).__name__})")

    async def clear(self) -> None:
        """Forget the stored conversation, after the appends queued before (raises OSError)."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self.store.clear)

    async def flush(self) -> None:
        """Wait until every queued write has reached the disk."""
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
