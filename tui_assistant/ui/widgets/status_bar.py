"""The status bar: one line with the latest outcome first, then the rest as room allows.

A real widget rather than toasts, so the latest outcome stays on screen (and in tests
and screenshots, where notifications are off) until the next question. Its parts are
reactive state; on every change, and when the terminal is resized, `fit_status` lays
them out on the one line: the state word whole (cut with `…` only when it alone is
wider than the bar), then the note, the background work, and the mode, passage count
and retrieval mode, which give up their room in that order (the passage count first,
then the retrieval mode, then the mode is cut).

The state word is the latest outcome (`ready`, `answered`, `not sure: ...`,
`refused: ...`), or the work under way (`indexing 1,200/20,000 files`, `reloading 3/9
files`, `asking… 1.2 s`); background work beside it (`embedding 40/300`) has its own
part. The note says what became of a key that is not a question (reload, open in
editor) and stays until the app clears it at the user's next action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from tui_assistant.core.outcome import Outcome, Reason
from tui_assistant.core.progress_estimate import RateWindow
from tui_assistant.core.progress_text import progress_words, words_only
from tui_assistant.ui.keys import CANCEL, key_name
from tui_assistant.ui.widgets.untrusted_text import cut_right, one_line
from tui_assistant.wiring.library_events import (
    EmbeddingFailed,
    EmbeddingProgress,
    EmbeddingStatusChanged,
    HybridOn,
    Indexing,
    LifecycleEvent,
)

# How often the elapsed seconds of a request in flight are redrawn.
TICK_SECONDS = 0.1


def plural(count: int, noun: str) -> str:
    """`1 passage`, `1,234 passages`."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def progress_text(verb: str, done: int, total: int, noun: str = "file") -> str:
    """`indexing 1,200/20,000 files`."""
    return f"{verb} {done:,}/{total:,} {noun}{'' if total == 1 else 's'}"


# Cells between two parts of the bar.
GAP = 2
# Between the pieces of the work, the last given up first when room is short.
WORK_SEPARATOR = " · "
# A note is shown only with at least this many cells for it (else it would be a `…`).
MIN_NOTE = 12


@dataclass(frozen=True, slots=True)
class StatusTexts:
    """What each part of the bar shows at one width ("" = not shown)."""

    state: str
    note: str = ""
    work: str = ""
    mode: str = ""


def fit_status(
    width: int, state: str, note: str = "", work: str = "", mode_parts: Sequence[str] = ()
) -> StatusTexts:
    """The parts of a `width`-cell line: the state word first and whole, then the
    note (cut if need be), the work (whole, or without its last ` · ` parts, or not at
    all), and the mode line, which
    drops its second part (the passage count), then its third (retrieval), then is cut."""
    state = cut_right(state, width)
    room = width - cell_len(state)
    if note and room - GAP >= min(MIN_NOTE, cell_len(note)):
        note = cut_right(note, room - GAP)
        room -= GAP + cell_len(note)
    else:
        note = ""
    # The work drops its last ` · ` part while it does not fit, then goes.
    pieces = work.split(WORK_SEPARATOR) if work else []
    while pieces and room - GAP < cell_len(WORK_SEPARATOR.join(pieces)):
        pieces.pop()
    work = WORK_SEPARATOR.join(pieces)
    if work:
        room -= GAP + cell_len(work)
    parts = [part for part in mode_parts if part]
    candidates = [parts, parts[:1] + parts[2:], parts[:1]] if parts else []
    mode = next(
        (
            " · ".join(candidate)
            for candidate in candidates
            if cell_len(" · ".join(candidate)) <= room - GAP
        ),
        "",
    )
    if not mode and parts and room - GAP >= MIN_NOTE:
        mode = cut_right(parts[0], room - GAP)
    return StatusTexts(state, note, work, mode)


class StatusPart(Static):
    """One part of the bar: literal text (never markup), already fitted to its room."""

    DEFAULT_CSS = """
    StatusPart {
        width: auto;
        height: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        margin-left: 2;
    }
    """

    # A new text can change the part's width, so it lays the bar out again.
    text: reactive[str] = reactive("", layout=True)

    def render(self) -> Content:
        return Content(self.text)

    def watch_text(self, text: str) -> None:
        self.display = bool(text)


class StatusBar(Horizontal):
    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        background: $panel;
        padding: 0 1;
    }
    StatusBar #status-outcome {
        text-style: bold;
        margin-left: 0;
    }
    StatusBar #status-note { color: $text-warning; }
    StatusBar #status-work { color: $text-accent; }
    StatusBar #status-mode {
        width: 1fr;
        color: $text-muted;
        text-align: right;
    }
    StatusBar.-answered #status-outcome { color: $text-success; }
    StatusBar.-refused #status-outcome { color: $text-error; }
    StatusBar.-unsure #status-outcome { color: $text-warning; }
    StatusBar.-chosen #status-outcome { color: $text-warning; }
    StatusBar.-timed_out #status-outcome { color: $text-warning; }
    StatusBar.-cancelled #status-outcome { color: $text-warning; }
    StatusBar.-asking #status-outcome { color: $text-accent; }
    StatusBar.-indexing #status-outcome { color: $text-accent; }
    """

    mode: reactive[str] = reactive("loading the library")
    passages: reactive[int | None] = reactive(None)
    retrieval: reactive[str] = reactive("")
    # The state word and its kind (`ready`, `asking`, `answered`, `indexing`, ...).
    state: reactive[str] = reactive("indexing…")
    kind: reactive[str] = reactive("indexing")
    note: reactive[str] = reactive("")
    # Background work beside the latest outcome (`embedding 40/300 passages, 31/s,
    # about 9 s left`), "" when none.
    work: reactive[str] = reactive("")
    # After the work while the library answers by words until its vectors are in
    # (`words only while embedding (40/300)`), "" otherwise.
    by_words: reactive[str] = reactive("")

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__(classes="-indexing")
        self._clock = clock
        self._asking_since: float | None = None
        self._ticker: Timer | None = None
        # The embedding's latest reports, for its rate and the time left.
        self._embedding_rate = RateWindow()

    def compose(self) -> ComposeResult:
        yield StatusPart(id="status-outcome")
        yield StatusPart(id="status-note")
        yield StatusPart(id="status-work")
        yield StatusPart(id="status-mode")

    def on_mount(self) -> None:
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    @property
    def mode_parts(self) -> tuple[str, str, str]:
        """The mode, the passage count and the retrieval mode ("" when not known)."""
        count = "" if self.passages is None else plural(self.passages, "passage")
        return one_line(self.mode), count, one_line(self.retrieval)

    def _fit(self) -> None:
        width = self.content_size.width or self.app.size.width - 2
        texts = fit_status(width, self.state, self.note, self.work, self.mode_parts)
        if self.by_words and texts.work == self.work:
            # Words only, said last: where everything else keeps its room.
            work = WORK_SEPARATOR.join(part for part in (self.work, self.by_words) if part)
            wider = fit_status(width, self.state, self.note, work, self.mode_parts)
            if wider.work == work and wider.mode == texts.mode:
                texts = wider
        self.query_one("#status-outcome", StatusPart).text = texts.state
        self.query_one("#status-note", StatusPart).text = texts.note
        self.query_one("#status-work", StatusPart).text = texts.work
        self.query_one("#status-mode", StatusPart).text = texts.mode

    def watch_kind(self, before: str, kind: str) -> None:
        self.remove_class(f"-{before}")
        self.add_class(f"-{kind}")

    def _watch_any(self) -> None:
        if self.is_mounted:
            self._fit()

    watch_mode = watch_passages = watch_retrieval = watch_by_words = _watch_any
    watch_state = watch_note = watch_work = _watch_any

    def validate_note(self, note: str) -> str:
        return one_line(note)

    def validate_state(self, state: str) -> str:
        return one_line(state)

    # -- what the app says --------------------------------------------------------

    def show_library(self, mode_label: str, passage_count: int) -> None:
        """The mode and the passage count, once the library is loaded (and after a reload)."""
        self.mode = mode_label
        self.passages = passage_count

    def show_work(self, text: str) -> None:
        """Work under way (indexing, reloading); a request in flight keeps its `asking`
        line, and the work's next progress report shows once it ends."""
        if self.kind != "asking":
            self._show(text, "indexing")

    def show_progress(self, verb: str, done: int, total: int, noun: str = "file") -> None:
        """`indexing 1,200/20,000 files`, `reloading 3/9 files`, `embedding 40/300 passages`."""
        self.show_work(progress_text(verb, done, total, noun))

    def show_ready(self) -> None:
        self._show("ready", "ready")

    def show_library_event(self, event: LifecycleEvent) -> None:
        """What the library's life tells the bar: indexing and embedding counts (the
        latter beside the mode, not in place of the latest outcome), hybrid on, an
        embedding server's problem coming or going (it stays while it lasts)."""
        match event:
            case Indexing(done, total, reloading):
                self.show_progress("reloading" if reloading else "indexing", done, total)
            case EmbeddingProgress(done, total):
                self._embedding_rate.add(self._clock(), done)
                estimate = self._embedding_rate.estimate(done, total)
                self.work = progress_words(
                    "embedding", done, total, "passage", None, estimate.rate, estimate.eta_seconds
                )
                self.by_words = words_only(done, total) if done < total else ""
            case HybridOn(context):
                self.work, self.retrieval, self.by_words = "", context.retrieval, ""
                self._embedding_rate = RateWindow()
            case EmbeddingFailed(status=status):
                # Words only, and no embedding to wait for: the problem says why.
                self.work, self.by_words = status.bar_text, ""
            case EmbeddingStatusChanged(status):
                self.work = status.bar_text

    def show_asking(self) -> None:
        """Count seconds from now until `show_outcome` or `show_ready`."""
        self._asking_since = self._clock()
        self._show(self._asking_text(), "asking")
        if self._ticker is None:
            self._ticker = self.set_interval(TICK_SECONDS, self._tick)
        else:
            self._ticker.resume()

    def show_outcome(self, outcome: Outcome) -> None:
        """What happened, as `Outcome.describe()` says it (answered, answered by the
        model from 3 possible passages, not sure: ..., refused: ..., timed out,
        cancelled), in the colour of its kind: a model's choice among passages the
        library was not sure of is never in the colour of a sure answer."""
        kind = outcome.kind.value
        if outcome.reason is Reason.AMBIGUOUS:
            kind = "unsure"
        elif outcome.chosen_by == "model":
            kind = "chosen"
        self._show(outcome.describe(), kind)

    def _show(self, text: str, kind: str) -> None:
        if kind != "asking":
            self._asking_since = None
            if self._ticker is not None:
                self._ticker.pause()
        self.state = text
        self.kind = kind

    def _asking_text(self) -> str:
        since = self._asking_since
        elapsed = 0.0 if since is None else max(0.0, self._clock() - since)
        return f"asking… {elapsed:.1f} s ({key_name(CANCEL.key, short=True)} to stop)"

    def _tick(self) -> None:
        # Only the text changes, so only that part is drawn again while the app
        # should be waiting for keys, Esc above all.
        if self._asking_since is not None:
            self.state = self._asking_text()
