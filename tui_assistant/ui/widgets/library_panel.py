"""The library panel: the library tree, and the library's life behind it.

The main screen composes it; the panel holds the `AppContext` answering now. The
library is loaded (indexed where files changed) in a thread worker that posts its
progress and result as messages (`messages.py`), handled here on the app's thread: the
status bar, the tree and the chat's warnings show them. `start_reload` reads it again
the same way, as `reload_if_changed` does after documents changed on disk (watch mode,
`library_watch.py`): the screen calls it whenever no answer is awaited. Loading never
ends in a traceback: whatever it raises becomes a `LibraryFailed` with a one-line
reason. A reload or new vectors give a new `AppContext`; `reloading` (reactive) turns
False once a reload is over, swapped in or failed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var
from textual.worker import get_current_worker

from tui_assistant.core.documents.passage import document_kind
from tui_assistant.core.library.changes import passage_changes
from tui_assistant.core.library.library import Library
from tui_assistant.errors import ConfigError, LibraryError, error_line
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress
from tui_assistant.ui.dialogs.library_report_screen import LibraryReportScreen
from tui_assistant.ui.keys import RELOAD, key_name
from tui_assistant.ui.library_watch import (
    WATCH_GROUP,
    LibraryChangedOnDisk,
    WatchFailed,
    start_watching,
)
from tui_assistant.ui.messages import (
    EmbeddingFailed,
    EmbeddingProgress,
    EmbeddingReady,
    EmbeddingTrouble,
    LibraryFailed,
    LibraryLoaded,
    LibraryProgress,
    LibraryReloaded,
    VectorsComputed,
)
from tui_assistant.ui.widgets.chat_pane import ChatPane
from tui_assistant.ui.widgets.library_browser import LibraryBrowser
from tui_assistant.ui.widgets.status_bar import StatusBar
from tui_assistant.wiring.context import (
    AppContext,
    close_embedder,
    library_folders,
    load_library,
    open_context,
)

# Indexing progress is posted at most this often (and at the last step).
PROGRESS_INTERVAL_SECONDS = 0.05

# Builds the context (library, service) from settings; runs in a thread worker.
ContextStarter = Callable[[Settings, Progress | None], AppContext]
# Reads the library again for a reload; runs in a thread worker.
LibraryLoader = Callable[[Settings, Progress | None], Library]


def open_without_vectors(settings: Settings, progress: Progress | None = None) -> AppContext:
    """The context as the app starts it: answering at once, lexically; under `hybrid` the
    vectors are computed afterwards, in the background."""
    return open_context(settings, progress, embed_now=False)


class _Abandoned(Exception):
    """Raised from a progress report to stop indexing that nobody waits for any more."""


class LibraryPanel(Vertical):
    DEFAULT_CSS = """
    LibraryPanel { height: 1fr; }
    LibraryPanel > LibraryBrowser { height: 1fr; }
    """

    loaded: var[bool] = var(False, init=False)
    reloading: var[bool] = var(False, init=False)

    def __init__(
        self,
        settings: Settings,
        *,
        start: ContextStarter = open_without_vectors,
        reload_library: LibraryLoader = load_library,
    ) -> None:
        super().__init__(id="library-panel")
        self.settings = settings
        self._start = start
        self._reload_library = reload_library
        # Documents changed on disk since the last reload began (watch mode).
        self.changed_on_disk = False
        self._current: AppContext | None = None
        self._stop_watching_embedding: Callable[[], None] | None = None
        # The error that ended the first load: `run_app` raises it for the CLI (exit 2).
        self.load_error: LibraryError | ConfigError | None = None

    @property
    def context(self) -> AppContext:
        """The library and the service answering now; only once `loaded`."""
        if self._current is None:
            raise RuntimeError("the library is not loaded yet")
        return self._current

    def compose(self) -> ComposeResult:
        yield LibraryBrowser()

    @property
    def library_browser(self) -> LibraryBrowser:
        return self.query_one(LibraryBrowser)

    # What lies outside the panel, on the screen it is part of.
    @property
    def _status_bar(self) -> StatusBar:
        return self.screen.query_one(StatusBar)

    def _notice(self, text: str) -> None:
        self.screen.query_one(ChatPane).add_notice(text)

    # -- the workers ------------------------------------------------------------

    def _progress(self, report: Callable[[int, int], Message]) -> Progress:
        """A progress callback for the worker thread running it: posts `report(done,
        total)` at most every PROGRESS_INTERVAL_SECONDS (and the last step), and stops
        the work with `_Abandoned` once the worker is cancelled (quitting, reloading)."""
        worker = get_current_worker()
        last = [0.0]

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Abandoned
            now = time.monotonic()
            if done < total and now - last[0] < PROGRESS_INTERVAL_SECONDS:
                return
            last[0] = now
            self.post_message(report(done, total))

        return progress

    def _loading(self, reloading: bool) -> Progress:
        return self._progress(lambda done, total: LibraryProgress(done, total, reloading))

    @work(thread=True, exclusive=True, group="library")
    def load_context(self) -> None:
        """The first load: the whole context, built off the app's thread."""
        try:
            context = self._start(self.settings, self._loading(reloading=False))
        except _Abandoned:
            return
        except Exception as error:  # whatever loading raises ends as one line, not a crash
            self.post_message(LibraryFailed(error, error_line(error), reloading=False))
            return
        self.post_message(LibraryLoaded(context))

    @work(thread=True, exclusive=True, group="library")
    def _reread_library(self, settings: Settings, before: Library) -> None:
        """Read the library again (only changed files are indexed) off the app's thread,
        and count what changed since `before` (still open: it is swapped out later)."""
        try:
            library = self._reload_library(settings, self._loading(reloading=True))
            changes = passage_changes(before, library)
        except _Abandoned:
            return
        except Exception as error:  # a store that cannot be read must not end the app
            self.post_message(LibraryFailed(error, error_line(error), reloading=True))
            return
        self.post_message(LibraryReloaded(library, changes))

    # -- what the messages show -----------------------------------------------------

    @on(LibraryProgress)
    def _library_progress(self, message: LibraryProgress) -> None:
        verb = "reloading" if message.reloading else "indexing"
        self._status_bar.show_progress(verb, message.done, message.total)

    @on(LibraryLoaded)
    def _library_loaded(self, message: LibraryLoaded) -> None:
        self._current = message.context
        # A problem of the embedding server (a question it could not embed, say) is
        # shown in the status bar as it comes and goes.
        self._stop_watching_embedding = message.context.embedding.watch(
            lambda status: self.post_message(EmbeddingTrouble(status))
        )
        self._show_library(known=())
        self._status_bar.show_ready()
        self.loaded = True
        # After `ready` is drawn: reading the model holds the interpreter a while.
        self.call_after_refresh(self.start_embedding)
        if self.settings.watch:
            kinds = set(self.settings.document_kinds)
            self.workers.cancel_group(self, WATCH_GROUP)
            for folder in library_folders(self.settings):
                start_watching(
                    self,
                    folder,
                    lambda name: document_kind(name) in kinds,
                    ignored=[self.settings.data_dir],
                )

    @on(LibraryReloaded)
    def _library_reloaded(self, message: LibraryReloaded) -> None:
        known = {str(problem) for problem in self.context.library.problems}
        self.swap_library(message.library)
        self._show_library(known)
        self.start_embedding()
        self._status_bar.note = f"reloaded: {message.changes}"
        self.reloading = False

    @on(LibraryFailed)
    def _library_failed(self, message: LibraryFailed) -> None:
        if not message.reloading:
            self.fail_to_start(message.error, message.reason)
            return
        self._status_bar.note = f"reload failed, still using the loaded library: {message.reason}"
        self.reloading = False

    def _show_library(self, known: Iterable[str]) -> None:
        """The library's size, tree and warnings (but those already shown)."""
        library = self.context.library
        self._status_bar.show_library(self.context.mode_label, len(library))
        self._status_bar.retrieval = self.context.retrieval
        self.library_browser.set_library(library)
        shown = set(known)
        for problem in library.problems:
            if str(problem) not in shown:
                self._notice(f"warning: {problem}")

    def start_reload(self) -> str | None:
        """Read the library again in the background; why not, when it cannot start now."""
        if not self.loaded:
            return "still indexing: the library is not loaded yet"
        if self.reloading:
            return "already reloading"
        # Whatever changed on disk so far, this reload reads.
        self.changed_on_disk = False
        self.reloading = True
        self._status_bar.show_work("reloading…")
        self._reread_library(self.context.settings, self.context.library)
        return None

    # -- watch mode: reloading by itself when documents change on disk ---------------

    @on(LibraryChangedOnDisk)
    def _changed_on_disk(self, message: LibraryChangedOnDisk) -> None:
        # Noted here; the message goes on to the screen, which knows whether an answer
        # is awaited (`reload_if_changed` then waits for it).
        self.changed_on_disk = True

    def reload_if_changed(self) -> None:
        """Reload if documents changed on disk and no load or reload is under way; the
        screen calls it when no answer is awaited."""
        if self.changed_on_disk and self.loaded and not self.reloading:
            self.start_reload()

    @on(WatchFailed)
    def _watch_failed(self, message: WatchFailed) -> None:
        self._notice(
            f"watch mode is off: the library folder cannot be watched ({message.reason});"
            f" {key_name(RELOAD.key)} reloads by hand"
        )

    def show_library_report(self) -> None:
        """The library report (command palette), over this screen."""
        if not self.loaded:
            self._status_bar.note = "still indexing: the library is not loaded yet"
            return
        self.app.push_screen(LibraryReportScreen(self.context.reports))

    # -- hybrid retrieval's vectors, computed in the background -----------------------

    def start_embedding(self) -> None:
        """Under `hybrid`, compute the loaded library's missing vectors in the background;
        the library answers lexically meanwhile."""
        context = self.context
        if context.choice.mode != "hybrid":
            return
        self._status_bar.work = "embedding…"
        self._embed(context, context.library)

    @work(thread=True, exclusive=True, group="embedding")
    def _embed(self, context: AppContext, library: Library) -> None:
        progress = self._progress(lambda done, total: EmbeddingProgress(done, total))
        try:
            embedded = context.embed(library, progress)
        except _Abandoned:
            return
        except Exception as error:  # the library keeps answering lexically
            self.post_message(EmbeddingFailed(error_line(error)))
            return
        self.post_message(VectorsComputed(embedded))

    @on(EmbeddingProgress)
    def _embedding_progress(self, message: EmbeddingProgress) -> None:
        # Beside the mode, not in place of the latest outcome.
        self._status_bar.work = f"embedding {message.done:,}/{message.total:,}"

    @on(VectorsComputed)
    def _vectors_computed(self, message: VectorsComputed) -> None:
        hybrid = self.context.with_vectors(message.embedded)
        if hybrid is not None:
            self._current = hybrid
            self.post_message(EmbeddingReady(hybrid.retrieval))
        elif message.embedded.embedder is not self.context.embedder:
            # Vectors of a library reloaded meanwhile: their source is not kept.
            close_embedder(message.embedded.embedder)

    @on(EmbeddingReady)
    def _embedding_ready(self, message: EmbeddingReady) -> None:
        self._status_bar.work = ""
        self._status_bar.retrieval = message.retrieval

    @on(EmbeddingFailed)
    def _embedding_failed(self, message: EmbeddingFailed) -> None:
        # The server's problem stays in the bar ("embedding server unreachable").
        self._status_bar.work = self.context.embedding.status().bar_text
        self._status_bar.retrieval = self.context.retrieval
        self._notice(f"hybrid retrieval is off: {message.reason}")

    @on(EmbeddingTrouble)
    def _embedding_trouble(self, message: EmbeddingTrouble) -> None:
        if self.loaded:
            self._status_bar.work = message.status.bar_text
            self._status_bar.retrieval = self.context.retrieval

    # -- the state they leave -----------------------------------------------------

    def fail_to_start(self, error: Exception, reason: str) -> None:
        """End the app with exit status 2; `run_app` raises the error for the CLI."""
        if isinstance(error, LibraryError | ConfigError):
            self.load_error = error
        else:
            self.load_error = LibraryError(f"the library could not be loaded: {reason}")
        self.app.exit(return_code=2)

    def swap_library(self, library: Library) -> None:
        """Answer from `library` from now on, and let go of the one it replaced."""
        before = self.context.library
        self._current = self.context.with_library(library)
        before.close()

    async def close_library(self) -> None:
        """Stop any load still running and let go of the provider's connections."""
        self.workers.cancel_group(self, "library")
        self.workers.cancel_group(self, WATCH_GROUP)
        if self._stop_watching_embedding is not None:
            self._stop_watching_embedding()
        if self._current is not None:
            await self._current.aclose()
