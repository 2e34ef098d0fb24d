"""The library panel: the library tree, and the TUI's adapter of the library's life
(`wiring.lifecycle`): its events become the status bar, the tree and the chat's warnings.
The main screen calls `start_reload` (ctrl+r, and after changes on disk) when no answer
is awaited; `reloading` turns False once a reload is swapped in or failed."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import var

from tui_assistant.errors import ConfigError, LibraryError
from tui_assistant.settings import Settings
from tui_assistant.ui.core_warnings import library_warning_lines
from tui_assistant.ui.keys import RELOAD, key_name
from tui_assistant.ui.messages import LibraryEvent
from tui_assistant.ui.widgets.chat_pane import ChatPane
from tui_assistant.ui.widgets.library_browser import LibraryBrowser
from tui_assistant.ui.widgets.status_bar import StatusBar
from tui_assistant.wiring import library_events as events
from tui_assistant.wiring.context import AppContext, load_library
from tui_assistant.wiring.lifecycle import (
    ContextStarter,
    LibraryLifecycle,
    LibraryLoader,
    open_without_vectors,
)

WATCH_GROUP = "watch"
NOT_LOADED = "still indexing: the library is not loaded yet"


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
        self.lifecycle = LibraryLifecycle(
            settings, self._post, reload_on_change=False, start=start, reload_library=reload_library
        )
        # Documents changed on disk since the last reload began (watch mode).
        self.changed_on_disk = False
        self._shown_problems: set[str] = set()
        self.library_browser = LibraryBrowser()
        self.load_error: LibraryError | ConfigError | None = None  # `run_app` raises it

    def _post(self, event: events.LifecycleEvent) -> None:
        self._event(LibraryEvent(event))  # at once, in the step that changed the context
        if isinstance(event, events.ChangedOnDisk):
            self.screen.post_message(LibraryEvent(event))

    @property
    def context(self) -> AppContext:  # the library and the service answering now
        return self.lifecycle.context

    def compose(self) -> ComposeResult:
        yield self.library_browser

    def load_context(self) -> None:
        self.run_worker(self.lifecycle.load(), group="library", exit_on_error=False)

    @on(LibraryEvent)
    def _event(self, message: LibraryEvent) -> None:
        bar, event = self.screen.query_one(StatusBar), message.event
        if self.lifecycle.loaded:
            bar.retrieval = self.context.retrieval
        bar.show_library_event(event)
        match event:
            case events.Loaded():
                self._show_library()
                bar.show_ready()
                self.loaded = True
                # After `ready` is drawn: reading the model holds the interpreter a while.
                self.call_after_refresh(self.start_embedding)
                if self.settings.watch:
                    self.run_worker(self.lifecycle.watch(), group=WATCH_GROUP, exit_on_error=False)
            case events.Reloaded(context, changes):
                self._show_library()
                bar.work = "embedding…" if context.choice.mode == "hybrid" else bar.work
                bar.note, self.reloading = f"reloaded: {changes}", False
            case events.LoadFailed(error, reason, reloading=False):
                # The app ends with exit status 2; `run_app` raises the error for the CLI.
                if not isinstance(error, LibraryError | ConfigError):
                    error = LibraryError(f"the library could not be loaded: {reason}")
                self.load_error = error
                self.app.exit(return_code=2)
            case events.LoadFailed(reason=reason):
                bar.note = f"reload failed, still using the loaded library: {reason}"
                self.reloading = False
            case events.EmbeddingFailed(reason):
                self._notice(f"hybrid retrieval is off: {reason}")
            case events.ChangedOnDisk():
                self.changed_on_disk = True
            case events.WatchFailed(reason=reason):
                self._notice(
                    f"watch mode is off: the library folder cannot be watched ({reason});"
                    f" {key_name(RELOAD.key)} reloads by hand"
                )

    def _notice(self, text: str) -> None:
        self.screen.query_one(ChatPane).add_notice(text)

    def _show_library(self) -> None:
        """The library's size, tree and warnings (but those already shown)."""
        library = self.context.library
        self.screen.query_one(StatusBar).show_library(self.context.mode_label, len(library))
        self.library_browser.set_library(library)
        problems = library_warning_lines(library.problems)
        for problem in problems:
            if problem not in self._shown_problems:
                self._notice(f"warning: {problem}")
        self._shown_problems = set(problems)

    def start_reload(self, if_changed: bool = False) -> str | None:
        """Read the library again in the background (`if_changed`: only if documents
        changed on disk, watch mode); why not, when it cannot start now."""
        if if_changed and not self.changed_on_disk:
            return None
        if not self.loaded or self.reloading:
            return NOT_LOADED if not self.loaded else "already reloading"
        # Whatever changed on disk so far, this reload reads.
        self.changed_on_disk, self.reloading = False, True
        self.screen.query_one(StatusBar).show_work("reloading…")
        self.run_worker(self.lifecycle.reload(), group="library", exit_on_error=False)
        return None

    def start_embedding(self) -> None:
        """Under `hybrid`, the missing vectors computed in the background."""
        if self.context.choice.mode == "hybrid" and self.context.vectors is None:
            self.screen.query_one(StatusBar).work = "embedding…"
            self.run_worker(self.lifecycle.embed(), group="embedding", exit_on_error=False)

    async def close_library(self) -> None:
        """Stop the work still running; let go of the library and the connections."""
        self.workers.cancel_group(self, WATCH_GROUP)
        await self.lifecycle.aclose()
