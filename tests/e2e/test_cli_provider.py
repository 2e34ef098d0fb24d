"""`tui-assistant ask --json` in model mode against a live loopback server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import CliResult
from tests.helpers.fake_openai_server import CitePassage, FakeOpenAIServer, Hang, Reply, Status
from tests.helpers.processes import interrupt, reaped, start_cli

API_KEY = "sk-cli-test-secret-456"
PASTA = "How much salt should I add to pasta water?"
EGGS = "How long do I boil eggs for a runny yolk?"
UNRELATED = "What is the capital of France?"

RunCli = Callable[..., CliResult]


def model_env(server: FakeOpenAIServer, **extra: str) -> dict[str, str]:
    env = {
        "TUI_ASSISTANT_PROVIDER": "openai",
        "TUI_ASSISTANT_BASE_URL": server.base_url,
        "TUI_ASSISTANT_API_KEY": API_KEY,
        "TUI_ASSISTANT_MODEL": "fake-model",
    }
    env.update({f"TUI_ASSISTANT_{name.upper()}": value for name, value in extra.items()})
    return env


def ask_json(run_cli: RunCli, env: dict[str, str], *questions: str) -> list[dict[str, Any]]:
    result = run_cli("ask", "--json", *questions, env=env)
    assert result.returncode == 0, result.stderr
    assert API_KEY not in result.stdout + result.stderr
    return result.json_lines()


def test_a_correctly_cited_answer_is_accepted(run_cli: RunCli) -> None:
    with FakeOpenAIServer(Reply("About 10 grams per litre. [source:pasta-water]")) as server:
        [row] = ask_json(run_cli, model_env(server), PASTA)
        [request] = server.requests
    assert row["outcome"] == "answered"
    assert row["answer"] == "About 10 grams per litre. [source:pasta-water]"
    assert row["citations"] == ["pasta-water"]
    assert row["source_path"] == "lessons/pasta-water.md"
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert request.json()["model"] == "fake-model"
    # The best passage first, then only the runners-up close to it (none of the other
    # lessons is): the passages the answer reports.
    sent = [passage["id"] for passage in request.user_payload["passages"]]
    assert sent[0] == "pasta-water" and len(sent) <= 3 and len(set(sent)) == len(sent)
    assert [passage["id"] for passage in row["passages"]] == sent


def test_the_passages_setting_caps_what_is_sent(run_cli: RunCli) -> None:
    with FakeOpenAIServer(Reply("About 10 grams per litre. [source:pasta-water]")) as server:
        [row] = ask_json(run_cli, model_env(server, passages="1"), PASTA)
        [request] = server.requests
    assert [passage["id"] for passage in request.user_payload["passages"]] == ["pasta-water"]
    assert [passage["id"] for passage in row["passages"]] == ["pasta-water"]


def test_an_invented_citation_is_refused_unverified(run_cli: RunCli) -> None:
    with FakeOpenAIServer(Reply("Use a handful. [source:salt-bible]")) as server:
        [row] = ask_json(run_cli, model_env(server), PASTA)
    assert (row["outcome"], row["reason"]) == ("refused", "unverified")
    assert row["answer"] is None and row["citations"] == []
    assert row["lesson_id"] == "pasta-water"


def test_a_server_error_is_refused_as_provider_error(run_cli: RunCli) -> None:
    with FakeOpenAIServer(Status(500)) as server:
        [row] = ask_json(run_cli, model_env(server), PASTA)
    assert (row["outcome"], row["reason"]) == ("refused", "provider_error")
    assert row["lesson_id"] == "pasta-water"


def test_an_unrelated_question_is_refused_and_sends_no_request(run_cli: RunCli) -> None:
    with FakeOpenAIServer() as server:
        [row] = ask_json(run_cli, model_env(server), UNRELATED)
        assert server.request_count == 0
    assert (row["outcome"], row["reason"]) == ("refused", "no_evidence")
    assert row["lesson_id"] is None


def test_without_a_key_nothing_is_sent(run_cli: RunCli) -> None:
    with FakeOpenAIServer() as server:
        env = model_env(server)
        del env["TUI_ASSISTANT_API_KEY"]
        [row] = ask_json(run_cli, env, PASTA)
        assert server.request_count == 0
    assert (row["outcome"], row["reason"]) == ("refused", "missing_api_key")


def test_readable_output_names_the_refusal_without_provider_text(run_cli: RunCli) -> None:
    with FakeOpenAIServer(Status(429)) as server:
        result = run_cli("ask", PASTA, env=model_env(server))
    assert result.returncode == 0
    assert "refused: the provider did not return a usable answer (HTTP 429" in result.stdout
    assert "fake server says" not in result.stdout


def test_a_hanging_server_ends_timed_out_at_the_deadline(run_cli: RunCli) -> None:
    with FakeOpenAIServer(Hang()) as server:
        [row] = ask_json(run_cli, model_env(server, deadline_seconds="1"), PASTA)
    assert (row["outcome"], row["reason"]) == ("timed_out", "timeout")
    assert row["lesson_id"] == "pasta-water"
    assert 1000 <= row["elapsed_ms"] < 2500


def test_a_follow_up_repeats_without_another_request(run_cli: RunCli) -> None:
    # An answer that says something: one of citations alone is refused.
    with FakeOpenAIServer(CitePassage("Boil them for six minutes for a runny yolk.")) as server:
        rows = ask_json(run_cli, model_env(server), EGGS, "repeat that")
        assert server.request_count == 1
    assert [row["outcome"] for row in rows] == ["answered", "answered"]
    assert rows[1]["answer"] == rows[0]["answer"]


@pytest.mark.parametrize(
    "base_url", ["http://models.example.com/v1", "http://10.0.0.5:8080/v1", "ftp://127.0.0.1/v1"]
)
def test_plain_http_off_loopback_is_a_configuration_error(run_cli: RunCli, base_url: str) -> None:
    env = {"TUI_ASSISTANT_PROVIDER": "openai", "TUI_ASSISTANT_BASE_URL": base_url}
    result = run_cli("ask", PASTA, env=env)
    assert result.returncode == 2
    assert "TUI_ASSISTANT_BASE_URL" in result.stderr
    assert "https" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_ctrl_c_during_a_call_prints_cancelled_and_exits_130(tmp_path: Path) -> None:
    with FakeOpenAIServer(Hang()) as server:
        started = start_cli(tmp_path / "data", tmp_path, model_env(server), "ask", "--json", PASTA)
        with reaped(started) as process:
            assert server.wait_for_requests(1, timeout=30)
            stdout, stderr = interrupt(process)
        # The in-flight request was aborted, not left for the deadline.
        assert server.requests[0].disconnected.wait(5)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    [row] = [json.loads(line) for line in stdout.splitlines()]
    assert (row["outcome"], row["reason"]) == ("cancelled", "cancelled")
    assert row["answer"] is None
    assert row["lesson_id"] == "pasta-water"


def test_four_processes_share_one_monthly_limit(tmp_path: Path) -> None:
    with FakeOpenAIServer(Reply("About 10 grams per litre. [source:pasta-water]")) as server:
        env = model_env(server, monthly_call_limit="5")
        processes = [
            start_cli(tmp_path / "data", tmp_path, env, "ask", "--json", PASTA, PASTA, PASTA)
            for _ in range(4)
        ]
        outputs = [process.communicate(timeout=60)[0] for process in processes]
        received = server.request_count
    rows = [json.loads(line) for output in outputs for line in output.splitlines()]
    assert len(rows) == 12
    assert sum(row["outcome"] == "answered" for row in rows) == 5
    assert sum(row["reason"] == "quota_exhausted" for row in rows) == 7
    assert received == 5
