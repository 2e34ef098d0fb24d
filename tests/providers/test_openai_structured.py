"""Structured answers (`response_format` with a JSON schema) over several passages:
the request, hostile answers, and servers that do not take structured output."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import httpx
import pytest
import respx

from tests.helpers import memory_library
from tests.providers.test_openai import (
    BASE_URL,
    LESSONS,
    PASTA_QUESTION,
    ask,
    completion,
    make_service,
)
from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.checks.quotes import NOT_IN_PASSAGE, TOO_LONG
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.library.library import Library
from tui_assistant.core.outcome import OutcomeKind, Reason
from tui_assistant.core.record import OutcomeRecord, QuoteRef
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.errors import ProviderFailure
from tui_assistant.providers.openai import structured_answer
from tui_assistant.store.ledger import CallLedger


@pytest.fixture
def library(make_library: Callable[[Mapping[str, tuple[str, str]]], Path]) -> Library:
    return memory_library(make_library(LESSONS))


# -- structured answers over several passages ----------------------------------------


class BothPassages(KeywordRetriever):
    """Retrieval that sends both passages, pasta first."""

    def retrieve(self, question: str, count: int = 1) -> Evidence:
        passages = (self.library.get("pasta-water"), self.library.get("boiled-eggs"))
        return Evidence(tuple(p for p in passages if p), ("salt",), 2.0, 1.0)


def cited(*citations: tuple[str, str], answer: str = "Salt the water; boil eggs 6 minutes.") -> str:
    return json.dumps(
        {"answer": answer, "citations": [{"id": i, "quote": q} for i, q in citations]}
    )


PASTA_QUOTE = ("pasta-water", "about 10 grams of salt per litre")
EGG_QUOTE = ("boiled-eggs", "cook large eggs for 6 minutes")


@respx.mock
async def test_a_structured_answer_from_two_passages_carries_quotes_with_file_lines(
    library: Library,
) -> None:
    route = respx.post(f"{BASE_URL}/chat/completions")
    route.respond(json=completion(cited(PASTA_QUOTE, EGG_QUOTE)))

    outcome = await ask(make_service(library, retriever=BothPassages(library)))

    body = json.loads(route.calls[0].request.content)
    sent = json.loads(body["messages"][-1]["content"])["passages"]
    assert [sorted(passage) for passage in sent] == [["id", "text"]] * 2
    assert [passage["id"] for passage in sent] == ["pasta-water", "boiled-eggs"]
    assert sent[1]["text"].startswith("Boiling eggs\n")
    schema = body["response_format"]["json_schema"]["schema"]
    choices = schema["properties"]["citations"]["items"]["anyOf"]
    # A citation can only be a passage sent, quoting one of that passage's own sentences.
    assert [choice["properties"]["id"]["enum"] for choice in choices] == [
        ["pasta-water"],
        ["boiled-eggs"],
    ]
    texts = {passage["id"]: " ".join(passage["text"].split()) for passage in sent}
    for choice in choices:
        (passage_id,) = choice["properties"]["id"]["enum"]
        quotes = choice["properties"]["quote"]["enum"]
        assert quotes and all(quote in texts[passage_id] for quote in quotes)
    assert outcome.kind is OutcomeKind.ANSWERED
    assert outcome.citations == ("pasta-water", "boiled-eggs")
    # Each lesson file is "# Title", a blank line, then the text on line 3.
    assert [QuoteRef.of(quote).model_dump() for quote in outcome.quotes] == [
        {
            "passage_id": "pasta-water",
            "text": PASTA_QUOTE[1],
            "line": 3,
            "end_line": 3,
            "page": None,
            "end_page": None,
        },
        {
            "passage_id": "boiled-eggs",
            "text": EGG_QUOTE[1],
            "line": 3,
            "end_line": 3,
            "page": None,
            "end_page": None,
        },
    ]


@pytest.mark.parametrize(
    ("content", "detail"),
    [
        pytest.param(cited(("pasta-water", "a pinch of sugar")), NOT_IN_PASSAGE, id="in-none"),
        pytest.param(cited(("pasta-water", EGG_QUOTE[1])), NOT_IN_PASSAGE, id="wrong-passage"),
        pytest.param(cited(("knife-care", "hone it with a steel")), "not sent", id="id-not-sent"),
        pytest.param(cited(*[PASTA_QUOTE] * 50), "more than 20", id="50-quotes"),
        pytest.param(cited(("pasta-water", "salt " * 2000)), TOO_LONG, id="10000-chars"),
        pytest.param(
            json.dumps({"answer": "x", "citations": [], "note": "[source:knife-care]"}),
            "fields",
            id="extra-field",
        ),
        pytest.param(
            json.dumps({"citations": [dict(zip(("id", "quote"), PASTA_QUOTE, strict=True))]}),
            "fields",
            id="missing-field",
        ),
    ],
)
@respx.mock
async def test_a_hostile_structured_answer_is_refused_with_a_reason(
    library: Library, content: str, detail: str
) -> None:
    respx.post(f"{BASE_URL}/chat/completions").respond(json=completion(content))

    outcome = await ask(make_service(library, retriever=BothPassages(library)))

    assert outcome.reason is Reason.UNVERIFIED
    assert outcome.detail is not None and detail in outcome.detail
    assert (
        outcome.answer is None and OutcomeRecord.of(outcome).model_dump(mode="json")["quotes"] == []
    )


def test_a_structured_reply_is_decoded_into_its_text_and_pairs_as_given() -> None:
    content = cited(("pasta-water", 'say "hi". [source:knife-care]'), ("boiled-eggs", ""))

    assert structured_answer(content) == ModelAnswer(
        "Salt the water; boil eggs 6 minutes.",
        (("pasta-water", 'say "hi". [source:knife-care]'), ("boiled-eggs", "")),
    )


def test_content_that_is_not_a_json_object_is_plain_text() -> None:
    for content in ("Use a scope [source:npm/config].", '"quoted" [source:x]', "[1, 2]"):
        assert structured_answer(content) == ModelAnswer(content)


@pytest.mark.parametrize(
    ("content", "detail"),
    [
        (json.dumps({"answer": "x", "citations": [], "sources": ["y"]}), "exactly its two"),
        (json.dumps({"answer": "x"}), "exactly its two"),
        (json.dumps({"answer": 3, "citations": []}), "wrong type"),
        (json.dumps({"answer": "x", "citations": [{"id": "a"}]}), "not an id and a quote"),
        (cited(("a", "b")).replace('"quote"', '"why": "c", "quote"'), "not an id and a quote"),
        (json.dumps({"answer": "x", "citations": [{"id": 1, "quote": "b"}]}), "not an id"),
        (cited(*[PASTA_QUOTE] * 50), "more than 20"),
    ],
    ids=["extra field", "missing field", "wrong type", "no quote", "extra", "id type", "50"],
)
def test_a_structured_reply_off_its_schema_is_refused_with_a_reason(
    content: str, detail: str
) -> None:
    with pytest.raises(ProviderFailure) as raised:
        structured_answer(content)

    assert raised.value.reason is Reason.UNVERIFIED
    assert raised.value.detail is not None and detail in raised.value.detail


def response_formats(route: respx.Route) -> list[str | None]:
    """The `response_format` type of every request sent, None for plain text."""
    bodies = [json.loads(call.request.content) for call in route.calls]
    return [body.get("response_format", {}).get("type") for body in bodies]


# llama-cpp-python's server answers a `json_schema` response format with a 500 naming it.
@pytest.mark.parametrize("status", [400, 422, 500])
@respx.mock
async def test_a_server_without_structured_output_gets_plain_text_from_then_on(
    library: Library, tmp_path: Path, status: int
) -> None:
    route = respx.post(f"{BASE_URL}/chat/completions")
    plain = completion('Use "about 10 grams of salt" per litre. [source:pasta-water]')
    rejected = httpx.Response(status, json={"error": "response_format"})
    route.side_effect = [rejected, rejected] + [httpx.Response(200, json=plain)] * 2
    ledger = CallLedger(tmp_path / "data", limit=5)
    service = make_service(library, ledger=ledger)
    conversation = Conversation()

    outcomes = [await service.ask(PASTA_QUESTION, conversation) for _ in range(2)]
    await service.provider.aclose()  # type: ignore[union-attr]

    assert [outcome.kind for outcome in outcomes] == [OutcomeKind.ANSWERED] * 2
    assert outcomes[0].quotes[0].text == "about 10 grams of salt"
    # OpenAI's schema form, then llama-cpp-python's, then plain text from then on.
    assert response_formats(route) == ["json_schema", "json_object", None, None]
    # A retry is a call like any other: four are counted, one remains this month.
    assert [ledger.try_record_call() for _ in range(2)] == [True, False]


@respx.mock
async def test_a_server_taking_only_the_schema_in_json_object_keeps_using_it(
    library: Library,
) -> None:
    route = respx.post(f"{BASE_URL}/chat/completions")
    structured = completion(
        json.dumps(
            {
                "answer": "Use about 10 grams per litre.",
                "citations": [{"id": "pasta-water", "quote": "about 10 grams of salt"}],
            }
        )
    )
    rejected = httpx.Response(500, json={"detail": "response_format.type: 'json_schema'"})
    route.side_effect = [rejected] + [httpx.Response(200, json=structured)] * 2
    service = make_service(library)
    conversation = Conversation()

    outcomes = [await service.ask(PASTA_QUESTION, conversation) for _ in range(2)]
    await service.provider.aclose()  # type: ignore[union-attr]

    assert [outcome.kind for outcome in outcomes] == [OutcomeKind.ANSWERED] * 2
    assert response_formats(route) == ["json_schema", "json_object", "json_object"]
    assert outcomes[1].quotes[0].text == "about 10 grams of salt"
