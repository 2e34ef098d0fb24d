"""Sentence embeddings from an OpenAI-compatible model server: Ollama, llama.cpp's
`llama-server --embeddings`, vLLM, Text Embeddings Inference, infinity, a hosted API.

`POST {base_url}/embeddings` with `{"model", "input": [texts], "encoding_format":
"base64"}`; the answer's `data` items carry `index` and `embedding` (float32 numbers in
base64, or a list of numbers from a server that answers so), put in order by `index`,
never by position. Base64 spares parsing millions of numbers written out in JSON; a
server that refuses the field is asked without it from then on. The source is an
`EmbeddingSource` like the local model, and guarantees, whatever the server does:

- the chat provider's URL rules (`settings.check_base_url`: https, except plain http to
  a loopback host) and its client (`openai.new_http_client`: redirects never followed);
  the key goes only into the `Authorization` header, never into a message or a repr;
- batches of at most `batch_size` texts (sorted by length, so a batch pads little), at
  most `concurrency` requests in flight, each under a deadline of its own
  (`asyncio.timeout`: httpx's timeouts count per read, not per request);
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
like the local model, from any thread: a worker, the CLI, the TUI's event loop for one
question. A question gets one short try: it is answered by words if the server fails.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import concurrent.futures
import contextlib
import email.utils
import json
import math
import re
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar
from urllib.parse import urlsplit

import httpx
import numpy as np
from pydantic import SecretStr

from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.errors import EmbeddingServerError
from tui_assistant.providers.openai import (
    first_bytes,
    new_http_client,
    read_body,
    transport_words,
)
from tui_assistant.settings import check_base_url

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
# Pauses between tries: the first, doubled each time up to the longest. A server asking
# for a longer pause than LONGEST_RETRY_AFTER ends the run instead.
FIRST_PAUSE_SECONDS: Final = 0.5
LONGEST_PAUSE_SECONDS: Final = 30.0
LONGEST_RETRY_AFTER_SECONDS: Final = 120.0
# Tries of one batch, by what went wrong: rate limits and 5xx are worth waiting out;
# a refused connection or a missed deadline rarely mends within a minute.
Trouble = Literal["rate_limited", "status", "unreachable", "broken", "timeout"]
TRIES: Final[dict[Trouble, int]] = {
    "rate_limited": 8,
    "status": 6,
    "unreachable": 3,
    "broken": 3,
    "timeout": 2,
}
QUESTION_TRIES: Final[dict[Trouble, int]] = {
    "rate_limited": 1,
    "status": 1,
    "unreachable": 1,
    "broken": 2,
    "timeout": 1,
}
RETRIED_STATUSES: Final = frozenset({429, 500, 502, 503, 504})
RATE_LIMIT_STATUSES: Final = frozenset({429, 503})
# A server refusing a batch as too large (or too many tokens) says so with one of these;
# llama-server answers 500 naming it ("input (N tokens) is too large to process").
SPLIT_STATUSES: Final = frozenset({400, 413, 422})
TOO_LARGE = re.compile(rb"too (large|long)", re.IGNORECASE)
SNIFFED_BYTES: Final = 16 * 1024
# A single piece the server refuses as too large is cut in half (and again) down to this
# many characters, as a model with a shorter input limit cuts it.
SHORTEST_CUT_CHARS: Final = 32
# The text embedded once to learn the model's dimensions.
PROBE_TEXT: Final = "tui-assistant"
BASE_URL_SETTING: Final = "TUI_ASSISTANT_EMBEDDING_BASE_URL"
KEY_SETTING: Final = "TUI_ASSISTANT_EMBEDDING_API_KEY"
BATCH_SETTING: Final = "TUI_ASSISTANT_EMBEDDING_BATCH_SIZE"


def embeddings_url(base_url: str) -> str:
    """`{base_url}/embeddings` without doubling or losing a slash."""
    return base_url.rstrip("/") + "/embeddings"


class BadAnswer(ValueError):
    """The server's answer is not the vectors asked for; the message says how, in plain
    words, never quoting the answer."""


def parse_embeddings(body: bytes, count: int, dimensions: int | None) -> dict[int, Vector]:
    """Pure: the unit vectors of an embeddings answer to `count` texts, by the `index`
    each item carries (a short answer lacks some). `dimensions` is what the model gave
    before (None: not known yet). Raises `BadAnswer`."""
    try:
        data: Any = json.loads(body)
    except ValueError:  # also bytes that are not UTF-8
        raise BadAnswer("the answer is not JSON") from None
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise BadAnswer("the answer has no data list")
    indexes: list[int] = []
    embeddings: list[Any] = []
    for item in items:
        index = item.get("index") if isinstance(item, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise BadAnswer("an item has no index, or one outside the batch")
        embedding = item.get("embedding")
        if isinstance(embedding, str):
            embedding = _from_base64(embedding)
        else:
            _check_numbers(embedding)
        size = len(embedding)
        if dimensions is None:
            dimensions = size
        elif size != dimensions:
            raise BadAnswer(f"a vector of {size:,} numbers, where the model gave {dimensions:,}")
        indexes.append(index)
        embeddings.append(embedding)
    if len(set(indexes)) < len(indexes):
        twice = next(index for index in indexes if indexes.count(index) > 1)
        raise BadAnswer(f"two vectors for text {twice}")
    if not embeddings:
        return {}
    rows = _unit_rows(np.array(embeddings, dtype=np.float64))
    return dict(zip(indexes, rows, strict=True))


_NUMBERS: Final = frozenset({int, float})


def _from_base64(text: str) -> NDArray[np.float32]:
    """The float32 numbers (little-endian, as OpenAI's API sends them) of a base64 text."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise BadAnswer("an embedding is neither numbers nor base64") from None
    if not raw or len(raw) % 4:
        raise BadAnswer("an embedding in base64 is not float32 numbers")
    return np.frombuffer(raw, dtype="<f4")


def _check_numbers(embedding: object) -> None:
    """Raise `BadAnswer` unless `embedding` is a non-empty list of numbers."""
    if isinstance(embedding, list) and embedding and isinstance(embedding[0], list):
        # llama-server without a pooling mode answers one vector per token.
        raise BadAnswer("one vector per token, not per text (llama-server needs --pooling mean)")
    # The types checked at C speed: a vector is hundreds of numbers, a run millions.
    if (
        not isinstance(embedding, list)
        or not embedding
        or not set(map(type, embedding)) <= _NUMBERS
    ):
        raise BadAnswer("an embedding is not a list of numbers")


def _unit_rows(matrix: NDArray[np.float64]) -> NDArray[np.float32]:
    """Each row scaled to unit length (all rows at once)."""
    if not np.isfinite(matrix).all():
        raise BadAnswer("an embedding holds a number that is not finite")
    largest = np.abs(matrix).max(axis=1, keepdims=True)
    if not largest.all():
        raise BadAnswer("an embedding is all zeros")
    # Scaled first, so numbers near the float limit do not overflow the length.
    matrix = matrix / largest
    unit: NDArray[np.float32] = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(
        np.float32
    )
    return unit


def retry_after_seconds(value: str | None, now: datetime) -> float | None:
    """Pure: the pause a `Retry-After` header asks for, as seconds or an HTTP date;
    None when absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return max(0.0, (when - now).total_seconds())
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def pause_before_try(tries: int, retry_after: float | None) -> float:
    """Pure: seconds to wait before try number `tries + 1`, after `tries` failed."""
    backoff = min(LONGEST_PAUSE_SECONDS, FIRST_PAUSE_SECONDS * 2 ** (tries - 1))
    return retry_after if retry_after is not None else backoff


class _TryAgain(Exception):
    """One try failed in a way another try may mend."""

    def __init__(self, trouble: Trouble, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.trouble = trouble
        self.detail = detail
        self.retry_after = retry_after


class _TooBig(Exception):
    """The server refused the batch as too large (413, 422, 400)."""

    def __init__(self, status: int) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status


@dataclass
class _Tries:
    """The failed tries of one batch (its halves included), by trouble."""

    limits: dict[Trouble, int]
    counts: dict[Trouble, int] = field(default_factory=dict)

    def failed(self, trouble: Trouble) -> int:
        """Count one more failed try of this kind; the count so far."""
        self.counts[trouble] = self.counts.get(trouble, 0) + 1
        return self.counts[trouble]

    def spent(self, trouble: Trouble) -> bool:
        return self.counts.get(trouble, 0) >= self.limits[trouble]


class _EventLoopThread:
    """An event loop running in a daemon thread, for coroutines sent from any thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="embedding-server", daemon=True
        )
        self.thread.start()

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def stop(self) -> None:
        """Cancel what still runs (a caller waiting on it is woken), then stop."""
        with contextlib.suppress(concurrent.futures.TimeoutError, RuntimeError):
            self.submit(_cancel_others()).result(timeout=5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        if not self.thread.is_alive():
            self.loop.close()


async def _cancel_others() -> None:
    current = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not current]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


class ServerEmbeddingSource:
    """`EmbeddingSource` for an OpenAI-compatible `/embeddings` endpoint."""

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
        self.concurrency = concurrency
        self.request_deadline = request_deadline
        self.question_deadline = question_deadline
        # Pauses are waited with `sleep` and timed with `clock` (tests pass fakes).
        self._sleep = sleep
        self._clock = clock
        self._dimensions: int | None = None
        self._identity_lock = threading.Lock()
        self._start_lock = threading.Lock()
        self._running: _EventLoopThread | None = None
        self._client: httpx.AsyncClient | None = None
        # Owned by the event loop's thread: the batch size the server took (lowered
        # when it refuses a batch as too big), and when a rate limit's pause ends.
        self._batch_limit = batch_size
        self._resume_at = 0.0
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
                while batches and len(running) < self.concurrency:
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
                    raise _unwrapped(failed[0])
        finally:
            for future in running:
                future.cancel()

    def embed_question(self, question: str) -> Vector:
        """One short try (a broken kept-alive connection is tried once more); after a
        missed deadline, questions skip the server for a while."""
        paused = self._questions_paused_until - self._clock()
        if paused > 0:
            raise _fault(
                self.where,
                f"gave no answer within {self.question_deadline:g} s to a question a moment"
                f" ago (tried again in {math.ceil(paused)} s)",
                "embedding server too slow",
            )
        vectors = self._wait(self._embed([self.query_prefix + question], [0], question=True))
        return vectors[0]

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
                self._running = _EventLoopThread()
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
        tries = _Tries(QUESTION_TRIES if question else TRIES)
        found: dict[int, Vector] = {}
        # Texts the server refused alone, as cut to fit.
        cut: dict[int, str] = {}
        waiting = [positions]
        while waiting:
            part = waiting.pop()
            if len(part) > self._batch_limit:
                limit = self._batch_limit
                waiting.extend(
                    reversed([part[at : at + limit] for at in range(0, len(part), limit)])
                )
                continue
            await self._rate_limit_pause()
            try:
                sent = [cut.get(position, texts[position]) for position in part]
                answered = await self._post(sent, deadline)
            except _TooBig as refusal:
                if self._base64 and not self._format_known:
                    # Not too big: a server that does not take `encoding_format`.
                    self._base64 = False
                    waiting.append(part)
                    continue
                if len(part) == 1:
                    if len(sent[0]) <= SHORTEST_CUT_CHARS:
                        raise _fault(
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
            except _TryAgain as trouble:
                if question and trouble.trouble == "timeout":
                    self._questions_paused_until = self._clock() + QUESTIONS_PAUSED_SECONDS
                count = tries.failed(trouble.trouble)
                if tries.spent(trouble.trouble):
                    raise _gave_up(self.where, trouble, count, deadline) from None
                wait = trouble.retry_after
                if wait is not None and wait > LONGEST_RETRY_AFTER_SECONDS:
                    raise _fault(
                        self.where,
                        f"asks to wait {wait:,.0f} s ({trouble.detail})",
                        "embedding server rate-limits",
                    ) from None
                pause = pause_before_try(count, wait)
                if trouble.trouble == "rate_limited":
                    # Every request waits this pause out, not only this one.
                    self._resume_at = max(self._resume_at, self._clock() + pause)
                else:
                    await self._sleep(pause)
                waiting.append(part)
                continue
            for index, vector in answered.items():
                found[part[index]] = vector
            missing = [position for index, position in enumerate(part) if index not in answered]
            if missing:
                # A short answer: the texts left out are asked for again.
                tries.failed("status")
                if not answered or tries.spent("status"):
                    raise _fault(
                        self.where,
                        f"answers badly: {len(answered):,} vectors for {len(part):,} texts",
                        "embedding server answers badly",
                    )
                waiting.append(missing)
        return found

    async def _rate_limit_pause(self) -> None:
        delay = self._resume_at - self._clock()
        if delay > 0:
            await self._sleep(delay)

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
                        raise _TooBig(response.status_code)
                self._check_status(response)
                # Room for vectors of up to 16,384 numbers, written out at length.
                received = await read_body(response, (1 << 20) + len(texts) * (1 << 19))
        except TimeoutError:
            raise _TryAgain("timeout", f"no answer within {deadline:g} s") from None
        except httpx.ConnectError as error:
            raise _TryAgain("unreachable", transport_words(error)) from None
        except httpx.TimeoutException:
            raise _TryAgain("timeout", "the connection timed out") from None
        except httpx.HTTPError as error:
            raise _TryAgain("broken", transport_words(error)) from None
        if received is None:
            raise _fault(self.where, "answers badly: the answer is too large", _BAD_ANSWER)
        try:
            answered = parse_embeddings(received, len(texts), self._dimensions)
        except BadAnswer as problem:
            raise _fault(self.where, f"answers badly: {problem}", _BAD_ANSWER) from None
        self._format_known = True
        if answered and self._dimensions is None:
            self._dimensions = next(iter(answered.values())).shape[0]
        return answered

    def _check_status(self, response: httpx.Response) -> None:
        status = response.status_code
        if 200 <= status < 300:
            return
        if status in RETRIED_STATUSES:
            trouble: Trouble = "rate_limited" if status in RATE_LIMIT_STATUSES else "status"
            wait = retry_after_seconds(response.headers.get("retry-after"), datetime.now(UTC))
            raise _TryAgain(trouble, f"HTTP {status}", wait)
        if 300 <= status < 400:
            raise _fault(
                self.where,
                f"answered with a redirect (HTTP {status}), which is not followed:"
                f" check {BASE_URL_SETTING}",
                "embedding server redirects",
            )
        if status in SPLIT_STATUSES:
            raise _TooBig(status)
        if status in (401, 403):
            raise _fault(
                self.where,
                f"refused the key (HTTP {status}): check {KEY_SETTING}",
                "embedding server refuses the key",
            )
        if status == 404:
            raise _fault(
                self.where,
                f"has no embeddings for model {_shown(self.model)} (HTTP 404): check"
                f" {BASE_URL_SETTING} (it ends in /v1) and TUI_ASSISTANT_EMBEDDING_MODEL",
                "embedding server: HTTP 404",
            )
        raise _fault(self.where, f"refused the request (HTTP {status})", "embedding server refuses")


_BAD_ANSWER = "embedding server answers badly"


def _fault(where: str, what: str, short: str) -> EmbeddingServerError:
    return EmbeddingServerError(f"the embedding server at {where} {what}", short)


def _gave_up(where: str, trouble: _TryAgain, tries: int, deadline: float) -> EmbeddingServerError:
    """The one line for a batch whose tries are spent."""
    after = f"{tries} tries" if tries > 1 else "one try"
    kind = trouble.trouble
    if kind == "unreachable":
        what, short = f"cannot be reached ({trouble.detail}; {after})", "unreachable"
    elif kind == "broken":
        what, short = f"broke the connection ({trouble.detail}; {after})", "unreachable"
    elif kind == "timeout":
        what = f"gave no answer within {deadline:g} s ({after}); a smaller {BATCH_SETTING} may help"
        short = "too slow"
    elif kind == "rate_limited":
        what, short = f"is still busy or rate limiting ({trouble.detail}; {after})", "rate-limits"
    else:
        what, short = f"failed ({trouble.detail}; {after})", "failing"
    return _fault(where, what, f"embedding server {short}")


def _unwrapped(future: concurrent.futures.Future[Any]) -> BaseException:
    error = future.exception()
    assert error is not None
    return error


def _shown(name: str) -> str:
    shown = " ".join(name.split())
    return repr(shown if len(shown) <= 80 else shown[:79] + "…")
