"""The layers of the package as a table: which family may import which. Every import
counts, those made only for type checking too, so a forbidden one fails here.

The core is the rules alone: it reaches neither the disk, the network nor the screen.
The store and the providers stand side by side on the core; wiring puts them together
from the settings; the surfaces (ui, mcp, the commands) stand on wiring and never on the
store or the providers themselves. The registry (`fetch`: package indexes, archives,
the fetched libraries in the data folder) stands beside the providers; settings reads
it for one thing only, a fetched library's folder when `--library` names a package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tui_assistant

PACKAGE = Path(tui_assistant.__file__).parent

# `package` is `tui_assistant/__init__.py` (the version and PROG).
BASE = {"package", "errors", "compat", "locations", "urls"}
LAYERS: dict[str, set[str]] = {
    "package": set(),
    "errors": set(),
    "compat": set(),
    "locations": set(),
    "urls": set(),
    "core": {"errors", "compat"},
    "settings": BASE | {"core", "registry"},
    "registry": BASE | {"core", "store"},
    "store": BASE | {"core"},
    "providers": BASE | {"core", "settings"},
    "wiring": BASE | {"core", "settings", "store", "providers", "registry"},
    "output": BASE | {"core", "wiring"},
    "mcp": BASE | {"core", "settings", "wiring"},
    "ui": BASE | {"core", "settings", "wiring"},
    # `mcp` and the TUI are started by their commands, imported only when they run.
    "commands": BASE | {"core", "settings", "wiring", "output", "mcp", "ui", "registry"},
    "cli": BASE | {"core", "settings", "commands"},
    "__main__": {"cli"},
}


def family(relative: Path) -> str:
    first = relative.parts[0].removesuffix(".py")
    return "package" if first == "__init__" else first


def imported_families(path: Path) -> set[str]:
    """The families of the package `path` imports (every import statement, anywhere)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "tui_assistant":
                names += [f"tui_assistant.{alias.name}" for alias in node.names]
            else:
                names.append(node.module)
    found = set()
    for name in names:
        parts = name.split(".")
        if parts[0] != "tui_assistant":
            continue
        inner = parts[1] if len(parts) > 1 else "package"
        found.add(inner if inner in LAYERS else "package")
    return found


def crossings(root: Path) -> set[str]:
    found = set()
    for path in sorted(root.rglob("*.py")):
        own = family(path.relative_to(root))
        allowed = LAYERS[own] | {own}
        for imported in imported_families(path) - allowed:
            found.add(f"{path.relative_to(root)} imports {imported}")
    return found


def test_every_module_belongs_to_a_family_of_the_table() -> None:
    families = {family(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")}
    assert families == set(LAYERS)


def test_no_module_imports_a_family_its_layer_may_not() -> None:
    assert len(list(PACKAGE.rglob("*.py"))) > 100
    assert crossings(PACKAGE) == set()


def test_a_type_only_import_across_the_layers_is_a_crossing(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "sample.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tui_assistant.store.vectors import stored_vectors\n"
    )
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "sample.py").write_text("import tui_assistant.store.history\n")
    assert crossings(tmp_path) == {"core/sample.py imports store", "ui/sample.py imports store"}


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["tui_assistant", *parts])


def module_imports(root: Path) -> dict[str, set[str]]:
    """Per module of the package, the package's modules it imports (every import
    statement, type-only ones too; `from package import module` names the module)."""
    modules = {module_name(root, path): path for path in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
        graph[name] = {target for target in found if target in modules and target != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that import each other, directly or round a circle
    (strongly connected components of more than one module)."""
    order: list[str] = []
    seen: set[str] = set()
    for start in graph:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(sorted(graph[start])))]
        while stack:
            node, targets = stack[-1]
            target = next(targets, None)
            if target is None:
                stack.pop()
                order.append(node)
            elif target not in seen:
                seen.add(target)
                stack.append((target, iter(sorted(graph[target]))))
    reverse: dict[str, set[str]] = {name: set() for name in graph}
    for name, targets in graph.items():
        for target in targets:
            reverse[target].add(name)
    groups: list[set[str]] = []
    placed: set[str] = set()
    for start in reversed(order):
        if start in placed:
            continue
        group, pending = set(), [start]
        while pending:
            node = pending.pop()
            if node in placed:
                continue
            placed.add(node)
            group.add(node)
            pending += reverse[node] - placed
        if len(group) > 1:
            groups.append(group)
    return groups


def test_no_modules_import_each_other_round_a_circle() -> None:
    graph = module_imports(PACKAGE)
    assert circles(graph) == []


def test_a_type_only_circle_is_found(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "ranked.py").write_text("from tui_assistant.core import fitted\n")
    (tmp_path / "core" / "fitted.py").write_text("import tui_assistant.core.sections\n")
    (tmp_path / "core" / "sections.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tui_assistant.core.ranked import Ranking\n"
    )
    (tmp_path / "core" / "types.py").write_text("from tui_assistant.core.ranked import x\n")
    assert circles(module_imports(tmp_path)) == [
        {"tui_assistant.core.ranked", "tui_assistant.core.fitted", "tui_assistant.core.sections"}
    ]


# A module that one reading cannot hold has more than one job.
MOST_MODULE_LINES = 400


def test_no_module_is_over_the_line_limit() -> None:
    long = {
        str(path.relative_to(PACKAGE)): count
        for path in PACKAGE.rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MOST_MODULE_LINES
    }
    assert long == {}


def test_an_os_errors_words_are_made_in_one_place() -> None:
    # `errors.os_error_words`: the bare `strerror` of an error without one is None.
    users = {
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "strerror" in path.read_text(encoding="utf-8")
    }
    assert users == {"errors.py"}
