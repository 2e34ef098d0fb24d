"""What the service sends to a model and what it makes of the answer, for a sure
question (its passage and those close to it) and an ambiguous one (its candidates)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace

import pytest

from tests.helpers import FixedRetriever, library_of
from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.core.outcome import OutcomeKind, Reason
from tui_assistant.core.record import OutcomeRecord
from tui_assistant.core.retrieval.confidence import AMBIGUOUS
from tui_assistant.core.retrieval.types import Evidence, NoEvidence
from tui_assistant.core.service import AnswerService, PendingAnswer
from tui_assistant.errors import ProviderFailure

TEXTS = {
    "aws": "On AWS set memorySize in MB for each function.",
    "azure": "On Azure set memorySize in MB for each function.",
    "google": "On Google Cloud set memorySize in MB for each function.",
    "plugins": "Install plugins with the plugin install command.",
    "tutorial": "Create a service, then deploy it.",
    "telemetry": "Turn telemetry off with an environment variable.",
}


@pytest.fixture
def library() -> Library:
    return library_of(
        Passage(id=pid, title=pid.title(), text=text, source_path=f"docs/{pid}.md")
        for pid, text in TEXTS.items()
    )


class CitingProvider:
    """Cites the passage whose id it is told to, or the first one it was sent."""

    def __init__(self, cite: str | None = None, failure: Exception | None = None) -> None:
        self.cite = cite
        self.failure = failure
        self.sent: list[str] = []

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        self.sent = [passage.id for passage in passages]
        if self.failure is not None:
            raise self.failure
        cited = self.cite or passages[0].id
        return ModelAnswer(f"Set memorySize in MB for each function. [source:{cited}]")


def passages(library: Library, *ids: str) -> tuple[Passage, ...]:
    found = tuple(library.get(pid) for pid in ids)
    assert all(found)
    return found  # type: ignore[return-value]


def sure(library: Library, close_count: int) -> Evidence:
    return Evidence(
        passages=passages(library, "azure", "aws", "plugins", "tutorial", "telemetry"),
        matched_words=("azur", "memory"),
        score=0.9,
        runner_up_score=0.88,
        mode="hybrid",
        close_count=close_count,
        confidence=0.95,
    )


def ambiguous(library: Library) -> NoEvidence:
    return NoEvidence(
        AMBIGUOUS,
        passages(library, "aws", "azure", "google"),
        "hybrid",
        ambiguous=True,
        confidence=0.5,
    )


async def test_a_sure_question_sends_its_passage_and_only_the_close_ones(
    library: Library,
) -> None:
    provider = CitingProvider()
    service = AnswerService(FixedRetriever(library, sure(library, 2)), provider, passages_sent=5)
    outcome = await service.ask("memory on azure?", Conversation())
    assert provider.sent == ["azure", "aws"]
    assert (
        outcome.answered
        and OutcomeRecord.of(outcome).model_dump(mode="json")["passage_id"] == "azure"
    )
    assert [p["id"] for p in OutcomeRecord.of(outcome).model_dump(mode="json")["passages"]] == [
        "azure",
        "aws",
    ]


async def test_a_sure_question_with_no_close_runner_up_sends_one_passage(
    library: Library,
) -> None:
    provider = CitingProvider()
    service = AnswerService(FixedRetriever(library, sure(library, 1)), provider, passages_sent=3)
    await service.ask("memory on azure?", Conversation())
    assert provider.sent == ["azure"]


async def test_the_passages_setting_caps_what_is_sent(library: Library) -> None:
    provider = CitingProvider()
    service = AnswerService(FixedRetriever(library, sure(library, 5)), provider, passages_sent=2)
    await service.ask("memory on azure?", Conversation())
    assert provider.sent == ["azure", "aws"]


async def test_deterministic_answers_list_their_runners_up_one_key_away(library: Library) -> None:
    service = AnswerService(FixedRetriever(library, sure(library, 1)))
    data = OutcomeRecord.of(await service.ask("memory on azure?", Conversation())).model_dump(
        mode="json"
    )
    assert data["passage_id"] == "azure"
    assert data["passages"][0]["id"] == "azure"
    assert len(data["passages"]) > 1


async def test_an_ambiguous_question_is_refused_with_its_candidates(library: Library) -> None:
    service = AnswerService(FixedRetriever(library, ambiguous(library)))
    outcome = await service.ask("memory size?", Conversation())
    data = OutcomeRecord.of(outcome).model_dump(mode="json")
    assert (data["outcome"], data["reason"]) == ("refused", "ambiguous")
    assert data["passage_id"] is None and data["answer"] is None
    assert [p["id"] for p in data["nearest"]] == ["aws", "azure", "google"]
    assert outcome.describe() == "not sure: 3 possible passages, best first"


async def test_in_model_mode_the_candidates_go_to_the_model_which_may_resolve_it(
    library: Library,
) -> None:
    provider = CitingProvider(cite="azure")
    service = AnswerService(FixedRetriever(library, ambiguous(library)), provider, passages_sent=3)
    outcome = await service.ask("memory size on azure?", Conversation())
    assert provider.sent == ["aws", "azure", "google"]
    data = OutcomeRecord.of(outcome).model_dump(mode="json")
    assert data["outcome"] == "answered" and data["reason"] is None
    assert data["passage_id"] == "azure" and data["citations"] == ["azure"]
    assert {p["id"] for p in data["passages"]} == {"aws", "azure", "google"}
    # Never dressed as a sure answer: the choice is said to be the model's.
    assert data["chosen_by"] == "model" and data["detail"] is None
    assert outcome.describe() == "answered by the model from 3 possible passages"


async def test_a_sure_question_answered_by_a_model_was_chosen_by_the_library(
    library: Library,
) -> None:
    service = AnswerService(FixedRetriever(library, sure(library, 2)), CitingProvider())
    outcome = await service.ask("memory on azure?", Conversation())
    data = OutcomeRecord.of(outcome).model_dump(mode="json")
    assert (data["chosen_by"], data["detail"]) == ("library", None)
    assert outcome.describe() == "answered"
    deterministic = AnswerService(FixedRetriever(library, sure(library, 1)))
    data = OutcomeRecord.of(await deterministic.ask("memory on azure?", Conversation())).model_dump(
        mode="json"
    )
    assert data["chosen_by"] == "library"
    refused = AnswerService(FixedRetriever(library, ambiguous(library)))
    data = OutcomeRecord.of(await refused.ask("memory size?", Conversation())).model_dump(
        mode="json"
    )
    assert (data["chosen_by"], data["detail"]) == (None, None)


async def test_a_model_answer_failing_the_checks_leaves_the_ambiguous_refusal(
    library: Library,
) -> None:
    provider = CitingProvider(cite="plugins")  # not one of the candidates sent
    service = AnswerService(FixedRetriever(library, ambiguous(library)), provider, passages_sent=3)
    outcome = await service.ask("memory size?", Conversation())
    data = OutcomeRecord.of(outcome).model_dump(mode="json")
    assert (data["outcome"], data["reason"]) == ("refused", "ambiguous")
    assert data["passage_id"] is None
    assert [p["id"] for p in data["nearest"]] == ["aws", "azure", "google"]
    assert data["chosen_by"] is None
    assert data["detail"] == "cites a passage it was not sent"


async def test_a_provider_failure_on_an_ambiguous_question_keeps_its_reason(
    library: Library,
) -> None:
    failure = ProviderFailure(Reason.PROVIDER_ERROR, "HTTP 500")
    provider = CitingProvider(failure=failure)
    service = AnswerService(FixedRetriever(library, ambiguous(library)), provider)
    outcome = await service.ask("memory size?", Conversation())
    assert outcome.kind is OutcomeKind.REFUSED and outcome.reason is Reason.PROVIDER_ERROR
    assert OutcomeRecord.of(outcome).model_dump(mode="json")["passage_id"] is None
    assert OutcomeRecord.of(outcome).model_dump(mode="json")["detail"] == "HTTP 500"
    assert [p.id for p in outcome.nearest] == ["aws", "azure", "google"]


class HangingProvider:
    """Never answers: the question is cancelled while the model thinks."""

    def __init__(self) -> None:
        self.started = asyncio.Event()

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        self.started.set()
        await asyncio.Event().wait()
        raise AssertionError("never answers")


async def test_an_ambiguous_question_cancelled_keeps_its_candidates_and_no_passage(
    library: Library,
) -> None:
    provider = HangingProvider()
    service = AnswerService(FixedRetriever(library, ambiguous(library)), provider)
    step = service.start("memory size?", Conversation())
    assert isinstance(step, PendingAnswer)
    asking = asyncio.ensure_future(service.finish(step))
    await provider.started.wait()
    asking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asking
    outcome = service.cancelled(step)
    assert (outcome.kind, outcome.reason) == (OutcomeKind.CANCELLED, Reason.CANCELLED)
    assert outcome.evidence is None
    assert OutcomeRecord.of(outcome).model_dump(mode="json")["detail"] is None
    assert [p.id for p in outcome.nearest] == ["aws", "azure", "google"]
    # What the TUI calls for the same cancel is the same outcome.
    pending = service.start("memory size?", Conversation())
    assert isinstance(pending, PendingAnswer)
    assert replace(service.cancelled(pending), elapsed_ms=0) == replace(outcome, elapsed_ms=0)


class BrokenProvider:
    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        raise KeyError("a bug in the provider")


async def test_a_provider_bug_ends_as_a_refusal_not_a_crash(library: Library) -> None:
    service = AnswerService(FixedRetriever(library, ambiguous(library)), BrokenProvider())
    outcome = await service.ask("memory size?", Conversation())
    assert (outcome.kind, outcome.reason) == (OutcomeKind.REFUSED, Reason.PROVIDER_ERROR)
    assert outcome.detail == "unexpected KeyError"
    assert outcome.evidence is None
    assert [p.id for p in outcome.nearest] == ["aws", "azure", "google"]


async def test_the_model_picks_among_candidates_and_its_answer_says_it_is_a_models(
    library: Library,
) -> None:
    provider = CitingProvider(cite="azure")
    service = AnswerService(FixedRetriever(library, ambiguous(library)), provider)
    outcome = await service.ask("memory size on azure?", Conversation())
    assert outcome.evidence is not None and outcome.evidence.model_picks
    assert outcome.from_model
    deterministic = await AnswerService(FixedRetriever(library, sure(library, 1))).ask(
        "memory on azure?", Conversation()
    )
    assert deterministic.evidence is not None and not deterministic.evidence.model_picks
    assert not deterministic.from_model


@pytest.mark.parametrize("mode", ["keyword", "ranked"])
async def test_every_mode_sends_a_sure_answer_without_runners_up_that_share_a_word(
    mode: str,
) -> None:
    from tui_assistant.core.retrieval.keyword import KeywordRetriever
    from tui_assistant.core.retrieval.ranked import RankedRetriever

    cooking = library_of(
        Passage(id=pid, title=title, text=text, source_path=f"lessons/{pid}.md")
        for pid, title, text in [
            ("pasta", "Pasta water", "Salt the pasta water with ten grams of salt per litre."),
            ("eggs", "Boiled eggs", "Boil the eggs in salted water for six minutes."),
            ("rice", "Rice", "Rinse the rice, then simmer it in salted water."),
        ]
    )
    retriever = KeywordRetriever(cooking) if mode == "keyword" else RankedRetriever(cooking)
    provider = CitingProvider()
    service = AnswerService(retriever, provider, passages_sent=3)
    outcome = await service.ask("How many grams of salt per litre of pasta water?", Conversation())
    assert outcome.answered
    # The others hold "salt" and "water" too: one key away on screen, never sent.
    assert provider.sent == ["pasta"]
    assert len(outcome.evidence.passages if outcome.evidence else ()) > 1
