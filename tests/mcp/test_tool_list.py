"""`TOOLS`, the one list of the MCP server's tools: every tool module is in it, the
server registers exactly it, the README names exactly it, and it loads without the MCP
SDK (which only the server needs)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

import tui_assistant.mcp.tools
from tests.helpers import BUNDLED_LESSONS, PROJECT_ROOT
from tests.test_layers import PACKAGE, module_imports
from tui_assistant.mcp.tools import TOOLS, tool_names
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import open_context
from tui_assistant.wiring.library_tools import LibraryTools


def tool_functions_defined() -> dict[str, object]:
    """Every function of a module under `mcp/tools/` taking `LibraryTools` first: a
    tool, by the package's own rule."""
    found: dict[str, object] = {}
    for module_info in pkgutil.iter_modules(tui_assistant.mcp.tools.__path__):
        module = importlib.import_module(f"tui_assistant.mcp.tools.{module_info.name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ != module.__name__:
                continue
            first = next(iter(inspect.signature(function).parameters), None)
            hints = typing.get_type_hints(function)
            if first is not None and hints.get(first) is LibraryTools:
                found[f"{module_info.name}.{name}"] = function
    return found


def test_every_tool_a_module_defines_is_in_the_list_and_named_after_its_module() -> None:
    listed = {f"{spec.name}.{spec.name}": spec.function for spec in TOOLS}
    assert tool_functions_defined() == listed
    modules = {info.name for info in pkgutil.iter_modules(tui_assistant.mcp.tools.__path__)}
    assert modules == set(tool_names())


def test_each_tool_says_what_it_does_and_returns_a_model() -> None:
    assert len(set(tool_names())) == len(TOOLS)
    for spec in TOOLS:
        assert spec.summary.endswith(".") and len(spec.summary) <= 90, spec.name
        assert spec.description.startswith(spec.summary)
        assert "\n" not in spec.description
        assert issubclass(spec.result, BaseModel), spec.name


def test_the_list_loads_without_the_mcp_sdk() -> None:
    blocked = "import sys\nsys.modules['mcp'] = sys.modules['mcp_types'] = None\n"
    loaded = (
        "from tui_assistant.mcp.tools import tool_names\n"
        "print(' '.join(tool_names()))\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('mcp', 'mcp_types')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked + loaded],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    names, sdk_modules = result.stdout.splitlines()
    assert names.split() == list(tool_names())
    assert sdk_modules == "['mcp', 'mcp_types']"  # only the blocked entries themselves


async def test_the_server_registers_exactly_the_list_and_names_each_in_its_instructions(
    tmp_path: Path,
) -> None:
    pytest.importorskip("mcp")  # the `mcp` extra, which the server needs
    from tui_assistant.mcp.server import INSTRUCTIONS, Serving, build_server

    settings = Settings(library=BUNDLED_LESSONS, data_dir=tmp_path, retrieval="ranked")  # type: ignore[arg-type]
    context = open_context(settings, embed_now=False)
    try:
        listed = await build_server(Serving(context)).list_tools()
    finally:
        context.library.close()
    assert [tool.name for tool in listed] == list(tool_names())
    for spec, tool in zip(TOOLS, listed, strict=True):
        assert tool.description == spec.description
        assert INSTRUCTIONS.count(f"`{spec.name}`: {spec.summary}") == 1


def test_the_readme_names_exactly_the_tools_of_the_list() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## For coding agents (MCP)", 1)[1].split("\n## ", 1)[0]
    [paragraph] = [part for part in section.split("\n\n") if part.startswith("The tools:")]
    named = re.findall(r"`([a-z_]+)`", paragraph)
    assert named == list(tool_names())


def test_only_the_mcp_command_imports_the_mcp_package() -> None:
    # `search` shares `LibraryTools` with the tools, from `wiring`: the other commands
    # never load the MCP package.
    importers = {
        name
        for name, targets in module_imports(PACKAGE).items()
        if name.startswith("tui_assistant.commands.")
        and any(target.startswith("tui_assistant.mcp") for target in targets)
    }
    assert importers == {"tui_assistant.commands.mcp"}
