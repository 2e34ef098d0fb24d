"""One base class for every error the app raises on purpose, with a sub-base for what
stops a command (exit 2)."""

from __future__ import annotations

import inspect

import pytest
from pydantic import BaseModel, Field, ValidationError

from tui_assistant import errors
from tui_assistant.core.display_text import validation_problems
from tui_assistant.errors import (
    ConfigError,
    LibraryError,
    StartupError,
    StoreProblem,
    TuiAssistantError,
    UsageError,
    os_error_words,
)


def test_every_error_of_the_app_is_a_tui_assistant_error() -> None:
    classes = [
        value
        for value in vars(errors).values()
        if inspect.isclass(value) and value.__module__ == errors.__name__
    ]

    assert len(classes) >= 9
    assert all(issubclass(error, TuiAssistantError) for error in classes)


def test_what_stops_a_command_shares_a_base_that_a_damaged_store_does_not() -> None:
    assert all(issubclass(error, StartupError) for error in (ConfigError, UsageError, LibraryError))
    assert not issubclass(StoreProblem, StartupError)


class Arguments(BaseModel):
    question: str = Field(max_length=5)
    limit: int = Field(ge=1, le=10)


def test_argument_problems_are_one_line_naming_each_argument_without_its_value() -> None:
    with pytest.raises(ValidationError) as raised:
        Arguments.model_validate({"question": "x" * 4001, "limit": 11})
    problem = validation_problems(raised.value)
    assert "\n" not in problem
    assert problem.startswith("question: ")
    assert "; limit: " in problem
    assert "xxxxxx" not in problem


def test_an_os_error_is_said_in_the_systems_words_and_never_as_none() -> None:
    assert os_error_words(PermissionError(13, "Permission denied")) == "Permission denied"
    # Raised with a message alone, `strerror` is None: the message is said instead.
    assert os_error_words(OSError("cannot open\nthe folder")) == "cannot open the folder"
    assert os_error_words(OSError()) == "OSError"
