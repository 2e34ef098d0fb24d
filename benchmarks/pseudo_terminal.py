"""One app process on an 80x24 pseudo-terminal: write keys, wait for words to be drawn.

Shared by `startup.py` and `cancel_and_deadline.py`, which both time how soon a word
appears in what a real terminal app draws.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAIT_SECONDS = 30.0
# How often to look whether the app has exited while it draws nothing; reads themselves
# wake at once when bytes arrive.
POLL_SECONDS = 0.01
# A tail of the output is kept, so a word split across two reads is still found.
TAIL_BYTES = 8192


class Terminal:
    """`command` started in its own session on a fresh pseudo-terminal, from `ROOT`."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.command = command
        self.leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            command,
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            cwd=ROOT,
            start_new_session=True,
        )
        os.close(follower)
        self.seen = b""

    def write(self, data: bytes) -> float:
        """Write keys; the time just before they go out."""
        started = time.perf_counter()
        os.write(self.leader, data)
        return started

    def wait_for(self, word: bytes, *, ignore_case: bool = False) -> float:
        """Read what the app draws until `word` appears; the time it was read.

        Raises RuntimeError if the app exits or `WAIT_SECONDS` pass first. With
        `ignore_case`, `word` must be lower case.
        """
        self.seen = b""
        deadline = time.perf_counter() + WAIT_SECONDS
        while time.perf_counter() < deadline:
            readable, _, _ = select.select([self.leader], [], [], POLL_SECONDS)
            if not readable:
                if self.process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(self.leader, 65536)
            except OSError:
                break
            self.seen = (self.seen + chunk)[-TAIL_BYTES:]
            if word in (self.seen.lower() if ignore_case else self.seen):
                return time.perf_counter()
        raise RuntimeError(f"{self.command} never drew {word!r}; last output {self.seen[-300:]!r}")

    def close(self) -> None:
        """End the app's whole session, by force if it does not go within 5 s."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.leader)


def clean_env(**settings: str) -> dict[str, str]:
    """This environment without any stray TUI_ASSISTANT_* setting, importing this
    checkout, on a colour terminal, plus `settings`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env.update(PYTHONPATH=str(ROOT), TERM="xterm-256color", **settings)
    return env
