"""Time to the ready screen: `python -m tui_assistant` against a minimal Textual app.

    python benchmarks/startup.py [--runs 5]

Each app is started on a pseudo-terminal (80x24) and timed until the word `ready`
appears in what it draws; the app is then closed. The minimal app (Header,
Static("ready"), Footer) is measured the same way, so the ratio shows what our own
start-up adds to Textual's. Uses the bundled lessons and a fresh data folder.
Prints the median of several runs of each and the ratio (target: at most 1.5x).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINIMAL_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("ready")
        yield Footer()

Minimal().run()
"""
TIMEOUT_SECONDS = 30.0


def time_to_ready(command: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn until `ready` is drawn on the pseudo-terminal."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(follower)
    seen = b""
    try:
        while time.perf_counter() - started < TIMEOUT_SECONDS:
            readable, _, _ = select.select([leader], [], [], 0.05)
            if not readable:
                if process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            seen = (seen + chunk)[-4096:]
            if b"ready" in seen.lower():
                return time.perf_counter() - started
        raise RuntimeError(f"{command} never showed 'ready': {seen[-300:]!r}")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(leader)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data_dir:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
        env.update(PYTHONPATH=str(ROOT), TUI_ASSISTANT_DATA_DIR=data_dir, TERM="xterm-256color")
        ours_command = [sys.executable, "-m", "tui_assistant"]
        minimal_command = [sys.executable, "-c", MINIMAL_APP]
        ours: list[float] = []
        minimal: list[float] = []
        failure = None
        for _ in range(args.runs):  # interleaved so machine load hits both alike
            minimal.append(time_to_ready(minimal_command, env))
            if failure is None:
                try:
                    ours.append(time_to_ready(ours_command, env))
                except RuntimeError as error:
                    failure = error
    minimal_median = statistics.median(minimal)
    print(f"minimal Textual app: {minimal_median:.3f} s (median of {args.runs})")
    if failure is not None:
        print(f"tui-assistant did not reach ready: {failure}")
        return 1
    ours_median = statistics.median(ours)
    print(f"tui-assistant:       {ours_median:.3f} s (median of {args.runs})")
    print(f"ratio: {ours_median / minimal_median:.2f}x (target <= 1.50x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
