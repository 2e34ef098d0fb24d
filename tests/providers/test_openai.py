"""The OpenAI-compatible adapter through the answer service.

respx stands in for the server where only the HTTP exchange matters; the loopback
fake server is used where real sockets matter (deadlines, cancellation, huge bodies).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import httpx
import pytest
import respx
from pydantic import SecretStr as Secret

from tests.helpers import memory_library
from tests.helpers.fake_openai_server import (
    CloseMidBody,
    Drip,
    FakeOpenAIServer,
    Hang,
    HugeBody,
    Redirect,
)
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.library.library import Library
from tui_assistant.core.outcome import Outcome, OutcomeKind, Reason
from tui_assistant.core.record import OutcomeRecord
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.types import Retriever
from tui_assistant.core.service import AnswerService, PendingAnswer
from tui_assistant.providers.openai import (
    MAX_RESPONSE_BYTES,
    OpenAIProvider,
    chat_completions_url,
    new_http_client,
    without_key,
)
from tui_assistant.store.ledger import CallLedger

BASE_URL = "https://models.example.test/v1"
API_KEY = "sk-test-very-secret-123"
PASTA_QUESTION = "How much salt goes in pasta water?"
EGG_QUESTION = "How long should I boil eggs for a runny yolk?"

LESSONS = {
    "pasta-water": ("Salting pasta water", "Use about 10 grams of salt per litre of water."),
    "boiled-eggs": ("Boiling eggs", "For a runny yolk cook large eggs for 6 minutes."),
}


def completion(content: object) -> dict[str, object]:
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}


@pytest.fixture
def library(make_library: Callable[[Mapping[str, tuple[str, str]]], Path]) -> Library:
    return memory_library(make_library(LESSONS))


def make_service(
    library: Library,
    base_url: str = BASE_URL,
    api_key: str | None = API_KEY,
    deadline: float = 5.0,
    ledger: CallLedger | None = None,
    retriever: Retriever | None = None,
) -> AnswerService:
    provider = OpenAIProvider(
        client=new_http_client(deadline),
        base_url=base_url,
        model="test-model",
        api_key=Secret(api_key) if api_key is not None else None,
        ledger=ledger,
    )
    return AnswerService(
        retriever or KeywordRetriever(library), provider, deadline_seconds=deadline
    )


async def ask(service: AnswerService, question: str = PASTA_QUESTION) -> Outcome:
    try:
        return await service.ask(question, Conversation())
    finally:
        assert service.provider is not None
        await service.provider.aclose()  # type: ignore[attr-defined]


# -- the request --------------------------------------------------------------------


@respx.mock
async def test_cited_answer_is_accepted_and_the_request_holds_only_the_one_passage(
    library: Library,
) -> None:
    # An earlier model turn about eggs: none of it may reach the second request.
    route = respx.post(f"{BASE_URL}/chat/completions")
    route.side_effect = [
        httpx.Response(200, json=completion("Six minutes. [source:boiled-eggs]")),
        httpx.Response(200, json=completion("Use about 10 grams per litre. [source:pasta-water]")),
    ]
    service = make_service(library)
    conversation = Conversation()
    first = await service.ask(EGG_QUESTION, conversation)
    outcome = await service.ask(PASTA_QUESTION, conversation)
    await service.provider.aclose()  # type: ignore[union-attr]

    assert first.kind is OutcomeKind.ANSWERED
    assert outcome.kind is OutcomeKind.ANSWERED
    assert outcome.answer == "Use about 10 grams per litre. [source:pasta-water]"
    assert outcome.citations == ("pasta-water",)
    assert outcome.evidence is not None
    assert outcome.evidence.passage.source_path.endswith("pasta-water.md")

    request = route.calls[1].request
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    body = json.loads(request.content)
    assert body["model"] == "test-model"
    messages = body["messages"]
    assert messages[0]["role"] == "system"
    assert "citations" in messages[0]["content"]
    assert body["response_format"]["type"] == "json_schema"
    assert messages[-1]["role"] == "user"
    payload = json.loads(messages[-1]["content"])
    assert payload["question"] == PASTA_QUESTION
    assert [passage["id"] for passage in payload["passages"]] == ["pasta-water"]
    assert "10 grams of salt per litre" in payload["passages"][0]["text"]
    text = request.content.decode()
    for earlier in (EGG_QUESTION, "runny yolk", "Six minutes", "boiled-eggs"):
        assert earlier not in text


@pytest.mark.parametrize(
    ("base_url", "expected"),
    [
        ("https://h.test/v1", "https://h.test/v1/chat/completions"),
        ("https://h.test/v1/", "https://h.test/v1/chat/completions"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/chat/completions"),
    ],
)
def test_chat_completions_url_neither_doubles_nor_loses_a_slash(
    base_url: str, expected: str
) -> None:
    assert chat_completions_url(base_url) == expected


# -- the citation check on real responses ------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param("Use about 10 grams per litre.", id="no-citation"),
        pytest.param("Use 10 grams. [source:boiled-eggs]", id="another-lesson"),
        pytest.param("Use 10 grams. [source:salt-guide]", id="invented-id"),
        pytest.param("Use 10 g. [source:pasta-water] [source:salt-guide]", id="valid-and-invented"),
        pytest.param("Use 10 grams. [source:Pasta-Water]", id="wrong-case"),
        pytest.param("   \n", id="blank"),
        pytest.param("salt " * 3300 + "[source:pasta-water]", id="over-16000-chars"),
    ],
)
@respx.mock
async def test_an_answer_that_fails_the_citation_check_is_refused_unverified(
    library: Library, answer: str
) -> None:
    respx.post(f"{BASE_URL}/chat/completions").respond(json=completion(answer))
    outcome = await ask(make_service(library))
    assert outcome.kind is OutcomeKind.REFUSED
    assert outcome.reason is Reason.UNVERIFIED
    assert outcome.answer is None
    assert OutcomeRecord.of(outcome).model_dump(mode="json")["lesson_id"] == "pasta-water"


# -- provider errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "detail"),
    [
        pytest.param(httpx.Response(500, text="boom from upstream"), "HTTP 500", id="500"),
        pytest.param(httpx.Response(429, text="slow down, upstream"), "HTTP 429", id="429"),
        pytest.param(httpx.Response(401, text="bad key upstream"), "HTTP 401", id="401"),
        pytest.param(
            httpx.Response(302, headers={"location": "https://elsewhere.test/"}),
            "HTTP 302",
            id="redirect",
        ),
        pytest.param(httpx.Response(200, text="<html>upstream</html>"), "not JSON", id="not-json"),
        pytest.param(httpx.Response(200, json={"choices": []}), "no choices", id="no-choices"),
        pytest.param(httpx.Response(200, json={"upstream": 1}), "no choices", id="no-choices-key"),
        pytest.param(httpx.Response(200, json=completion(None)), "no answer text", id="null"),
        pytest.param(httpx.Response(200, json=completion(42)), "no answer text", id="number"),
        pytest.param(httpx.Response(200, json=["upstream"]), "no choices", id="json-list"),
    ],
)
@respx.mock
async def test_a_bad_response_is_refused_as_provider_error_in_plain_words(
    library: Library, response: httpx.Response, detail: str
) -> None:
    respx.post(f"{BASE_URL}/chat/completions").mock(return_value=response)
    outcome = await ask(make_service(library))
    assert outcome.kind is OutcomeKind.REFUSED
    assert outcome.reason is Reason.PROVIDER_ERROR
    assert outcome.detail is not None and detail in outcome.detail
    # Provider text is never echoed to the user.
    assert "upstream" not in outcome.describe()
    assert outcome.answer is None


@respx.mock
async def test_a_transport_error_is_a_provider_error(library: Library) -> None:
    respx.post(f"{BASE_URL}/chat/completions").mock(side_effect=httpx.ConnectError("refused"))
    outcome = await ask(make_service(library))
    assert outcome.reason is Reason.PROVIDER_ERROR
    assert outcome.detail == "could not connect to the server"


@pytest.mark.parametrize("key", [None, "", "   "])
@respx.mock
async def test_missing_api_key_refuses_without_any_request(
    library: Library, key: str | None
) -> None:
    route = respx.post(f"{BASE_URL}/chat/completions").respond(json=completion("x"))
    outcome = await ask(make_service(library, api_key=key))
    assert outcome.reason is Reason.MISSING_API_KEY
    assert outcome.evidence is not None  # retrieval still ran and is shown
    assert not route.called


@respx.mock
async def test_the_key_appears_in_no_outcome_detail_or_repr(library: Library) -> None:
    respx.post(f"{BASE_URL}/chat/completions").respond(401, text=f"bad key {API_KEY}")
    service = make_service(library)
    outcome = await ask(service)
    shown = " ".join(
        [
            repr(service.provider),
            outcome.describe(),
            json.dumps(OutcomeRecord.of(outcome).model_dump(mode="json")),
        ]
    )
    assert API_KEY not in shown
    assert outcome.reason is Reason.PROVIDER_ERROR
    assert OutcomeRecord.of(outcome).detail == "HTTP 401: the server refused the API key"


@respx.mock
async def test_a_quote_of_the_key_is_named_in_the_refusal_without_the_key(
    library: Library,
) -> None:
    answer = f'Your key is "Bearer {API_KEY} ok" [source:pasta-water]'
    respx.post(f"{BASE_URL}/chat/completions").respond(json=completion(answer))

    outcome = await ask(make_service(library))

    record = OutcomeRecord.of(outcome).model_dump(mode="json")
    assert record["reason"] == "unverified"
    assert record["detail"] == 'quote not in the passage: "Bearer [API key] ok"'
    assert API_KEY not in json.dumps(record) and API_KEY not in outcome.describe()


@respx.mock
async def test_past_the_monthly_limit_the_call_is_refused_without_a_request(
    library: Library, tmp_path: Path
) -> None:
    route = respx.post(f"{BASE_URL}/chat/completions").respond(
        json=completion("Use 10 grams. [source:pasta-water]")
    )
    service = make_service(library, ledger=CallLedger(tmp_path / "data", limit=2))
    conversation = Conversation()
    outcomes = [await service.ask(PASTA_QUESTION, conversation) for _ in range(3)]
    await service.provider.aclose()  # type: ignore[union-attr]
    assert [outcome.kind for outcome in outcomes[:2]] == [OutcomeKind.ANSWERED] * 2
    assert outcomes[2].reason is Reason.QUOTA_EXHAUSTED
    assert route.call_count == 2


@respx.mock
async def test_an_unusable_ledger_refuses_rather_than_sending_uncounted(
    library: Library, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    route = respx.post(f"{BASE_URL}/chat/completions").respond(json=completion("x"))
    outcome = await ask(make_service(library, ledger=CallLedger(blocker, limit=5)))
    assert outcome.reason is Reason.QUOTA_EXHAUSTED
    assert outcome.detail == "the call ledger could not be read or written"
    assert not route.called


# -- real sockets: body cap, broken bodies, redirects -----------------------------


async def test_a_huge_body_is_refused_without_reading_it_all(library: Library) -> None:
    with FakeOpenAIServer(HugeBody(size=20 * 1024 * 1024)) as server:
        outcome = await ask(make_service(library, base_url=server.base_url))
        assert server.requests[0].disconnected.wait(5)
        sent = server.requests[0].bytes_sent
    assert outcome.reason is Reason.PROVIDER_ERROR
    assert outcome.detail is not None and "larger than" in outcome.detail
    # The client hung up soon after the cap; most of the 20 MB was never sent.
    assert MAX_RESPONSE_BYTES < sent < 10 * 1024 * 1024


async def test_a_body_cut_off_midway_is_a_provider_error(library: Library) -> None:
    with FakeOpenAIServer(CloseMidBody()) as server:
        outcome = await ask(make_service(library, base_url=server.base_url))
    assert outcome.reason is Reason.PROVIDER_ERROR
    assert outcome.detail == "the connection broke before the answer was complete"


async def test_a_redirect_is_not_followed(library: Library) -> None:
    with FakeOpenAIServer() as target:
        with FakeOpenAIServer(Redirect(f"{target.base_url}/chat/completions")) as server:
            outcome = await ask(make_service(library, base_url=server.base_url))
            assert server.request_count == 1
        assert target.request_count == 0
    assert outcome.reason is Reason.PROVIDER_ERROR


# -- deadline versus cancellation --------------------------------------------------

SHORT_DEADLINE = 0.6


@pytest.mark.parametrize(
    "behaviour",
    [pytest.param(Hang(), id="hanging"), pytest.param(Drip(interval=0.1), id="slow-drip")],
)
async def test_a_stalled_response_ends_timed_out_close_to_the_deadline(
    library: Library, behaviour: Hang | Drip
) -> None:
    with FakeOpenAIServer(behaviour) as server:
        started = time.monotonic()
        outcome = await ask(
            make_service(library, base_url=server.base_url, deadline=SHORT_DEADLINE)
        )
        elapsed = time.monotonic() - started
        # The connection is closed when the deadline passes, not left dangling.
        assert server.requests[0].disconnected.wait(2)
    assert outcome.kind is OutcomeKind.TIMED_OUT
    assert outcome.reason is Reason.TIMEOUT
    assert outcome.answer is None
    assert OutcomeRecord.of(outcome).model_dump(mode="json")["lesson_id"] == "pasta-water"
    assert SHORT_DEADLINE <= elapsed < SHORT_DEADLINE + 0.8
    if isinstance(behaviour, Drip):
        # Bytes kept arriving (each well within any per-read timeout); only the total stopped it.
        assert server.requests[0].bytes_sent >= 3


async def test_cancelling_the_call_ends_cancelled_not_timed_out(library: Library) -> None:
    with FakeOpenAIServer(Hang()) as server:
        service = make_service(library, base_url=server.base_url, deadline=10)
        step = service.start(PASTA_QUESTION, Conversation())
        assert isinstance(step, PendingAnswer)
        task = asyncio.create_task(service.finish(step))
        assert await asyncio.to_thread(server.wait_for_requests, 1, 5)
        assert not task.done()
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
        stopped_after = time.monotonic() - started
        # Aborted at once: the server sees the connection close, long before the deadline.
        assert await asyncio.to_thread(server.requests[0].disconnected.wait, 2)
        assert service.provider is not None
        await service.provider.aclose()  # type: ignore[attr-defined]
    assert stopped_after < 1.0
    recorded = service.cancelled(step)
    assert recorded.kind is OutcomeKind.CANCELLED
    assert recorded.reason is Reason.CANCELLED
    assert recorded.answer is None


# -- the loopback fake server itself (other test files rely on it) ------------------


def test_the_fake_server_stops_cleanly_while_a_request_hangs() -> None:
    server = FakeOpenAIServer(Hang()).start()
    body = b'{"messages": []}'
    head = f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as client:
        client.sendall(head.encode() + body)
        assert server.wait_for_requests(1)
        server.stop()
        assert client.recv(100) == b""  # the server closed the hanging connection
    assert server.requests[0].json() == {"messages": []}
    assert not [thread for thread in threading.enumerate() if thread.name == "fake-openai-server"]


def test_the_key_is_replaced_in_an_answer_but_a_placeholder_key_changes_no_word() -> None:
    assert without_key(f"key {API_KEY}, again {API_KEY}.", API_KEY) == (
        "key [API key], again [API key]."
    )
    # `ollama`, `local`, `k`: values for servers that ignore the key, not secrets.
    assert without_key("Run ollama locally, keep it local.", "ollama") == (
        "Run ollama locally, keep it local."
    )
