"""The status bar: one line with the mode and passage count, the state word, a note.

A real widget rather than toasts, so the latest outcome stays on screen (and in tests
and screenshots, where notifications are off) until the next question. Its parts are
reactive state; each part is a one-line label bound to it, cut with `…` when the
terminal is too narrow, the mode and passage count first.

The state word is the latest outcome (`ready`, `answered`, `refused: ...`), or the work
under way (`indexing 1,200/20,000 files`, `reloading 3/9 files`, `embedding 40/300`,
`asking… 1.2 s`); once that work ends the bar settles back on the latest outcome. The
note says what became of a key that is not a question (reload, open in editor) and
stays until the app clears it at the user's next action.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from tui_assistant.ui.literal import one_line

# How often the elapsed seconds of a request in flight are redrawn.
TICK_SECONDS = 0.1


def plural(count: int, noun: str) -> str:
    """`1 passage`, `1,234 passages`."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def progress_text(verb: str, done: int, total: int, noun: str = "file") -> str:
    """`indexing 1,200/20,000 files`."""
    return f"{verb} {done:,}/{total:,} {noun}{'' if total == 1 else 's'}"


class StatusPart(Static):
    """One part of the bar: literal text (never markup) on one line, cut with `…`."""

    DEFAULT_CSS = """
    StatusPart {
        height: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    # A new text can change the part's width, so it lays the bar out again.
    text: reactive[str] = reactive("", layout=True)

    def render(self) -> Content:
        return Content(self.text)


class StatusBar(Horizontal):
    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        background: $panel;
        padding: 0 1;
    }
    StatusBar #status-mode {
        width: auto;
        max-width: 45%;
        color: $text-muted;
        padding-right: 2;
    }
    StatusBar #status-work {
        width: auto;
        color: $text-accent;
        padding-right: 2;
        display: none;
    }
    StatusBar.-working #status-work { display: block; }
    StatusBar #status-outcome {
        width: 1fr;
        text-style: bold;
    }
    StatusBar #status-note {
        width: auto;
        max-width: 35%;
        color: $text-warning;
        padding-left: 2;
    }
    StatusBar.-answered #status-outcome { color: $text-success; }
    StatusBar.-refused #status-outcome { color: $text-error; }
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
    # Background work beside the latest outcome (`embedding 40/300`), "" when none.
    work: reactive[str] = reactive("")
    # What `mode`, `passages` and `retrieval` read as, in that order.
    mode_line: reactive[str] = reactive("loading the library")

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__(classes="-indexing")
        self._clock = clock
        self._asking_since: float | None = None
        self._ticker: Timer | None = None
        # The outcome the bar settles back on once the work under way ends.
        self._settled = ("ready", "ready")

    def compose(self) -> ComposeResult:
        yield StatusPart(id="status-mode").data_bind(text=StatusBar.mode_line)
        yield StatusPart(id="status-work").data_bind(text=StatusBar.work)
        yield StatusPart(id="status-outcome").data_bind(text=StatusBar.state)
        yield StatusPart(id="status-note").data_bind(text=StatusBar.note)

    @property
    def status_text(self) -> str:
        """The state word as shown (the name screenshots and tests read)."""
        return self.state

    def _compute_mode_line(self) -> str:
        parts = [one_line(self.mode)]
        if self.passages is not None:
            parts.append(plural(self.passages, "passage"))
        if self.retrieval:
            parts.append(one_line(self.retrieval))
        return " · ".join(parts)

    def watch_kind(self, before: str, kind: str) -> None:
        self.remove_class(f"-{before}")
        self.add_class(f"-{kind}")

    def watch_work(self, work: str) -> None:
        self.set_class(bool(work), "-working")

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
        """Work under way (indexing, reloading, embedding); a request in flight keeps
        its `asking` line, the work shows once it ends."""
        if self.kind == "asking":
            self._settled = (text, "indexing")
            return
        self._show(text, "indexing")

    def show_progress(self, verb: str, done: int, total: int, noun: str = "file") -> None:
        """`indexing 1,200/20,000 files`, `reloading 3/9 files`, `embedding 40/300 passages`."""
        self.show_work(progress_text(verb, done, total, noun))

    def show_ready(self) -> None:
        self._settle("ready", "ready")

    def settle(self) -> None:
        """The work under way ended: back to the latest outcome (or `ready`)."""
        text, kind = self._settled
        if kind == "indexing":
            text, kind = "ready", "ready"
        if self.kind != "asking":
            self._settle(text, kind)
        else:
            self._settled = (text, kind)

    def show_asking(self) -> None:
        """Count seconds from now until `show_outcome` or `show_ready`."""
        self._asking_since = self._clock()
        self._show(self._asking_text(), "asking")
        if self._ticker is None:
            self._ticker = self.set_interval(TICK_SECONDS, self._tick)
        else:
            self._ticker.resume()

    def show_outcome(self, text: str, kind: str) -> None:
        """`text` is `Outcome.describe()` (answered, refused: ..., timed out, cancelled)."""
        self._settle(text, kind)

    def _settle(self, text: str, kind: str) -> None:
        self._settled = (text, kind)
        self._show(text, kind)

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
        return f"asking… {elapsed:.1f} s (esc to stop)"

    def _tick(self) -> None:
        # Only the text changes, so only that part is drawn again while the app
        # should be waiting for keys, Esc above all.
        if self._asking_since is not None:
            self.state = self._asking_text()
