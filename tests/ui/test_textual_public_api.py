"""Textual is a range (`textual>=8.2,<9`): the app uses its public API only, so a minor
release cannot break it. No import from a private Textual module (`textual._x`,
`textual.widgets._footer`), and no private attribute of Textual's (`._bindings_ready`):
a `_name` that Textual defines and this project does not."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import textual

from tests.helpers import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "tui_assistant"
# Private to Textual whatever this project names its own.
KNOWN_PRIVATE = {"_bindings_ready", "_nodes", "_footer", "_compose", "_refresh_layout"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(tree: ast.AST) -> Iterator[str]:
    """Each import from a private Textual module, or of a private name from Textual."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "textual" and any(map(_private, parts)):
                    yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if parts[0] != "textual":
                continue
            if any(map(_private, parts)):
                yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names if _private(a.name))


def defined_private_names(tree: ast.AST) -> set[str]:
    """The `_names` a module defines as attributes, methods or class members."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                for statement in node.body:
                    targets = (
                        statement.targets
                        if isinstance(statement, ast.Assign)
                        else [statement.target]
                        if isinstance(statement, ast.AnnAssign)
                        else []
                    )
                    names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return {name for name in names if _private(name)}


def private_attributes(tree: ast.AST, private: set[str]) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private:
            yield node.attr


@cache  # both checks read the package
def parsed(root: Path) -> dict[Path, ast.AST]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in root.rglob("*.py")}


def test_no_module_imports_from_a_private_textual_module() -> None:
    found = [
        f"{path.relative_to(PROJECT_ROOT)}: {name}"
        for path, tree in parsed(PACKAGE).items()
        for name in private_imports(tree)
    ]
    assert not found, found


def test_no_module_uses_a_private_attribute_of_textual() -> None:
    ours = parsed(PACKAGE)
    own = set().union(*map(defined_private_names, ours.values()))
    textuals = set().union(
        *map(defined_private_names, parsed(Path(textual.__file__).parent).values())
    )
    private = (textuals - own) | KNOWN_PRIVATE
    found = [
        f"{path.relative_to(PROJECT_ROOT)}: .{name}"
        for path, tree in ours.items()
        for name in private_attributes(tree, private)
    ]
    assert not found, found


def test_the_checks_catch_what_the_footer_once_did() -> None:
    source = ast.parse(
        "from textual.widgets._footer import FooterKey\n"
        "import textual._context\n"
        "from textual import _compose\n"
        "from textual.widgets import Footer\n"
        "class F(Footer):\n"
        "    def compose(self):\n"
        "        if not self._bindings_ready:\n"
        "            return\n"
        "        self._width = 0\n"
    )
    assert list(private_imports(source)) == [
        "textual.widgets._footer",
        "textual._context",
        "textual._compose",
    ]
    assert list(private_attributes(source, KNOWN_PRIVATE)) == ["_bindings_ready"]
    assert defined_private_names(source) == {"_width"}
