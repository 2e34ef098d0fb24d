"""The OpenAI-compatible chat-completions adapter: passages out, a `ModelAnswer` back.

What it guarantees, whatever the server does:
- no request without an API key, and none past the monthly call limit (the call is
  recorded in the ledger before the request is sent);
- the request carries one system message, optionally one fixed synthetic example
  exchange, and one user message holding the question and the passages it was given,
  each as its id, title path and text. Never other passages, never earlier turns;
- the service's one deadline covers the whole call, the ledger's wait included
  (httpx's own timeouts are per operation, so a server dripping a byte a second would
  never trip them); when it passes, the request is cancelled and the connection closed;
- cancellation is never caught: `CancelledError` passes through, and leaving the
  `client.stream(...)` block closes the connection at once;
- redirects are not followed, and the body is streamed in with a size cap, so a huge
  response is refused without being held in memory;
- failure details are plain words ("HTTP 500"), never provider text, never the key;
  an answer that holds the key has it replaced before anything reads it.

It asks for a structured answer (`response_format` with a JSON schema) and decodes one
here into its text and its (passage id, quote) pairs; a server without structured
output gets plain text, returned as it is (markers and quotes inline). The citation and
quote checks happen in the service, not here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, Final, Protocol

import httpx
from pydantic import SecretStr

from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.checks.quotes import MAX_QUOTES
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import Reason
from tui_assistant.errors import LedgerUnavailable, ProviderFailure
from tui_assistant.providers.prompt import build_messages, response_format

MAX_RESPONSE_BYTES: Final = 1024 * 1024
# What stands in an answer where the server wrote the API key.
REDACTED_KEY: Final = "[API key]"
# Shorter values are placeholders for servers that ignore the key (`ollama`, `local`):
# replacing them would change ordinary words of an answer, and they keep nothing secret.
MIN_REDACTED_KEY_CHARS: Final = 12
# Statuses after which a structured request is tried once more as plain text (and a 500
# whose body names `response_format`: llama-cpp-python's server answers that way).
REJECTED_REQUEST_STATUSES: Final = frozenset({400, 422})
REJECTION_SNIFF_BYTES: Final = 16 * 1024
# The forms of `response_format` tried in turn: OpenAI's, then llama-cpp-python's.
STRUCTURED_FORMATS: Final = ("json_schema", "json_object")
# Answers longer than the citation check's 16,000 characters are refused anyway; this
# keeps a rambling model from using the whole deadline.
MAX_ANSWER_TOKENS: Final = 512


def chat_completions_url(base_url: str) -> str:
    """`{base_url}/chat/completions` without doubling or losing a slash."""
    return base_url.rstrip("/") + "/chat/completions"


def parse_answer(body: bytes) -> str:
    """Pure: `choices[0].message.content` of a chat-completions response body.

    Raises `ProviderFailure(provider_error)` for anything else; the detail never
    quotes the body.
    """
    try:
        data: Any = json.loads(body)
    except ValueError:  # also covers bytes that are not UTF-8
        raise _provider_error("the response is not JSON") from None
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices:
        raise _provider_error("the response has no choices")
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        raise _provider_error("the response has no answer text")
    return content


def without_key(content: str, key: str) -> str:
    """Pure: `content` with every copy of the API key replaced: a server can put the key
    it was sent in its answer, and from here on (the answer, a quote named in a
    refusal's reason) it is never the key."""
    if len(key) < MIN_REDACTED_KEY_CHARS:
        return content
    return content.replace(key, REDACTED_KEY)


def structured_answer(content: str) -> ModelAnswer:
    """Pure: the answer in a structured reply's content (`{"answer", "citations": [{"id",
    "quote"}]}`), as its text and (id, quote) pairs. Content that is not a JSON object
    is plain text: the server answered without the schema.

    Raises `ProviderFailure(unverified)` for a JSON object that is not the schema
    (fields missing, extra or of the wrong type, more citations than quotes allowed).
    """
    try:
        data: Any = json.loads(content)
    except ValueError:
        return ModelAnswer(content)
    if not isinstance(data, dict):
        return ModelAnswer(content)
    if set(data) != {"answer", "citations"}:
        raise _schema_failure("the structured answer does not have exactly its two fields")
    answer, citations = data["answer"], data["citations"]
    if not isinstance(answer, str) or not isinstance(citations, list):
        raise _schema_failure("the structured answer has a field of the wrong type")
    if len(citations) > MAX_QUOTES:
        raise _schema_failure(f"more than {MAX_QUOTES} citations")
    pairs: list[tuple[str, str]] = []
    for citation in citations:
        if not (
            isinstance(citation, dict)
            and set(citation) == {"id", "quote"}
            and isinstance(citation["id"], str)
            and isinstance(citation["quote"], str)
        ):
            raise _schema_failure("a citation of the structured answer is not an id and a quote")
        pairs.append((citation["id"], citation["quote"]))
    return ModelAnswer(answer, tuple(pairs))


def new_http_client(deadline_seconds: float) -> httpx.AsyncClient:
    """The one client of an app run. Never follows redirects.

    Its per-operation timeout sits just above the deadline: the deadline is enforced by
    `asyncio.timeout` around the whole call, this is only a backstop.
    """
    return httpx.AsyncClient(
        follow_redirects=False,
        timeout=httpx.Timeout(deadline_seconds + 1.0),
    )


class CallCounter(Protocol):
    """The monthly call ledger as the provider sees it (`store.ledger.CallLedger` is
    it): the providers stand beside the store and never import it."""

    limit: int

    def try_record_call(self) -> bool: ...


class OpenAIProvider:
    """`AnswerProvider` for any OpenAI-compatible `/chat/completions` endpoint."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        base_url: str,
        model: str,
        api_key: SecretStr | None,
        ledger: CallCounter | None = None,
        with_example: bool = True,
        structured: bool = True,
    ) -> None:
        self.client = client
        self.url = chat_completions_url(base_url)
        self.model = model
        self._api_key = api_key
        self.ledger = ledger
        self.with_example = with_example
        # Whether to ask for a structured answer; turned off for good once the server
        # rejects `response_format`, so only the first question pays for finding out.
        self.structured = structured
        # The structured forms still to try, the most widely taken first.
        self._formats = list(STRUCTURED_FORMATS)

    def __repr__(self) -> str:
        # Spelled out so the key can never reach a log through a repr.
        return f"OpenAIProvider(url={self.url!r}, model={self.model!r})"

    def request_body(
        self, question: str, passages: Sequence[Passage], structured: bool = False
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": build_messages(question, passages, self.with_example, structured),
            "temperature": 0,
            "max_tokens": MAX_ANSWER_TOKENS,
            "stream": False,
        }
        if structured:
            kind = self._formats[0] if self._formats else STRUCTURED_FORMATS[0]
            body["response_format"] = response_format(passages, kind)
        return body

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        """The answer: a structured one's text and pairs, or plain text as it came.

        A structured request the server rejects (HTTP 400 or 422, or a 500 naming
        `response_format`) is sent again at once
        without `response_format` (a second call, counted in the ledger, within the
        same deadline), and later questions go as plain text straight away.
        """
        key = self._api_key.get_secret_value().strip() if self._api_key else ""
        if not key:
            raise ProviderFailure(Reason.MISSING_API_KEY)
        while True:
            structured = self.structured
            await self._record_call()
            try:
                raw = await self._post(self.request_body(question, passages, structured), key)
                break
            except _BadRequest:
                if not structured:
                    raise
                # This server does not take that form: the next one, else plain text.
                self._formats.pop(0)
                self.structured = bool(self._formats)
        content = without_key(parse_answer(raw), key)
        return structured_answer(content) if structured else ModelAnswer(content)

    async def aclose(self) -> None:
        await self.client.aclose()

    async def _record_call(self) -> None:
        if self.ledger is None:
            return
        try:
            allowed = await asyncio.to_thread(self.ledger.try_record_call)
        except LedgerUnavailable:
            # Unable to count means unable to keep the limit: refuse rather than overspend.
            raise ProviderFailure(
                Reason.QUOTA_EXHAUSTED, "the call ledger could not be read or written"
            ) from None
        if not allowed:
            raise ProviderFailure(
                Reason.QUOTA_EXHAUSTED, f"{self.ledger.limit} calls this month already"
            )

    async def _post(self, body: dict[str, Any], key: str) -> bytes:
        headers = {"Authorization": f"Bearer {key}", "Accept": "application/json"}
        try:
            async with self.client.stream("POST", self.url, json=body, headers=headers) as response:
                if response.status_code == 500 and "response_format" in body:
                    # Some servers (llama-cpp-python's) fail a schema they do not take
                    # with a 500 that names it: a rejected request, not a broken server.
                    start = await first_bytes(response, REJECTION_SNIFF_BYTES)
                    if b"response_format" in start:
                        raise _BadRequest(Reason.PROVIDER_ERROR, "HTTP 500")
                _check_status(response.status_code)
                received = await read_body(response, MAX_RESPONSE_BYTES)
                if received is None:
                    raise _too_large()
                return received
        except httpx.TimeoutException:
            raise TimeoutError from None
        except httpx.HTTPError as error:
            raise _provider_error(transport_words(error)) from None


async def read_body(response: httpx.Response, limit: int) -> bytes | None:
    """The body of a streamed response; None as soon as it is known to be larger than
    `limit` bytes (declared or received), so a huge body is never held in memory."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    received = bytearray()
    async for chunk in response.aiter_bytes():
        received += chunk
        if len(received) > limit:
            return None
    return bytes(received)


async def first_bytes(response: httpx.Response, limit: int) -> bytes:
    """At most `limit` bytes of the body (read only to tell a rejection from a failure)."""
    received = bytearray()
    async for chunk in response.aiter_bytes():
        received += chunk
        if len(received) >= limit:
            break
    return bytes(received[:limit])


def _check_status(status: int) -> None:
    if 200 <= status < 300:
        return
    if 300 <= status < 400:
        raise _provider_error(f"HTTP {status}: redirects are not followed")
    if status in REJECTED_REQUEST_STATUSES:
        raise _BadRequest(Reason.PROVIDER_ERROR, f"HTTP {status}")
    if status in (401, 403):
        raise _provider_error(f"HTTP {status}: the server refused the API key")
    if status == 429:
        raise _provider_error("HTTP 429: rate limited or out of credit")
    raise _provider_error(f"HTTP {status}")


def transport_words(error: httpx.HTTPError) -> str:
    """A transport failure in plain words (never the server's text)."""
    if isinstance(error, httpx.ConnectError):
        return "could not connect to the server"
    if isinstance(error, (httpx.ReadError, httpx.RemoteProtocolError)):
        return "the connection broke before the answer was complete"
    if isinstance(error, httpx.DecodingError):
        return "the response could not be decoded"
    return "transport error"


def _too_large() -> ProviderFailure:
    return _provider_error(f"the response is larger than {MAX_RESPONSE_BYTES // 1024} KiB")


class _BadRequest(ProviderFailure):
    """The server would not take the request as it was (400, 422, or a 500 from a
    server whose request validation fails that way)."""


def _provider_error(detail: str) -> ProviderFailure:
    return ProviderFailure(Reason.PROVIDER_ERROR, detail)


def _schema_failure(detail: str) -> ProviderFailure:
    return ProviderFailure(Reason.UNVERIFIED, detail)
