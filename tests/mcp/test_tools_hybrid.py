"""The MCP `ask` under hybrid: the question's embedding (a model server's round trip)
runs off the event loop, so the other calls in flight go on meanwhile."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np
from numpy.typing import NDArray

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.embedding import FakeEmbedder
from tests.helpers.tui import make_context
from tui_assistant.mcp.tools.ask import ask
from tui_assistant.wiring.library_tools import LibraryTools
from tui_assistant.wiring.retrieval_choice import RetrievalChoice

# How long a held question's embedding waits before it gives up by itself.
HELD_SECONDS = 3.0


class HeldQuestions(FakeEmbedder):
    """Passages embed at once; a question is held until `release` (or HELD_SECONDS)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = threading.Event()
        self.release = threading.Event()
        self.returned = threading.Event()

    def embed_question(self, question: str) -> NDArray[np.float32]:
        self.asked.set()
        self.release.wait(HELD_SECONDS)
        try:
            return super().embed_question(question)
        finally:
            self.returned.set()


async def test_ask_embeds_its_question_off_the_event_loop(tmp_path: Path) -> None:
    embedder = HeldQuestions()
    context = make_context(BUNDLED_LESSONS, tmp_path, retrieval="hybrid")
    context = replace(context, choice=RetrievalChoice("hybrid"), embedder=embedder)
    hybrid = context.with_vectors(context.embed(context.library))
    assert hybrid is not None and hybrid.retrieval == "hybrid"
    tools = LibraryTools(hybrid)
    asking = asyncio.create_task(ask(tools, "how much salt for pasta water"))
    # The loop runs this while the question's embedding is held: nothing blocks it.
    await asyncio.to_thread(embedder.asked.wait, 10)
    loop_ran_while_held = not embedder.returned.is_set()
    embedder.release.set()
    record = await asking
    assert loop_ran_while_held
    assert record.retrieval == "hybrid"
