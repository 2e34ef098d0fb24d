"""Real child processes for the crash and cancel tests: start them, interrupt or kill them.

The nothing-lost tests need processes that die with no chance to tidy up (`SIGKILL`),
and the cancel tests need the CLI interrupted as a user's Ctrl+C would. Either way the
child must never outlive its test, so every helper here waits for it to end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from tests.helpers import PROJECT_ROOT, cli_env

# Long enough for a loaded machine; a child still running after this is a hang.
EXIT_TIMEOUT_SECONDS = 10


def waiting_for_lock(path: Path) -> set[int]:
    """The processes blocked waiting for an exclusive `flock` of `path`, by pid, as
    Linux's /proc/locks lists them (`->` marks a waiter)."""
    inode = os.stat(path).st_ino
    waiting: set[int] = set()
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        waiter = len(fields) > 6 and fields[1:3] == ["->", "FLOCK"]
        if waiter and int(fields[6].rsplit(":", 1)[-1]) == inode:
            waiting.add(int(fields[5]))
    return waiting


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll `condition` until it holds; fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.01)


def start_python(script: str, *args: str) -> subprocess.Popen[str]:
    """Run `script` (Python source) in a fresh interpreter that imports this checkout."""
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=PROJECT_ROOT,
    )


def start_cli(
    data_dir: Path, cwd: Path, env: Mapping[str, str], *args: str
) -> subprocess.Popen[str]:
    """Start `python -m tui_assistant ARGS` as `run_cli` would, but without waiting."""
    return subprocess.Popen(
        [sys.executable, "-m", "tui_assistant", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(data_dir, env),
        cwd=cwd,
        preexec_fn=_answer_ctrl_c,
    )


def _answer_ctrl_c() -> None:
    # A test suite started in the background by a non-interactive shell inherits SIGINT
    # as ignored, and so would the CLI; a user's terminal delivers it. Restore that.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def kill(process: subprocess.Popen[str]) -> str:
    """`SIGKILL` the process and return what it printed that was not read yet."""
    process.kill()
    rest, _ = process.communicate(timeout=EXIT_TIMEOUT_SECONDS)
    return rest


def interrupt(process: subprocess.Popen[str]) -> tuple[str, str]:
    """Send `SIGINT` (Ctrl+C) and return the stdout and stderr of the exit that follows."""
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=EXIT_TIMEOUT_SECONDS)


@contextmanager
def reaped(process: subprocess.Popen[str]) -> Iterator[subprocess.Popen[str]]:
    """Hand back `process`, and kill it on the way out if it is still running, so a
    failing test leaves nothing behind."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
