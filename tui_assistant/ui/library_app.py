"""An app whose library loads in the background and reloads on demand.

The screen is drawn at once; the library is loaded (indexed where files changed) in a
thread worker that posts its progress and result as messages (`messages.py`), which
the app handles on its own thread. `ctrl+r` reloads it the same way. Loading never
ends in a traceback: whatever it raises becomes a `LibraryFailed` with a one-line
reason. This class holds the workers and the state they leave; `AssistantApp` says
what each message looks like.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual import work
from textual.app import App
from textual.worker import get_current_worker

from tui_assistant.context import AppContext, load_library, open_context
from tui_assistant.core.library import Library
from tui_assistant.errors import ConfigError, LibraryError
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress
from tui_assistant.ui.messages import (
    LibraryFailed,
    LibraryLoaded,
    LibraryProgress,
    LibraryReloaded,
)

# Indexing progress is posted at most this often (and at the last step).
PROGRESS_INTERVAL_SECONDS = 0.05

# Builds the context (library, service) from settings; runs in a thread worker.
ContextStarter = Callable[[Settings, Progress | None], AppContext]
# Reads the library again for a reload; runs in a thread worker.
LibraryLoader = Callable[[Settings, Progress | None], Library]


class _Abandoned(Exception):
    """Raised from a progress report to stop indexing that nobody waits for any more."""


def failure_reason(error: Exception) -> str:
    """One line for users: our own errors speak for themselves, anything else is named."""
    if isinstance(error, LibraryError | ConfigError):
        return str(error)
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


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
        # The error that ended the first load: `run_app` raises it for the CLI (exit 2).
        self.load_error: LibraryError | ConfigError | None = None
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

    # -- the workers ------------------------------------------------------------

    def _progress(self, reloading: bool) -> Progress:
        """A progress callback for the worker thread running it: posts at most every
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
            self.post_message(LibraryProgress(done, total, reloading))

        return progress

    @work(thread=True, exclusive=True, group="library")
    def load_context(self) -> None:
        """The first load: the whole context, built off the app's thread."""
        try:
            context = self._start(self.settings, self._progress(reloading=False))
        except _Abandoned:
            return
        except Exception as error:  # whatever loading raises ends as one line, not a crash
            self.post_message(LibraryFailed(error, failure_reason(error), reloading=False))
            return
        self.post_message(LibraryLoaded(context))

    @work(thread=True, exclusive=True, group="library")
    def reload_library(self, settings: Settings) -> None:
        """Read the library again (only changed files are indexed) off the app's thread."""
        try:
            library = self._reload_library(settings, self._progress(reloading=True))
        except _Abandoned:
            return
        except Exception as error:  # a store that cannot be read must not end the app
            self.post_message(LibraryFailed(error, failure_reason(error), reloading=True))
            return
        self.post_message(LibraryReloaded(library))

    # -- the state they leave -----------------------------------------------------

    def use_context(self, context: AppContext) -> None:
        self._loaded_context = context

    def fail_to_start(self, error: Exception, reason: str) -> None:
        """End the app with exit status 2; `run_app` raises the error for the CLI."""
        if isinstance(error, LibraryError | ConfigError):
            self.load_error = error
        else:
            self.load_error = LibraryError(f"the library could not be loaded: {reason}")
        self.exit(return_code=2)

    def swap_library(self, library: Library) -> None:
        """Answer from `library` from now on, and let go of the one it replaced."""
        self.reloading = False
        before = self.context.library
        self.context.use_library(library)
        before.close()

    async def close_library(self) -> None:
        """Stop any load still running and let go of the provider's connections."""
        self.workers.cancel_group(self, "library")
        if self._loaded_context is not None:
            await self._loaded_context.aclose()
