"""A model's choice among passages the library was not sure of is said as such.

Against a fake OpenAI-compatible server that always cites the first passage it is sent
(a model that gets every check right and may still pick the wrong candidate), every
question the library alone is unsure of comes back `chosen_by: "model"`, worded as the
model's choice in readable `ask`, never as `answered from`; a sure question is the
library's choice. A refused model answer says why in `detail`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cloud_pages import SURE_QUESTION, UNSURE_QUESTIONS, write_cloud_pages
from tests.helpers.fake_openai_server import CitePassage, FakeOpenAIServer, Reply, Status
from tui_assistant import cli

QUESTIONS = (*UNSURE_QUESTIONS, SURE_QUESTION)


@pytest.fixture
def library(tmp_path: Path) -> str:
    return str(write_cloud_pages(tmp_path / "cloud"))


@pytest.fixture
def model_server(monkeypatch: pytest.MonkeyPatch, clean_env: Path) -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(CitePassage("Set it in the function's settings.")) as server:
        yield server


def model_mode(monkeypatch: pytest.MonkeyPatch, server: FakeOpenAIServer) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    monkeypatch.setenv("TUI_ASSISTANT_BASE_URL", server.base_url)
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", "test-key")


def ask_json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    assert cli.main(["ask", "--json", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_no_question_the_library_was_unsure_of_is_shown_as_a_sure_answer(
    library: str,
    model_server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    alone = ask_json(capsys, "--library", library, *QUESTIONS)
    unsure = {row["question"] for row in alone if row["reason"] == "ambiguous"}
    assert unsure == set(UNSURE_QUESTIONS)  # else this library no longer tests the rule
    model_mode(monkeypatch, model_server)

    rows = ask_json(capsys, "--library", library, *QUESTIONS)
    assert cli.main(["ask", "--library", library, *QUESTIONS]) == 0
    readable = capsys.readouterr().out.split("\n? ")

    assert model_server.request_count == 2 * len(QUESTIONS)
    for row, text in zip(rows, readable, strict=True):
        assert row["outcome"] == "answered" and row["detail"] is None
        if row["question"] in unsure:
            assert row["chosen_by"] == "model"
            assert row["citations"] == [row["passages"][0]["id"]]
            assert "answered by the model from 3 possible passages" in text
            assert "answered from" not in text
        else:
            assert row["chosen_by"] == "library"
            assert "answered from Plugins [plugins]" in text


@pytest.mark.parametrize(
    ("behaviour", "reason", "detail"),
    [
        (Status(500), "provider_error", "HTTP 500"),
        (Reply("From the docs: [source:plugins]"), "unverified", "no text beyond citations"),
        (
            Reply('Use "a plugin" [source:plugins]'),
            "unverified",
            'a quote of fewer than 3 words: "a plugin"',
        ),
        (
            Reply('Run "npm add the plugin" [source:plugins]'),
            "unverified",
            'quote not in the passage: "npm add the plugin"',
        ),
        (Reply("Install it. [source:aws]"), "unverified", "cites a passage it was not sent"),
    ],
)
def test_a_refused_model_answer_says_why_in_detail(
    library: str,
    model_server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    behaviour: Any,
    reason: str,
    detail: str,
) -> None:
    model_mode(monkeypatch, model_server)
    model_server.behaviour = behaviour

    (row,) = ask_json(capsys, "--library", library, SURE_QUESTION)

    assert (row["outcome"], row["reason"], row["detail"]) == ("refused", reason, detail)
    assert row["chosen_by"] is None and row["answer"] is None


def test_an_unsure_question_whose_model_answer_fails_stays_unsure_with_why(
    library: str,
    model_server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model_mode(monkeypatch, model_server)
    model_server.behaviour = Reply("See [source:aws]")

    (row,) = ask_json(capsys, "--library", library, UNSURE_QUESTIONS[0])

    assert (row["outcome"], row["reason"]) == ("refused", "ambiguous")
    assert (row["chosen_by"], row["detail"]) == (None, "no text beyond citations")
    assert len(row["nearest"]) >= 3
