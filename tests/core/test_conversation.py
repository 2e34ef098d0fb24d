"""Outcomes from the service in deterministic mode, and the one follow-up it understands."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.helpers import BUNDLED_LESSONS, memory_library
from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.conversation import Conversation, is_repeat_request
from tui_assistant.core.outcome import Outcome, OutcomeKind, Reason, SupportReport
from tui_assistant.core.record import OutcomeRecord
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.core.service import AnswerService


@pytest.fixture
def service() -> AnswerService:
    library = memory_library(BUNDLED_LESSONS)
    return AnswerService(KeywordRetriever(library))


@pytest.mark.parametrize(
    "question",
    [
        "repeat that",
        "Repeat that.",
        "say that again",
        "Say it again, please!",
        "repeat the last answer",
        "could you repeat that?",
        "please repeat your previous answer",
        "can you say that again",
        "again",
        "come again?",
    ],
)
def test_repeat_requests_are_recognised(question: str) -> None:
    assert is_repeat_request(question)


@pytest.mark.parametrize(
    "question",
    [
        "repeat the salt step for pasta",
        "how do I say pasta in Italian",
        "what did the lesson say about eggs",
        "say hello",
    ],
)
def test_questions_that_mention_repeating_are_not_follow_ups(question: str) -> None:
    assert not is_repeat_request(question)


async def test_deterministic_answer_is_the_passage_text_with_its_citation(
    service: AnswerService,
) -> None:
    outcome = await service.ask("How much salt should I add to pasta water?", Conversation())
    assert outcome.kind is OutcomeKind.ANSWERED
    assert outcome.evidence is not None
    assert outcome.answer == outcome.evidence.passage.text
    assert outcome.citations == ("pasta-water",)
    assert (
        OutcomeRecord.of(outcome).model_dump(mode="json")["source_path"] == "lessons/pasta-water.md"
    )


async def test_no_passage_is_a_no_evidence_refusal_with_every_field_empty(
    service: AnswerService,
) -> None:
    outcome = await service.ask("What is the capital of France?", Conversation())
    data = OutcomeRecord.of(outcome).model_dump(mode="json")
    assert (data["outcome"], data["reason"]) == ("refused", "no_evidence")
    assert data["answer"] is None and data["citations"] == []
    assert data["passage_id"] is data["lesson_id"] is None
    assert data["passages"] == [] and data["nearest"] == []
    assert outcome.describe() == "refused: no passage shares a word with the question"


async def asked(service: AnswerService, question: str, conversation: Conversation) -> Outcome:
    """One question asked and ended: its outcome the conversation's next turn, as every
    surface's end of a question (`AppContext.conclude`) records it."""
    outcome = await service.ask(question, conversation)
    conversation.add(outcome)
    return outcome


async def test_repeat_that_repeats_the_last_answered_turn_with_its_passage(
    service: AnswerService,
) -> None:
    conversation = Conversation()
    first = await asked(service, "How long do I boil eggs for a runny yolk?", conversation)
    await asked(service, "What is the capital of France?", conversation)
    again = await service.ask("say that again", conversation)
    assert again.kind is OutcomeKind.ANSWERED
    assert again.question == "say that again"
    assert again.evidence == first.evidence
    assert again.answer == first.answer


async def test_a_question_asked_adds_no_turn_until_its_end_records_it(
    service: AnswerService,
) -> None:
    conversation = Conversation()
    await service.ask("How long do I boil eggs for a runny yolk?", conversation)
    assert conversation.outcomes == []
    outcome = await service.ask("say that again", conversation)
    assert (outcome.kind, outcome.reason) == (OutcomeKind.REFUSED, Reason.NO_EVIDENCE)


async def test_repeat_with_nothing_answered_yet_is_refused(service: AnswerService) -> None:
    conversation = Conversation()
    await asked(service, "What is the capital of France?", conversation)
    outcome = await service.ask("repeat that", conversation)
    assert (outcome.kind, outcome.reason) == (OutcomeKind.REFUSED, Reason.NO_EVIDENCE)


async def test_history_is_never_evidence_for_a_new_question(service: AnswerService) -> None:
    conversation = Conversation()
    await asked(service, "How much salt should I add to pasta water?", conversation)
    # Shares no two words with any passage; the previous turn must not fill the gap.
    outcome = await service.ask("and how much for rice?", conversation)
    assert outcome.reason is Reason.NO_EVIDENCE


def test_an_answer_with_unsupported_sentences_says_so_in_its_status() -> None:
    retriever = KeywordRetriever(memory_library(BUNDLED_LESSONS))
    evidence = retriever.retrieve("pasta water salt")
    assert isinstance(evidence, Evidence)
    service = AnswerService(retriever)
    outcome = service.judge("q", evidence, ModelAnswer("Salt the water. [source:pasta-water]"))
    assert outcome.describe() == "answered"
    one = replace(outcome, support=SupportReport(False, ("Salt the water.",)))
    two = replace(outcome, support=SupportReport(False, ("a.", "b.")))
    assert one.describe() == "answered: 1 sentence not backed by the passage"
    assert two.describe() == "answered: 2 sentences not backed by the passage"
