"""Progress people can plan with: the rate over a moving window, the time left in whole
units, and when a line is due, all from the times given (a fake clock, no sleeping)."""

from __future__ import annotations

import pytest

from tui_assistant.core.progress_estimate import (
    PIPE_PACING,
    TERMINAL_PACING,
    RateWindow,
)
from tui_assistant.core.progress_text import progress_words, time_left, words_only


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0.2, "about 1 s left"),
        (40.4, "about 40 s left"),
        (59.6, "about 1 min left"),
        (86, "about 1 min 26 s left"),
        (120, "about 2 min left"),
        (3599, "about 59 min 59 s left"),
        (7500, "about 2 h 5 min left"),
        (7210, "about 2 h left"),
    ],
)
def test_the_time_left_is_said_in_whole_rounded_units(seconds: float, words: str) -> None:
    assert time_left(seconds) == words


def test_a_progress_line_has_the_count_the_rate_and_the_time_left() -> None:
    line = progress_words("embedding", 1946, 4614, "passage", rate=31.0, eta_seconds=86.06)
    assert line == "embedding 1,946/4,614 passages, 31/s, about 1 min 26 s left"
    assert progress_words("reading", 1, 1, "file") == "reading 1/1 file"
    # Before a rate is known, and once done, the count alone.
    assert progress_words("embedding", 0, 4614, "passage") == "embedding 0/4,614 passages"
    done = progress_words("embedding", 3, 3, "passage", rate=5.0, eta_seconds=0.0)
    assert done == "embedding 3/3 passages"
    assert progress_words("reading", 2, 10, "file", rate=2.5) == "reading 2/10 files, 2.5/s"


def test_words_only_says_how_far_the_vectors_are() -> None:
    assert words_only(1946, 4614) == "words only while embedding (1,946/4,614)"


def test_the_rate_settles_on_the_latest_reports_not_the_whole_run() -> None:
    window = RateWindow(window=20.0)
    # A slow start (loading a model): 10 passages in the first 10 seconds...
    for second in range(11):
        window.add(float(second), second)
    assert window.rate() == pytest.approx(1.0)
    # ...then 30 a second for a minute: the rate follows, the slow start forgotten.
    done = 10
    for second in range(11, 71):
        done += 30
        window.add(float(second), done)
    assert window.rate() == pytest.approx(30.0)
    estimate = window.estimate(done, done + 2580)
    assert estimate.rate == pytest.approx(30.0)
    assert estimate.eta_seconds == pytest.approx(86.0)


def test_no_rate_before_a_second_of_reports_nor_once_done() -> None:
    window = RateWindow()
    window.add(100.0, 0)
    assert window.estimate(0, 50).rate is None
    window.add(100.5, 20)  # half a second: a batch, not a speed
    assert window.rate() is None
    window.add(102.0, 40)
    assert window.rate() == pytest.approx(20.0)
    finished = window.estimate(50, 50)
    assert (finished.rate, finished.eta_seconds) == (None, None)


def test_a_count_that_goes_back_starts_the_window_again() -> None:
    window = RateWindow()
    window.add(0.0, 0)
    window.add(5.0, 500)
    window.add(6.0, 3)  # new work: the old reports say nothing of it
    assert window.rate() is None


def test_a_pipe_gets_a_line_every_ten_seconds_at_most_a_terminal_often() -> None:
    started = 0.0
    # Quick work prints nothing anywhere.
    assert not PIPE_PACING.due(9.9, started, None, finished=False)
    assert not TERMINAL_PACING.due(0.9, started, None, finished=True)
    assert PIPE_PACING.due(10.0, started, None, finished=False)
    assert not PIPE_PACING.due(19.9, started, 10.0, finished=False)
    assert PIPE_PACING.due(20.0, started, 10.0, finished=False)
    # The last step is not one more line on a pipe; a terminal's line shows it.
    assert not PIPE_PACING.due(25.0, started, 20.0, finished=True)
    assert TERMINAL_PACING.due(1.05, started, 1.0, finished=True)
    assert not TERMINAL_PACING.due(1.05, started, 1.0, finished=False)
    assert TERMINAL_PACING.due(1.1, started, 1.0, finished=False)
