"""Embeddings from an OpenAI-compatible server, over mocked HTTP (respx): the request,
vectors put in order by `index`, batches and requests in flight, and every fault a
server can make ending in one line with every batch that arrived stored."""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import json
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from pydantic import SecretStr

pytest.importorskip("numpy")

import numpy as np

from tests.helpers.embedding import word_vector
from tests.helpers.store_files import open_, store_file, write
from tui_assistant.core.library.library import Library
from tui_assistant.errors import BadAnswer, EmbeddingServerError
from tui_assistant.providers.embedding_server import PROBE_TEXT, ServerEmbeddingSource
from tui_assistant.providers.embedding_server_answers import (
    embeddings_url,
    parse_embeddings,
    pause_before_try,
    retry_after_seconds,
)
from tui_assistant.providers.embedding_server_tries import GROW_AFTER, Pace
from tui_assistant.store.vectors import embed_library, passage_pieces

BASE = "http://127.0.0.1:8089/v1"
URL = f"{BASE}/embeddings"
DIMENSIONS = 48
KEY = "sk-embed-secret-1234"
Handler = Callable[[httpx.Request], Any]


def inputs(request: httpx.Request) -> list[str]:
    texts: list[str] = json.loads(request.content)["input"]
    return texts


def answer(
    texts: list[str], dimensions: int = DIMENSIONS, order: str = "as asked"
) -> httpx.Response:
    """An OpenAI-shaped answer with each text's bag-of-words vector, scaled (a server's
    vectors need not have unit length)."""
    items = [
        {
            "object": "embedding",
            "index": index,
            "embedding": (3 * word_vector(text, dimensions)).tolist(),
        }
        for index, text in enumerate(texts)
    ]
    if order == "reversed":
        items.reverse()
    return httpx.Response(200, json={"object": "list", "data": items, "model": "m"})


def healthy(request: httpx.Request) -> httpx.Response:
    return answer(inputs(request))


def in_base64(request: httpx.Request) -> httpx.Response:
    """Vectors as float32 numbers in base64, as OpenAI's API sends them when asked."""
    assert json.loads(request.content)["encoding_format"] == "base64"
    items = [
        {
            "object": "embedding",
            "index": index,
            "embedding": base64.b64encode(
                (3 * word_vector(text, DIMENSIONS)).astype("<f4").tobytes()
            ).decode(),
        }
        for index, text in enumerate(inputs(request))
    ]
    return httpx.Response(200, json={"object": "list", "data": items})


class Server:
    """What the mocked server was asked: the texts of each request, in order."""

    def __init__(self, behave: Handler) -> None:
        self.behave = behave
        self.requests: list[list[str]] = []
        self.headers: list[httpx.Headers] = []

    async def __call__(self, request: httpx.Request) -> Any:
        self.requests.append(inputs(request))
        self.headers.append(request.headers)
        result = self.behave(request)
        if asyncio.iscoroutine(result):
            result = await result
        return result

    @property
    def batches(self) -> list[list[str]]:
        """The requests but the probe that learns the dimensions."""
        return [
            texts
            for texts in self.requests
            if not (len(texts) == 1 and texts[0].endswith(PROBE_TEXT))
        ]


@pytest.fixture
def mocked() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as router:
        yield router


def serve(mocked: respx.MockRouter, behave: Handler) -> Server:
    server = Server(behave)
    mocked.post(URL).mock(side_effect=server)
    return server


@pytest.fixture
def pauses() -> list[float]:
    return []


@pytest.fixture
def source(pauses: list[float]) -> Iterator[Callable[..., ServerEmbeddingSource]]:
    """Sources whose pauses are recorded and pass on a clock of their own at once;
    closed after the test."""
    made: list[ServerEmbeddingSource] = []
    now = [1000.0]

    async def recorded(seconds: float) -> None:
        pauses.append(seconds)
        now[0] += seconds
        await asyncio.sleep(0)

    def make(**options: Any) -> ServerEmbeddingSource:
        options.setdefault("model", "nomic-embed-text")
        options.setdefault("batch_size", 8)
        options.setdefault("concurrency", 1)
        options.setdefault("clock", lambda: now[0])
        options.setdefault("sleep", recorded)
        made.append(ServerEmbeddingSource(BASE, **options))
        return made[-1]

    yield make
    for each in made:
        each.close()


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """40 one-passage notes: five batches of eight."""
    folder = tmp_path / "notes"
    for number in range(40):
        write(
            folder, f"note-{number:02}.md", f"# Note {number}\n\nThe {number} note's own words.\n"
        )
    return folder


@pytest.fixture
def library(notes: Path, tmp_path: Path) -> Library:
    return open_(notes, tmp_path / "data")


@pytest.fixture
def store(notes: Path, tmp_path: Path, library: Library) -> Path:
    return store_file(notes, tmp_path / "data")


def stored_rows(store: Path) -> int:
    with contextlib.closing(sqlite3.connect(store)) as connection:
        try:
            (count,) = connection.execute("SELECT count(*) FROM piece_vectors").fetchone()
        except sqlite3.OperationalError:  # the run ended before the tables were made
            return 0
    return int(count)


def expected_matrix(library: Library, prefix: str = "") -> np.ndarray:
    texts, _ = passage_pieces(library)
    return np.stack([word_vector(prefix + text, DIMENSIONS) for text in texts])


def assert_nothing_lost(
    library: Library,
    store: Path,
    arrived: int,
    source: Callable[..., ServerEmbeddingSource],
    mocked: respx.MockRouter,
) -> None:
    """After a fault: `arrived` pieces are stored, and a healthy run embeds only the rest."""
    assert stored_rows(store) == arrived
    mocked.routes.clear()
    rest = serve(mocked, healthy)
    vectors = embed_library(library, source(), store)
    assert sum(len(batch) for batch in rest.batches) == len(library) - arrived
    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)


# -- the request and the answer ---------------------------------------------------------


def test_each_batch_is_posted_with_the_model_its_prefix_and_the_key(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
) -> None:
    server = serve(mocked, healthy)
    embedder = source(api_key=SecretStr(KEY), document_prefix="search_document: ")
    vectors = embed_library(library, embedder, store)

    np.testing.assert_allclose(
        vectors.matrix, expected_matrix(library, "search_document: "), atol=1e-6
    )
    assert vectors.model is not None and vectors.model.name == "nomic-embed-text"
    assert vectors.model.dimensions == DIMENSIONS
    body = json.loads(mocked.calls.last.request.content)
    assert body["model"] == "nomic-embed-text"
    assert all(text.startswith("search_document: ") for batch in server.batches for text in batch)
    assert all(len(batch) <= 8 for batch in server.batches)
    assert sum(len(batch) for batch in server.batches) == len(library)
    assert all(headers["authorization"] == f"Bearer {KEY}" for headers in server.headers)
    assert KEY not in repr(embedder)


def test_a_question_is_one_request_with_the_query_prefix(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource]
) -> None:
    server = serve(mocked, healthy)
    embedder = source(query_prefix="search_query: ")
    vector = embedder.embed_question("how do I oil a chain")

    assert server.requests == [["search_query: how do I oil a chain"]]
    np.testing.assert_allclose(
        vector, word_vector("search_query: how do I oil a chain", DIMENSIONS), atol=1e-6
    )


def test_vectors_are_asked_for_in_base64(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], library: Library
) -> None:
    server = serve(mocked, in_base64)
    vectors = embed_library(library, source(), None)
    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)
    assert len(server.batches) == 5


def test_a_server_that_refuses_base64_is_asked_for_numbers_from_then_on(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], library: Library
) -> None:
    asked: list[object] = []

    def strict(request: httpx.Request) -> httpx.Response:
        asked.append(json.loads(request.content).get("encoding_format"))
        if "encoding_format" in json.loads(request.content):
            return httpx.Response(422, json={"detail": "extra fields not permitted"})
        return answer(inputs(request))

    serve(mocked, strict)
    vectors = embed_library(library, source(), None)
    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)
    # The probe was asked both ways; every batch after it for numbers.
    assert asked == ["base64", *[None] * (1 + 5)]


def test_vectors_are_put_in_order_by_index_not_position(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], library: Library
) -> None:
    serve(mocked, lambda request: answer(inputs(request), order="reversed"))
    vectors = embed_library(library, source(), None)
    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)


def test_no_more_requests_are_in_flight_than_the_concurrency(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], library: Library
) -> None:
    in_flight = [0]
    most = [0]

    async def slow(request: httpx.Request) -> httpx.Response:
        in_flight[0] += 1
        most[0] = max(most[0], in_flight[0])
        await asyncio.sleep(0.05)
        in_flight[0] -= 1
        return answer(inputs(request))

    serve(mocked, slow)
    embed_library(library, source(batch_size=4, concurrency=3), None)
    assert most[0] == 3


# -- faults: each ends in one line, and what arrived stays stored ------------------------


def test_a_429_storm_is_waited_out_as_retry_after_asks(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
    pauses: list[float],
) -> None:
    told = [0]

    def storm(request: httpx.Request) -> httpx.Response:
        if inputs(request) != [PROBE_TEXT] and told[0] < 5:
            told[0] += 1
            return httpx.Response(429, headers={"Retry-After": "7"}, json={"error": "slow down"})
        return answer(inputs(request))

    server = serve(mocked, storm)
    vectors = embed_library(library, source(), store)

    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)
    assert stored_rows(store) == len(library)
    assert told[0] == 5 and len(server.batches) == 5 + 5
    # Each 429 was followed by the pause it asked for, and nothing else paused.
    assert pauses == [7.0] * 5


def test_a_rate_limit_pauses_every_request_not_only_the_one_told(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], library: Library
) -> None:
    clock = [1000.0]
    pauses: list[float] = []
    sent: list[float] = []
    told_at: list[float] = []

    async def waited(seconds: float) -> None:
        pauses.append(seconds)
        for _ in range(20):  # the others run meanwhile, as in a real pause
            await asyncio.sleep(0)
        clock[0] += seconds

    def once(request: httpx.Request) -> httpx.Response:
        if inputs(request) == [PROBE_TEXT]:
            return answer(inputs(request))
        sent.append(clock[0])
        if not told_at:
            told_at.append(clock[0])
            return httpx.Response(429, headers={"Retry-After": "7"})
        return answer(inputs(request))

    serve(mocked, once)
    embedder = source(concurrency=4, batch_size=4, sleep=waited, clock=lambda: clock[0])
    vectors = embed_library(library, embedder, None)

    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)
    # Only requests already in flight when the 429 came were sent before its pause ended.
    before_the_end = [at for at in sent[1:] if at < told_at[0] + 7]
    assert len(before_the_end) <= 3
    assert len(sent) == 1 + 10 and pauses and min(pauses) > 0


def test_a_429_storm_that_never_ends_is_one_line_and_keeps_what_arrived(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
) -> None:
    served = [0]

    def tired(request: httpx.Request) -> httpx.Response:
        if inputs(request) == [PROBE_TEXT] or served[0] < 2:
            served[0] += inputs(request) != [PROBE_TEXT]
            return answer(inputs(request))
        return httpx.Response(429, json={"error": "quota"})

    serve(mocked, tired)
    with pytest.raises(EmbeddingServerError) as raised:
        embed_library(library, source(), store)

    message = str(raised.value)
    assert message == (
        "the embedding server at 127.0.0.1:8089 is still busy or rate limiting (HTTP 429; 8 tries)"
    )
    assert raised.value.short == "embedding server rate-limits"
    assert_nothing_lost(library, store, 2 * 8, source, mocked)


def test_a_retry_after_of_an_hour_ends_the_run_at_once(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    pauses: list[float],
) -> None:
    server = serve(mocked, lambda request: httpx.Response(429, headers={"Retry-After": "3600"}))
    with pytest.raises(EmbeddingServerError, match=r"asks to wait 3,600 s \(HTTP 429\)"):
        embed_library(library, source(), None)
    assert len(server.requests) == 1 and pauses == []


def test_a_500_in_the_middle_is_tried_again_and_nothing_is_lost(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
    pauses: list[float],
) -> None:
    count = [0]

    def hiccup(request: httpx.Request) -> httpx.Response:
        count[0] += 1
        if count[0] == 4:
            return httpx.Response(500, text="<html>oops</html>")
        return answer(inputs(request))

    server = serve(mocked, hiccup)
    vectors = embed_library(library, source(), store)

    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)
    assert stored_rows(store) == len(library)
    assert len(server.batches) == 5 + 1
    assert pauses == [pause_before_try(1, None)]


def test_a_server_failing_for_good_is_one_line_after_its_tries(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
) -> None:
    count = [0]

    def broken_after_three(request: httpx.Request) -> httpx.Response:
        count[0] += 1
        return answer(inputs(request)) if count[0] <= 3 else httpx.Response(502)

    serve(mocked, broken_after_three)
    with pytest.raises(EmbeddingServerError) as raised:
        embed_library(library, source(), store)
    assert str(raised.value) == "the embedding server at 127.0.0.1:8089 failed (HTTP 502; 6 tries)"
    assert_nothing_lost(library, store, 2 * 8, source, mocked)


def test_a_wrong_dimension_is_one_line_and_keeps_what_arrived(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
) -> None:
    count = [0]

    def changed_model(request: httpx.Request) -> httpx.Response:
        count[0] += 1
        return answer(inputs(request), DIMENSIONS if count[0] <= 3 else 32)

    serve(mocked, changed_model)
    with pytest.raises(EmbeddingServerError) as raised:
        embed_library(library, source(), store)
    assert str(raised.value) == (
        "the embedding server at 127.0.0.1:8089 answers badly: a vector of 32 numbers,"
        " where the model gave 48"
    )
    assert raised.value.short == "embedding server answers badly"
    assert_nothing_lost(library, store, 2 * 8, source, mocked)


def test_a_short_batch_has_its_missing_texts_asked_again(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
) -> None:
    def half(request: httpx.Request) -> httpx.Response:
        texts = inputs(request)
        response = answer(texts)
        if len(texts) > 3:  # keeps the first three only
            data = json.loads(response.content)
            data["data"] = data["data"][:3]
            return httpx.Response(200, json=data)
        return response

    server = serve(mocked, half)
    vectors = embed_library(library, source(), store)

    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)
    assert stored_rows(store) == len(library)
    assert sum(len(batch) for batch in server.batches) > len(library)


def test_an_empty_answer_to_a_batch_is_one_line(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
) -> None:
    def nothing(request: httpx.Request) -> httpx.Response:
        if inputs(request) == [PROBE_TEXT]:
            return answer(inputs(request))
        return httpx.Response(200, json={"data": []})

    serve(mocked, nothing)
    with pytest.raises(EmbeddingServerError, match=r"answers badly: 0 vectors for 8 texts$"):
        embed_library(library, source(), store)
    assert_nothing_lost(library, store, 0, source, mocked)


def test_a_server_slower_than_its_deadline_is_one_line_and_keeps_what_arrived(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
) -> None:
    count = [0]

    async def slows_down(request: httpx.Request) -> httpx.Response:
        count[0] += 1
        if count[0] > 3:
            await asyncio.sleep(30)
        return answer(inputs(request))

    serve(mocked, slows_down)
    with pytest.raises(EmbeddingServerError) as raised:
        embed_library(library, source(request_deadline=0.2), store)
    assert str(raised.value) == (
        "the embedding server at 127.0.0.1:8089 gave no answer within 0.2 s (2 tries);"
        " a smaller TUI_ASSISTANT_EMBEDDING_BATCH_SIZE may help"
    )
    assert raised.value.short == "embedding server too slow"
    assert_nothing_lost(library, store, 2 * 8, source, mocked)


def test_a_redirect_is_not_followed(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], library: Library
) -> None:
    elsewhere = mocked.post("https://elsewhere.example/v1/embeddings").mock(side_effect=healthy)
    serve(
        mocked,
        lambda request: httpx.Response(
            307, headers={"Location": "https://elsewhere.example/v1/embeddings"}
        ),
    )
    with pytest.raises(EmbeddingServerError) as raised:
        embed_library(library, source(), None)
    assert str(raised.value) == (
        "the embedding server at 127.0.0.1:8089 answered with a redirect (HTTP 307), which is"
        " not followed: check TUI_ASSISTANT_EMBEDDING_BASE_URL"
    )
    assert not elsewhere.called


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"<html><body>502 Bad Gateway</body></html>", "the answer is not JSON"),
        (b'{"embeddings": [[0.1, 0.2]]}', "the answer has no data list"),
        (
            b'{"data": [{"index": 0, "embedding": [[0.1, 0.2], [0.3, 0.4]]}]}',
            "one vector per token, not per text (llama-server needs --pooling mean)",
        ),
        (
            b'{"data": [{"index": 0, "embedding": {"0": 0.5}}]}',
            "an embedding is not a list of numbers",
        ),
        (b'{"data": [{"index": 0, "embedding": [0, 0, 0]}]}', "an embedding is all zeros"),
    ],
)
def test_an_answer_that_is_not_vectors_is_one_line_that_never_quotes_it(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
    body: bytes,
    why: str,
) -> None:
    serve(mocked, lambda request: httpx.Response(200, content=body))
    with pytest.raises(EmbeddingServerError) as raised:
        embed_library(library, source(), store)
    assert str(raised.value) == f"the embedding server at 127.0.0.1:8089 answers badly: {why}"
    assert "\n" not in str(raised.value)
    assert_nothing_lost(library, store, 0, source, mocked)


@pytest.mark.parametrize("status", [413, 422])
def test_a_batch_too_big_for_the_server_is_split_and_the_size_that_worked_kept(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
    status: int,
) -> None:
    def at_most_five(request: httpx.Request) -> httpx.Response:
        texts = inputs(request)
        if len(texts) > 5:
            return httpx.Response(status, json={"error": "batch too large"})
        return answer(texts)

    server = serve(mocked, at_most_five)
    vectors = embed_library(library, source(batch_size=16), store)

    np.testing.assert_allclose(vectors.matrix, expected_matrix(library), atol=1e-6)
    assert stored_rows(store) == len(library)
    # Refused: 16, then 8; from then on batches of at most 4.
    assert [len(batch) for batch in server.batches[:2]] == [16, 8]
    assert all(len(batch) <= 4 for batch in server.batches[2:])


def test_a_single_text_too_big_for_the_server_is_one_line(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], library: Library
) -> None:
    serve(
        mocked,
        lambda request: (
            answer(inputs(request)) if inputs(request) == [PROBE_TEXT] else httpx.Response(413)
        ),
    )
    with pytest.raises(
        EmbeddingServerError,
        match=r"refused a single passage piece even cut to \d+ characters \(HTTP 413\)$",
    ):
        embed_library(library, source(), None)


def test_llama_servers_500_for_an_input_too_large_splits_and_cuts_what_it_must(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], tmp_path: Path
) -> None:
    """llama-server answers 500 "input (N tokens) is too large to process" for a
    request longer than its physical batch: split like a 413; a single piece too long
    for it is cut (as a model with a shorter input limit cuts it), not lost."""
    folder = tmp_path / "long"
    long_text = " ".join(f"word{number}" for number in range(400))  # about 3,500 characters
    write(folder, "long.md", f"# Long\n\n{long_text[:850]}\n")
    for number in range(6):
        write(folder, f"short-{number}.md", f"# Short {number}\n\nA few words, {number}.\n")
    library = open_(folder, tmp_path / "data")

    def physical_batch(request: httpx.Request) -> httpx.Response:
        if sum(len(text) for text in inputs(request)) > 300:
            return httpx.Response(
                500,
                json={
                    "error": {
                        "code": 500,
                        "message": "input (807 tokens) is too large to process. increase the"
                        " physical batch size (current batch size: 512)",
                        "type": "server_error",
                    }
                },
            )
        return answer(inputs(request))

    server = serve(mocked, physical_batch)
    vectors = embed_library(library, source(), None)

    texts, _ = passage_pieces(library)
    (long_piece,) = [text for text in texts if text.startswith("Long")]
    (accepted,) = [
        batch[0]
        for batch in server.batches
        if long_piece.startswith(batch[0]) and len(batch) == 1 and len(batch[0]) <= 300
    ]
    assert len(accepted) < len(long_piece)
    row = texts.index(long_piece)
    np.testing.assert_allclose(vectors.matrix[row], word_vector(accepted, DIMENSIONS), atol=1e-6)
    others = [index for index in range(len(texts)) if index != row]
    np.testing.assert_allclose(vectors.matrix[others], expected_matrix(library)[others], atol=1e-6)


@pytest.mark.parametrize(
    ("status", "words"),
    [
        (401, "refused the key (HTTP 401): check TUI_ASSISTANT_EMBEDDING_API_KEY"),
        (
            404,
            "has no embeddings for model 'nomic-embed-text' (HTTP 404): check"
            " TUI_ASSISTANT_EMBEDDING_BASE_URL (it ends in /v1) and TUI_ASSISTANT_EMBEDDING_MODEL",
        ),
        (418, "refused the request (HTTP 418)"),
    ],
)
def test_a_refusal_is_one_line_without_the_key(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], status: int, words: str
) -> None:
    server = serve(mocked, lambda request: httpx.Response(status, text=f"key {KEY} is wrong"))
    embedder = source(api_key=SecretStr(KEY))
    with pytest.raises(EmbeddingServerError) as raised:
        embedder.identity  # noqa: B018 - the probe request
    assert str(raised.value) == f"the embedding server at 127.0.0.1:8089 {words}"
    assert KEY not in str(raised.value)
    assert len(server.requests) == 1


def test_a_server_that_cannot_be_reached_is_one_line(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource], pauses: list[float]
) -> None:
    mocked.post(URL).mock(side_effect=httpx.ConnectError("[Errno 111] Connection refused"))
    with pytest.raises(EmbeddingServerError) as raised:
        source().identity  # noqa: B018 - the probe request
    assert str(raised.value) == (
        "the embedding server at 127.0.0.1:8089 cannot be reached"
        " (could not connect to the server; 3 tries)"
    )
    assert raised.value.short == "embedding server unreachable"
    assert pauses == [pause_before_try(1, None), pause_before_try(2, None)]


def test_a_question_gets_one_try_and_a_slow_server_is_skipped_a_while(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource]
) -> None:
    async def hangs(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return answer(inputs(request))

    server = serve(mocked, lambda request: httpx.Response(503))
    embedder = source(question_deadline=0.2)
    with pytest.raises(EmbeddingServerError, match=r"\(HTTP 503; one try\)$"):
        embedder.embed_question("first")
    assert len(server.requests) == 1

    server.behave = hangs
    with pytest.raises(EmbeddingServerError, match=r"no answer within 0\.2 s"):
        embedder.embed_question("second")
    with pytest.raises(EmbeddingServerError, match=r"a moment ago \(tried again in \d+ s\)$"):
        embedder.embed_question("third")
    assert len(server.requests) == 2


def test_a_question_asked_before_is_answered_while_a_slow_server_is_skipped(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource]
) -> None:
    async def hangs(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return answer(inputs(request))

    server = serve(mocked, lambda request: answer(inputs(request)))
    embedder = source(question_deadline=0.2)
    before = embedder.embed_question("asked before")
    server.behave = hangs
    with pytest.raises(EmbeddingServerError, match=r"no answer within 0\.2 s"):
        embedder.embed_question("slow")
    # The server is skipped for a while; the question it answered before is not.
    assert np.array_equal(embedder.embed_question("asked before"), before)
    with pytest.raises(EmbeddingServerError, match=r"a moment ago \(tried again in \d+ s\)$"):
        embedder.embed_question("new")
    assert len(server.requests) == 2


QUESTIONS_TOGETHER = [f"how do I set option {number} of tool {number}" for number in range(6)]


def wait_until(condition: Callable[[], bool]) -> None:
    waited = threading.Event()
    for _ in range(10_000):
        if condition():
            return
        waited.wait(0.001)
    raise AssertionError("the condition was never met")


def ask_together(
    embedder: ServerEmbeddingSource, server: Server, questions: list[str]
) -> list[object]:
    """`questions` asked at once, in one batch: a first question is held by the server
    until they all wait behind it. Each question's vector, or its error."""
    held = threading.Event()
    behave = server.behave

    async def first_held(request: httpx.Request) -> Any:
        if inputs(request) == ["first"]:
            await asyncio.to_thread(held.wait, 10)
            return answer(inputs(request))
        return behave(request)

    server.behave = first_held

    def one(question: str) -> object:
        try:
            return embedder.embed_question(question)
        except EmbeddingServerError as error:
            return error

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(questions) + 1) as pool:
        first = pool.submit(one, "first")
        wait_until(lambda: len(server.requests) == 1)
        futures = [pool.submit(one, question) for question in questions]
        wait_until(lambda: embedder.questions.waiting == len(questions))
        held.set()
        assert isinstance(first.result(), np.ndarray)
        return [future.result() for future in futures]


def refuse_connection(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("[Errno 111] Connection refused")


@pytest.mark.parametrize(
    ("fails", "words"),
    [
        (lambda request: httpx.Response(429), "is still busy or rate limiting (HTTP 429; one try)"),
        (lambda request: httpx.Response(500), "failed (HTTP 500; one try)"),
        (lambda request: httpx.Response(501), "refused the request (HTTP 501)"),
        (
            lambda request: httpx.Response(403),
            "refused the key (HTTP 403): check TUI_ASSISTANT_EMBEDDING_API_KEY",
        ),
        (refuse_connection, "cannot be reached (could not connect to the server; one try)"),
    ],
    ids=["429", "500", "501", "403", "unreachable"],
)
def test_a_server_fault_fails_questions_asked_together_in_their_one_request(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    fails: Handler,
    words: str,
) -> None:
    server = serve(mocked, fails)
    embedder = source()

    results = ask_together(embedder, server, QUESTIONS_TOGETHER)

    # The held first question, then one request for all the others: none asked again alone.
    assert len(server.requests) == 2
    assert sorted(server.requests[1]) == sorted(QUESTIONS_TOGETHER)
    for result in results:
        assert isinstance(result, EmbeddingServerError)
        assert str(result) == f"the embedding server at 127.0.0.1:8089 {words}"


def test_a_question_the_server_refuses_fails_alone_and_the_others_are_answered(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource]
) -> None:
    broken = QUESTIONS_TOGETHER[2]

    def refuses_one(request: httpx.Request) -> httpx.Response:
        # The question and every piece cut from it to fit are refused.
        if any(broken.startswith(text) for text in inputs(request)):
            return httpx.Response(413)
        return answer(inputs(request))

    server = serve(mocked, refuses_one)
    embedder = source()

    results = ask_together(embedder, server, QUESTIONS_TOGETHER)

    for question, result in zip(QUESTIONS_TOGETHER, results, strict=True):
        if question == broken:
            assert isinstance(result, EmbeddingServerError)
            assert re.search(
                r"refused a single passage piece even cut to \d+ characters \(HTTP 413\)$",
                str(result),
            )
        else:
            assert isinstance(result, np.ndarray)
            np.testing.assert_allclose(result, word_vector(question, DIMENSIONS), atol=1e-6)
            # Asked again on its own once the batch failed.
            assert [question] in server.requests
    assert sorted(server.requests[1]) == sorted(QUESTIONS_TOGETHER)


# -- the pure parts ------------------------------------------------------------------------


def test_the_url_is_the_base_url_and_embeddings() -> None:
    assert embeddings_url("http://127.0.0.1:11434/v1") == "http://127.0.0.1:11434/v1/embeddings"
    assert embeddings_url("https://api.example.com/v1/") == "https://api.example.com/v1/embeddings"


def test_the_source_takes_the_chat_providers_url_rule() -> None:
    with pytest.raises(ValueError, match="https is required"):
        ServerEmbeddingSource("http://example.com/v1", "m")


def test_parsed_vectors_are_unit_length_by_index() -> None:
    body = json.dumps(
        {"data": [{"index": 1, "embedding": [0, 3, 4]}, {"index": 0, "embedding": [2, 0, 0]}]}
    ).encode()
    found = parse_embeddings(body, 2, None)
    np.testing.assert_allclose(found[0], [1, 0, 0])
    np.testing.assert_allclose(found[1], [0, 0.6, 0.8])
    huge = json.dumps({"data": [{"index": 0, "embedding": [1e308, -1e308]}]}).encode()
    np.testing.assert_allclose(parse_embeddings(huge, 1, 2)[0], [0.70710677, -0.70710677])


@pytest.mark.parametrize(
    ("items", "why"),
    [
        ([{"index": 2, "embedding": [1.0]}], "an item has no index, or one outside the batch"),
        ([{"index": True, "embedding": [1.0]}], "an item has no index, or one outside the batch"),
        (
            [{"index": 0, "embedding": [1.0]}, {"index": 0, "embedding": [1.0]}],
            "two vectors for text 0",
        ),
        ([{"index": 0, "embedding": [1.0, True]}], "an embedding is not a list of numbers"),
        ([{"index": 0, "embedding": "not base64!"}], "an embedding is neither numbers nor base64"),
        ([{"index": 0, "embedding": "AAAAAAA="}], "an embedding in base64 is not float32 numbers"),
        (
            [{"index": 0, "embedding": [float("nan"), 1.0]}],
            "an embedding holds a number that is not finite",
        ),
    ],
)
def test_a_malformed_item_is_a_bad_answer(items: list[object], why: str) -> None:
    with pytest.raises(BadAnswer, match=f"^{why}$"):
        parse_embeddings(json.dumps({"data": items}).encode(), 2, None)


def test_retry_after_reads_seconds_and_dates() -> None:
    now = datetime(2026, 1, 5, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds("7", now) == 7.0
    assert retry_after_seconds("Mon, 05 Jan 2026 12:00:30 GMT", now) == 30.0
    assert retry_after_seconds("Mon, 05 Jan 2026 11:00:00 GMT", now) == 0.0
    assert retry_after_seconds("soon", now) is None
    assert retry_after_seconds("-3", now) is None
    assert retry_after_seconds(None, now) is None


def test_pauses_grow_to_a_ceiling_and_yield_to_retry_after() -> None:
    assert [pause_before_try(tries, None) for tries in range(1, 9)] == [
        0.5,
        1.0,
        2.0,
        4.0,
        8.0,
        16.0,
        30.0,
        30.0,
    ]
    assert pause_before_try(3, 7.0) == 7.0


def test_closing_the_source_wakes_a_caller_waiting_on_the_server(
    mocked: respx.MockRouter, source: Callable[..., ServerEmbeddingSource]
) -> None:
    started = threading.Event()

    async def hangs(request: httpx.Request) -> httpx.Response:
        started.set()
        await asyncio.sleep(60)
        return answer(inputs(request))

    serve(mocked, hangs)
    embedder = source()
    ended: list[BaseException] = []

    def probe() -> None:
        try:
            embedder.identity  # noqa: B018 - the probe request
        except BaseException as error:
            ended.append(error)

    waiting = threading.Thread(target=probe)
    waiting.start()
    assert started.wait(10)
    embedder.close()
    waiting.join(10)
    assert not waiting.is_alive()
    assert [type(error) for error in ended] == [concurrent.futures.CancelledError]


def test_a_server_too_slow_for_big_batches_gets_smaller_ones_and_the_run_completes(
    mocked: respx.MockRouter,
    source: Callable[..., ServerEmbeddingSource],
    library: Library,
    store: Path,
) -> None:
    async def slow_for_big_batches(request: httpx.Request) -> httpx.Response:
        if len(inputs(request)) > 2:
            await asyncio.sleep(30)  # past the deadline: the server cannot keep up
        return answer(inputs(request))

    server = serve(mocked, slow_for_big_batches)
    embedder = source(batch_size=8, concurrency=4, request_deadline=0.2)
    vectors = embed_library(library, embedder, store)

    assert stored_rows(store) == len(library)
    assert np.allclose(vectors.matrix, expected_matrix(library), atol=1e-6)
    # Each missed deadline halved the batches down to what the server keeps up with.
    assert {8, 4, 2} <= {len(batch) for batch in server.batches}
    answered = [batch for batch in server.batches if len(batch) <= 2]
    assert sum(map(len, answered)) == len(library)


def test_the_pace_halves_once_for_requests_sent_together_and_grows_back() -> None:
    pace = Pace(largest=64, most_in_flight=4)
    sent = pace.generation
    assert pace.timed_out(sent) and pace.timed_out(sent)  # two requests of one pace
    assert (pace.batch, pace.in_flight) == (32, 2)
    for _ in range(GROW_AFTER - 1):
        pace.answered(1.0, deadline=60.0)
    assert pace.batch == 32
    pace.answered(1.0, deadline=60.0)
    assert (pace.batch, pace.in_flight) == (64, 3)
    pace.answered(40.0, deadline=60.0)  # a slow answer starts the count again
    assert pace.kept_up == 0


def test_at_one_text_a_time_a_missed_deadline_is_a_try_spent() -> None:
    pace = Pace(largest=1, most_in_flight=1)
    assert not pace.timed_out(pace.generation)
