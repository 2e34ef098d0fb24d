"""The status bar: the latest outcome in the contract's words, the mode and lesson count.

A real widget rather than toasts, so the outcome stays on screen (and in tests and
screenshots, where notifications are off) until the next question.
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

_KIND_CLASSES = ("-ready", "-asking", "-answered", "-refused", "-timed_out", "-cancelled")


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
    """

    def __init__(self, mode_label: str, lesson_count: int, clock: Callable[[], float]) -> None:
        super().__init__(classes="-ready")
        self._clock = clock
        self._mode = f"{one_line(mode_label)} · {lesson_count} lesson" + (
            "" if lesson_count == 1 else "s"
        )
        self._asking_since: float | None = None
        self._ticker: Timer | None = None
        self.status_text = "ready"

    def compose(self) -> ComposeResult:
        yield Static(Content(self.status_text), id="status-outcome")
        yield Static(Content(self._mode), id="status-mode")

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
