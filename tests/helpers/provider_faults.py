"""The provider faults that end in a refusal, shared by the CLI and TUI tests.

`tests/e2e/test_provider_faults.py` (the CLI) and `tests/ui/test_provider_faults.py` (the
full-screen app) put the same hostile server behaviours to the real `OpenAIProvider`;
keeping the list in one place means a fault added here is checked on both surfaces. Each
entry names the behaviour and the reason and detail words the user must see.
The stalled cases (hang, drip) stay in each test file: their deadlines are tuned to
how each surface is driven.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.helpers.fake_openai_server import (
    MIB,
    NO_CHOICES,
    NOT_JSON,
    NULL_CONTENT,
    Behaviour,
    CloseMidBody,
    FakeOpenAIServer,
    HugeBody,
    RecordedRequest,
    Redirect,
    Reply,
    Status,
)
from tui_assistant.core.outcome import Reason, describe_reason

PASTA = "How much salt should I add to pasta water?"
PASTA_SOURCE = "lessons/pasta-water.md"
# The bundled pasta lesson is one passage: the whole file.
PASTA_LINES = (1, 11)
PASTA_LOCATION = f"{PASTA_SOURCE}:{PASTA_LINES[0]}\N{EN DASH}{PASTA_LINES[1]}"
# Where the redirect points when no target server is given: the discard port.
UNUSED_TARGET = "http://127.0.0.1:9/v1/chat/completions"


@dataclass(frozen=True)
class Refusal:
    """One hostile server behaviour whose turn must be refused, and the words for it."""

    behaviour: Behaviour | None  # None: nothing listens on the port at all
    reason: Reason
    detail: str
    model_text: str | None = None  # text the model sent, which must never be shown

    @property
    def status(self) -> str:
        """The words the user reads for this refusal (CLI line and TUI status bar)."""
        return f"refused: {describe_reason(self.reason)} ({self.detail})"

    @property
    def model_text_start(self) -> str | None:
        """The start of the model's unchecked text, to look for where it must not be;
        None when the model sent none or only whitespace, which cannot be spotted."""
        if self.model_text is None or not self.model_text.strip():
            return None
        return self.model_text.strip()[:20]


def unverified(content: str, detail: str) -> Refusal:
    return Refusal(Reply(content), Reason.UNVERIFIED, detail, model_text=content)


def provider_error(behaviour: Behaviour | None, detail: str) -> Refusal:
    return Refusal(behaviour, Reason.PROVIDER_ERROR, detail)


NOT_GIVEN = "cites a passage it was not sent"
LONG_ANSWER = "Salt the water well. " * 800 + "[source:pasta-water]"

REFUSALS: dict[str, Refusal] = {
    "invented-citation": unverified("Use a handful of salt. [source:salt-bible]", NOT_GIVEN),
    "valid-and-invented-citations": unverified(
        "Use about 10 grams per litre. [source:pasta-water] [source:salt-bible]", NOT_GIVEN
    ),
    "wrong-case-citation": unverified(
        "Use about 10 grams per litre. [source:Pasta-Water]", NOT_GIVEN
    ),
    "no-citation": unverified("Use about 10 grams per litre.", "no [source:ID] citation"),
    "blank": unverified("  \n\t ", "blank answer"),
    "citation-only": unverified("From the docs: [source:pasta-water]", "no text beyond citations"),
    "empty-quote": unverified('Salt it: "" [source:pasta-water]', "an empty quote"),
    # The screen names no unchecked model text: `ask --json`'s detail adds the quote.
    "short-quote": unverified(
        'Use "10 grams" [source:pasta-water]', "a quote of fewer than 3 words"
    ),
    "quote-not-in-passage": unverified(
        'Use "a cup of salt per pot" [source:pasta-water]', "quote not in the passage"
    ),
    "over-16000-characters": unverified(LONG_ANSWER, "answer longer than 16,000 characters"),
    "null-content": provider_error(NULL_CONTENT, "the response has no answer text"),
    "not-json": provider_error(NOT_JSON, "the response is not JSON"),
    "json-without-choices": provider_error(NO_CHOICES, "the response has no choices"),
    "http-401": provider_error(Status(401), "HTTP 401: the server refused the API key"),
    "http-429": provider_error(Status(429), "HTTP 429: rate limited or out of credit"),
    "http-500": provider_error(Status(500), "HTTP 500"),
    "http-503": provider_error(Status(503), "HTTP 503"),
    "redirect-302": provider_error(
        Redirect(UNUSED_TARGET, 302), "HTTP 302: redirects are not followed"
    ),
    "redirect-307": provider_error(
        Redirect(UNUSED_TARGET, 307), "HTTP 307: redirects are not followed"
    ),
    "20-mb-body": provider_error(HugeBody(size=20 * MIB), "the response is larger than 1024 KiB"),
    "connection-refused": provider_error(None, "could not connect to the server"),
    "closes-mid-body": provider_error(
        CloseMidBody(), "the connection broke before the answer was complete"
    ),
}


def model_settings(base_url: str, api_key: str, deadline: str) -> dict[str, str]:
    """The settings that put the app in model mode against `base_url`."""
    return {
        "TUI_ASSISTANT_PROVIDER": "openai",
        "TUI_ASSISTANT_BASE_URL": base_url,
        "TUI_ASSISTANT_API_KEY": api_key,
        "TUI_ASSISTANT_MODEL": "fake-model",
        "TUI_ASSISTANT_DEADLINE_SECONDS": deadline,
    }


def serve(behaviour: Behaviour | None, server: FakeOpenAIServer, refused_port: int) -> str:
    """Set the fake server to `behaviour` and return the base URL that reaches it; with
    no behaviour, the URL of a port where nothing listens."""
    if behaviour is None:
        return f"http://127.0.0.1:{refused_port}/v1"
    server.behaviour = behaviour
    return server.base_url


def the_one_request(server: FakeOpenAIServer, before: int, api_key: str) -> RecordedRequest:
    """Check that exactly one request (no retry) came since `before`, carrying the key:
    the fault came from a real HTTP exchange. Return that request."""
    assert server.request_count == before + 1
    request = server.requests[-1]
    assert request.headers["authorization"] == f"Bearer {api_key}"
    return request
