"""Cancel latency and deadline accuracy of the real app, on a pseudo-terminal.

    python -m benchmarks.cancel_and_deadline [--runs 5] [--deadline 2] [--escdelay MS]

Starts `python -m tui_assistant` (bundled lessons, model mode) on an 80x24
pseudo-terminal against `tests/helpers/fake_openai_server.py` with `Hang()`: the request is
read and never answered. Then, per run, with a fresh app:

- cancel: ask a question, wait until `asking` is drawn and the server holds the
  request, write Esc, and time until `cancelled` is drawn;
- deadline: with TUI_ASSISTANT_DEADLINE_SECONDS set, ask and time from the enter key
  until `timed out` is drawn; the overshoot is that time minus the deadline.

A classic terminal sends Esc as a lone ESC byte, the same byte that starts every
escape sequence, so the key is only known once no more bytes follow within the
escape delay. The app uses Textual's own terminal driver: its delay is `ESCDELAY`
(milliseconds, as in curses; Textual's default is 100), and its input thread looks
for the end of the delay at a 0.1 s poll, so a lone ESC byte takes between about 0.1
and 0.2 s to become the Esc key. `--escdelay` sets `ESCDELAY` for the app.
Terminals speaking the kitty keyboard protocol (which Textual turns on) send Esc as
the unambiguous `CSI 27 u`, reported at once. Cancel is measured both ways: the
second shows the app's own reaction. Esc is written as soon as the server holds the
request, the worst moment. Prints medians over the runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile

from benchmarks.pseudo_terminal import Terminal, clean_env
from tests.helpers.fake_openai_server import FakeOpenAIServer, Hang

QUESTION = "how much salt goes in pasta water"
APP = [sys.executable, "-m", "tui_assistant"]


def app_env(server: FakeOpenAIServer, data_dir: str, **extra: str) -> dict[str, str]:
    return clean_env(
        TUI_ASSISTANT_DATA_DIR=data_dir,
        TUI_ASSISTANT_PROVIDER="openai",
        TUI_ASSISTANT_BASE_URL=server.base_url,
        TUI_ASSISTANT_API_KEY="benchmark-key",
        **extra,
    )


LONE_ESCAPE = b"\x1b"
KITTY_ESCAPE = b"\x1b[27u"


def cancel_latency(server: FakeOpenAIServer, env: dict[str, str], escape: bytes) -> float:
    """Seconds from writing Esc (as `escape`) to `cancelled` being drawn."""
    terminal = Terminal(APP, env)
    try:
        terminal.wait_for(b"ready")
        before = server.request_count
        terminal.write(QUESTION.encode() + b"\r")
        terminal.wait_for(b"asking")
        if not server.wait_for_requests(before + 1, timeout=10):
            raise RuntimeError("the request never reached the server")
        pressed = terminal.write(escape)
        return terminal.wait_for(b"cancelled") - pressed
    finally:
        terminal.close()


def deadline_overshoot(env: dict[str, str], deadline: float) -> float:
    """Seconds past the deadline at which `timed out` is drawn (from the enter key)."""
    terminal = Terminal(APP, env)
    try:
        terminal.wait_for(b"ready")
        asked = terminal.write(QUESTION.encode() + b"\r")
        return terminal.wait_for(b"timed out") - asked - deadline
    finally:
        terminal.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deadline", type=float, default=2.0, help="seconds")
    parser.add_argument("--escdelay", type=int, help="ESCDELAY for the app, in milliseconds")
    args = parser.parse_args(argv)
    escdelay = {} if args.escdelay is None else {"ESCDELAY": str(args.escdelay)}
    cancels_legacy: list[float] = []
    cancels_kitty: list[float] = []
    overshoots: list[float] = []
    with FakeOpenAIServer(Hang()) as server, tempfile.TemporaryDirectory() as scratch:
        # A fresh data folder per app: a stored earlier turn would show its
        # `cancelled` or `timed out` at start-up and end the wait too soon.
        folders = (tempfile.mkdtemp(dir=scratch) for _ in range(3 * args.runs))
        for _ in range(args.runs):
            legacy_env = app_env(server, next(folders), **escdelay)
            legacy = cancel_latency(server, legacy_env, LONE_ESCAPE)
            cancels_legacy.append(legacy)
            kitty = cancel_latency(server, app_env(server, next(folders)), KITTY_ESCAPE)
            cancels_kitty.append(kitty)
            timed = app_env(
                server, next(folders), TUI_ASSISTANT_DEADLINE_SECONDS=f"{args.deadline:g}"
            )
            overshoots.append(deadline_overshoot(timed, args.deadline))

    def show(values: list[float]) -> str:
        runs = ", ".join(f"{value:.3f}" for value in values)
        return f"median {statistics.median(values):.3f} s (runs: {runs})"

    print(f"cancel, kitty-protocol Esc (CSI 27 u) -> 'cancelled' drawn: {show(cancels_kitty)}")
    print(f"cancel, lone ESC byte (classic terminal) -> 'cancelled':   {show(cancels_legacy)}")
    print(f"  (ESCDELAY {args.escdelay or 'unset: Textual uses 100'} ms)")
    print(f"deadline {args.deadline:g} s, enter -> 'timed out', overshoot: {show(overshoots)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
