"""Gaps written off a server's calls (`GapWriter`): a burst of refusals from many threads
loses none and keeps each caller's order, what gathers meanwhile goes in one append per
file, and whatever was put is written by `flush`, `close` or the interpreter's exit."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tui_assistant.core.gaps import Gap
from tui_assistant.store.gap_writer import GapWriter
from tui_assistant.store.gaps import read_gaps, record_gaps

ROOT = Path(__file__).resolve().parents[2]


def gap(question: str) -> Gap:
    return Gap(question, "2026-12-05T10:00:00+00:00", "no_evidence", "hybrid")


class Appends:
    """`record_gaps`, counting its appends; the first one waits for `go`."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.go = threading.Event()
        self.started = threading.Event()

    def __call__(self, path: Path, gaps: list[Gap]) -> None:
        self.started.set()
        self.go.wait(30)
        self.sizes.append(len(gaps))
        record_gaps(path, gaps)


def test_a_burst_of_refusals_loses_none_and_is_written_in_few_appends(tmp_path: Path) -> None:
    appends = Appends()
    writer = GapWriter(appends)
    files = [tmp_path / "gaps" / "a.jsonl", tmp_path / "gaps" / "b.jsonl"]
    writer.put(files[0], gap("first"))
    assert appends.started.wait(30)  # the writer is busy with it: the burst gathers

    def agent(number: int) -> None:
        for call in range(25):
            writer.put(files[number % 2], gap(f"agent {number} call {call}"))

    agents = [threading.Thread(target=agent, args=(number,)) for number in range(8)]
    for thread in agents:
        thread.start()
    for thread in agents:
        thread.join()
    appends.go.set()
    writer.flush()
    kept = [g.question for path in files for g in read_gaps(path)]
    assert sorted(kept) == sorted(
        ["first", *(f"agent {n} call {c}" for n in range(8) for c in range(25))]
    )
    for number in range(8):  # each agent's questions in the order it asked them
        mine = [q for q in kept if q.startswith(f"agent {number} ")]
        assert mine == [f"agent {number} call {call}" for call in range(25)]
    assert appends.sizes == [1, 100, 100]  # one append per file for all that gathered
    writer.close()


def test_closing_writes_what_is_queued_and_later_gaps_at_once(tmp_path: Path) -> None:
    appends = Appends()
    writer = GapWriter(appends)
    path = tmp_path / "gaps.jsonl"
    for number in range(5):
        writer.put(path, gap(f"q{number}"))
    appends.go.set()
    writer.close()
    assert [g.question for g in read_gaps(path)] == [f"q{n}" for n in range(5)]
    writer.put(path, gap("after the end"))
    assert read_gaps(path)[-1].question == "after the end"


def test_a_failed_write_is_a_warning_and_the_next_gaps_are_written(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the gaps folder should be")

    def keep_in_a_database() -> None:
        raise RuntimeError("the database went away")

    writer = GapWriter()
    writer.put(blocked / "gaps.jsonl", gap("lost to the disk"))
    writer.run(keep_in_a_database)
    writer.flush()
    path = tmp_path / "gaps.jsonl"
    writer.put(path, gap("kept"))
    writer.close()
    assert [g.question for g in read_gaps(path)] == ["kept"]
    warnings = [record.getMessage() for record in caplog.records]
    assert any(w.startswith("1 question(s) not kept in gaps (") for w in warnings), warnings
    assert "question not kept in gaps (the database went away)" in warnings


def test_gaps_put_before_the_interpreter_exits_are_written(tmp_path: Path) -> None:
    path = tmp_path / "gaps.jsonl"
    script = f"""
import time
from pathlib import Path
from tui_assistant.core.gaps import Gap
from tui_assistant.store.gap_writer import GapWriter
from tui_assistant.store.gaps import record_gaps

def slow(path, gaps):
    time.sleep(0.2)
    record_gaps(path, gaps)

writer = GapWriter(slow)
for number in range(50):
    writer.put(Path({str(path)!r}), Gap(f"q{{number}}", "t", "no_evidence", "ranked"))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert [g.question for g in read_gaps(path)] == [f"q{n}" for n in range(50)]
