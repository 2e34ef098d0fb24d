"""The API key never leaks: every command's output and every file the app wrote is
searched for it, in the forms a leak would take.

Each scenario runs the real CLI (a subprocess) with a distinctive, per-run key against
the loopback fake server, including a hostile server that echoes the key back in its
error bodies and in the model's answer. Then `assert_key_absent` searches stdout,
stderr and every file under the test's folder (the data folder with the call ledger,
the working folder, the cases file) for the key, `Bearer <key>`, and the key in base64.

The fake server must have received `Authorization: Bearer <key>`: proof that the key
was really in play, so a scenario cannot pass by never using it.

`assert_key_absent` takes any mix of paths and captured text, so the TUI's history,
exports and screenshots can be checked with the same function.
"""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import CliResult
from tests.helpers.fake_openai_server import (
    Behaviour,
    CitePassage,
    FakeOpenAIServer,
    Hang,
    RecordedRequest,
    Reply,
)
from tests.helpers.processes import interrupt, reaped, start_cli
from tests.helpers.secret_leaks import QuotingStatus, assert_key_absent

RunCli = Callable[..., CliResult]

# Distinctive and new every run, so no fixture text or cached file can contain it.
KEY = f"sk-test-LEAKCHECK-{secrets.token_hex(12)}"
PASTA = "How much salt should I add to pasta water?"
UNRELATED = "What is the capital of France?"


# -- the check -------------------------------------------------------------------


def test_the_leak_check_finds_each_form_of_the_key(tmp_path: Path) -> None:
    """The check itself can fail: each form of the key, planted, is found."""
    raw = KEY.encode()
    planted = [
        f"error: bad key {KEY}",
        f"Authorization: Bearer {KEY}",
        b"basic " + base64.b64encode(b"user:" + raw),
        b"x=" + base64.urlsafe_b64encode(b"ab" + raw + b"c"),
        base64.b64encode(f"Bearer {KEY}".encode()),
    ]
    for index, content in enumerate(planted):
        folder = tmp_path / f"case-{index}" / "nested"
        folder.mkdir(parents=True)
        (folder / "written.bin").write_bytes(
            content if isinstance(content, bytes) else content.encode()
        )
        with pytest.raises(AssertionError, match="leaked"):
            assert_key_absent(KEY, [content])
        with pytest.raises(AssertionError, match="leaked"):
            assert_key_absent(KEY, [tmp_path / f"case-{index}"])
    # A near miss is not a leak.
    assert assert_key_absent(KEY, [KEY[:-1], "sk-test-LEAKCHECK-"]) == 2


# -- the scenarios ------------------------------------------------------------------


def _echo_key_answer(request: RecordedRequest) -> Behaviour:
    """A model that repeats the credential in an answer citing an invented source."""
    return Reply(f"Your credential is {request.headers.get('authorization', '')} [source:keys]")


def model_env(base_url: str, **extra: str) -> dict[str, str]:
    env = {
        "TUI_ASSISTANT_PROVIDER": "openai",
        "TUI_ASSISTANT_BASE_URL": base_url,
        "TUI_ASSISTANT_API_KEY": KEY,
        "TUI_ASSISTANT_MODEL": "fake-model",
        # A limit makes the app keep the call ledger: one more file it writes.
        "TUI_ASSISTANT_MONTHLY_CALL_LIMIT": "1000",
    }
    env.update({f"TUI_ASSISTANT_{name.upper()}": value for name, value in extra.items()})
    return env


def ran(result: CliResult, code: int = 0) -> list[str]:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    return [result.stdout, result.stderr]


def ask_both_ways(run_cli: RunCli, env: dict[str, str], *questions: str) -> list[str]:
    outputs = ran(run_cli("ask", "--json", *questions, env=env))
    outputs += ran(run_cli("ask", *questions, env=env))
    return outputs


def rows(outputs: list[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in outputs[0].splitlines()]


Scenario = Callable[[RunCli, FakeOpenAIServer, Path], list[str]]


def answered(run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    server.behaviour = CitePassage("About 10 grams per litre.")
    outputs = ask_both_ways(run_cli, model_env(server.base_url), PASTA, "repeat that")
    assert [row["outcome"] for row in rows(outputs)] == ["answered", "answered"]
    return outputs


def unverified(run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    server.behaviour = _echo_key_answer
    outputs = ask_both_ways(run_cli, model_env(server.base_url), PASTA)
    assert [row["reason"] for row in rows(outputs)] == ["unverified"]
    return outputs


def provider_errors(run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    outputs: list[str] = []
    for code in (401, 500):
        server.behaviour = QuotingStatus(code)
        found = ask_both_ways(run_cli, model_env(server.base_url), PASTA)
        assert [row["reason"] for row in rows(found)] == ["provider_error"]
        outputs += found
    return outputs


def timeout(run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    server.behaviour = Hang()
    env = model_env(server.base_url, deadline_seconds="1")
    outputs = ran(run_cli("ask", "--json", PASTA, env=env))
    assert [row["reason"] for row in rows(outputs)] == ["timeout"]
    return outputs


def evaluation(run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    server.behaviour = CitePassage()
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps({"question": PASTA, "expect_passage": "pasta-water"})
        + "\n"
        + json.dumps({"question": UNRELATED, "expect_passage": None})
        + "\n"
    )
    env = model_env(server.base_url)
    outputs = ran(run_cli("eval", "--json", str(cases), env=env))
    assert json.loads(outputs[0])["correct"] == 2
    server.behaviour = QuotingStatus(401)
    outputs += ran(run_cli("eval", str(cases), env=env))
    return outputs


def lessons(run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    env = model_env(server.base_url)
    outputs = ran(run_cli("passages", "--json", env=env)) + ran(run_cli("passages", env=env))
    # Listing lessons asks no model, so no request proves the key was in play here:
    # one ask in the same setting does.
    server.behaviour = CitePassage()
    return outputs + ran(run_cli("ask", "--json", PASTA, env=env))


def base_url_errors(run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    outputs: list[str] = []
    for url in ("http://models.example.com/v1", f"https://api.example.com/v1?key={KEY}"):
        result = run_cli("ask", "--json", PASTA, env=model_env(url))
        assert result.stderr.startswith("tui-assistant: error: TUI_ASSISTANT_BASE_URL: ")
        outputs += ran(result, code=2)
    # The same settings with a usable URL do send the key: it was in play.
    server.behaviour = CitePassage()
    return outputs + ran(run_cli("ask", "--json", PASTA, env=model_env(server.base_url)))


def cancelled(run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    server.behaviour = Hang()
    before = server.request_count
    env = model_env(server.base_url)
    with reaped(
        start_cli(tmp_path / "data", tmp_path / "cwd", env, "ask", "--json", PASTA)
    ) as process:
        assert server.wait_for_requests(before + 1, timeout=30)
        stdout, stderr = interrupt(process)
    outputs = ran(CliResult(process.returncode, stdout, stderr), code=130)
    assert [row["outcome"] for row in rows(outputs)] == ["cancelled"]
    return outputs


SCENARIOS: dict[str, Scenario] = {
    "ask-answered": answered,
    "ask-unverified-answer-quoting-the-key": unverified,
    "ask-401-and-500-quoting-the-key": provider_errors,
    "ask-timeout": timeout,
    "eval": evaluation,
    "lessons": lessons,
    "base-url-errors": base_url_errors,
    "ask-cancelled-by-sigint": cancelled,
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_key_is_in_no_output_and_no_file_the_app_wrote(
    run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path, name: str
) -> None:
    before = server.request_count
    outputs = SCENARIOS[name](run_cli, server, tmp_path)

    # The key was really sent, so the search below had something to find.
    sent = server.requests[before:]
    assert sent, "the scenario sent no request"
    assert all(request.headers["authorization"] == f"Bearer {KEY}" for request in sent)

    searched = assert_key_absent(KEY, [*outputs, tmp_path])
    # The outputs, plus at least the call ledger the app wrote under the data folder.
    assert (tmp_path / "data" / "provider-calls.log").is_file()
    assert searched > len(outputs)
