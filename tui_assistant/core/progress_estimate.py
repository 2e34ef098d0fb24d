"""How fast work goes and how long it has left, from the counts it reports, and when a
progress line is due: pure functions of the times given (the caller owns the clock).

The rate is measured over a moving window (`WINDOW_SECONDS`), so it follows the work as
it speeds up or slows down and settles once it runs steadily; the time left is what
remains at that rate.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

# The rate is counted over about this many seconds of the latest reports.
WINDOW_SECONDS = 20.0
# Shorter than this, a span says more about batches than about speed: no rate yet.
MIN_SPAN_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Estimate:
    """`done` of `total`, and, once it can be told, how many a second (`rate`) and the
    seconds left at that rate (`eta_seconds`); both None before, or once done."""

    done: int
    total: int
    rate: float | None = None
    eta_seconds: float | None = None


class RateWindow:
    """The reports `(time, done)` of one piece of work over the latest `window` seconds;
    a count lower than the last one starts it afresh (new work)."""

    def __init__(self, window: float = WINDOW_SECONDS) -> None:
        self.window = window
        self._samples: deque[tuple[float, int]] = deque()

    def add(self, now: float, done: int) -> None:
        samples = self._samples
        if samples and (done < samples[-1][1] or now < samples[-1][0]):
            samples.clear()
        samples.append((now, done))
        # Keep one report at or before the window's start, so the span covers it.
        while len(samples) > 2 and samples[1][0] <= now - self.window:
            samples.popleft()

    def rate(self) -> float | None:
        """Done a second over the window; None until it spans `MIN_SPAN_SECONDS`."""
        if len(self._samples) < 2:
            return None
        (start, first), (end, last) = self._samples[0], self._samples[-1]
        if end - start < MIN_SPAN_SECONDS:
            return None
        return (last - first) / (end - start)

    def estimate(self, done: int, total: int) -> Estimate:
        """Where the work stands: the rate over the window and the time left at it."""
        rate = self.rate()
        if done >= total or not rate:
            return Estimate(done, total)
        return Estimate(done, total, rate, (total - done) / rate)


@dataclass(frozen=True, slots=True)
class Pacing:
    """When a progress line is shown: once the work has taken `first_after` seconds,
    then at most every `every` seconds; the last step too when `show_last`."""

    first_after: float
    every: float
    show_last: bool

    def due(self, now: float, started: float, last: float | None, finished: bool) -> bool:
        """Whether a line is due at `now`; `last` is when one was last shown (None: never)."""
        if now - started < self.first_after:
            return False
        if last is None:
            return True
        if finished:
            return self.show_last
        return now - last >= self.every


# In a terminal the line is redrawn in place, so it may change often; elsewhere (a log,
# a pipe) each line is kept, so they are few.
TERMINAL_PACING = Pacing(first_after=1.0, every=0.1, show_last=True)
PIPE_PACING = Pacing(first_after=10.0, every=10.0, show_last=False)
