"""A question's embedding that hangs (a model server that never answers) never freezes
the screen: the app keeps drawing and Esc cancels the question at once."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np
from numpy.typing import NDArray

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.embedding import FakeEmbedder
from tests.helpers.tui import ask, make_app, make_context, running, status, status_line, wait_until
from tui_assistant.wiring.retrieval_choice import RetrievalChoice

SIZE = (100, 32)


class HungQuestions(FakeEmbedder):
    """Passages embed at once; a question waits until `answer` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.answer = threading.Event()
        self.asked = threading.Event()

    def embed_question(self, question: str) -> NDArray[np.float32]:
        self.asked.set()
        self.answer.wait(30)
        return super().embed_question(question)


async def test_esc_cancels_a_question_whose_embedding_hangs(tmp_path: Path) -> None:
    embedder = HungQuestions()
    context = make_context(BUNDLED_LESSONS, tmp_path, retrieval="hybrid")
    app = make_app(replace(context, choice=RetrievalChoice("hybrid"), embedder=embedder))
    try:
        async with running(app, SIZE) as pilot:
            await wait_until(pilot, lambda: "3 passages · hybrid" in status_line(app))
            await ask(pilot, "how much salt for pasta water")
            await wait_until(pilot, embedder.asked.is_set)
            # The embedding still hangs, and the screen answers keys: it draws
            # `asking`, and Esc ends the question.
            await wait_until(pilot, lambda: status(app).startswith("asking"))
            await pilot.press("escape")
            await wait_until(pilot, lambda: status(app) == "cancelled")
            assert not embedder.answer.is_set()
            assert app.main.transcript.session.outcomes[-1].question == (
                "how much salt for pasta water"
            )
            # The next question is asked as usual once the model answers again.
            embedder.answer.set()
            await ask(pilot, "how much salt for pasta water")
            await wait_until(
                pilot,
                lambda: (
                    status(app) not in ("asking", "cancelled")
                    and not status(app).startswith("asking")
                ),
            )
            # A fake model's cosines decide between sure and not sure; either is an answer.
            assert status(app).startswith(("answered", "not sure")), status(app)
    finally:
        embedder.answer.set()


async def test_a_reload_waits_for_a_question_still_being_retrieved(tmp_path: Path) -> None:
    embedder = HungQuestions()
    context = make_context(BUNDLED_LESSONS, tmp_path, retrieval="hybrid")
    app = make_app(replace(context, choice=RetrievalChoice("hybrid"), embedder=embedder))
    try:
        async with running(app, SIZE) as pilot:
            await wait_until(pilot, lambda: "3 passages · hybrid" in status_line(app))
            library = app.main.context.library
            await ask(pilot, "how much salt for pasta water")
            await wait_until(pilot, embedder.asked.is_set)
            # The question's passages are read from this library: it is not replaced.
            await pilot.press("ctrl+r")
            await wait_until(pilot, lambda: "reload after the answer" in status_line(app))
            assert app.main.context.library is library
            embedder.answer.set()
            await wait_until(pilot, lambda: status(app).startswith(("answered", "not sure")))
    finally:
        embedder.answer.set()
