"""The MCP server's tools, one module each, and `TOOLS`, the one list of them.

A tool is a function of the module named after it: its first argument is the
`LibraryTools` it answers from, the others are the call's arguments, typed so that the
server validates them and describes them in the input schema (`Annotated` with a
pydantic `Field`); it returns a pydantic model, the call's structured content and output
schema. Its docstring is the description clients read, its first line the summary the
server's instructions give. What the argument types cannot say (an unknown id, a path
that is not a document of the library) raises `errors.BadArgument`, one line naming the
argument, which the server turns into a tool error.

Nothing here imports the MCP SDK: `mcp.server` registers each tool of `TOOLS` with it.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tui_assistant.mcp.tools import ask, changes, check, gaps, read, search, status


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: its `function`, and what the server reads off it."""

    name: str
    function: Callable[..., Any]
    result: type
    summary: str
    description: str
    # Whether a call may reach beyond the library (MCP's open-world hint).
    open_world: bool

    @classmethod
    def of(cls, function: Callable[..., Any], *, open_world: bool = False) -> ToolSpec:
        doc = inspect.getdoc(function)
        if not doc:
            raise ValueError(f"the tool {function.__name__} has no docstring to describe it")
        return cls(
            name=function.__name__,
            function=function,
            result=typing.get_type_hints(function)["return"],
            summary=doc.splitlines()[0],
            description=" ".join(doc.split()),
            open_world=open_world,
        )


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec.of(search.search),
    ToolSpec.of(read.read),
    ToolSpec.of(check.check),
    ToolSpec.of(status.status),
    ToolSpec.of(gaps.gaps),
    # In model mode `ask` calls the configured model server.
    ToolSpec.of(ask.ask, open_world=True),
    ToolSpec.of(changes.changes),
)


def tool_names() -> tuple[str, ...]:
    """The tools' names, in the order the server lists them."""
    return tuple(spec.name for spec in TOOLS)
