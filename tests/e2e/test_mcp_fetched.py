"""`tui-assistant mcp --library-from FILE`: a project's own docs and its pinned
dependencies' fetched docs served together, driven by the MCP SDK's client; an agent's
`search` narrowed to one package at a version gets only that version's passages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from tests.cli.test_fetch import shop_files
from tests.helpers import cli_env
from tests.helpers.fake_registry import FakeRegistry
from tests.helpers.mcp_client import data, error_line, serving


def fetch(tmp_path: Path, registry: FakeRegistry, *specs: str) -> None:
    env = cli_env(tmp_path / "data", {"TUI_ASSISTANT_PYPI_INDEX_URL": registry.index_url})
    done = subprocess.run(
        [sys.executable, "-m", "tui_assistant", "fetch", *specs],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


async def test_a_project_and_its_dependencies_at_their_versions(tmp_path: Path) -> None:
    with FakeRegistry() as registry:
        registry.add_sdist("shop", "1.0", shop_files("1.0", "Card refunds take five days."))
        registry.add_sdist("shop", "2.0", shop_files("2.0", "Card refunds take one day."))
        registry.add_sdist("ledger", "0.3", {"docs/index.md": "# Ledger\n\nBooks every refund.\n"})
        fetch(tmp_path, registry, "pypi:shop==1.0", "pypi:shop==2.0", "pypi:ledger==0.3")
    own = tmp_path / "app-docs"
    own.mkdir()
    (own / "deploy.md").write_text("# Deploy\n\nShip the app with the deploy script.\n")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("shop==1.0\nledger==0.3\nunfetched==9.9\n")

    async with serving(
        tmp_path, [f"app={own}", "shop@2.0"], "--library-from", str(requirements)
    ) as session:
        status = data(await session.call_tool("status", {}))["libraries"]
        assert [(s["name"], s["package"], s["version"]) for s in status] == [
            ("app", None, None),
            ("shop@2.0", "shop", "2.0"),
            ("shop@1.0", "shop", "1.0"),
            ("ledger@0.3", "ledger", "0.3"),
        ]
        old = data(
            await session.call_tool(
                "search", {"question": "how long do card refunds take?", "library": "shop@1.0"}
            )
        )
        assert old["passages"]
        assert all(p["id"].startswith("shop@1.0:") for p in old["passages"])
        assert "five days" in old["passages"][0]["text"]
        newest = data(
            await session.call_tool(
                "search", {"question": "how long do card refunds take?", "library": "shop"}
            )
        )
        assert all(p["id"].startswith("shop@2.0:") for p in newest["passages"])
        assert "one day" in newest["passages"][0]["text"]
        read = data(await session.call_tool("read", {"id": old["passages"][0]["id"]}))
        assert read["source_path"] == "shop@1.0/docs/refunds.md"
        wrong = await session.call_tool("search", {"question": "refunds", "library": "shop@3.0"})
        assert "no library is named shop@3.0" in error_line(wrong)
    assert "unfetched==9.9 is not fetched" in (tmp_path / "stderr.txt").read_text()
