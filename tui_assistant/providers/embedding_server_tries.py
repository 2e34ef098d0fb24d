"""The parts of a server run that are not requests: what an answer's status means
(`check_status`), what went wrong with a try (`TryAgain`, `TooBig`) and how many tries
each trouble gets (`Tries`), the batch size
and requests in flight that a slow server keeps up with (`Pace`), the event loop thread
the requests run on, and the one line a run that gives up ends with."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, TypeVar

import httpx

from tui_assistant.errors import EmbeddingServerError, TooBig, Trouble, TryAgain
from tui_assistant.providers.embedding_server_answers import retry_after_seconds

T = TypeVar("T")
BATCH_SETTING: Final = "TUI_ASSISTANT_EMBEDDING_BATCH_SIZE"
BASE_URL_SETTING: Final = "TUI_ASSISTANT_EMBEDDING_BASE_URL"
KEY_SETTING: Final = "TUI_ASSISTANT_EMBEDDING_API_KEY"
RETRIED_STATUSES: Final = frozenset({429, 500, 502, 503, 504})
RATE_LIMIT_STATUSES: Final = frozenset({429, 503})
# A server refusing a batch as too large (or too many tokens) says so with one of these;
# llama-server answers 500 naming it ("input (N tokens) is too large to process").
SPLIT_STATUSES: Final = frozenset({400, 413, 422})

# Tries of one batch, by what went wrong: rate limits and 5xx are worth waiting out;
# a refused connection or a missed deadline rarely mends within a minute.
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


@dataclass
class Tries:
    """The failed tries of one batch (its halves included), by trouble."""

    limits: dict[Trouble, int]
    counts: dict[Trouble, int] = field(default_factory=dict)

    def failed(self, trouble: Trouble) -> int:
        """Count one more failed try of this kind; the count so far."""
        self.counts[trouble] = self.counts.get(trouble, 0) + 1
        return self.counts[trouble]

    def spent(self, trouble: Trouble) -> bool:
        return self.counts.get(trouble, 0) >= self.limits[trouble]


class EventLoopThread:
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
            self.submit(cancel_others()).result(timeout=5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        if not self.thread.is_alive():
            self.loop.close()


async def cancel_others() -> None:
    current = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not current]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


BAD_ANSWER = "embedding server answers badly"


def fault(where: str, what: str, short: str, *, every_text: bool = False) -> EmbeddingServerError:
    """The one line of a fault; `every_text` when it is the server's, not the texts'
    (`EmbeddingUnavailable.every_text`): else the texts may be tried one at a time."""
    return EmbeddingServerError(
        f"the embedding server at {where} {what}", short, every_text=every_text
    )


def gave_up(where: str, trouble: TryAgain, tries: int, deadline: float) -> EmbeddingServerError:
    """The one line for a batch whose tries are spent: every trouble worth another try
    (429, 5xx, a connection, a deadline) is the server's, whatever the texts."""
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
    return fault(where, what, f"embedding server {short}", every_text=True)


def unwrapped(future: concurrent.futures.Future[Any]) -> BaseException:
    error = future.exception()
    assert error is not None
    return error


def shown(name: str) -> str:
    shown = " ".join(name.split())
    return repr(shown if len(shown) <= 80 else shown[:79] + "…")


# Requests answered in a row, each within a quarter of its deadline, before the batch
# size doubles again (and one more request goes in flight).
GROW_AFTER: Final = 4


@dataclass
class Pace:
    """The batch size and requests in flight a server keeps up with, up to `largest`
    and `most_in_flight`: halved when a request misses its deadline, grown back when
    requests come back well within it. `generation` counts the changes, so requests
    sent together that all miss halve the pace once, not once each."""

    largest: int
    most_in_flight: int
    batch: int = 0
    in_flight: int = 0
    generation: int = 0
    kept_up: int = 0

    def __post_init__(self) -> None:
        self.batch = self.batch or self.largest
        self.in_flight = self.in_flight or self.most_in_flight

    def timed_out(self, generation: int) -> bool:
        """A request sent at `generation` missed its deadline: whether it is worth
        trying again smaller (False when the pace is already one text at a time)."""
        if generation != self.generation:
            return True  # already slowed down since it was sent
        if self.batch == 1 and self.in_flight == 1:
            return False
        self.batch = max(1, self.batch // 2)
        self.in_flight = max(1, self.in_flight // 2)
        self._changed()
        return True

    def answered(self, seconds: float, deadline: float) -> None:
        """A request came back after `seconds`."""
        if seconds > deadline / 4:
            self.kept_up = 0
            return
        self.kept_up += 1
        if self.kept_up >= GROW_AFTER and (
            self.batch < self.largest or self.in_flight < self.most_in_flight
        ):
            self.batch = min(self.largest, self.batch * 2)
            self.in_flight = min(self.most_in_flight, self.in_flight + 1)
            self._changed()

    def _changed(self) -> None:
        self.generation += 1
        self.kept_up = 0


def check_status(response: httpx.Response, where: str, model: str) -> None:
    """Nothing for a 2xx answer; else what the status means: `TryAgain` (429, 5xx),
    `TooBig` (a batch too large), or the one line of a fault no try mends (the server's
    as a whole for a redirect, 401, 403 and 404)."""
    status = response.status_code
    if 200 <= status < 300:
        return
    if status in RETRIED_STATUSES:
        trouble: Trouble = "rate_limited" if status in RATE_LIMIT_STATUSES else "status"
        wait = retry_after_seconds(response.headers.get("retry-after"), datetime.now(UTC))
        raise TryAgain(trouble, f"HTTP {status}", wait)
    if 300 <= status < 400:
        raise fault(
            where,
            f"answered with a redirect (HTTP {status}), which is not followed:"
            f" check {BASE_URL_SETTING}",
            "embedding server redirects",
            every_text=True,
        )
    if status in SPLIT_STATUSES:
        raise TooBig(status)
    if status in (401, 403):
        raise fault(
            where,
            f"refused the key (HTTP {status}): check {KEY_SETTING}",
            "embedding server refuses the key",
            every_text=True,
        )
    if status == 404:
        raise fault(
            where,
            f"has no embeddings for model {shown(model)} (HTTP 404): check"
            f" {BASE_URL_SETTING} (it ends in /v1) and TUI_ASSISTANT_EMBEDDING_MODEL",
            "embedding server: HTTP 404",
            every_text=True,
        )
    # Another 5xx is the server's; another 4xx may be about one of the texts.
    raise fault(
        where,
        f"refused the request (HTTP {status})",
        "embedding server refuses",
        every_text=status >= 500,
    )
