"""Time to the ready screen: `python -m tui_assistant` against a minimal Textual app.

    python -m benchmarks.startup [--runs 5]

Each app is started on a pseudo-terminal (80x24) and timed until the word `ready`
appears in what it draws; the app is then closed. The minimal app (Header,
Static("ready"), Footer) first reads one pydantic-settings class, as every app with
settings does, and is measured the same way: the floor any settings-reading Textual
app pays, so the ratio shows what our own start-up adds to it. Uses the bundled
lessons and a fresh data folder. Prints the median of several runs of each and the
ratio.

Our package is byte-compiled first, as `pip install` does and as Textual already is:
with PYTHONDONTWRITEBYTECODE set (common in development shells and containers) it
would otherwise be compiled from source on every start, about 20 ms the user of an
installed app never pays.
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import sys
import tempfile
import time

from benchmarks.pseudo_terminal import ROOT, Terminal, clean_env

MINIMAL_APP = """
from pydantic_settings import BaseSettings, SettingsConfigDict
from textual.app import App
from textual.widgets import Footer, Header, Static

class MinimalSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MINIMAL_", env_file=".env")
    name: str = "minimal"

MinimalSettings()

class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("ready")
        yield Footer()

Minimal().run()
"""


def time_to_ready(command: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn until `ready` is drawn on the pseudo-terminal."""
    started = time.perf_counter()
    terminal = Terminal(command, env)
    try:
        return terminal.wait_for(b"ready", ignore_case=True) - started
    finally:
        terminal.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    compileall.compile_dir(ROOT / "tui_assistant", quiet=1)
    with tempfile.TemporaryDirectory() as data_dir:
        env = clean_env(TUI_ASSISTANT_DATA_DIR=data_dir)
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
    print(f"minimal Textual app with settings: {minimal_median:.3f} s (median of {args.runs})")
    if failure is not None:
        print(f"tui-assistant did not reach ready: {failure}")
        return 1
    ours_median = statistics.median(ours)
    print(f"tui-assistant:                     {ours_median:.3f} s (median of {args.runs})")
    print(f"ratio: {ours_median / minimal_median:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
