"""The real app on a pseudo-terminal, where Textual's terminal driver reads the keys.

`App.run_test()` uses Textual's headless driver, so only a real terminal shows how
keys arrive as bytes: a classic terminal sends Esc as a lone ESC byte, the byte that
also starts every escape sequence. The app must read that byte as Esc (and cancel a
request), yet still read an arrow key's sequence as the arrow. How soon Esc takes
effect is measured in `benchmarks/cancel_and_deadline.py`, not here.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from benchmarks.pseudo_terminal import Terminal
from tests.helpers import BUNDLED_LESSONS, cli_env
from tests.helpers.fake_openai_server import FakeOpenAIServer, Hang
from tui_assistant.core.record import Turn
from tui_assistant.store.history import HistoryStore, history_path

QUESTION = "how much salt goes in pasta water"
LONE_ESCAPE = b"\x1b"
UP_ARROW = b"\x1b[A"


@contextmanager
def running_app(data_dir: Path, **settings: str) -> Iterator[Terminal]:
    environment = cli_env(data_dir, {"TUI_ASSISTANT_LIBRARY": str(BUNDLED_LESSONS)})
    environment.update(TERM="xterm-256color", **settings)
    terminal = Terminal([sys.executable, "-m", "tui_assistant"], environment)
    try:
        terminal.wait_for(b"ready")
        yield terminal
    finally:
        terminal.close()


@pytest.fixture(scope="module")
def hanging_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(Hang()) as server:
        yield server


def test_a_lone_escape_byte_cancels_the_request(
    tmp_path: Path, hanging_server: FakeOpenAIServer
) -> None:
    with running_app(
        tmp_path,
        TUI_ASSISTANT_PROVIDER="openai",
        TUI_ASSISTANT_BASE_URL=hanging_server.base_url,
        TUI_ASSISTANT_API_KEY="test-key",
    ) as terminal:
        before = hanging_server.request_count
        terminal.write(QUESTION.encode() + b"\r")
        terminal.wait_for(b"asking")
        assert hanging_server.wait_for_requests(before + 1, timeout=10)

        terminal.write(LONE_ESCAPE)
        terminal.wait_for(b"cancelled")
        # The record is written just after the screen shows the outcome.
        turns = wait_for_turns(tmp_path, 1)

    assert [(turn.question, turn.record.outcome) for turn in turns] == [(QUESTION, "cancelled")]


def test_an_arrow_key_sequence_is_still_the_arrow(tmp_path: Path) -> None:
    """Up recalls the last question; read as Esc then `[A`, it would ask `[A`."""
    with running_app(tmp_path) as terminal:
        terminal.write(QUESTION.encode() + b"\r")
        terminal.wait_for(b"answered")
        terminal.write(UP_ARROW)
        terminal.wait_for(QUESTION.encode())  # the recalled question, drawn in the box
        terminal.write(b"\r")
        turns = wait_for_turns(tmp_path, 2)

    assert [(turn.question, turn.record.outcome) for turn in turns] == [
        (QUESTION, "answered"),
        (QUESTION, "answered"),
    ]


def wait_for_turns(data_dir: Path, count: int, timeout: float = 10.0) -> list[Turn]:
    deadline = time.monotonic() + timeout
    while True:
        turns = HistoryStore(history_path(data_dir, BUNDLED_LESSONS)).load().turns
        if len(turns) >= count or time.monotonic() > deadline:
            return turns
        time.sleep(0.05)


def test_the_tui_command_on_a_missing_folder_exits_2_with_one_line(tmp_path: Path) -> None:
    """On a real pseudo-terminal: the app starts, its load fails, it exits 2 and says why."""
    environment = cli_env(tmp_path / "data")
    environment.update(TERM="xterm-256color")
    missing = tmp_path / "missing"
    terminal = Terminal(
        [sys.executable, "-m", "tui_assistant", "--library", str(missing)], environment
    )
    try:
        terminal.wait_for(b"does not exist")
        assert terminal.process.wait(timeout=10) == 2
        shown = terminal.seen.decode(errors="replace")
        assert f"tui-assistant: error: library folder {missing} does not exist" in shown
        assert "Traceback" not in shown
    finally:
        terminal.close()
