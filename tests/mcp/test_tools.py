"""The MCP tools without the protocol: search, read, check and ask over a real app
context (a library folder on disk and its index store)."""

from __future__ import annotations

import asyncio
import os
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers import BUNDLED_LESSONS
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.outcome import Reason
from tui_assistant.core.record import OutcomeRecord
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import Ranking
from tui_assistant.errors import BadArgument
from tui_assistant.mcp.tools.ask import ask
from tui_assistant.mcp.tools.check import check
from tui_assistant.mcp.tools.read import read
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import AppContext, open_context
from tui_assistant.wiring.library_tools import LibraryTools

GUIDE = """\
---
title: Install guide
---
# Install

Run the installer from the download page.

## From source

Clone the repository, then run make install as root.

## Upgrading

Stop the service before you upgrade it.
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    library = tmp_path / "docs"
    (library / "guide").mkdir(parents=True)
    (library / "guide" / "install.md").write_text(GUIDE, encoding="utf-8")
    (library / "notes.md").write_text("# Notes\n\nThe cache lives in the data folder.\n")
    (library / "script.sh").write_text("echo not a document\n")
    return library


def context_for(folder: Path, data_dir: Path, retrieval: str = "ranked") -> AppContext:
    settings = Settings(library=folder, data_dir=data_dir, retrieval=retrieval)  # type: ignore[arg-type]
    return open_context(settings, embed_now=False)


@pytest.fixture
def tools(folder: Path, tmp_path: Path) -> LibraryTools:
    return LibraryTools(context_for(folder, tmp_path / "data"))


def bad(call: object) -> str:
    assert callable(call)
    with pytest.raises(BadArgument) as raised:
        call()
    message = str(raised.value)
    assert "\n" not in message
    return message


# -- search ---------------------------------------------------------------------------


def test_search_returns_the_best_passages_with_text_and_the_app_decision(
    tools: LibraryTools,
) -> None:
    result = tools.search("clone the repository and run make", 2)
    assert (result.retrieval, result.decision, result.reason) == ("ranked", "answered", None)
    best = result.passages[0]
    assert best.id == "guide/install#from-source"
    assert (best.source_path, best.line, best.end_line) == ("docs/guide/install.md", 8, 10)
    assert "make install as root" in best.text
    assert best.score > 0
    assert len(result.passages) <= 2


def test_search_gives_passages_also_when_the_app_would_refuse(tools: LibraryTools) -> None:
    # "compiler", "flags" and "windows" are in no passage: the app is not sure of any.
    result = tools.search("which compiler flags does make install need on windows", 5)
    assert result.decision == "refused"
    assert result.reason in ("no_evidence", "ambiguous")
    assert result.passages[0].id == "guide/install#from-source"
    assert "make install as root" in result.passages[0].text


def test_search_reason_is_the_one_ask_gives(tools: LibraryTools) -> None:
    for question in ("installer service", "zebra quantum", "make install from source"):
        outcome = tools.context.service.start(question, Conversation())
        result = tools.search(question, 3)
        assert result.reason == (outcome.reason.value if outcome.reason else None)  # type: ignore[union-attr]


def test_search_limit_caps_the_passages(tools: LibraryTools) -> None:
    assert len(tools.search("install", 1).passages) == 1


def test_search_ranks_once_with_the_apps_own_service(tools: LibraryTools) -> None:
    ranked: list[str] = []

    class CountingRetriever(RankedRetriever):
        def rank(self, question: str) -> Ranking | None:
            ranked.append(question)
            return super().rank(question)

    context = tools.context
    service = context.service.with_retriever(CountingRetriever(context.library))
    result = LibraryTools(replace(context, service=service)).search(
        "clone the repository and run make", 3
    )
    assert ranked == ["clone the repository and run make"]
    assert result.decision == "answered" and result.passages[0].id == "guide/install#from-source"


# -- read -----------------------------------------------------------------------------


def test_read_by_id_gives_the_passage(tools: LibraryTools) -> None:
    passage = read(tools, id="guide/install#upgrading")
    assert passage.title == "Install guide › Install › Upgrading"
    assert passage.text == "Stop the service before you upgrade it."
    assert (passage.line, passage.end_line) == (12, 14)


def test_read_by_lines_gives_exactly_those_lines_and_the_passage_they_stand_in(
    tools: LibraryTools,
) -> None:
    result = read(tools, source_path="docs/guide/install.md", line=8, end_line=10)
    assert result.text == "## From source\n\nClone the repository, then run make install as root."
    assert result.id == "guide/install#from-source"
    assert (result.line, result.end_line) == (8, 10)
    front_matter = read(tools, source_path="docs/guide/install.md", line=1, end_line=1)
    assert (front_matter.id, front_matter.text) == ("guide/install", "---")


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ({"id": "guide/nope"}, "id:"),
        ({}, "id:"),
        ({"id": "notes", "source_path": "docs/notes.md"}, "id:"),
        ({"source_path": "docs/notes.md", "line": 1}, "end_line:"),
        ({"source_path": "docs/notes.md", "end_line": 1}, "line:"),
        ({"source_path": "docs/notes.md", "line": 3, "end_line": 2}, "end_line:"),
        ({"source_path": "docs/notes.md", "line": 1, "end_line": 4}, "end_line:"),
        ({"source_path": "docs/../docs/notes.md", "line": 1, "end_line": 1}, "source_path:"),
        ({"source_path": "../etc/passwd", "line": 1, "end_line": 1}, "source_path:"),
        ({"source_path": "/etc/passwd", "line": 1, "end_line": 1}, "source_path:"),
        ({"source_path": "docs/script.sh", "line": 1, "end_line": 1}, "source_path:"),
        ({"source_path": "guide/setup.md", "line": 1, "end_line": 1}, "source_path:"),
    ],
)
def test_read_refuses_what_is_not_a_passage_or_lines_of_a_document(
    tools: LibraryTools, arguments: dict[str, object], named: str
) -> None:
    assert bad(lambda: read(tools, **arguments)).startswith(named)  # type: ignore[arg-type]


def test_read_takes_a_path_inside_the_library_folder_or_says_which_form_it_wants(
    tools: LibraryTools, folder: Path
) -> None:
    shown = read(tools, source_path="docs/guide/install.md", line=8, end_line=10)
    assert read(tools, source_path="guide/install.md", line=8, end_line=10) == shown
    assert read(tools, source_path="./guide/install.md", line=8, end_line=10) == shown
    absolute = str(folder / "guide" / "install.md")
    assert read(tools, source_path=absolute, line=8, end_line=10) == shown
    message = bad(lambda: read(tools, source_path="guide/setup.md", line=1, end_line=1))
    assert message == (
        "source_path: guide/setup.md is not a document of the library"
        " (give it as search does, from the library folder's name: docs/...)"
    )


def test_a_blank_question_is_refused_without_passages(tools: LibraryTools) -> None:
    assert bad(lambda: tools.search("   \t ", 5)) == "question: is blank (ask in words)"
    assert bad(lambda: asyncio.run(ask(tools, "  "))).startswith("question: is blank")
    searched = tools.context.service.search("  ", 5)
    assert (searched.outcome.reason, searched.scored) == (Reason.NO_EVIDENCE, ())


def test_passage_text_keeps_one_blank_line_between_paragraphs(folder: Path, tmp_path: Path) -> None:
    (folder / "spaced.md").write_text(
        "# Spaced\n\nFirst paragraph.\n\n\n\n<!-- hidden -->\n\nSecond paragraph.\n"
    )
    tools = LibraryTools(context_for(folder, tmp_path / "data"))
    assert read(tools, id="spaced").text == "First paragraph.\n\nSecond paragraph."
    lines = read(tools, source_path="docs/spaced.md", line=3, end_line=9)
    assert lines.text == "First paragraph.\n\n<!-- hidden -->\n\nSecond paragraph."


def test_read_never_follows_a_symlink_out_of_the_library(folder: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nThe password is hunter2.\n")
    os.symlink(secret, folder / "linked.md")
    tools = LibraryTools(context_for(folder, tmp_path / "data"))
    message = bad(lambda: read(tools, source_path="docs/linked.md", line=1, end_line=3))
    assert message.startswith("source_path:")
    assert all("hunter2" not in p.text for p in tools.search("password hunter2", 10).passages)


def test_read_refuses_a_document_replaced_by_a_symlink_after_it_was_indexed(
    folder: Path, tmp_path: Path
) -> None:
    tools = LibraryTools(context_for(folder, tmp_path / "data"))
    secret = tmp_path / "secret.txt"
    secret.write_text("hunter2\n")
    (folder / "notes.md").unlink()
    os.symlink(secret, folder / "notes.md")
    message = bad(lambda: read(tools, source_path="docs/notes.md", line=1, end_line=1))
    assert message == "source_path: docs/notes.md cannot be read now"


def test_the_library_is_never_written(folder: Path, tmp_path: Path) -> None:
    before = sorted((p, p.stat().st_mtime_ns) for p in folder.rglob("*"))
    tools = LibraryTools(context_for(folder, tmp_path / "data"))
    tools.search("install", 5)
    read(tools, source_path="docs/notes.md", line=1, end_line=3)
    check(tools, "The cache lives in the data folder [source:notes].")
    assert sorted((p, p.stat().st_mtime_ns) for p in folder.rglob("*")) == before


# -- check and ask --------------------------------------------------------------------


def test_check_reports_each_citation_and_quote_against_the_library(tools: LibraryTools) -> None:
    result = check(
        tools,
        'Run "make install as root" [source:guide/install#from-source]; see [source:guide/gone].',
    )
    assert not result.verified
    assert [(c.id, c.known) for c in result.citations] == [
        ("guide/install#from-source", True),
        ("guide/gone", False),
    ]
    [quote] = result.quotes
    assert (quote.found, quote.passage_id, quote.line, quote.end_line) == (
        True,
        "guide/install#from-source",
        10,
        10,
    )


def test_ask_is_one_line_of_ask_json(tools: LibraryTools) -> None:
    question = "clone the repository and run make"
    result = asyncio.run(ask(tools, question))
    expected = OutcomeRecord.of(
        asyncio.run(tools.context.service.ask(question, Conversation()))
    ).model_dump(mode="json")
    got = result.model_dump()
    assert got.keys() == expected.keys()
    assert {k: v for k, v in got.items() if k != "elapsed_ms"} == {
        k: v for k, v in expected.items() if k != "elapsed_ms"
    }
    # Who chose the passage, and (for a refused model answer) why: as `ask --json` says.
    assert {"chosen_by", "detail"} <= got.keys()


def test_the_bundled_lessons_answer(tmp_path: Path) -> None:
    tools = LibraryTools(context_for(BUNDLED_LESSONS, tmp_path / "data"))
    result = tools.search("how much salt goes in pasta water", 3)
    assert (result.decision, result.passages[0].id) == ("answered", "pasta-water")
