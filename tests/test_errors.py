"""One base class for every error the app raises on purpose, with sub-bases for what
stops a command (exit 2) and for the index store."""

from __future__ import annotations

import inspect

from tui_assistant import errors
from tui_assistant.errors import (
    ConfigError,
    LibraryError,
    StartupError,
    StoreBusy,
    StoreError,
    StoreProblem,
    TuiAssistantError,
    UsageError,
)


def test_every_error_of_the_app_is_a_tui_assistant_error() -> None:
    classes = [
        value
        for value in vars(errors).values()
        if inspect.isclass(value) and value.__module__ == errors.__name__
    ]

    assert len(classes) >= 10
    assert all(issubclass(error, TuiAssistantError) for error in classes)


def test_what_stops_a_command_and_what_fails_in_the_store_share_a_base() -> None:
    assert all(issubclass(error, StartupError) for error in (ConfigError, UsageError, LibraryError))
    assert all(issubclass(error, StoreError) for error in (StoreProblem, StoreBusy))
    assert not issubclass(StoreBusy, StartupError)
