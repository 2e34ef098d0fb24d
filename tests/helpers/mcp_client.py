"""The real `tui-assistant mcp` driven through the MCP SDK's own clients (stdio and
streamable HTTP), for the end-to-end tests: a session on one or several libraries, the
HTTP server as a child process, and a call's result read as a client reads it."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx2
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from tests.helpers import BUNDLED_LESSONS, cli_env
from tests.helpers.processes import EXIT_TIMEOUT_SECONDS, wait_for

SALT = "how much salt goes in pasta water?"


@asynccontextmanager
async def serving(
    tmp_path: Path,
    library: Path | Sequence[str] = BUNDLED_LESSONS,
    *options: str,
    env: Mapping[str, str] | None = None,
) -> AsyncIterator[ClientSession]:
    """A session with `tui-assistant mcp --library LIBRARY` run as a subprocess;
    `library` may list several (`[NAME=]DIR` each)."""
    workdir = tmp_path / "cwd"
    workdir.mkdir(exist_ok=True)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tui_assistant", "mcp", *library_options(library), *options],
        env=cli_env(tmp_path / "data", env),
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


def library_options(library: Path | Sequence[str]) -> list[str]:
    entries = [str(library)] if isinstance(library, Path) else list(library)
    return [option for entry in entries for option in ("--library", entry)]


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def http_server(
    tmp_path: Path,
    library: Path | Sequence[str] = BUNDLED_LESSONS,
    *options: str,
    env: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """`tui-assistant mcp --http PORT` as a child process, once it listens: its URL. It
    is stopped (SIGTERM) and waited for at the end; its standard error is kept in
    `tmp_path / "http-stderr.txt"`."""
    port = free_port()
    workdir = tmp_path / "cwd"
    workdir.mkdir(exist_ok=True)
    errors = tmp_path / "http-stderr.txt"
    with errors.open("w", encoding="utf-8") as errlog:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tui_assistant",
                "mcp",
                *library_options(library),
                *("--http", str(port), *options),
            ],
            stdout=subprocess.DEVNULL,
            stderr=errlog,
            env=cli_env(tmp_path / "data", env),
            cwd=workdir,
        )
        try:
            url = f"http://127.0.0.1:{port}/mcp"
            _wait_until_listening(process, errors, url)
            yield url
        finally:
            process.terminate()
            process.wait(EXIT_TIMEOUT_SECONDS)


def _wait_until_listening(process: subprocess.Popen[bytes], errors: Path, url: str) -> None:
    """Until the server says it serves at `url` (it says so once its socket listens)."""

    def listening() -> bool:
        said = errors.read_text(encoding="utf-8")
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {said}")
        return f"serving MCP at {url}" in said

    wait_for(listening, "the HTTP server listening", timeout=60)


@asynccontextmanager
async def http_session(url: str, token: str | None = None) -> AsyncIterator[ClientSession]:
    """A session with the HTTP server at `url` through the SDK's streamable HTTP client,
    sending `token` as a bearer token when given."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
