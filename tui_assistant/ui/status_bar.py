"""The status bar: the latest outcome in the contract's words, a note, the mode and
passage count.

A real widget rather than toasts, so the outcome stays on screen (and in tests and
screenshots, where notifications are off) until the next question. Until the library
is loaded the outcome place shows the indexing progress instead. The note beside it
says what became of a key that is not an outcome (reload, open in editor) without
hiding the latest outcome.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from tui_assistant.ui.literal import one_line

# How often the elapsed seconds of a request in flight are redrawn.
TICK_SECONDS = 0.1

_KIND_CLASSES = (
    "-indexing",
    "-ready",
    "-asking",
    "-answered",
    "-refused",
    "-timed_out",
    "-cancelled",
)


def plural(count: int, noun: str) -> str:
    """`1 passage`, `1,234 passages`."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def progress_text(verb: str, done: int, total: int) -> str:
    """`indexing 1,200/20,000 files`."""
    return f"{verb} {done:,}/{total:,} file{'' if total == 1 else 's'}"


class StatusBar(Horizontal):
    DEFAULT_CSS = """
    StatusBar {
        height: auto;
        background: $panel;
        padding: 0 1;
    }
    StatusBar #status-outcome {
        width: 1fr;
        height: auto;
        text-style: bold;
    }
    StatusBar #status-note {
        width: auto;
        max-width: 50%;
        height: 1;
        color: $text-warning;
        padding-left: 2;
    }
    StatusBar #status-mode {
        width: auto;
        max-width: 50%;
        height: 1;
        color: $text-muted;
        padding-left: 2;
    }
    StatusBar.-answered #status-outcome { color: $text-success; }
    StatusBar.-refused #status-outcome { color: $text-error; }
    StatusBar.-timed_out #status-outcome { color: $text-warning; }
    StatusBar.-cancelled #status-outcome { color: $text-warning; }
    StatusBar.-asking #status-outcome { color: $text-accent; }
    StatusBar.-indexing #status-outcome { color: $text-accent; }
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__(classes="-indexing")
        self._clock = clock
        self._mode = "loading the library"
        self._asking_since: float | None = None
        self._ticker: Timer | None = None
        self.status_text = "indexing…"
        self.note_text = ""

    def compose(self) -> ComposeResult:
        yield Static(Content(self.status_text), id="status-outcome")
        yield Static(Content(self.note_text), id="status-note")
        yield Static(Content(self._mode), id="status-mode")

    def show_library(self, mode_label: str, passage_count: int) -> None:
        """The mode and the passage count, once the library is loaded (and after a reload)."""
        self._mode = f"{one_line(mode_label)} · {plural(passage_count, 'passage')}"
        if self.is_mounted:
            self.query_one("#status-mode", Static).update(Content(self._mode))

    def show_progress(self, done: int, total: int) -> None:
        """Indexing before the library is first loaded: `indexing 1,200/20,000 files`."""
        self._show(progress_text("indexing", done, total), "indexing")

    def show_note(self, text: str) -> None:
        """A one-line note beside the outcome (`""` clears it)."""
        self.note_text = one_line(text)
        if self.is_mounted:
            self.query_one("#status-note", Static).update(Content(self.note_text))

    def show_ready(self) -> None:
        self._show("ready", "ready")

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
        self._show(one_line(text), kind)

    def _show(self, text: str, kind: str) -> None:
        if kind != "asking":
            self._asking_since = None
            if self._ticker is not None:
                self._ticker.pause()
        self.status_text = text
        self.remove_class(*_KIND_CLASSES)
        self.add_class(f"-{kind}")
        if self.is_mounted:
            self.query_one("#status-outcome", Static).update(Content(text))

    def _asking_text(self) -> str:
        since = self._asking_since
        elapsed = 0.0 if since is None else max(0.0, self._clock() - since)
        return f"asking… {elapsed:.1f} s (esc to stop)"

    def _tick(self) -> None:
        # Only the text changes: re-applying the classes would restyle the bar ten
        # times a second while the app should be waiting for keys, Esc above all.
        if self._asking_since is not None and self.is_mounted:
            self.status_text = self._asking_text()
            self.query_one("#status-outcome", Static).update(Content(self.status_text))
