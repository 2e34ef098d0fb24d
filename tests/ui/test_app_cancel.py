"""A cancel means one thing: the app's status, its history record and `ask --json` say the
same for the same question cancelled while the model thinks."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import HangingProvider, ask, make_app, make_context, running, status
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.types import NoEvidence, Search
from tui_assistant.core.service import AnswerService, PendingAnswer
from tui_assistant.output import print_json

SIZE = (100, 32)
QUESTION = "eggs or pasta first?"


class AmbiguousRetriever:
    """Retrieval that finds two candidates and cannot choose: the model is sent both."""

    mode = "ranked"

    def __init__(self, library: Library) -> None:
        self.library = library
        passages = [library.get("boiled-eggs"), library.get("pasta-water")]
        self.candidates = tuple(p for p in passages if isinstance(p, Passage))

    def retrieve(self, question: str, count: int = 1) -> NoEvidence:
        why = "several passages might answer this"
        return NoEvidence(why, self.candidates, "ranked", ambiguous=True, confidence=0.5)

    def search(self, question: str, count: int, limit: int) -> Search:
        return Search(self.retrieve(question, count))


def without_time(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "elapsed_ms"}


async def cancelled_by_ask(library: Library, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """What `ask --json` prints for the question cancelled while the model thinks
    (Ctrl-C there: `ask` ends the question cancelled and prints it)."""
    provider = HangingProvider()
    service = AnswerService(AmbiguousRetriever(library), provider)
    step = service.start(QUESTION, Conversation())
    assert isinstance(step, PendingAnswer)
    asking = asyncio.ensure_future(service.finish(step))
    await provider.started.wait()
    asking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asking
    capsys.readouterr()
    print_json(service.cancelled(step))
    record: dict[str, Any] = json.loads(capsys.readouterr().out)
    return record


async def test_a_cancel_in_the_app_is_stored_as_ask_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    provider = HangingProvider()
    context = make_context(BUNDLED_LESSONS, tmp_path, provider)
    retriever = AmbiguousRetriever(context.library)
    context = replace(context, service=AnswerService(retriever, provider))
    app = make_app(context)
    async with running(app, SIZE) as pilot:
        await ask(pilot, QUESTION)
        await provider.started.wait()
        await pilot.press("escape")
        assert status(app) == "cancelled"
    # Quitting waits for the history writes.
    lines = app.main.history.store.path.read_text(encoding="utf-8").splitlines()
    stored = json.loads(lines[-1])["outcome"]

    reported = await cancelled_by_ask(make_context(BUNDLED_LESSONS, tmp_path).library, capsys)

    assert (stored["outcome"], stored["reason"]) == ("cancelled", "cancelled")
    # An ambiguous question cancelled chooses no passage and keeps its candidates.
    assert stored["passage_id"] is None
    assert [p["id"] for p in stored["nearest"]] == ["boiled-eggs", "pasta-water"]
    assert without_time(stored) == without_time(reported)
