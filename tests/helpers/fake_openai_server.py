"""A scriptable OpenAI-compatible server on 127.0.0.1, for tests that need real HTTP.

The server is a few dozen lines of asyncio running on its own event loop in a
background thread, bound to an ephemeral loopback port. It speaks just enough
HTTP/1.1 for `POST .../chat/completions` (any path is accepted and recorded), answers
one request per connection (`Connection: close`), and does whatever its current
*behaviour* says. Stopping it ends every behaviour, including one that hangs, so a
test never leaks a thread.

Use it as a context manager::

    from tests.helpers.fake_openai_server import FakeOpenAIServer, Reply, Status

    with FakeOpenAIServer(Reply("Salt it well. [source:pasta-water]")) as server:
        env = {"TUI_ASSISTANT_PROVIDER": "openai", "TUI_ASSISTANT_BASE_URL": server.base_url,
               "TUI_ASSISTANT_API_KEY": "test-key"}
        ...                                   # run the app against server.base_url
        assert server.request_count == 1
        body = server.requests[0].json()      # the request body as sent

or as a pytest fixture (from `tests/conftest.py`): `fake_openai_server` for one test,
`server` for a whole module::

    def test_something(fake_openai_server): ...

API:
- `FakeOpenAIServer(behaviour=CitePassage())`: `start()` / `stop()` or `with`.
- `.base_url`: `http://127.0.0.1:PORT/v1`, the value for `TUI_ASSISTANT_BASE_URL`.
- `.behaviour`: what every request gets; assign a new one at any time. It may also be a
  function `RecordedRequest -> Behaviour`.
- `.script(*behaviours)`: the next requests get these, in order; then `.behaviour`.
- `.requests` (a copy, oldest first), `.request_count`, `.wait_for_requests(n, timeout)`.
- `RecordedRequest`: `method`, `path`, `headers` (names lower-case), `body` (bytes),
  `.json()`, `.messages`, `.user_payload` (the last message's content parsed as JSON),
  `bytes_sent` (body bytes written back), `disconnected` (a `threading.Event` set when
  the client closed the connection before the server finished) and `disconnected_after`
  (seconds from the request arriving to that close).

Behaviours (frozen dataclasses):
- `Reply(content)`: 200 with a chat completion whose `choices[0].message.content` is
  `content` (`None` gives JSON `null`).
- `CitePassage(text)`: 200 answering `"{text} [source:ID]"` with the id of the passage
  the request carried: a correctly cited answer for whatever lesson was retrieved.
- `Status(code)`: that status with a small JSON error body.
- `Redirect(location, code=302)`: a redirect that must not be followed.
- `Hang()`: reads the request and never answers, until the client goes away or the
  server stops.
- `Drip(content, interval=1.0)`: headers at once, then the body one byte per interval.
- `HugeBody(size=20 MiB, declare_length=False)`: a body of `size` bytes streamed in
  64 KiB chunks, without Content-Length unless asked (so only a streaming cap stops it).
- `CloseMidBody()`: promises 1000 bytes, sends 10, closes.
- `RawBody(body, content_type)`: any bytes with status 200; `NOT_JSON`, `NO_CHOICES` and
  `NULL_CONTENT` are ready-made.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MIB = 1024 * 1024
_MAX_REQUEST_BYTES = 4 * MIB


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    received_at: float = field(default_factory=time.monotonic)
    bytes_sent: int = 0
    disconnected: threading.Event = field(default_factory=threading.Event)
    disconnected_after: float | None = None

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = self.json()["messages"]
        return messages

    @property
    def user_payload(self) -> Any:
        """The last message's content parsed as JSON: `{"question", "passages"}`."""
        return json.loads(self.messages[-1]["content"])

    def mark_disconnected(self) -> None:
        if not self.disconnected.is_set():
            self.disconnected_after = time.monotonic() - self.received_at
            self.disconnected.set()


def completion_body(content: str | None) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": "fake-model",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
        }
    ).encode()


class _Exchange:
    """One connection's streams, for behaviours to answer through."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: RecordedRequest
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.request = request

    async def head(self, status: int, headers: dict[str, str]) -> None:
        lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        lines.append("Connection: close")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        await self.writer.drain()

    async def body(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()
        self.request.bytes_sent += len(data)

    async def whole(self, status: int, data: bytes, content_type: str = "application/json") -> None:
        await self.head(status, {"Content-Type": content_type, "Content-Length": str(len(data))})
        await self.body(data)

    async def client_closes_within(self, seconds: float) -> bool:
        """Wait up to `seconds` for the client to close its end; True if it did."""
        try:
            data = await asyncio.wait_for(self.reader.read(1), seconds)
        except TimeoutError:
            return False
        return data == b""


_REASONS = {200: "OK", 302: "Found", 401: "Unauthorized", 429: "Too Many Requests", 500: "Error"}


class Behaviour:
    async def respond(self, exchange: _Exchange) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Reply(Behaviour):
    content: str | None

    async def respond(self, exchange: _Exchange) -> None:
        await exchange.whole(200, completion_body(self.content))


@dataclass(frozen=True)
class CitePassage(Behaviour):
    text: str = "According to the lesson, this is the answer."

    async def respond(self, exchange: _Exchange) -> None:
        passage_id = exchange.request.user_payload["passages"][0]["id"]
        await exchange.whole(200, completion_body(f"{self.text} [source:{passage_id}]"))


@dataclass(frozen=True)
class Status(Behaviour):
    code: int

    async def respond(self, exchange: _Exchange) -> None:
        error = {"error": {"message": f"fake server says {self.code}", "code": self.code}}
        await exchange.whole(self.code, json.dumps(error).encode())


@dataclass(frozen=True)
class Redirect(Behaviour):
    location: str = "http://127.0.0.1:9/v1/chat/completions"
    code: int = 302

    async def respond(self, exchange: _Exchange) -> None:
        await exchange.head(self.code, {"Location": self.location, "Content-Length": "0"})


@dataclass(frozen=True)
class Hang(Behaviour):
    async def respond(self, exchange: _Exchange) -> None:
        # Nothing is sent; the server's stop cancels this wait.
        while not await exchange.client_closes_within(3600):
            pass
        exchange.request.mark_disconnected()


@dataclass(frozen=True)
class Drip(Behaviour):
    content: str = "A slow answer. [source:pasta-water]"
    interval: float = 1.0

    async def respond(self, exchange: _Exchange) -> None:
        data = completion_body(self.content)
        await exchange.head(
            200, {"Content-Type": "application/json", "Content-Length": str(len(data))}
        )
        for index in range(len(data)):
            if await exchange.client_closes_within(self.interval):
                exchange.request.mark_disconnected()
                return
            await exchange.body(data[index : index + 1])


@dataclass(frozen=True)
class HugeBody(Behaviour):
    size: int = 20 * MIB
    declare_length: bool = False

    async def respond(self, exchange: _Exchange) -> None:
        headers = {"Content-Type": "application/json"}
        if self.declare_length:
            headers["Content-Length"] = str(self.size)
        await exchange.head(200, headers)
        chunk = b'{"choices": [' + b" " * (64 * 1024 - 13)
        remaining = self.size
        while remaining > 0:
            await exchange.body(chunk[:remaining])
            remaining -= len(chunk)


@dataclass(frozen=True)
class CloseMidBody(Behaviour):
    async def respond(self, exchange: _Exchange) -> None:
        await exchange.head(200, {"Content-Type": "application/json", "Content-Length": "1000"})
        await exchange.body(b'{"choices":')
        exchange.writer.close()


@dataclass(frozen=True)
class RawBody(Behaviour):
    body: bytes
    content_type: str = "application/json"

    async def respond(self, exchange: _Exchange) -> None:
        await exchange.whole(200, self.body, self.content_type)


NOT_JSON = RawBody(b"<html><body>Service unavailable</body></html>", "text/html")
NO_CHOICES = RawBody(b'{"id": "chatcmpl-fake", "choices": []}')
NULL_CONTENT = Reply(None)

BehaviourChoice = Behaviour | Callable[[RecordedRequest], Behaviour]


class FakeOpenAIServer:
    """An OpenAI-compatible HTTP server on 127.0.0.1 in a background thread."""

    def __init__(self, behaviour: BehaviourChoice | None = None) -> None:
        self.behaviour: BehaviourChoice = behaviour or CitePassage()
        self._scripted: deque[Behaviour] = deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        self._thread = threading.Thread(target=self._run, name="fake-openai-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10) or self._startup_error is not None:
            raise RuntimeError(f"fake OpenAI server did not start: {self._startup_error}")
        return self

    def stop(self) -> None:
        if self._thread is None:
            return
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(10)
        if self._thread.is_alive():
            raise RuntimeError("fake OpenAI server thread did not stop")
        self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- what tests use ------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def script(self, *behaviours: Behaviour) -> None:
        with self._lock:
            self._scripted.extend(behaviours)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self._requests)

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> bool:
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self._requests) >= count, timeout)

    # -- the server ----------------------------------------------------------------

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as error:  # reported to start(); the thread must end cleanly
            self._startup_error = error
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        handlers: set[asyncio.Task[None]] = set()

        async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None
            handlers.add(task)
            try:
                await self._handle(reader, writer)
            except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                pass
            finally:
                handlers.discard(task)
                writer.close()

        server = await asyncio.start_server(on_connection, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            await self._stopping.wait()
        finally:
            server.close()
            for task in list(handlers):
                task.cancel()
            await asyncio.gather(*handlers, return_exceptions=True)
            await server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        method, path, _version = request_line.split(" ", 2)
        headers: dict[str, str] = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        length = min(int(headers.get("content-length", "0") or 0), _MAX_REQUEST_BYTES)
        body = await reader.readexactly(length) if length else b""
        request = RecordedRequest(method, path, headers, body)
        with self._arrived:
            self._requests.append(request)
            behaviour = self._scripted.popleft() if self._scripted else None
            self._arrived.notify_all()
        if behaviour is None:
            choice = self.behaviour
            behaviour = choice if isinstance(choice, Behaviour) else choice(request)
        exchange = _Exchange(reader, writer, request)
        try:
            await behaviour.respond(exchange)
        except ConnectionError:
            request.mark_disconnected()
