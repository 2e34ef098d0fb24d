"""The MCP `changes` tool: a package's name and two fetched versions in, the objects of
`tui-assistant changes --json` out, whatever library the server itself answers from; an
argument that names no fetched version is a tool error naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_changes import VERSIONS, fetched
from tui_assistant import cli
from tui_assistant.errors import BadArgument
from tui_assistant.mcp.tools.changes import changes
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import open_context
from tui_assistant.wiring.library_tools import LibraryTools


@pytest.fixture
def tools(tmp_path: Path) -> LibraryTools:
    data = tmp_path / "data"
    for version, files in VERSIONS.items():
        fetched(data, "shop", version, files)
    fetched(data, "ledger", "0.3", {"docs/index.md": "# Ledger\n\nBooks every refund.\n"})
    # The server answers from the ledger alone: the versions compared need not be served.
    settings = Settings(library=data / "fetched" / "ledger@0.3", data_dir=data, retrieval="ranked")  # type: ignore[arg-type]
    return LibraryTools(open_context(settings, embed_now=False))


def test_the_tool_gives_the_same_objects_as_the_command(
    tools: LibraryTools, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    result = changes(tools, "shop", "1.0", "2.0").model_dump(mode="json")
    monkeypatch.setenv("TUI_ASSISTANT_DATA_DIR", str(tools.context.settings.data_dir))
    assert cli.main(["changes", "--json", "shop@1.0", "shop@2.0"]) == 0
    command = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert result == {"changes": command}
    assert [change["change"] for change in command] == [
        "changelog", "changelog", "changed", "moved", "added", "removed",
    ]  # fmt: skip


def test_versions_may_be_ranges(tools: LibraryTools) -> None:
    assert changes(tools, "shop", "1", "2") == changes(tools, "shop", "1.0", "2.0")


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("shop", "0.9", "2.0"), "from: no fetched version of shop matches 0.9"),
        (("shop", "1.0", "7"), "to: no fetched version of shop matches 7"),
        (("shop", "1.0", "1.0"), "to: both are shop@1.0: name two versions"),
        (("shop@1.0", "1.0", "2.0"), "library: give a fetched package's name alone"),
        (("flask", "1.0", "2.0"), "from: flask@1.0: no version of flask is fetched"),
    ],
)
def test_arguments_that_name_no_two_fetched_versions_are_bad_arguments(
    tools: LibraryTools, arguments: tuple[str, str, str], said: str
) -> None:
    with pytest.raises(BadArgument) as raised:
        changes(tools, *arguments)
    assert str(raised.value).startswith(said)
    assert "\n" not in str(raised.value)


async def test_the_server_takes_the_older_version_as_from(tools: LibraryTools) -> None:
    pytest.importorskip("mcp")  # the `mcp` extra, which the server needs
    from mcp.server.mcpserver.exceptions import ToolError

    from tui_assistant.mcp.server import Serving, build_server

    server = build_server(Serving(tools.context))
    [listed] = [tool for tool in await server.list_tools() if tool.name == "changes"]
    assert listed.input_schema["required"] == ["library", "from", "to"]
    result = await server.call_tool("changes", {"library": "shop", "from": "1.0", "to": "2.0"})
    assert not result.is_error
    assert result.structured_content == changes(tools, "shop", "1.0", "2.0").model_dump(mode="json")
    with pytest.raises(ToolError, match=r"from: no fetched version of shop matches 0\.1"):
        await server.call_tool("changes", {"library": "shop", "from": "0.1", "to": "2.0"})
