"""Hybrid retrieval in the app: the library answers lexically while its vectors are
computed in the background, then by meaning; a second start reads the vectors back."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

# The `semantic` extra (CI installs it); without it these tests cannot run.
pytest.importorskip("numpy")

import numpy as np
from numpy.typing import NDArray

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.embedding import FakeEmbedder
from tests.helpers.tui import (
    ask,
    concluded,
    make_app,
    make_context,
    running,
    status,
    status_line,
    wait_until,
)
from tui_assistant.wiring.context import AppContext
from tui_assistant.wiring.retrieval_choice import RetrievalChoice

SIZE = (100, 32)


class HeldEmbedder(FakeEmbedder):
    """Embeds only once `release` is set, so a test can ask while embedding runs."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def vectors(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.release.wait(10)
        return super().vectors(texts)


def hybrid_context(data: Path, embedder: FakeEmbedder) -> AppContext:
    """The bundled lessons under `hybrid`, embedded by `embedder`."""
    context = make_context(BUNDLED_LESSONS, data, retrieval="hybrid")
    return replace(context, choice=RetrievalChoice("hybrid"), embedder=embedder)


async def test_hybrid_answers_lexically_while_embedding_then_by_meaning(tmp_path: Path) -> None:
    embedder = HeldEmbedder()
    app = make_app(hybrid_context(tmp_path, embedder))
    async with running(app, SIZE) as pilot:
        await wait_until(pilot, lambda: "embedding 0/3" in status_line(app))
        # Usable at once: asked now, answered by the lexical ranking.
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
        assert app.main.transcript.session.outcomes[-1].retrieval == "ranked"
        embedder.release.set()
        await wait_until(pilot, lambda: "3 passages · hybrid" in status_line(app))
        assert status(app) == "answered"  # the latest outcome kept its place
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(app.main.transcript.session.outcomes) == 2)
        assert app.main.transcript.session.outcomes[-1].retrieval == "hybrid"
        # A second start reads the vectors back: nothing is embedded again.
        texts = len(embedder.texts)
    app = make_app(hybrid_context(tmp_path, embedder))
    async with running(app, SIZE) as pilot:
        await wait_until(pilot, lambda: "3 passages · hybrid" in status_line(app))
    assert len(embedder.texts) == texts
