"""The tools as a server holds them (`LibraryTools.serving`): gaps written off the calls
and passages cleaned once, with results the same as the tools reading everything on
every call, and every refusal of a burst listed by `gaps`."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.mcp.test_tools import GUIDE, context_for
from tui_assistant.mcp.tools.gaps import gaps
from tui_assistant.mcp.tools.search import search
from tui_assistant.wiring.library_tools import LibraryTools

QUESTIONS = [
    "how do I install from source?",
    "where does the cache live?",
    "upgrade the service",
    "zebra quantum installer",
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    library = tmp_path / "docs"
    (library / "guide").mkdir(parents=True)
    (library / "guide" / "install.md").write_text(GUIDE, encoding="utf-8")
    (library / "notes.md").write_text("# Notes\n\nThe cache lives in the data folder.\n")
    return library


def test_served_results_are_those_read_afresh_on_every_call(folder: Path, tmp_path: Path) -> None:
    context = context_for(folder, tmp_path / "data")
    afresh, served = LibraryTools(context), LibraryTools.serving(context)
    try:
        for _ in range(2):  # the second time from the passages cleaned once
            for question in QUESTIONS:
                assert search(served, question, 5).model_dump_json() == (
                    search(afresh, question, 5).model_dump_json()
                )
    finally:
        served.close()


def test_every_refusal_of_a_burst_is_listed_by_gaps(folder: Path, tmp_path: Path) -> None:
    tools = LibraryTools.serving(context_for(folder, tmp_path / "data"))
    asked = [f"zebra quantum installer {agent} {call}" for agent in range(40) for call in range(5)]
    try:
        with ThreadPoolExecutor(max_workers=40) as pool:
            results = list(pool.map(lambda question: search(tools, question, 3), asked))
        assert {result.decision for result in results} == {"refused"}
        listed = gaps(tools, limit=100)  # at once: the queued ones are written first
        assert sum(group.count for group in listed.groups) == len(asked)
        assert sum(group.questions_asked for group in listed.groups) == len(asked)
    finally:
        tools.close()
