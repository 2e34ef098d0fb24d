"""`tui-assistant mcp` without the MCP SDK installed: exit 2, one line saying how."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tui_assistant import cli


def test_without_the_mcp_extra_the_command_says_how_to_install_it(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As if the SDK were not installed: importing any of its modules fails.
    for name in ["mcp", "mcp_types", *(n for n in sys.modules if n.startswith("mcp."))]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "tui_assistant.mcp.server", raising=False)
    assert cli.main(["mcp"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    # Said as it is installed, from the checkout (the package is not on PyPI).
    assert "pip install -e '.[mcp]'" in line
    assert "pipx install --force '.[mcp]'" in line
    assert "tui-assistant[mcp]" not in line
