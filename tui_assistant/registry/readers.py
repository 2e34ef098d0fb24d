"""Archives read in worker processes while other downloads go on.

Unpacking a release (parsing its Python sources) and indexing its documents (parsing
rst, Markdown) are CPU work: in the download threads they would take turns on one
core. With several SPECs, `fetch` hands that work to a pool of processes, one per core
it may use; with one SPEC (or one core) it runs in the calling thread, as a pool's
start-up would cost more than it saves. Each job's result or error comes back to the
thread that asked, so every SPEC keeps its own outcome.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from tui_assistant.core.documents.formats import DOCUMENT_KINDS
from tui_assistant.core.words import stem
from tui_assistant.errors import FetchError, LibraryError
from tui_assistant.registry.archive import Limits, Unpacked, unpack
from tui_assistant.registry.git_hint import repository_hint
from tui_assistant.store.index_store import open_library

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ReadArchive:
    """What was kept of an archive, and where its repository is when no docs were."""

    unpacked: Unpacked
    hint: str | None


def read_archive(
    archive: Path,
    filename: str,
    target: Path,
    registry: str,
    version: str,
    limits: Limits,
) -> ReadArchive:
    """`archive`'s documents (and Python sources) kept in `target` (`archive.unpack`)."""
    unpacked = unpack(archive, filename, target, registry == "pypi", limits)
    hint = None
    if not unpacked.documentation:
        hint = repository_hint(archive, filename, registry, version)
    return ReadArchive(unpacked, hint)


def count_passages(folder: Path, data_dir: Path, name: str) -> tuple[int, int]:
    """Index a fetched library in its store now (so its first use is quick) and count
    its documents and passages."""
    try:
        library = open_library(folder, data_dir, stem, kinds=DOCUMENT_KINDS, name=name)
    except LibraryError:
        return 0, 0
    try:
        return len(library.documents), len(library)
    finally:
        library.close()


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _ignore_interrupts() -> None:
    # Ctrl-C is the parent's to handle: it stops the workers itself, without a
    # traceback from each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Readers:
    """Runs reading jobs in `workers` processes (in the caller when 1)."""

    def __init__(self, workers: int) -> None:
        self._pool: ProcessPoolExecutor | None = None
        # A job is submitted, or the pool stopped, under this lock: a submit starts the
        # workers it needs, so a stop never misses one that is starting.
        self._lock = threading.Lock()
        self._stopped = False
        if workers > 1:
            # Not `fork`: the parent has download threads running.
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context(
                "forkserver" if "forkserver" in methods else "spawn"
            )
            self._pool = ProcessPoolExecutor(
                workers, mp_context=context, initializer=_ignore_interrupts
            )

    def run(self, job: Callable[..., T], *args: object) -> T:
        """`job(*args)`, in a worker when there is a pool; its error raised here."""
        if self._pool is None:
            return job(*args)
        with self._lock:
            if self._stopped:
                raise FetchError("interrupted")
            future = self._pool.submit(job, *args)
        try:
            return future.result()
        except (BrokenProcessPool, CancelledError):  # stopped while it waited or ran
            raise FetchError("interrupted") from None

    def stop(self) -> None:
        """End the jobs under way now (Ctrl-C): their callers get FetchError."""
        if self._pool is None:
            return
        with self._lock:
            self._stopped = True
        # `_processes` is the pool's only handle on its workers; a job cannot be
        # cancelled once it runs.
        for process in list((self._pool._processes or {}).values()):
            process.terminate()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
