"""The library panel: the library tree, and the TUI's adapter of the library's life.

The life itself (load with a warm start, embed in the background, swap, watch, reload)
is `wiring.lifecycle.LibraryLifecycle`; here its events, posted as `LibraryEvent`
messages, become the status bar, the tree and the chat's warnings. The main screen
calls `start_reload` (ctrl+r) and `reload_if_changed` (watch mode) whenever no answer
is awaited, so the lifecycle never reloads by itself here. `reloading` (reactive) turns
False once a reload is over, swapped in or failed.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import var

from tui_assistant.errors import ConfigError, LibraryError
from tui_assistant.settings import Settings
from tui_assistant.ui.dialogs.library_report_screen import LibraryReportScreen
from tui_assistant.ui.keys import RELOAD, key_name
from tui_assistant.ui.messages import EmbeddingTrouble, LibraryChangedOnDisk, LibraryEvent
from tui_assistant.ui.widgets.chat_pane import ChatPane
from tui_assistant.ui.widgets.library_browser import LibraryBrowser
from tui_assistant.ui.widgets.status_bar import StatusBar
from tui_assistant.wiring import lifecycle as life
from tui_assistant.wiring.context import AppContext, load_library

WATCH_GROUP = "watch"


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
        start: life.ContextStarter = life.open_without_vectors,
        reload_library: life.LibraryLoader = load_library,
    ) -> None:
        super().__init__(id="library-panel")
        self.settings = settings
        self.lifecycle = life.LibraryLifecycle(
            settings,
            self._post_event,
            reload_on_change=False,
            start=start,
            reload_library=reload_library,
        )
        # Documents changed on disk since the last reload began (watch mode).
        self.changed_on_disk = False
        self._shown_problems: set[str] = set()
        self._stop_watching_embedding: Callable[[], None] | None = None
        # The error that ended the first load: `run_app` raises it for the CLI (exit 2).
        self.load_error: LibraryError | ConfigError | None = None

    def _post_event(self, event: life.LifecycleEvent) -> None:
        self.post_message(LibraryEvent(event))

    @property
    def context(self) -> AppContext:
        """The library and the service answering now; only once `loaded`."""
        return self.lifecycle.context

    def compose(self) -> ComposeResult:
        yield LibraryBrowser()

    @property
    def library_browser(self) -> LibraryBrowser:
        return self.query_one(LibraryBrowser)

    @property
    def _status_bar(self) -> StatusBar:
        return self.screen.query_one(StatusBar)

    def _notice(self, text: str) -> None:
        self.screen.query_one(ChatPane).add_notice(text)

    def load_context(self) -> None:
        self.run_worker(self.lifecycle.load(), group="library", exit_on_error=False)

    @on(LibraryEvent)
    def _event(self, message: LibraryEvent) -> None:
        bar, event = self._status_bar, message.event
        if isinstance(event, life.Indexing):
            verb = "reloading" if event.reloading else "indexing"
            bar.show_progress(verb, event.done, event.total)
        elif isinstance(event, life.Loaded):
            # A problem of the embedding server is shown as it comes and goes.
            self._stop_watching_embedding = event.context.embedding.watch(
                lambda status: self.post_message(EmbeddingTrouble(status))
            )
            self._show_library()
            bar.show_ready()
            self.loaded = True
            # After `ready` is drawn: reading the model holds the interpreter a while.
            self.call_after_refresh(self.start_embedding)
            if self.settings.watch:
                self.run_worker(self.lifecycle.watch(), group=WATCH_GROUP, exit_on_error=False)
        elif isinstance(event, life.Reloaded):
            self._show_library()
            if event.context.choice.mode == "hybrid":
                bar.work = "embedding…"
            bar.note = f"reloaded: {event.changes}"
            self.reloading = False
        elif isinstance(event, life.LoadFailed):
            if not event.reloading:
                self.fail_to_start(event.error, event.reason)
                return
            bar.note = f"reload failed, still using the loaded library: {event.reason}"
            self.reloading = False
        elif isinstance(event, life.EmbeddingProgress):
            # Beside the mode, not in place of the latest outcome.
            bar.work = f"embedding {event.done:,}/{event.total:,}"
        elif isinstance(event, life.HybridOn):
            bar.work = ""
            bar.retrieval = event.context.retrieval
        elif isinstance(event, life.EmbeddingFailed):
            # The server's problem stays in the bar ("embedding server unreachable").
            bar.work = self.context.embedding.status().bar_text
            bar.retrieval = self.context.retrieval
            self._notice(f"hybrid retrieval is off: {event.reason}")
        elif isinstance(event, life.ChangedOnDisk):
            self.changed_on_disk = True
            # On to the screen, which knows whether an answer is awaited.
            self.post_message(LibraryChangedOnDisk(event.paths))
        elif isinstance(event, life.WatchFailed):
            self._notice(
                f"watch mode is off: the library folder cannot be watched ({event.reason});"
                f" {key_name(RELOAD.key)} reloads by hand"
            )

    @on(EmbeddingTrouble)
    def _embedding_trouble(self, message: EmbeddingTrouble) -> None:
        if self.loaded:
            self._status_bar.work = message.status.bar_text
            self._status_bar.retrieval = self.context.retrieval

    def _show_library(self) -> None:
        """The library's size, tree and warnings (but those already shown)."""
        library = self.context.library
        self._status_bar.show_library(self.context.mode_label, len(library))
        self._status_bar.retrieval = self.context.retrieval
        self.library_browser.set_library(library)
        for problem in map(str, library.problems):
            if problem not in self._shown_problems:
                self._notice(f"warning: {problem}")
        self._shown_problems = {str(problem) for problem in library.problems}

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
        self.run_worker(self.lifecycle.reload(), group="library", exit_on_error=False)
        return None

    def reload_if_changed(self) -> None:
        """Reload if documents changed on disk and no load or reload is under way."""
        if self.changed_on_disk and self.loaded and not self.reloading:
            self.start_reload()

    def show_library_report(self) -> None:
        """The library report (command palette), over this screen."""
        if not self.loaded:
            self._status_bar.note = "still indexing: the library is not loaded yet"
            return
        self.app.push_screen(LibraryReportScreen(self.context.reports))

    def start_embedding(self) -> None:
        """Under `hybrid`, the missing vectors computed in the background."""
        context = self.context
        if context.choice.mode != "hybrid" or context.vectors is not None:
            return
        self._status_bar.work = "embedding…"
        self.run_worker(self.lifecycle.embed(), group="embedding", exit_on_error=False)

    def fail_to_start(self, error: Exception, reason: str) -> None:
        """End the app with exit status 2; `run_app` raises the error for the CLI."""
        if isinstance(error, LibraryError | ConfigError):
            self.load_error = error
        else:
            self.load_error = LibraryError(f"the library could not be loaded: {reason}")
        self.app.exit(return_code=2)

    async def close_library(self) -> None:
        """Stop the work still running and let go of the library and the connections."""
        self.workers.cancel_group(self, WATCH_GROUP)
        if self._stop_watching_embedding is not None:
            self._stop_watching_embedding()
        await self.lifecycle.aclose()
