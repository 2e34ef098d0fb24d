"""The TUI's stored session, opened from settings: the conversation history (with its
export and copy) and the small saved state (the theme).

The screen stands above the store and reaches it only through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tui_assistant.core.record import Turn
from tui_assistant.settings import Settings
from tui_assistant.store.app_state import AppState
from tui_assistant.store.history import (
    HistoryStore,
    LoadedHistory,
    export_conversation,
    history_path,
    latest_answer,
)
from tui_assistant.wiring.folders import library_folders

__all__ = [
    "AppState",
    "HistoryStore",
    "LoadedHistory",
    "export",
    "latest_answer",
    "open_app_state",
    "open_history",
]


def open_history(settings: Settings) -> HistoryStore:
    """The conversation history of the libraries the settings name."""
    return HistoryStore(history_path(settings.data_dir, library_folders(settings)))


def open_app_state(settings: Settings) -> AppState:
    return AppState(settings.data_dir)


def export(settings: Settings, turns: Sequence[Turn]) -> Path:
    """The conversation written as Markdown into the data folder's `exports/` (private,
    0600); the file written. Raises OSError."""
    return export_conversation(turns, settings.data_dir / "exports")
