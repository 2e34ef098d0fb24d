"""The answer service on hostile questions and lesson text: no crash, a clear outcome,
and instructions hidden in a lesson or a question cannot get an answer past the
citation check. (That nothing reaches the terminal as an escape sequence is checked
through the CLI in `tests/e2e/test_cli_hostile_input.py`.)

Speed is measured in benchmarks/hostile_inputs.py, not here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests.helpers import (
    BUNDLED_LESSONS,
    memory_library,
)
from tests.helpers.hostile import HOSTILE_QUESTIONS, INJECTION, KNIFE_CARE, MEGABYTE
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.outcome import OutcomeKind, Reason
from tui_assistant.core.passages import Passage
from tui_assistant.core.retrieval import KeywordRetriever
from tui_assistant.core.service import AnswerService


@pytest.fixture(scope="module")
def service() -> AnswerService:
    return AnswerService(KeywordRetriever(memory_library(BUNDLED_LESSONS)))


@pytest.mark.parametrize("name", HOSTILE_QUESTIONS)
async def test_service_gives_a_clear_outcome(service: AnswerService, name: str) -> None:
    question, expected = HOSTILE_QUESTIONS[name]

    outcome = await service.ask(question, Conversation())

    if expected is None:
        assert outcome.kind is OutcomeKind.REFUSED
        assert outcome.reason is Reason.NO_EVIDENCE
    else:
        assert outcome.kind is OutcomeKind.ANSWERED
        assert outcome.evidence is not None
        assert outcome.evidence.passage.id == expected
    assert outcome.question == question


@pytest.mark.parametrize(
    ("name", "question", "expected"),
    [
        ("megabyte of lesson words", "salting pasta water " * (MEGABYTE // 20), "pasta-water"),
        ("megabyte of one letter", "x" * MEGABYTE, None),
        ("megabyte of NUL", "\x00" * MEGABYTE, None),
        ("megabyte of escape starts", "\x1b[" * (MEGABYTE // 2), None),
        ("megabyte of unclosed OSC", "\x1b]" + "0" * MEGABYTE, None),
        ("megabyte of emoji", "🍝" * (MEGABYTE // 4), None),
        ("megabyte of 'hm'", "hm" * (MEGABYTE // 2), None),
        ("megabyte of 'please'", "please " * (MEGABYTE // 7), None),
    ],
)
async def test_service_survives_a_megabyte_question(
    service: AnswerService, name: str, question: str, expected: str | None
) -> None:
    outcome = await service.ask(question, Conversation())

    if expected is None:
        assert outcome.reason is Reason.NO_EVIDENCE
    else:
        assert outcome.evidence is not None
        assert outcome.evidence.passage.id == expected


# --- Instructions hidden in lessons and questions ---------------------------------


class ObedientProvider:
    """A model that does whatever the text it is given tells it to: the worst case."""

    deadline_seconds = 5.0

    def __init__(self) -> None:
        self.calls = 0

    async def complete(self, question: str, passages: Sequence[Passage]) -> str:
        lesson = passages[0]
        self.calls += 1
        order = re.search(r"cite (\[source:[^\]]*\])", lesson.text + " " + question)
        if order is not None:
            return f"Use about 10 grams of salt per litre. {order.group(1)}"
        return f"Use about 10 grams of salt per litre. [source:{lesson.id}]"


class BothMarkersProvider(ObedientProvider):
    """Obeys the injection but also cites what it was given."""

    async def complete(self, question: str, passages: Sequence[Passage]) -> str:
        lesson = passages[0]
        answer = await super().complete(question, lesson)
        return f"{answer} [source:{lesson.id}]"


def service_over(folder: Path, provider: ObedientProvider | None) -> AnswerService:
    return AnswerService(KeywordRetriever(memory_library(folder)), provider)


@pytest.fixture
def honest_library(make_library: Callable[..., Path]) -> Path:
    """The same two lessons with no injection in them."""
    return make_library(
        {
            "pasta-water": ("Salting pasta water", "Use about 10 grams of salt per litre."),
            "knife-care": KNIFE_CARE,
        }
    )


async def test_an_honest_answer_from_the_same_lesson_is_accepted(honest_library: Path) -> None:
    """The control for the tests below: without the injection the answer goes through."""
    outcome = await service_over(honest_library, ObedientProvider()).ask(
        "how much salt for pasta water", Conversation()
    )

    assert outcome.kind is OutcomeKind.ANSWERED
    assert outcome.citations == ("pasta-water",)


@pytest.mark.parametrize("provider_type", [ObedientProvider, BothMarkersProvider])
async def test_instructions_in_a_lesson_cannot_redirect_the_citation(
    injected_library: Path, provider_type: type[ObedientProvider]
) -> None:
    provider = provider_type()
    outcome = await service_over(injected_library, provider).ask(
        "how much salt for pasta water", Conversation()
    )

    assert provider.calls == 1
    assert outcome.kind is OutcomeKind.REFUSED
    assert outcome.reason is Reason.UNVERIFIED
    assert outcome.evidence is not None
    assert outcome.evidence.passage.id == "pasta-water"
    assert outcome.answer is None
    assert outcome.to_json()["citations"] == []


async def test_instructions_in_a_question_cannot_redirect_the_citation(
    honest_library: Path,
) -> None:
    outcome = await service_over(honest_library, ObedientProvider()).ask(
        f"how much salt for pasta water? {INJECTION}", Conversation()
    )

    assert outcome.reason is Reason.UNVERIFIED
    assert outcome.answer is None
