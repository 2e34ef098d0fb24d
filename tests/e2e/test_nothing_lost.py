"""Nothing lost: the call ledger survives killed processes, torn writes and contention.

Everything here uses real processes and real files: the CLI in a subprocess against
the loopback fake server, or small worker processes driving `CallLedger` directly, and
`SIGKILL`, which no code can intercept, so nothing gets a chance to tidy up.
(Conversation history belongs to the TUI and is tested with it.)
"""

from __future__ import annotations

import subprocess
import textwrap
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.helpers import CliResult
from tests.helpers.fake_openai_server import FakeOpenAIServer, Hang, Reply
from tests.helpers.processes import kill, start_cli, start_python, wait_for, waiting_for_lock
from tui_assistant.store.ledger import LEDGER_FILE_NAME, LOCK_FILE_NAME, parse_ledger

RunCli = Callable[..., CliResult]

PASTA = "How much salt should I add to pasta water?"
EGGS = "How long do I boil eggs for a runny yolk?"
CITED = "About 10 grams per litre. [source:pasta-water]"


def model_env(server: FakeOpenAIServer, limit: int) -> dict[str, str]:
    return {
        "TUI_ASSISTANT_PROVIDER": "openai",
        "TUI_ASSISTANT_BASE_URL": server.base_url,
        "TUI_ASSISTANT_API_KEY": "sk-test-nothing-lost",
        "TUI_ASSISTANT_MODEL": "fake-model",
        "TUI_ASSISTANT_MONTHLY_CALL_LIMIT": str(limit),
    }


def this_month() -> tuple[int, int]:
    now = datetime.now(UTC)
    return (now.year, now.month)


def month_stamp(day: int) -> str:
    year, month = this_month()
    return f"{year:04d}-{month:02d}-{day:02d}T08:00:00Z"


def ledger_lines(folder: Path) -> list[str]:
    return (folder / LEDGER_FILE_NAME).read_text().splitlines()


def outcomes(result: CliResult) -> list[tuple[str, Any]]:
    assert result.returncode == 0, result.stderr
    return [(row["outcome"], row["reason"]) for row in result.json_lines()]


# -- through the CLI ---------------------------------------------------------------


def test_a_call_killed_mid_request_still_counts_for_the_next_process(
    run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path
) -> None:
    data = tmp_path / "data"  # the folder `run_cli` uses too
    env = model_env(server, limit=2)
    server.behaviour = Hang()
    before = server.request_count
    process = start_cli(data, tmp_path, env, "ask", "--json", PASTA)
    try:
        assert server.wait_for_requests(before + 1, timeout=30)
    finally:
        stdout = kill(process)  # SIGKILL while the request is in flight
    assert process.returncode == -9
    assert stdout == ""  # it never got to say anything
    # Recorded before sending, so the killed call is on disk.
    assert len(ledger_lines(data)) == 1

    # The next process reads it (and is not blocked by the dead process's lock): one
    # call of the two is left.
    server.behaviour = Reply(CITED)
    result = run_cli("ask", "--json", PASTA, EGGS, env=env, timeout=30)
    assert outcomes(result) == [("answered", None), ("refused", "quota_exhausted")]
    assert server.request_count == before + 2
    assert len(ledger_lines(data)) == 2


def test_a_torn_last_record_is_skipped_with_a_warning_and_not_counted(
    run_cli: RunCli, server: FakeOpenAIServer, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    # Two whole records, then what a writer killed part-way through a line leaves.
    torn = month_stamp(3)[:12]
    (data / LEDGER_FILE_NAME).write_text(f"{month_stamp(1)}\n{month_stamp(2)}\n{torn}")
    server.behaviour = Reply(CITED)
    before = server.request_count

    result = run_cli("ask", "--json", PASTA, EGGS, env=model_env(server, limit=3))

    # Had the torn line counted, the limit of 3 would already be used up.
    assert outcomes(result) == [("answered", None), ("refused", "quota_exhausted")]
    assert server.request_count == before + 1
    [warning] = result.stderr.splitlines()
    assert warning.startswith("tui-assistant: warning: call ledger ")
    assert warning.endswith(": skipped 1 unreadable line(s); they are not counted")
    assert "Traceback" not in result.stderr
    # The file was rewritten whole: the torn line is gone, the rest kept.
    lines = ledger_lines(data)
    assert lines[:2] == [month_stamp(1), month_stamp(2)]
    assert len(lines) == 3
    assert parse_ledger("\n".join(lines) + "\n", this_month()).unreadable_lines == 0


# -- several processes, one killed ---------------------------------------------------

# A writer that takes the ledger's lock, writes half a record and then stalls, to be
# killed there: the worst moment for everybody waiting on it.
STALLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from tui_assistant.store.ledger import CallLedger

    ledger = CallLedger(Path(sys.argv[1]), limit=1000)
    with ledger._locked():
        with ledger.path.open("a") as stream:
            stream.write(sys.argv[2])
        print("holding the lock", flush=True)
        time.sleep(60)
    """
)

# Records `attempts` calls as fast as it can; prints one line per call recorded, so a
# killed worker has told us all but (at most) its last one.
RECORDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from tui_assistant.store.ledger import CallLedger

    ledger = CallLedger(Path(sys.argv[1]), limit=int(sys.argv[2]))
    go = Path(sys.argv[4])
    print("started", flush=True)
    for _ in range(1000):  # start together, for as much contention as possible
        if go.exists():
            break
        time.sleep(0.005)
    for _ in range(int(sys.argv[3])):
        if ledger.try_record_call():
            print("recorded", flush=True)
    print("done", flush=True)
    """
)


def finish(process: subprocess.Popen[str]) -> list[str]:
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    return stdout.splitlines()


def test_workers_blocked_behind_a_writer_killed_mid_write_lose_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    stalled = start_python(STALLED_WRITER, str(folder), month_stamp(5)[:9])
    try:
        assert stalled.stdout is not None
        assert stalled.stdout.readline() == "holding the lock\n"
        go = tmp_path / "go"
        go.touch()  # no need to wait: the lock holds them all back
        workers = [start_python(RECORDER, str(folder), "5", "4", str(go)) for _ in range(3)]
        for worker in workers:
            assert worker.stdout is not None
            assert worker.stdout.readline() == "started\n"
        # Every worker is blocked on the ledger's lock, held by the stalled writer.
        lock = folder / LOCK_FILE_NAME
        pids = {worker.pid for worker in workers}
        wait_for(lambda: pids <= waiting_for_lock(lock), "the workers waiting on the lock")
        assert all(worker.poll() is None for worker in workers)
    finally:
        kill(stalled)

    recorded = [finish(worker).count("recorded") for worker in workers]

    # 12 attempts against a limit of 5: exactly 5 allowed, and exactly 5 on disk; the
    # killed writer's half line counted for nothing and was cleaned up.
    assert sum(recorded) == 5
    lines = ledger_lines(folder)
    assert len(lines) == 5
    assert parse_ledger("\n".join(lines) + "\n", this_month()).unreadable_lines == 0


def test_a_worker_killed_while_recording_neither_loses_nor_doubles_an_entry(
    tmp_path: Path,
) -> None:
    folder, go, limit, attempts = tmp_path / "data", tmp_path / "go", "100000", "200"
    workers = [start_python(RECORDER, str(folder), limit, attempts, str(go)) for _ in range(4)]
    victim, survivors = workers[0], workers[1:]
    assert victim.stdout is not None
    told = 0
    try:
        for worker in workers:
            assert worker.stdout is not None
            assert worker.stdout.readline() == "started\n"
        go.touch()
        # Kill it in the thick of it: after a few records, while the others record too.
        while told < 10:
            line = victim.stdout.readline()
            assert line == "recorded\n", line
            told += 1
    finally:
        rest = kill(victim)
    told += rest.splitlines().count("recorded")
    assert victim.returncode == -9, "the victim finished before it could be killed"

    survived = sum(finish(worker).count("recorded") for worker in survivors)

    assert survived == 3 * int(attempts)  # no limit reached: every attempt recorded
    lines = ledger_lines(folder)
    read = parse_ledger("\n".join(lines) + "\n", this_month())
    assert read.unreadable_lines == 0
    # The victim may have been killed between writing a record and saying so: at most
    # one record more than it told us, never fewer, and nothing duplicated.
    assert len(read.calls) - survived - told in (0, 1)


WORKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from tui_assistant.store.ledger import CallLedger

    folder, go = Path(sys.argv[1]), Path(sys.argv[2])
    ledger = CallLedger(folder, limit=5)
    for _ in range(500):  # start together, for as much contention as possible
        if go.exists():
            break
        time.sleep(0.01)
    print(sum(ledger.try_record_call() for _ in range(4)))
    """
)


def test_four_processes_at_once_never_exceed_the_limit(tmp_path: Path) -> None:
    folder, go = tmp_path / "data", tmp_path / "go"
    workers = [start_python(WORKER, str(folder), str(go)) for _ in range(4)]
    go.touch()
    allowed = [int(worker.communicate(timeout=30)[0]) for worker in workers]
    assert sum(allowed) == 5  # 16 attempts, limit 5
    assert len((folder / LEDGER_FILE_NAME).read_text().splitlines()) == 5
