"""An app whose library loads in the background and reloads on demand.

The screen is drawn at once; the library is loaded (indexed where files changed) in a
thread worker that reports its progress, and `ctrl+r` reloads it the same way and
swaps it in on the app's thread. `AssistantApp` subclasses this and says what each
step looks like (`show_loading`, `library_started`, `library_reloaded`, ...).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from textual import work
from textual.app import App
from textual.worker import get_current_worker

from tui_assistant.context import AppContext, load_library, open_context
from tui_assistant.core.library import Library
from tui_assistant.errors import LibraryError
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress
from tui_assistant.ui.status_bar import progress_text

# Indexing progress is drawn at most this often: each report waits for the app's thread.
PROGRESS_INTERVAL_SECONDS = 0.05

# Builds the context (library, service) from settings; runs in a thread worker.
ContextStarter = Callable[[Settings, Progress | None], AppContext]
# Reads the library again for a reload; runs in a thread worker.
LibraryLoader = Callable[[Settings, Progress | None], Library]


class _Abandoned(Exception):
    """Raised from a progress report to stop indexing that nobody waits for any more."""


class LibraryApp(App[int]):
    def __init__(
        self,
        settings: Settings,
        *,
        start: ContextStarter = open_context,
        reload_library: LibraryLoader = load_library,
    ) -> None:
        super().__init__()
        self.settings = settings
        self._start = start
        self._reload_library = reload_library
        self._loaded_context: AppContext | None = None
        # A LibraryError that ended the first load: `run_app` reports it and exits 2.
        self.load_error: LibraryError | None = None
        self.reloading = False

    @property
    def loaded(self) -> bool:
        """True once the library is loaded and questions are answered."""
        return self._loaded_context is not None

    @property
    def context(self) -> AppContext:
        """The library and the service; only once `loaded`."""
        if self._loaded_context is None:
            raise RuntimeError("the library is not loaded yet")
        return self._loaded_context

    # -- what the subclass shows ----------------------------------------------

    def show_loading(self, done: int, total: int) -> None:
        """Files indexed so far during the first load."""

    def library_started(self, context: AppContext) -> None:
        """The first load is done: questions can be answered."""

    def show_note(self, note: str) -> None:
        """A one-line note about loading (a reload's progress or result)."""

    def library_reloaded(self, before: Library, library: Library) -> None:
        """`library` replaced `before` (the context already uses it)."""

    def reload_refused(self) -> str | None:
        """Why a reload cannot start now (a question is in flight), or None."""
        return None

    # -- the workers ------------------------------------------------------------

    def _progress(self, report: Callable[[int, int], None]) -> Progress:
        """A progress callback for the worker thread running it: draws at most every
        PROGRESS_INTERVAL_SECONDS (and the last step), and stops the work with
        `_Abandoned` once the worker is cancelled (the app is quitting)."""
        worker = get_current_worker()
        last = [0.0]

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Abandoned
            now = time.monotonic()
            if done < total and now - last[0] < PROGRESS_INTERVAL_SECONDS:
                return
            last[0] = now
            try:
                self.call_from_thread(report, done, total)
            except RuntimeError:  # the app is no longer running
                raise _Abandoned from None

        return progress

    def _from_thread(self, callback: Callable[..., object], *args: object) -> None:
        """Run `callback` on the app's thread, unless the app has stopped meanwhile."""
        with contextlib.suppress(RuntimeError):
            self.call_from_thread(callback, *args)

    @work(thread=True, exclusive=True, group="library")
    def load_context(self) -> None:
        """The first load: the whole context, built off the app's thread."""
        try:
            context = self._start(self.settings, self._progress(self.show_loading))
        except _Abandoned:
            return
        except LibraryError as error:
            self._from_thread(self._start_failed, error)
            return
        self._from_thread(self._started, context)

    def _start_failed(self, error: LibraryError) -> None:
        self.load_error = error
        self.exit(return_code=2)

    def _started(self, context: AppContext) -> None:
        self._loaded_context = context
        self.library_started(context)

    def action_reload(self) -> None:
        refused = self.reload_refused()
        if not self.loaded:
            self.show_note("still indexing: the library is not loaded yet")
        elif refused is not None:
            self.show_note(refused)
        elif self.reloading:
            self.show_note("already reloading")
        else:
            self.reloading = True
            self.show_note("reloading…")
            self._reload(self.context.settings)

    @work(thread=True, exclusive=True, group="library")
    def _reload(self, settings: Settings) -> None:
        """Read the library again (only changed files are indexed) off the app's thread."""
        try:
            library = self._reload_library(settings, self._progress(self._show_reloading))
        except _Abandoned:
            return
        except LibraryError as error:
            self._from_thread(self._reload_failed, str(error))
            return
        except Exception as error:  # a store that cannot be read must not end the app
            self._from_thread(self._reload_failed, f"{type(error).__name__}: {error}")
            return
        self._from_thread(self._reloaded, library)

    def _show_reloading(self, done: int, total: int) -> None:
        self.show_note(progress_text("reloading", done, total))

    def _reload_failed(self, reason: str) -> None:
        self.reloading = False
        self.show_note(f"reload failed, still using the loaded library: {reason}")

    def _reloaded(self, library: Library) -> None:
        self.reloading = False
        before = self.context.library
        self.context.use_library(library)
        self.library_reloaded(before, library)
        before.close()

    async def close_library(self) -> None:
        """Stop any load still running and let go of the provider's connections."""
        self.workers.cancel_group(self, "library")
        if self._loaded_context is not None:
            await self._loaded_context.aclose()
