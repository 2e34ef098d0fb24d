"""Gaps written off a server's calls: queued at once, appended on a thread of their own.

A refused question's gap is a locked append to a file (`gaps.record_gaps`) or a row in
the shared store; on a call's path that was a file lock and a few system calls per
refusal, waited on by the agent. `GapWriter` takes each gap (`put`), or the work of
keeping one (`run`), at once, and one thread writes what has gathered within
`LINGER_SECONDS` of the first: every gap queued for a file in one append, in the order
they were put. `flush` waits until everything put before it is written (the `gaps`
tool lists them after it), and `close` flushes and ends the thread; it is also closed
at the interpreter's exit, so no gap put is lost on the way out. A write that fails is
a warning, never a call's error.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from tui_assistant.core.display_text import one_line
from tui_assistant.core.gaps import Gap
from tui_assistant.errors import os_error_words
from tui_assistant.store.gaps import record_gaps

logger = logging.getLogger(__name__)

RecordGaps = Callable[[Path, list[Gap]], None]
# How long the first gap of a batch waits for others: a burst of refusals is one
# append, and a call's thread is not made to hand the interpreter to the writer at once.
LINGER_SECONDS = 0.05


class GapWriter:
    """One thread appending the gaps put from any thread, in batches."""

    def __init__(self, record: RecordGaps = record_gaps) -> None:
        self._record = record
        self._changed = threading.Condition()
        self._gaps: list[tuple[Path, Gap]] = []
        self._jobs: list[Callable[[], None]] = []
        # Put and not yet written (counted until its batch is written, so `flush` waits
        # for the batch being written too).
        self._pending = 0
        self._thread: threading.Thread | None = None
        self._closed = False
        # Callers of `flush` waiting: the writer writes at once rather than lingering.
        self._flushing = 0

    def put(self, path: Path, gap: Gap) -> None:
        """Append `gap` to the gaps file at `path`, soon."""
        with self._changed:
            self._gaps.append((path, gap))
            self._queued()

    def run(self, job: Callable[[], None]) -> None:
        """Run `job` (the work of keeping a gap) on the writer's thread, soon."""
        with self._changed:
            self._jobs.append(job)
            self._queued()

    def flush(self) -> None:
        """Return once everything put before this call is written (or failed)."""
        with self._changed:
            self._flushing += 1
            self._changed.notify_all()
            try:
                self._changed.wait_for(lambda: self._pending == 0)
            finally:
                self._flushing -= 1

    def close(self) -> None:
        """Write what is queued, then end the thread; later gaps are written at once."""
        self.flush()
        with self._changed:
            self._closed = True
            thread, self._thread = self._thread, None
            self._changed.notify_all()
        if thread is not None:
            thread.join()
            atexit.unregister(self.close)

    def _queued(self) -> None:
        """Under the lock: count what was just put, and have it written."""
        self._pending += 1
        if self._closed:
            self._write_now()
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="gap-writer", daemon=True)
            self._thread.start()
            atexit.register(self.close)
        if len(self._gaps) + len(self._jobs) == 1:  # else the writer is already awake
            self._changed.notify_all()

    def _write_now(self) -> None:
        """After `close`, under the lock: what was put is written by its caller."""
        gaps, jobs = self._taken()
        self._write(gaps, jobs)
        self._pending -= len(gaps) + len(jobs)

    def _serve(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._gaps or self._jobs or self._closed)
                if self._closed and not (self._gaps or self._jobs):
                    return
                self._changed.wait_for(lambda: self._flushing or self._closed, LINGER_SECONDS)
                gaps, jobs = self._taken()
            self._write(gaps, jobs)
            with self._changed:
                self._pending -= len(gaps) + len(jobs)
                self._changed.notify_all()

    def _taken(self) -> tuple[list[tuple[Path, Gap]], list[Callable[[], None]]]:
        gaps, jobs = self._gaps, self._jobs
        self._gaps, self._jobs = [], []
        return gaps, jobs

    def _write(self, gaps: list[tuple[Path, Gap]], jobs: list[Callable[[], None]]) -> None:
        for job in jobs:
            try:
                job()
            except Exception as error:  # a failed keep must not end the writer
                logger.warning("question not kept in gaps (%s)", one_line(str(error)))
        by_file: dict[Path, list[Gap]] = {}
        for path, gap in gaps:
            by_file.setdefault(path, []).append(gap)
        for path, batch in by_file.items():
            try:
                self._record(path, batch)
            except OSError as error:
                logger.warning(
                    "%d question(s) not kept in gaps (%s)", len(batch), os_error_words(error)
                )
