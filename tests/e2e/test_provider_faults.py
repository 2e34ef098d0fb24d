"""Every provider fault that ends in a refusal, through the real CLI against a loopback server.

Each case runs `python -m tui_assistant ask` in a subprocess in model mode and checks
what a user or a script sees: exit 0, one JSON line with the documented outcome and
reason and no answer, nothing on stderr (so no traceback), and in readable output the
reason in plain words. The test-level details (HTTP status, deadline) are the
`Outcome.detail` words the CLI prints after the reason.

One fake server serves the whole module: cases run one after another and each sets
the server's behaviour before running the CLI, so sharing it is safe and saves a
thread start per case.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import CliResult, cli_env
from tests.helpers.fake_openai_server import (
    MIB,
    Behaviour,
    Drip,
    FakeOpenAIServer,
    Hang,
    HugeBody,
    Redirect,
    Reply,
)
from tests.helpers.provider_faults import (
    PASTA,
    PASTA_LINES,
    PASTA_LOCATION,
    PASTA_SOURCE,
    REFUSALS,
    model_settings,
    serve,
    the_one_request,
)
from tui_assistant.core.outcome import Reason, describe_reason

RunCli = Callable[..., CliResult]

API_KEY = "sk-test-faults-8d1e"
# Short deadlines keep the stalled cases fast; the drip case needs room for a few of its
# one-second bytes to arrive before the deadline, to show that bytes arriving does not
# keep a call alive.
HANG_DEADLINE = "1"
DRIP_DEADLINE = "2.5"
# Peak memory of the CLI while it is sent 20 MB: well under 150 MB.
MEMORY_CEILING_BYTES = 100 * MIB


@dataclass(frozen=True)
class Fault:
    """One hostile server behaviour and what the user must see for it."""

    behaviour: Behaviour | None  # None: nothing listens at all
    outcome: str
    reason: Reason
    detail: str
    deadline: str = "5"
    model_text_start: str | None = None  # start of the model's text, never to be shown


def timed_out(behaviour: Behaviour, deadline: str) -> Fault:
    return Fault(behaviour, "timed_out", Reason.TIMEOUT, f"no answer within {deadline} s", deadline)


FAULTS: dict[str, Fault] = {
    **{
        name: Fault(
            refusal.behaviour,
            "refused",
            refusal.reason,
            refusal.detail,
            model_text_start=refusal.model_text_start,
        )
        for name, refusal in REFUSALS.items()
    },
    "accepts-and-never-answers": timed_out(Hang(), HANG_DEADLINE),
    "headers-then-one-byte-a-second": timed_out(Drip(interval=1.0), DRIP_DEADLINE),
}


def model_env(base_url: str, deadline: str = "5") -> dict[str, str]:
    return model_settings(base_url, API_KEY, deadline)


def run_fault(
    run_cli: RunCli,
    server: FakeOpenAIServer,
    refused_port: int,
    fault: Fault,
    *args: str,
) -> CliResult:
    """Run `ask ARGS PASTA` against `fault` and check the server side of it."""
    base_url = serve(fault.behaviour, server, refused_port)
    before = server.request_count
    result = run_cli("ask", *args, PASTA, env=model_env(base_url, fault.deadline), timeout=30)
    if fault.behaviour is not None:
        # Exactly one request reached the server: no retry, no second attempt.
        request = the_one_request(server, before, API_KEY)
        if fault.outcome == "timed_out":
            # The stalled connection was closed at the deadline, not left open.
            assert request.disconnected.wait(5)
    assert result.returncode == 0, result.stderr
    # Nothing on stderr at all: no traceback, no warning, no provider text.
    assert result.stderr == ""
    return result


@pytest.mark.parametrize("name", FAULTS)
def test_each_fault_gives_the_documented_outcome_as_one_json_line(
    run_cli: RunCli, server: FakeOpenAIServer, refused_port: int, name: str
) -> None:
    fault = FAULTS[name]
    result = run_fault(run_cli, server, refused_port, fault, "--json")

    [line] = result.stdout.splitlines()
    row = json.loads(line)
    assert (row["outcome"], row["reason"]) == (fault.outcome, fault.reason.value)
    # Why, in one plain line (a failed quote named after the screen's words).
    assert row["detail"] is not None and row["detail"].startswith(fault.detail)
    assert row["chosen_by"] is None
    assert row["answer"] is None
    assert row["citations"] == []
    assert row["support"] is None
    # Retrieval ran before the call, so the lesson is still named.
    assert (row["lesson_id"], row["source_path"]) == ("pasta-water", PASTA_SOURCE)
    assert (row["line"], row["end_line"]) == PASTA_LINES
    if fault.outcome == "timed_out":
        deadline_ms = float(fault.deadline) * 1000
        assert deadline_ms <= row["elapsed_ms"] < deadline_ms + 1500


@pytest.mark.parametrize("name", FAULTS)
def test_each_fault_is_explained_in_plain_words_in_readable_output(
    run_cli: RunCli, server: FakeOpenAIServer, refused_port: int, name: str
) -> None:
    fault = FAULTS[name]
    result = run_fault(run_cli, server, refused_port, fault)

    if fault.outcome == "timed_out":
        expected = f"timed out: {fault.detail}"
    else:
        expected = f"refused: {describe_reason(fault.reason)} ({fault.detail})"
    lines = result.stdout.splitlines()
    assert lines[0] == f"? {PASTA}"
    assert lines[1] == expected
    assert lines[2] == f"passage: {PASTA_LOCATION}"
    # Neither the model's unchecked text nor the server's error text is shown.
    if fault.model_text_start is not None:
        assert fault.model_text_start not in result.stdout
    assert "fake server says" not in result.stdout


@pytest.mark.parametrize("code", [302, 307])
def test_a_redirect_target_never_gets_a_request(
    run_cli: RunCli, server: FakeOpenAIServer, code: int
) -> None:
    with FakeOpenAIServer(Reply("About 10 grams. [source:pasta-water]")) as target:
        server.behaviour = Redirect(f"{target.base_url}/chat/completions", code)
        result = run_cli("ask", "--json", PASTA, env=model_env(server.base_url))
        [row] = result.json_lines()
        # Give a (wrongly) followed redirect time to arrive before looking.
        assert not target.wait_for_requests(1, timeout=0.3)
    assert (row["outcome"], row["reason"]) == ("refused", "provider_error")
    assert row["answer"] is None


# -- the 20 MB body: refused while reading, with little memory ---------------------


# Runs the command in its argv and writes that child's peak RSS (KiB, as Linux reports
# it) to the file named first. A small, fresh process must do the spawning: Linux carries
# the spawning process's own peak over into the child's `ru_maxrss` at fork and exec,
# so spawned straight from a pytest process of a few hundred MB the CLI would "peak"
# at pytest's size.
MEASURE_PEAK = """
import resource, subprocess, sys
from pathlib import Path
completed = subprocess.run(sys.argv[2:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
Path(sys.argv[1]).write_text(str(peak))
sys.exit(completed.returncode)
"""


@dataclass(frozen=True)
class MeasuredRun:
    returncode: int
    stdout: str
    stderr: str
    peak_rss_bytes: int


def run_cli_measured(tmp_path: Path, env: dict[str, str], *args: str) -> MeasuredRun:
    """Run the CLI through `MEASURE_PEAK` and return its output and peak memory."""
    workdir = tmp_path / "measured-cwd"
    workdir.mkdir(exist_ok=True)
    peak_file = tmp_path / "peak-rss-kib"
    command = [sys.executable, "-m", "tui_assistant", *args]
    completed = subprocess.run(
        [sys.executable, "-c", MEASURE_PEAK, str(peak_file), *command],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=cli_env(tmp_path / "data", env),
        cwd=workdir,
        timeout=30,
    )
    return MeasuredRun(
        returncode=completed.returncode,
        stdout=completed.stdout,
        stderr=completed.stderr,
        peak_rss_bytes=int(peak_file.read_text()) * 1024,
    )


@pytest.mark.parametrize(
    "declare_length", [False, True], ids=["no-content-length", "declared-content-length"]
)
def test_a_20_mb_body_is_refused_while_reading_with_little_memory(
    tmp_path: Path, server: FakeOpenAIServer, declare_length: bool
) -> None:
    # The same CLI answering a normal reply: what the interpreter and imports cost.
    server.behaviour = Reply("About 10 grams per litre. [source:pasta-water]")
    baseline = run_cli_measured(tmp_path, model_env(server.base_url), "ask", "--json", PASTA)
    assert json.loads(baseline.stdout)["outcome"] == "answered"

    server.behaviour = HugeBody(size=20 * MIB, declare_length=declare_length)
    run = run_cli_measured(tmp_path, model_env(server.base_url), "ask", "--json", PASTA)
    request = server.requests[-1]
    assert request.disconnected.wait(5)

    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    [line] = run.stdout.splitlines()
    row = json.loads(line)
    assert (row["outcome"], row["reason"]) == ("refused", "provider_error")
    assert row["answer"] is None
    # The client hung up early: most of the 20 MB was never sent.
    assert request.bytes_sent < 10 * MIB
    peak, usual = run.peak_rss_bytes, baseline.peak_rss_bytes
    assert peak < MEMORY_CEILING_BYTES, f"peak RSS {peak:,} bytes"
    # Holding the body would add at least its 20 MB; the 1 MiB cap adds a few at most.
    assert peak - usual < 10 * MIB, f"peak RSS {peak:,} bytes against {usual:,} usually"
