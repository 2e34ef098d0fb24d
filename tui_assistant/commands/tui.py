"""The default command: the full-screen app."""

from __future__ import annotations

import argparse

from tui_assistant.commands.common import settings_of


def run(args: argparse.Namespace) -> int:
    # Settings first: a configuration error is reported before Textual is imported.
    settings = settings_of(args)
    # Textual loads only for the TUI: the headless commands start without it.
    from tui_assistant.ui.app import run_app

    # The app draws its screen at once and loads the library itself, showing progress.
    return run_app(settings)
