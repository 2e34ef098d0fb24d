"""The real `tui-assistant mcp` driven through the MCP SDK's own stdio client, for the
end-to-end tests: a session on a library, and a call's result read as a client reads it."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult

from tests.helpers import BUNDLED_LESSONS, cli_env

SALT = "how much salt goes in pasta water?"


@asynccontextmanager
async def serving(
    tmp_path: Path, library: Path = BUNDLED_LESSONS, *options: str
) -> AsyncIterator[ClientSession]:
    """A session with `tui-assistant mcp --library LIBRARY` run as a subprocess."""
    workdir = tmp_path / "cwd"
    workdir.mkdir(exist_ok=True)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tui_assistant", "mcp", "--library", str(library), *options],
        env=cli_env(tmp_path / "data"),
        cwd=workdir,
    )
    with (tmp_path / "stderr.txt").open("a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def data(result: CallToolResult) -> dict[str, Any]:
    """The structured result, checked to be the same object as the JSON text."""
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    [text] = result.content
    assert json.loads(text.text) == result.structured_content  # type: ignore[union-attr]
    return result.structured_content


def error_line(result: CallToolResult) -> str:
    assert result.is_error
    [text] = result.content
    line = text.text  # type: ignore[union-attr]
    assert "\n" not in line and "Traceback" not in line
    return str(line)
