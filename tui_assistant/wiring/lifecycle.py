"""The library's life, one implementation for the TUI and the MCP server:
load → (a warm start: stored vectors read before the first question) → embed in the
background → swap, closing what it replaces → watch → reload.

    lifecycle = LibraryLifecycle(settings, on_event)      # or .of(context, on_event)
    await lifecycle.load()      # Indexing…, then Loaded(context) or LoadFailed
    await lifecycle.embed()     # under hybrid: EmbeddingProgress…, HybridOn or EmbeddingFailed
    await lifecycle.watch()     # until cancelled: ChangedOnDisk (reloads itself when
                                # `reload_on_change`), WatchFailed
    await lifecycle.reload()    # Indexing…, Reloaded(context, changes) or LoadFailed; embeds
    await lifecycle.run()       # what a server does: load (unless given a context),
                                # then embed and watch until cancelled
    with lifecycle.lease() as context: ...   # the context answering now, held for one call
    await lifecycle.aclose()    # stop the work, close the library and the context

Every coroutine runs on the owner's event loop, and so does every `on_event` call
(the events are the frozen dataclasses of `library_events`); the blocking steps (reading the store,
embedding) run in daemon threads, so a client closing mid-embedding is not kept waiting.
A swap closes the library it replaces once no `lease` holds it. `writer=False` makes a
read-only follower: it reads the store and the stored vectors but never embeds or
watches (`embed` and `watch` return at once), for processes beside the one that writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TypeVar

from tui_assistant.core.display_text import error_line, one_line
from tui_assistant.core.documents.formats import document_kind
from tui_assistant.core.library.changes import passage_changes
from tui_assistant.core.library.library import Library
from tui_assistant.core.progress import Progress
from tui_assistant.errors import os_error_words
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import AppContext, open_context, with_stored_vectors
from tui_assistant.wiring.folders import library_folders
from tui_assistant.wiring.libraries import load_library
from tui_assistant.wiring.library_events import (
    ChangedOnDisk,
    EmbeddingFailed,
    EmbeddingProgress,
    EmbeddingStatusChanged,
    HybridOn,
    Indexing,
    LifecycleEvent,
    Loaded,
    LoadFailed,
    Reloaded,
    WatchFailed,
)
from tui_assistant.wiring.library_vectors import close_embedder

_Result = TypeVar("_Result")

# Builds the context (library, service) from settings; runs in a thread.
ContextStarter = Callable[[Settings, Progress | None], AppContext]
# Reads the library again for a reload; runs in a thread.
LibraryLoader = Callable[[Settings, Progress | None], Library]


def open_without_vectors(settings: Settings, progress: Progress | None = None) -> AppContext:
    """The context as a surface starts it: answering at once, lexically; under `hybrid`
    the vectors are read (warm) or computed afterwards."""
    return open_context(settings, progress, embed_now=False)


class _Stopped(Exception):
    """Raised from a progress report to stop work nobody waits for any more."""


class LibraryLifecycle:
    """See the module's docstring."""

    def __init__(
        self,
        settings: Settings,
        on_event: Callable[[LifecycleEvent], object],
        *,
        writer: bool = True,
        reload_on_change: bool = True,
        progress_interval: float = 0.05,
        start: ContextStarter = open_without_vectors,
        reload_library: LibraryLoader = load_library,
    ) -> None:
        self.settings = settings
        self.writer = writer
        self.reload_on_change = reload_on_change
        self._on_event = on_event
        self._interval = progress_interval
        self._start = start
        self._reload_library = reload_library
        self._context: AppContext | None = None
        self._closed = False
        self.reloading = False
        # Libraries swapped out, closed once no lease holds them.
        self._leases: dict[int, int] = {}
        self._retired: dict[int, Library] = {}
        self._lock = threading.Lock()
        self._stop_status: Callable[[], None] = lambda: None

    @classmethod
    def of(
        cls,
        context: AppContext,
        on_event: Callable[[LifecycleEvent], object],
        **options: object,
    ) -> LibraryLifecycle:
        """The lifecycle of a context already loaded (as `tui-assistant mcp` opens it)."""
        lifecycle = cls(context.settings, on_event, **options)  # type: ignore[arg-type]
        lifecycle._context = context
        return lifecycle

    @property
    def loaded(self) -> bool:
        return self._context is not None

    @property
    def context(self) -> AppContext:
        """The context answering now; only once loaded."""
        if self._context is None:
            raise RuntimeError("the library is not loaded yet")
        return self._context

    @contextlib.contextmanager
    def lease(self) -> Iterator[AppContext]:
        """The context answering now, its library kept open until the block ends."""
        with self._lock:
            context = self.context
            key = id(context.library)
            self._leases[key] = self._leases.get(key, 0) + 1
        try:
            yield context
        finally:
            with self._lock:
                self._leases[key] -= 1
                if self._leases[key] == 0:
                    del self._leases[key]
                    retired = self._retired.pop(key, None)
                    if retired is not None:
                        retired.close()

    # -- the steps ------------------------------------------------------------------

    async def load(self) -> AppContext | None:
        """The first load, with a warm start under hybrid; None when it failed."""
        progress = self._progress(lambda done, total: Indexing(done, total, False))

        def opened() -> AppContext:
            return with_stored_vectors(self._start(self.settings, progress))

        try:
            context = await in_daemon_thread(opened)
        except _Stopped:
            return None
        except Exception as error:  # whatever loading raises ends as one line, not a crash
            self._emit(LoadFailed(error, error_line(error), reloading=False))
            return None
        if self._closed:
            context.library.close()
            return None
        self._context = context
        # The embedding source's problems, told from whichever thread saw them.
        loop = asyncio.get_running_loop()
        self._stop_status = context.embedding.watch(
            lambda status: _call_soon(loop, self._emit, EmbeddingStatusChanged(status))
        )
        self._emit(Loaded(context))
        return context

    async def embed(self) -> None:
        """Under hybrid, the loaded library's missing vectors computed off the event loop
        (it answers lexically meanwhile), then the hybrid context swapped in."""
        context = self.context
        if not self.writer or context.choice.mode != "hybrid" or context.vectors is not None:
            return
        progress = self._progress(EmbeddingProgress)
        try:
            embedded = await in_daemon_thread(lambda: context.embed(context.library, progress))
        except _Stopped:
            return
        except Exception as error:  # the library keeps answering lexically
            self._emit(EmbeddingFailed(error_line(error), self.context.embedding.status()))
            return
        hybrid = self.context.with_vectors(embedded)
        if hybrid is None:
            # Vectors of a library reloaded meanwhile: their source is not kept.
            if embedded.embedder is not self.context.embedder:
                close_embedder(embedded.embedder)
            return
        self._context = hybrid
        self._emit(HybridOn(hybrid))

    async def reload(self) -> bool:
        """Read the libraries again (only changed files are), swap them in and, under
        hybrid, embed their new passages; False when a reload is already under way."""
        if self.reloading or self._context is None:
            return False
        self.reloading = True
        try:
            before = self.context
            progress = self._progress(lambda done, total: Indexing(done, total, True))
            try:
                library = await in_daemon_thread(
                    partial(self._reload_library, before.settings, progress)
                )
            except _Stopped:
                return True
            except Exception as error:  # a store that cannot be read must not end the app
                self._emit(LoadFailed(error, error_line(error), reloading=True))
                return True
            changes = passage_changes(before.library, library)
            self._swap(library)
        finally:
            self.reloading = False
        self._emit(Reloaded(self.context, changes))
        await self.embed()
        return True

    async def watch(self) -> None:
        """Watch every library's folder until cancelled; each settled burst of changes is
        a `ChangedOnDisk` (and a reload, with `reload_on_change`)."""
        if not self.writer:
            return
        # watchfiles loads only when libraries are watched (headless commands never are).
        from tui_assistant.store.watch import settled_changes

        kinds = set(self.settings.document_kinds)
        changed = asyncio.Event()

        async def watch(folder: Path) -> None:
            try:
                async for paths in settled_changes(
                    folder,
                    lambda name: document_kind(name) in kinds,
                    ignored=[self.settings.data_dir],
                ):
                    self._emit(ChangedOnDisk(paths))
                    changed.set()
            except Exception as error:  # going on without this folder: a reload still works
                self._emit(WatchFailed(folder, watch_reason(error)))

        watchers = [asyncio.create_task(watch(folder)) for folder in library_folders(self.settings)]
        try:
            while True:
                await changed.wait()
                changed.clear()
                if self.reload_on_change:
                    await self.reload()
        finally:
            for watcher in watchers:
                watcher.cancel()

    async def run(self) -> None:
        """Load (unless loaded), then embed and watch until cancelled."""
        if self._context is None and await self.load() is None:
            return
        tasks = [asyncio.create_task(self.embed())]
        if self.settings.watch:
            tasks.append(asyncio.create_task(self.watch()))
        try:
            await asyncio.gather(*tasks)
            await asyncio.Event().wait()  # a server's lifecycle lasts as long as it serves
        finally:
            for task in tasks:
                task.cancel()

    async def aclose(self) -> None:
        """Stop the work still running, close the library and let go of the provider's
        and the embedding source's connections."""
        self._closed = True
        self._stop_status()
        if self._context is not None:
            self._context.library.close()
            await self._context.aclose()

    # -- helpers ------------------------------------------------------------------

    def follow(self, context: AppContext) -> None:
        """A follower's step: answer from `context`, the libraries as the writer has
        committed them (with their stored vectors); the library it replaces is closed once
        no lease holds it."""
        self._replace(context)

    def _swap(self, library: Library) -> None:
        """Answer from `library` from now on; the one it replaced is closed once no
        lease holds it."""
        self._replace(self.context.with_library(library))

    def _replace(self, context: AppContext) -> None:
        before = self.context.library
        self._context = context
        with self._lock:
            if id(before) in self._leases:
                self._retired[id(before)] = before
            else:
                before.close()

    def _emit(self, event: LifecycleEvent) -> None:
        if not self._closed:
            self._on_event(event)

    def _progress(self, event: Callable[[int, int], LifecycleEvent]) -> Progress:
        """A progress callback for a worker thread: `event(done, total)` delivered on this
        event loop at most every `progress_interval` (and the last step); stops the work
        with `_Stopped` once the lifecycle is closed."""
        loop = asyncio.get_running_loop()
        last = [0.0]

        def progress(done: int, total: int) -> None:
            if self._closed:
                raise _Stopped
            now = time.monotonic()
            if done < total and now - last[0] < self._interval:
                return
            last[0] = now
            _call_soon(loop, self._emit, event(done, total))

        return progress


def _call_soon(
    loop: asyncio.AbstractEventLoop, emit: Callable[[LifecycleEvent], None], event: LifecycleEvent
) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
        loop.call_soon_threadsafe(emit, event)


def watch_reason(error: Exception) -> str:
    """Why a folder cannot be watched, in one line."""
    if isinstance(error, FileNotFoundError):
        return "it does not exist"
    if isinstance(error, OSError):
        return os_error_words(error)
    # watchfiles' own errors (an inotify limit reached) are plain words.
    return one_line(str(error)).rstrip(".") or type(error).__name__


def in_daemon_thread(work: Callable[[], _Result]) -> asyncio.Future[_Result]:
    """`work()` run in a daemon thread, its result or error delivered on this event loop.
    Daemon: a client that closes the server mid-embedding is not kept waiting for it."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[_Result] = loop.create_future()

    def deliver(result: _Result | None, error: BaseException | None) -> None:
        if done.cancelled():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = work(), None
        except BaseException as raised:  # delivered to the awaiting task
            result, error = None, raised
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(deliver, result, error)

    threading.Thread(target=run, name="library", daemon=True).start()
    return done
