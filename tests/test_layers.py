"""The core is the rules alone: no module under `core/` reaches the disk, the network or
the screen, not even for a type."""

from __future__ import annotations

import ast
from pathlib import Path

import tui_assistant

CORE = Path(tui_assistant.__file__).parent / "core"
OUTSIDE = ("store", "providers", "ui", "mcp", "wiring", "cli", "output", "settings")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_core_module_imports_the_shell() -> None:
    modules = sorted(CORE.rglob("*.py"))
    assert len(modules) > 20
    crossing = {
        f"{path.relative_to(CORE)}: {name}"
        for path in modules
        for name in imported_modules(path)
        if any(name.startswith(f"tui_assistant.{part}") for part in OUTSIDE)
    }
    assert crossing == set()


def test_the_check_finds_a_crossing(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tui_assistant.store.vectors import stored_vectors\n"
    )
    assert "tui_assistant.store.vectors" in imported_modules(module)
