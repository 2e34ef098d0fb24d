"""The TUI's status bar while a library's vectors are computed: the count, the rate and
the time left of the embedding, and that questions are answered by words meanwhile,
gone once hybrid is on. The app's clock is the test's; the embedding's batches are
held and released by the test."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from tests.cli.held_model import HeldEmbedder
from tests.helpers import BUNDLED_LESSONS
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
from tui_assistant.ui.messages import LibraryEvent
from tui_assistant.wiring.library_events import EmbeddingProgress
from tui_assistant.wiring.retrieval_choice import RetrievalChoice

WIDE = (160, 32)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_the_bar_says_how_far_how_fast_and_how_long(tmp_path: Path) -> None:
    clock = Clock()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path), clock=clock)
    async with running(app, WIDE) as pilot:
        await wait_until(pilot, lambda: status(app) == "ready")
        app.main.library_panel.post_message(LibraryEvent(EmbeddingProgress(0, 4614)))
        await wait_until(pilot, lambda: "embedding 0/4,614 passages" in status_line(app))
        clock.now += 60.0
        app.main.library_panel.post_message(LibraryEvent(EmbeddingProgress(1860, 4614)))
        shown = "embedding 1,860/4,614 passages, 31/s, about 1 min 29 s left"
        await wait_until(pilot, lambda: shown in status_line(app))
        assert "words only while embedding (1,860/4,614)" in status_line(app)
        assert status(app) == "ready"  # the latest outcome keeps its place


async def test_questions_are_answered_by_words_until_hybrid_is_on(tmp_path: Path) -> None:
    held = HeldEmbedder()
    context = make_context(BUNDLED_LESSONS, tmp_path, retrieval="hybrid")
    context = replace(context, choice=RetrievalChoice("hybrid"), embedder=held)
    app = make_app(context)
    try:
        async with running(app, WIDE) as pilot:
            await wait_until(pilot, lambda: "words only while embedding (0/3)" in status_line(app))
            await ask(pilot, "how much salt for pasta water")
            await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
            assert app.main.transcript.session.outcomes[-1].retrieval == "ranked"
            held.release()
            await wait_until(pilot, lambda: "3 passages · hybrid" in status_line(app), 20)
            assert "words only" not in status_line(app)
    finally:
        held.release()
