"""The main screen's library: it builds and drives the library's life
(`wiring.lifecycle`), holds the context answering now, and draws each event of that
life on the screen's widgets (the status bar, the library panel's tree, notices in the
chat). The screen owns one; no widget sees it.

The screen calls `start_reload` (ctrl+r, and after changes on disk) when no answer is
awaited; `reloading` turns False once a reload is swapped in or failed, and then the
screen is told (`reload_over`), so a question held for the reload goes on; documents
changed on disk are told too (`reload_if_changed`), once the step that saw them ends.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from tui_assistant.errors import ConfigError, LibraryError
from tui_assistant.settings import Settings
from tui_assistant.ui.core_warnings import library_warning_lines
from tui_assistant.ui.hooks import AppHooks
from tui_assistant.ui.keys import RELOAD, key_name
from tui_assistant.ui.widgets.chat_pane import ChatPane
from tui_assistant.ui.widgets.library_panel import LibraryPanel
from tui_assistant.ui.widgets.status_bar import StatusBar
from tui_assistant.wiring import library_events as events
from tui_assistant.wiring.context import AppContext
from tui_assistant.wiring.lifecycle import LibraryLifecycle

WATCH_GROUP = "watch"
NOT_LOADED = "still indexing: the library is not loaded yet"


class ScreenLibrary:
    """See the module's docstring."""

    def __init__(
        self,
        screen: Screen[None],
        settings: Settings,
        hooks: AppHooks,
        *,
        reload_over: Callable[[], None],
        reload_if_changed: Callable[[], None],
    ) -> None:
        self._screen = screen
        self._reload_over_told = reload_over
        self._reload_if_changed = reload_if_changed
        self.settings = settings
        self.lifecycle = LibraryLifecycle(
            settings,
            self.show,  # at once, in the step that changed the context
            reload_on_change=False,
            start=hooks.start,
            reload_library=hooks.reload_library,
        )
        self.loaded = False
        self.reloading = False
        # Documents changed on disk since the last reload began (watch mode).
        self.changed_on_disk = False
        self.load_error: LibraryError | ConfigError | None = None  # `run_app` raises it
        self._shown_problems: set[str] = set()

    @property
    def context(self) -> AppContext:
        """The library and the service answering now; only once loaded."""
        return self.lifecycle.context

    def load(self) -> None:
        self._screen.run_worker(self.lifecycle.load(), group="library", exit_on_error=False)

    @property
    def _bar(self) -> StatusBar:
        return self._screen.query_one(StatusBar)

    def _notice(self, text: str) -> None:
        self._screen.query_one(ChatPane).add_notice(text)

    def show(self, event: events.LifecycleEvent) -> None:
        """One event of the library's life, drawn on the screen."""
        screen, bar = self._screen, self._bar
        if self.lifecycle.loaded:
            bar.retrieval = self.context.retrieval
        bar.show_library_event(event)
        match event:
            case events.Loaded():
                self._show_library()
                bar.show_ready()
                self.loaded = True
                # After `ready` is drawn: reading the model holds the interpreter a while.
                screen.call_after_refresh(self.start_embedding)
                if self.settings.watch:
                    screen.run_worker(
                        self.lifecycle.watch(), group=WATCH_GROUP, exit_on_error=False
                    )
            case events.Reloaded(context, changes):
                self._show_library()
                bar.work = "embedding…" if context.choice.mode == "hybrid" else bar.work
                bar.note = f"reloaded: {changes}"
                self._reload_over()
            case events.LoadFailed(error, reason, reloading=False):
                # The app ends with exit status 2; `run_app` raises the error for the CLI.
                if not isinstance(error, LibraryError | ConfigError):
                    error = LibraryError(f"the library could not be loaded: {reason}")
                self.load_error = error
                screen.app.exit(return_code=2)
            case events.LoadFailed(reason=reason):
                bar.note = f"reload failed, still using the loaded library: {reason}"
                self._reload_over()
            case events.EmbeddingFailed(reason):
                self._notice(f"hybrid retrieval is off: {reason}")
            case events.ChangedOnDisk():
                self.changed_on_disk = True
                # Once this step is over: the reload reads whatever changed meanwhile.
                screen.call_later(self._reload_if_changed)
            case events.WatchFailed(reason=reason):
                self._notice(
                    f"watch mode is off: the library folder cannot be watched ({reason});"
                    f" {key_name(RELOAD.key)} reloads by hand"
                )

    def _reload_over(self) -> None:
        if self.reloading:
            self.reloading = False
            self._reload_over_told()

    def _show_library(self) -> None:
        """The library's size, tree and warnings (but those already shown)."""
        library = self.context.library
        self._bar.show_library(self.context.mode_label, len(library))
        self._screen.query_one(LibraryPanel).show_library(library)
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
        self._bar.show_work("reloading…")
        self._screen.run_worker(self.lifecycle.reload(), group="library", exit_on_error=False)
        return None

    def start_embedding(self) -> None:
        """Under `hybrid`, the missing vectors computed in the background."""
        if self.context.choice.mode == "hybrid" and self.context.vectors is None:
            self._bar.work = "embedding…"
            self._screen.run_worker(self.lifecycle.embed(), group="embedding", exit_on_error=False)

    async def close(self) -> None:
        """Stop the work still running; let go of the library and the connections."""
        self._screen.workers.cancel_group(self._screen, WATCH_GROUP)
        await self.lifecycle.aclose()
