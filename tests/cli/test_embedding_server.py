"""The commands with embeddings from a server, in process: `ask` says in one line on
stderr when the server cannot be reached or answers badly and answers by words, every
answer's `retrieval` says so; `library` reports the problem in one line; settings that
cannot work are one error line (exit 2) that never shows the key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import respx

pytest.importorskip("numpy")

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.embedding import word_vectors_answer
from tui_assistant import cli
from tui_assistant.providers import embedding_server_answers

BASE = "http://127.0.0.1:8089/v1"
KEY = "sk-embedding-key-5678"


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding_server_answers, "FIRST_PAUSE_SECONDS", 0.001)


@pytest.fixture
def mocked() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as router:
        yield router


def use_server(monkeypatch: pytest.MonkeyPatch, base_url: str = BASE) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "auto")
    monkeypatch.setenv("TUI_ASSISTANT_EMBEDDING_BASE_URL", base_url)
    monkeypatch.setenv("TUI_ASSISTANT_EMBEDDING_MODEL", "nomic-embed-text")
    monkeypatch.setenv("TUI_ASSISTANT_EMBEDDING_API_KEY", KEY)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_ask_with_an_unreachable_server_answers_by_words_and_says_so_in_one_line(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refused_port: int,
) -> None:
    use_server(monkeypatch, f"http://127.0.0.1:{refused_port}/v1")
    status, out, err = run(capsys, "ask", "--json", "How much salt should I add to pasta water?")
    assert status == 0
    (answer,) = [json.loads(line) for line in out.splitlines()]
    assert answer["outcome"] == "answered" and answer["retrieval"] == "ranked"
    assert err.splitlines() == [
        f"tui-assistant: warning: the embedding server at 127.0.0.1:{refused_port} cannot be"
        " reached (could not connect to the server; 3 tries); answering by words (ranked)"
    ]


def test_ask_whose_questions_the_server_fails_says_it_once_for_all_of_them(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    mocked: respx.MockRouter,
) -> None:
    use_server(monkeypatch)
    passages: list[int] = []

    def vectors_then_garbage(request: httpx.Request) -> httpx.Response:
        texts = json.loads(request.content)["input"]
        if texts == ["tui-assistant"] or len(texts) > 1 or not passages:
            passages.append(len(texts))
            return word_vectors_answer(request)
        return httpx.Response(200, text="<html>upstream gone</html>")

    mocked.post(f"{BASE}/embeddings").mock(side_effect=vectors_then_garbage)
    questions = ["How much salt should I add to pasta water?", "how long to boil an egg"]
    # --wait: the vectors are in, so each question must be embedded to answer by meaning.
    status, out, err = run(capsys, "ask", "--json", "--wait", *questions)
    assert status == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert [answer["retrieval"] for answer in answers] == ["ranked", "ranked"]
    assert err.splitlines() == [
        "tui-assistant: warning: the embedding server at 127.0.0.1:8089 answers badly:"
        " the answer is not JSON; answering by words (ranked)"
    ]
    assert KEY not in err


def test_the_library_report_says_in_one_line_that_the_server_cannot_be_reached(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refused_port: int,
) -> None:
    use_server(monkeypatch, f"http://127.0.0.1:{refused_port}/v1")
    status, out, err = run(capsys, "library", "--library", str(BUNDLED_LESSONS))
    assert status == 0 and err == ""
    problem = (
        f"the embedding server at 127.0.0.1:{refused_port} cannot be reached"
        " (could not connect to the server; 3 tries)"
    )
    lines = out.splitlines()
    assert f"embedding: {problem}" in lines
    assert (
        f"vectors: nomic-embed-text (server 127.0.0.1:{refused_port}): 0/3 passages embedded"
        in lines
    )
    status, out, _ = run(capsys, "library", "--json", "--library", str(BUNDLED_LESSONS))
    vectors = json.loads(out)["vectors"]
    assert vectors["problem"] == problem and vectors["state"] == "incomplete"


def test_the_library_report_counts_the_servers_vectors(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    mocked: respx.MockRouter,
) -> None:
    use_server(monkeypatch)
    mocked.post(f"{BASE}/embeddings").mock(side_effect=word_vectors_answer)
    assert run(capsys, "ask", "--json", "--wait", "salt for pasta water")[0] == 0
    status, out, _ = run(capsys, "library", "--json")
    vectors = json.loads(out)["vectors"]
    assert status == 0
    assert vectors["state"] == "complete" and vectors["problem"] is None
    assert vectors["model"] == "nomic-embed-text"
    assert vectors["source"] == "server 127.0.0.1:8089"


@pytest.mark.parametrize(
    ("settings", "line"),
    [
        (
            {"TUI_ASSISTANT_EMBEDDING_BASE_URL": "http://models.example.com/v1"},
            "TUI_ASSISTANT_EMBEDDING_BASE_URL: https is required (plain http only to a"
            " loopback host)",
        ),
        (
            {"TUI_ASSISTANT_EMBEDDING_BASE_URL": BASE, "TUI_ASSISTANT_EMBEDDING_MODEL": ""},
            "TUI_ASSISTANT_EMBEDDING_MODEL: name the server's model when"
            " TUI_ASSISTANT_EMBEDDING_BASE_URL is set",
        ),
        (
            {"TUI_ASSISTANT_EMBEDDING_BATCH_SIZE": "0"},
            "TUI_ASSISTANT_EMBEDDING_BATCH_SIZE: must be from 1 to 2048",
        ),
        (
            {"TUI_ASSISTANT_EMBEDDING_QUERY_PREFIX": "query:\n"},
            "TUI_ASSISTANT_EMBEDDING_QUERY_PREFIX: must be printable text on one line",
        ),
        (
            {"TUI_ASSISTANT_EMBEDDING_API_KEY": f"{KEY} extra"},
            "TUI_ASSISTANT_EMBEDDING_API_KEY: must be visible ASCII characters only (no spaces)",
        ),
    ],
)
def test_settings_that_cannot_work_are_one_error_line(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    settings: dict[str, str],
    line: str,
) -> None:
    use_server(monkeypatch)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    status, out, err = run(capsys, "ask", "--json", "salt")
    assert status == 2 and out == ""
    assert err.splitlines() == [f"tui-assistant: error: {line}"]
    assert KEY not in err
