"""The SDK glue: the move from ranked to hybrid, started in the server's lifespan once
the vectors are in, reported on standard error."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

# The `mcp` and `semantic` extras (CI installs them); without them these tests cannot run.
pytest.importorskip("mcp")
pytest.importorskip("numpy")

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.embedding import FakeEmbedder
from tui_assistant.mcp.server import Serving, lifespan
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import AppContext, open_context
from tui_assistant.wiring.retrieval_choice import RetrievalChoice


def lexical_context(tmp_path: Path, embedder: FakeEmbedder) -> AppContext:
    """A context answering lexically, whose choice is hybrid with `embedder` at hand."""
    settings = Settings(library=BUNDLED_LESSONS, data_dir=tmp_path, retrieval="ranked")  # type: ignore[arg-type]
    context = open_context(settings, embed_now=False)
    return replace(context, choice=RetrievalChoice("hybrid"), embedder=embedder)


async def test_the_server_moves_to_hybrid_from_its_lifespan_once_the_vectors_are_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    serving = Serving(lexical_context(tmp_path, FakeEmbedder()))
    lexical = serving.tools
    assert lexical.search("salt in pasta water", 1).retrieval == "ranked"
    async with lifespan(serving):
        while serving.tools is lexical:
            await asyncio.sleep(0.01)
        assert serving.tools.search("salt in pasta water", 1).retrieval == "hybrid"
        # The tools a call already holds keep answering from their own context.
        assert lexical.search("salt in pasta water", 1).retrieval == "ranked"
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "tui-assistant: embedding " in captured.err
    assert "tui-assistant: hybrid retrieval is on" in captured.err


async def test_a_failed_embedding_leaves_ranked_answering_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    class Broken(FakeEmbedder):
        def vectors(self, texts):  # type: ignore[no-untyped-def]
            raise OSError("disk on fire")

    serving = Serving(lexical_context(tmp_path, Broken()))
    await serving.lifecycle.embed()
    assert serving.tools.search("salt in pasta water", 1).retrieval == "ranked"
    assert "warning: hybrid retrieval is off: OSError: disk on fire" in capsys.readouterr().err


async def test_progress_lines_are_plain_and_not_too_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    serving = Serving(lexical_context(tmp_path, FakeEmbedder()))
    await serving.lifecycle.embed()
    lines = [line for line in capsys.readouterr().err.splitlines() if "embedding" in line]
    assert lines[-1] == "tui-assistant: embedding 3/3 passages"
    assert len(lines) < 10


async def test_the_lifespan_closes_what_it_opened(tmp_path: Path) -> None:
    serving = Serving(lexical_context(tmp_path, FakeEmbedder()))
    library = serving.tools.context.library
    async with lifespan(serving):
        pass
    with pytest.raises(Exception, match="closed"):
        library.passage(0).text  # noqa: B018 - the text is read from the store
