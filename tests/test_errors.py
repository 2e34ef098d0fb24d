"""One base class for every error the app raises on purpose, with a sub-base for what
stops a command (exit 2)."""

from __future__ import annotations

import ast
import builtins
import inspect
from pathlib import Path

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


def exception_names(trees: dict[str, ast.Module]) -> set[str]:
    """The names of the classes that derive from an exception: Python's own, those of
    `errors.py`, and every class of the package standing on one of them."""
    names = {
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    }
    bases_of = {
        node.name: {_base_name(base) for base in node.bases}
        for tree in trees.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    grown = True
    while grown:
        found = {name for name, bases in bases_of.items() if bases & names}
        grown = not found <= names
        names |= found
    return names


def _base_name(base: ast.expr) -> str:
    """`ValueError` for `ValueError`, `HTTPError` for `httpx.HTTPError`."""
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def public_errors_outside_errors_py(root: Path) -> list[str]:
    """`path: Name` for each public exception class defined outside `errors.py`."""
    trees = {
        path.relative_to(root).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(root.rglob("*.py"))
    }
    names = exception_names(trees)
    return [
        f"{path}: {node.name}"
        for path, tree in trees.items()
        if path != "errors.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and not node.name.startswith("_")
        and {_base_name(base) for base in node.bases} & names
    ]


def test_every_public_error_is_defined_in_errors_py() -> None:
    assert public_errors_outside_errors_py(Path(errors.__file__).parent) == []


def test_an_error_defined_elsewhere_is_found_through_the_class_it_stands_on(
    tmp_path: Path,
) -> None:
    (tmp_path / "errors.py").write_text("class OwnError(Exception):\n    pass\n")
    (tmp_path / "parsing.py").write_text(
        "import errors\n\n"
        "class Unreadable(errors.OwnError):\n    pass\n\n"
        "class WorseStill(Unreadable):\n    pass\n\n"
        "class _Internal(ValueError):\n    pass\n\n"
        "class Plain:\n    pass\n"
    )

    assert public_errors_outside_errors_py(tmp_path) == [
        "parsing.py: Unreadable",
        "parsing.py: WorseStill",
    ]
