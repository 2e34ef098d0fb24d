"""The embedding state of a running app, for every surface to read the same way.

`EmbeddingMonitor` is told what happens (progress of an embedding run, its end, a
failure, a question that could not be embedded) from any thread; `status()` gives an
`EmbeddingStatus`, a frozen snapshot: which source (a local model or a server), which
model, how far the vectors are, and the problem when the server cannot be reached or
answers badly. The TUI's status bar, `ask`, the `library` report and the MCP server
read it; `watch` tells the TUI when a problem comes or goes.

A question that cannot be embedded is answered by words (`ranked`) and logged once per
run of failures, so `ask` prints one `warning:` line and the TUI one notice, not one
per question.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from tui_assistant.core.display_text import one_line
from tui_assistant.core.library.library import Library
from tui_assistant.core.library.report import KeptVectors, VectorFacts
from tui_assistant.core.progress_estimate import RateWindow
from tui_assistant.core.progress_text import progress_words
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.errors import EmbeddingUnavailable
from tui_assistant.providers.embedding_model_files import DEFAULT_MODEL_NAME, DEFAULT_MODEL_SHA256
from tui_assistant.wiring.retrieval_choice import (
    RetrievalChoice,
    identity_without_loading,
    load_embedder,
)

if TYPE_CHECKING:
    from tui_assistant.providers.embedding import EmbeddingSource

logger = logging.getLogger(__name__)

EmbeddingSourceKind = Literal["local", "server"]
EmbeddingPhase = Literal["off", "waiting", "embedding", "ready", "failed"]


@dataclass(frozen=True, slots=True)
class EmbeddingStatus:
    """Where vectors come from and how far they are.

    `phase`: `off` (no hybrid retrieval), `waiting` (not started), `embedding` (`done`
    of `total` passages embedded so far), `ready` (every passage has its vectors),
    `failed` (the run stopped: `problem`). `problem` is one line naming where and why
    when embedding fails, also for a question while `ready`; `short` is a few words of
    it for a status bar.
    """

    source: EmbeddingSourceKind | None = None
    where: str | None = None
    model: str | None = None
    identity: ModelIdentity | None = None
    phase: EmbeddingPhase = "off"
    done: int = 0
    total: int = 0
    problem: str | None = None
    short: str | None = None
    # Passages embedded a second over the latest reports, and the seconds left at that
    # rate; None until it can be told, and once done.
    per_second: float | None = None
    eta_seconds: float | None = None

    @property
    def bar_text(self) -> str:
        """What a one-line status bar shows: the work under way, or the problem."""
        if self.short:
            return self.short
        if self.phase == "embedding":
            return progress_words(
                "embedding",
                self.done,
                self.total,
                "passage",
                rate=self.per_second,
                eta_seconds=self.eta_seconds,
            )
        return ""


class EmbeddingMonitor:
    """The app's one embedding state, told from any thread, read as `status()`."""

    def __init__(
        self,
        status: EmbeddingStatus | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._status = status or EmbeddingStatus()
        self._clock = clock
        self._lock = threading.Lock()
        self._watchers: list[Callable[[EmbeddingStatus], object]] = []
        # Whether the latest question could not be embedded (its problem is shown).
        self._question_failing = False
        # The latest progress reports, for the rate and the time left.
        self._window = RateWindow()

    def status(self) -> EmbeddingStatus:
        with self._lock:
            return self._status

    def watch(self, callback: Callable[[EmbeddingStatus], object]) -> Callable[[], None]:
        """Call `callback(status)` (on the telling thread) whenever a problem comes or
        goes; returns the function that stops it."""
        with self._lock:
            self._watchers.append(callback)

        def stop() -> None:
            with self._lock:
                if callback in self._watchers:
                    self._watchers.remove(callback)

        return stop

    # -- what happens -------------------------------------------------------------

    def progress(self, done: int, total: int) -> None:
        """`done` of the library's `total` passages have their vectors; the source
        answers, so no problem. The rate is over the latest reports (`RateWindow`); a
        count never goes back while the total stays (a library of several counts the
        vectors stored in a later one only once it gets there)."""
        now = self._clock()
        with self._lock:
            before = self._status
            if before.total == total and before.phase in ("waiting", "embedding"):
                done = max(done, before.done)
            self._window.add(now, done)
            estimate = self._window.estimate(done, total)
        self._change(
            phase="embedding",
            done=done,
            total=total,
            problem=None,
            short=None,
            per_second=estimate.rate,
            eta_seconds=estimate.eta_seconds,
        )

    def counted(self, done: int, total: int) -> None:
        """Before an embedding run: `done` of `total` passages have stored vectors."""
        with self._lock:
            if self._status.phase not in ("waiting", "off"):
                return
        self._change(done=done, total=total)

    def embedded(self, identity: ModelIdentity, passages: int) -> None:
        """Every passage has its vectors."""
        with self._lock:
            self._question_failing = False
            self._window = RateWindow()
        self._change(
            identity=identity,
            model=identity.name,
            phase="ready",
            done=passages,
            total=passages,
            problem=None,
            short=None,
            per_second=None,
            eta_seconds=None,
        )

    def failed(self, error: Exception) -> None:
        """The embedding run stopped; the library answers by words. Only a source that
        cannot embed now (a server) has a `short` for the status bar."""
        short = error.short if isinstance(error, EmbeddingUnavailable) else None
        with self._lock:
            self._window = RateWindow()
        self._change(
            phase="failed",
            problem=one_line(str(error)),
            short=short,
            per_second=None,
            eta_seconds=None,
        )

    def question_failed(self, error: EmbeddingUnavailable) -> None:
        """A question was answered by words: its embedding failed. Logged once per run
        of such questions."""
        with self._lock:
            first, self._question_failing = not self._question_failing, True
        self._change(problem=one_line(str(error)), short=error.short)
        if first:
            logger.warning("%s; answering by words (ranked)", one_line(str(error)))

    def question_embedded(self) -> None:
        """A question was embedded: a question's problem, if any, is over."""
        with self._lock:
            was_failing, self._question_failing = self._question_failing, False
        if was_failing:
            self._change(problem=None, short=None)
            logger.info("the embedding server answers again")

    def _change(self, **changes: object) -> None:
        with self._lock:
            before = self._status
            self._status = replace(before, **changes)  # type: ignore[arg-type]
            now = self._status
            watchers = list(self._watchers) if now.problem != before.problem else []
        for callback in watchers:
            callback(now)


def monitor_for(choice: RetrievalChoice) -> EmbeddingMonitor:
    """The monitor of an app started with `choice`: off, or waiting for its vectors."""
    if choice.mode != "hybrid":
        return EmbeddingMonitor()
    if choice.server is not None:
        status = EmbeddingStatus(
            "server", choice.server.where, choice.server.model, phase="waiting"
        )
    else:
        folder = choice.model_folder
        pinned = choice.expected_sha256 == DEFAULT_MODEL_SHA256
        name = DEFAULT_MODEL_NAME if pinned or folder is None else folder.name
        status = EmbeddingStatus("local", None, name, phase="waiting")
    return EmbeddingMonitor(status)


def source_label(choice: RetrievalChoice) -> str:
    """`local`, or `server HOST:PORT`."""
    return f"server {choice.server.where}" if choice.server is not None else "local"


def vector_facts(
    store: Path,
    library: Library,
    choice: RetrievalChoice,
    embedder: EmbeddingSource | None = None,
) -> VectorFacts:
    """The state of a `hybrid` choice's vectors in `store`, for the library report. A
    local model is not loaded (its identity comes from its files); a server is asked
    once for its model's dimensions, and when it cannot be reached or answers badly,
    `problem` says so and the passages stored under that model name are counted."""
    # numpy loads with the first vectors, never for a start that answers by words.
    from tui_assistant.store.vectors import stored_vectors

    problem = None
    identity: ModelIdentity | None = None
    if choice.server is None:
        identity = embedder.identity if embedder is not None else identity_without_loading(choice)
    else:
        source = embedder if embedder is not None else load_embedder(choice)
        try:
            identity = source.identity
        except EmbeddingUnavailable as error:
            problem = one_line(str(error))
        finally:
            if embedder is None:
                close = getattr(source, "close", None)
                if close is not None:
                    close()
    stored = stored_vectors(store, library)
    if identity is not None:
        mine = [model for model in stored if model.made(identity)]
        name = identity.name
    else:
        assert choice.server is not None
        name = choice.server.model
        mine = [
            model
            for model in stored
            if model.name == name and model.document_prefix == choice.document_prefix
        ]
    embedded = max((model.embedded for model in mine), default=0)
    kept = tuple(
        KeptVectors(model.name, model.dimensions, model.embedded)
        for model in stored
        if model not in mine
    )
    return VectorFacts(name, embedded, source=source_label(choice), problem=problem, kept=kept)
