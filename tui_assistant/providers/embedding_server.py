"""Sentence embeddings from an OpenAI-compatible model server: Ollama, llama.cpp's
`llama-server --embeddings`, vLLM, Text Embeddings Inference, infinity, a hosted API.

`POST {base_url}/embeddings` with `{"model", "input": [texts], "encoding_format":
"base64"}`; the answer's `data` items carry `index` and `embedding` (float32 numbers in
base64, or a list of numbers from a server that answers so), put in order by `index`,
never by position. Base64 spares parsing millions of numbers written out in JSON; a
server that refuses the field is asked without it from then on. The source is an
`EmbeddingSource` like the local model, and guarantees, whatever the server does:

- the chat provider's URL rules (`urls.check_base_url`: https, except plain http to
  a loopback host) and its client (`openai.new_http_client`: redirects never followed);
  the key goes only into the `Authorization` header, never into a message or a repr;
- batches of at most `batch_size` texts (sorted by length), at most `concurrency`
  requests in flight, each under a deadline of its own (`asyncio.timeout`); a missed
  deadline halves both (`Pace`), and answers well within it grow them back;
- 429 and 5xx, a broken connection or a missed deadline are tried again after a pause
  that honours `Retry-After` and grows each time; a rate limit pauses every request in
  flight, not only the one that was told;
- a batch the server finds too big (413, 422, 400, or a 5xx saying "too large") is split
  in two, and the size that worked is used from then on; a single piece too big alone is
  cut in half until it fits; a short answer has its missing texts asked again;
- a fault that trying again cannot mend ends the run with one `EmbeddingServerError`
  line; every batch done before it was handed out first (the caller stores them), so
  no work that finished is lost.

The HTTP client runs on an event loop in a thread of its own, so the source is called
like the local model, from any thread. Questions asked at once go in one request
(`QuestionBatcher`), with one short try: a question is answered by words if it fails.
A fault of the server's (`every_text`) fails a request's questions at once, not one by one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import math
import re
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar
from urllib.parse import urlsplit

import httpx
import numpy as np
from pydantic import SecretStr

from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.errors import BadAnswer, TooBig, TryAgain
from tui_assistant.providers.embedding_batching import QuestionBatcher
from tui_assistant.providers.embedding_server_answers import (
    embeddings_url,
    parse_embeddings,
    pause_before_try,
)
from tui_assistant.providers.embedding_server_tries import (
    BAD_ANSWER,
    QUESTION_TRIES,
    TRIES,
    EventLoopThread,
    Pace,
    Tries,
    check_status,
    fault,
    gave_up,
    unwrapped,
)
from tui_assistant.providers.openai import (
    first_bytes,
    new_http_client,
    read_body,
    transport_words,
)
from tui_assistant.urls import check_base_url

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from tui_assistant.providers.embedding import Batch

    Vector = NDArray[np.float32]

T = TypeVar("T")

DEFAULT_BATCH_SIZE: Final = 64
DEFAULT_CONCURRENCY: Final = 4
# One batch request, and one question (a person waits for it; it is answered by words
# when the server does not make it).
REQUEST_DEADLINE_SECONDS: Final = 60.0
QUESTION_DEADLINE_SECONDS: Final = 5.0
# After a question missed its deadline, questions skip the server this long (answered
# by words) instead of each waiting out a deadline of its own.
QUESTIONS_PAUSED_SECONDS: Final = 30.0
# A server asking for a longer pause than LONGEST_RETRY_AFTER ends the run.
LONGEST_RETRY_AFTER_SECONDS: Final = 120.0
TOO_LARGE = re.compile(rb"too (large|long)", re.IGNORECASE)
SNIFFED_BYTES: Final = 16 * 1024
# A single piece the server refuses as too large is cut in half (and again) down to this
# many characters, as a model with a shorter input limit cuts it.
SHORTEST_CUT_CHARS: Final = 32
# The text embedded once to learn the model's dimensions.
PROBE_TEXT: Final = "tui-assistant"


class ServerEmbeddingSource:
    """`EmbeddingSource` for an OpenAI-compatible `/embeddings` endpoint."""

    vocabulary: frozenset[str] = frozenset()  # a server does not say its model's words

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: SecretStr | None = None,
        *,
        query_prefix: str = "",
        document_prefix: str = "",
        batch_size: int = DEFAULT_BATCH_SIZE,
        concurrency: int = DEFAULT_CONCURRENCY,
        request_deadline: float = REQUEST_DEADLINE_SECONDS,
        question_deadline: float = QUESTION_DEADLINE_SECONDS,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        check_base_url(base_url)
        if batch_size < 1 or concurrency < 1:
            raise ValueError("batch_size and concurrency must be at least 1")
        parts = urlsplit(base_url)
        self.url = embeddings_url(base_url)
        # Where, in messages: the host and port, never the path or a key.
        self.where = parts.netloc
        self.model = model
        self._api_key = api_key
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.batch_size = batch_size
        self.request_deadline = request_deadline
        self.question_deadline = question_deadline
        # Pauses are waited with `sleep` and timed with `clock` (tests pass fakes).
        self._sleep = sleep
        self._clock = clock
        self._dimensions: int | None = None
        self._identity_lock = threading.Lock()
        self._start_lock = threading.Lock()
        self._running: EventLoopThread | None = None
        self._client: httpx.AsyncClient | None = None
        # Owned by the event loop's thread: the batch size the server took (lowered
        # when it refuses a batch as too big), and when a rate limit's pause ends.
        self._batch_limit = batch_size
        self._resume_at = 0.0
        # The pace the server keeps up with (`Pace`): smaller after a missed deadline.
        self.pace = Pace(batch_size, concurrency)
        # Cached by the model and prefix asked for: no request to learn the identity.
        self.questions = QuestionBatcher(
            self.embed_questions, lambda: (self.url, self.model, self.query_prefix)
        )
        # Vectors asked for as base64 until the server refuses the field (or answers).
        self._base64 = True
        self._format_known = False
        # When questions may use the server again after one missed its deadline.
        self._questions_paused_until = 0.0

    def __repr__(self) -> str:
        # Spelled out so the key can never reach a log through a repr.
        return f"ServerEmbeddingSource(url={self.url!r}, model={self.model!r})"

    # -- EmbeddingSource ------------------------------------------------------------

    @property
    def identity(self) -> ModelIdentity:
        """The server's model; its dimensions are learned from one small request, once."""
        with self._identity_lock:
            if self._dimensions is None:
                self._wait(self._embed([self.document_prefix + PROBE_TEXT], [0]))
            assert self._dimensions is not None
        return ModelIdentity(self.model, self._dimensions, self.query_prefix, self.document_prefix)

    @property
    def dimensions(self) -> int:
        return self.identity.dimensions

    def embed_batches(self, texts: Sequence[str]) -> Iterator[Batch]:
        prefixed = [self.document_prefix + text for text in texts]
        order = sorted(range(len(prefixed)), key=lambda index: len(prefixed[index]))
        batches = [
            order[start : start + self.batch_size]
            for start in range(0, len(order), self.batch_size)
        ]
        batches.reverse()  # taken from the end: shortest first
        running: set[concurrent.futures.Future[dict[int, Vector]]] = set()
        try:
            while batches or running:
                while batches and len(running) < self.pace.in_flight:
                    running.add(self._submit(self._embed(prefixed, batches.pop())))
                done, running = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED
                )
                # The batches that succeeded are handed out before a failure is raised.
                failed = [future for future in done if future.exception() is not None]
                for future in done:
                    if future.exception() is None:
                        vectors = future.result()
                        positions = list(vectors)
                        yield positions, np.stack([vectors[position] for position in positions])
                if failed:
                    raise unwrapped(failed[0])
        finally:
            for future in running:
                future.cancel()

    def embed_question(self, question: str) -> Vector:
        """One short try (a broken kept-alive connection is tried once more), in one
        request with the questions other threads ask meanwhile (`QuestionBatcher`);
        after a missed deadline, questions skip the server for a while (a question
        asked before is still answered from the batcher's cache)."""
        return self.questions.embed(question)

    def embed_questions(self, questions: Sequence[str]) -> NDArray[np.float32]:
        """The questions' rows, in order, from one request (after the query prefix)."""
        self._check_questions_paused()
        prefixed = [self.query_prefix + question for question in questions]
        vectors = self._wait(self._embed(prefixed, list(range(len(prefixed))), question=True))
        return np.stack([vectors[position] for position in range(len(prefixed))])

    def _check_questions_paused(self) -> None:
        paused = self._questions_paused_until - self._clock()
        if paused > 0:
            raise fault(
                self.where,
                f"gave no answer within {self.question_deadline:g} s to a question a moment"
                f" ago (tried again in {math.ceil(paused)} s)",
                "embedding server too slow",
                every_text=True,
            )

    def close(self) -> None:
        """Close the connections and stop the event loop's thread."""
        with self._start_lock:
            running, self._running = self._running, None
            client, self._client = self._client, None
        if running is None:
            return
        if client is not None:
            future = running.submit(client.aclose())
            with contextlib.suppress(concurrent.futures.TimeoutError, httpx.HTTPError):
                future.result(timeout=5)
        running.stop()

    # -- the requests, on the event loop's thread --------------------------------------

    def _submit(self, coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        with self._start_lock:
            if self._running is None:
                self._running = EventLoopThread()
            return self._running.submit(coroutine)

    def _wait(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future = self._submit(coroutine)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    async def _embed(
        self, texts: Sequence[str], positions: list[int], question: bool = False
    ) -> dict[int, Vector]:
        """The vectors of `texts[p]` for each of `positions`, tried again, split and
        paused as the server needs (a `question` gets its own short tries)."""
        deadline = self.question_deadline if question else self.request_deadline
        tries = Tries(QUESTION_TRIES if question else TRIES)
        found: dict[int, Vector] = {}
        # Texts the server refused alone, as cut to fit.
        cut: dict[int, str] = {}
        waiting = [positions]
        while waiting:
            part = waiting.pop()
            limit = self._batch_limit if question else min(self._batch_limit, self.pace.batch)
            if len(part) > limit:
                waiting.extend(
                    reversed([part[at : at + limit] for at in range(0, len(part), limit)])
                )
                continue
            if (delay := self._resume_at - self._clock()) > 0:
                await self._sleep(delay)  # a rate limit pauses every request
            generation, sent_at = self.pace.generation, self._clock()
            try:
                sent = [cut.get(position, texts[position]) for position in part]
                answered = await self._post(sent, deadline)
            except TooBig as refusal:
                if self._base64 and not self._format_known:
                    # Not too big: a server that does not take `encoding_format`.
                    self._base64 = False
                    waiting.append(part)
                    continue
                if len(part) == 1:
                    if len(sent[0]) <= SHORTEST_CUT_CHARS:
                        raise fault(
                            self.where,
                            f"refused a single passage piece even cut to {len(sent[0])}"
                            f" characters ({refusal})",
                            "embedding server refuses",
                        ) from None
                    cut[part[0]] = sent[0][: len(sent[0]) // 2]
                    waiting.append(part)
                    continue
                half = (len(part) + 1) // 2
                self._batch_limit = min(self._batch_limit, half)
                waiting.extend([part[half:], part[:half]])
                continue
            except TryAgain as trouble:
                if question and trouble.trouble == "timeout":
                    self._questions_paused_until = self._clock() + QUESTIONS_PAUSED_SECONDS
                elif trouble.trouble == "timeout" and self.pace.timed_out(generation):
                    # A slow server, not a dead one: the same texts in smaller requests.
                    waiting.append(part)
                    continue
                count = tries.failed(trouble.trouble)
                if tries.spent(trouble.trouble):
                    raise gave_up(self.where, trouble, count, deadline) from None
                wait = trouble.retry_after
                if wait is not None and wait > LONGEST_RETRY_AFTER_SECONDS:
                    raise fault(
                        self.where,
                        f"asks to wait {wait:,.0f} s ({trouble.detail})",
                        "embedding server rate-limits",
                        every_text=True,
                    ) from None
                pause = pause_before_try(count, wait)
                if trouble.trouble == "rate_limited":
                    # Every request waits this pause out, not only this one.
                    self._resume_at = max(self._resume_at, self._clock() + pause)
                else:
                    await self._sleep(pause)
                waiting.append(part)
                continue
            if not question:
                self.pace.answered(self._clock() - sent_at, deadline)
            for index, vector in answered.items():
                found[part[index]] = vector
            missing = [position for index, position in enumerate(part) if index not in answered]
            if missing:
                # A short answer: the texts left out are asked for again.
                tries.failed("status")
                if not answered or tries.spent("status"):
                    raise fault(
                        self.where,
                        f"answers badly: {len(answered):,} vectors for {len(part):,} texts",
                        "embedding server answers badly",
                    )
                waiting.append(missing)
        return found

    async def _post(self, texts: list[str], deadline: float) -> dict[int, Vector]:
        if self._client is None:
            self._client = new_http_client(self.request_deadline)
        headers = {"Accept": "application/json"}
        key = self._api_key.get_secret_value().strip() if self._api_key else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        body: dict[str, object] = {"model": self.model, "input": texts}
        if self._base64:
            body["encoding_format"] = "base64"
        try:
            async with (
                asyncio.timeout(deadline),
                self._client.stream("POST", self.url, json=body, headers=headers) as response,
            ):
                if response.status_code >= 500:
                    start = await first_bytes(response, SNIFFED_BYTES)
                    if TOO_LARGE.search(start):
                        raise TooBig(response.status_code)
                check_status(response, self.where, self.model)
                # Room for vectors of up to 16,384 numbers, written out at length.
                received = await read_body(response, (1 << 20) + len(texts) * (1 << 19))
        except TimeoutError:
            raise TryAgain("timeout", f"no answer within {deadline:g} s") from None
        except httpx.ConnectError as error:
            raise TryAgain("unreachable", transport_words(error)) from None
        except httpx.TimeoutException:
            raise TryAgain("timeout", "the connection timed out") from None
        except httpx.HTTPError as error:
            raise TryAgain("broken", transport_words(error)) from None
        if received is None:
            raise fault(self.where, "answers badly: the answer is too large", BAD_ANSWER)
        try:
            answered = parse_embeddings(received, len(texts), self._dimensions)
        except BadAnswer as problem:
            raise fault(self.where, f"answers badly: {problem}", BAD_ANSWER) from None
        self._format_known = True
        if answered and self._dimensions is None:
            self._dimensions = next(iter(answered.values())).shape[0]
        return answered
