"""`mcp --http PORT --workers 2`: two processes on one socket, one of them the writer
(it holds the writer lock, watches and reads changed files), the other following it.
A change to a document is seen by both: each answers alone while the other is stopped."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from tests.helpers import write_lesson
from tests.helpers.mcp_client import data, http_server, http_session
from tests.helpers.processes import wait_for
from tui_assistant.mcp.workers import WRITER_LOCK

pytestmark = pytest.mark.e2e

QUESTION = "how do I calibrate the zorblax"


def worker_pids(parent: int) -> list[int]:
    """The worker processes uvicorn's supervisor `parent` started (spawned children)."""
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    return [int(pid) for pid in children if b"spawn_main" in _cmdline(int(pid))]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def lock_holders(path: Path) -> set[int]:
    """The processes holding a `flock` of `path`, as Linux's /proc/locks lists them."""
    inode = os.stat(path).st_ino
    holders = set()
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if fields[1] == "FLOCK" and int(fields[5].rsplit(":", 1)[-1]) == inode:
            holders.add(int(fields[4]))
    return holders


async def best_id(url: str) -> str | None:
    async with http_session(url) as session:
        found = data(await session.call_tool("search", {"question": QUESTION, "limit": 1}))
    return found["passages"][0]["id"] if found["decision"] == "answered" else None


async def test_two_workers_one_writer_and_a_change_seen_by_both(tmp_path: Path) -> None:
    folder = tmp_path / "manual"
    folder.mkdir()
    write_lesson(folder, "kettle", "Descaling the kettle", "Boil vinegar and water, then rinse.")
    write_lesson(folder, "oven", "Cleaning the oven", "Baking soda paste overnight, then wipe.")
    with http_server(tmp_path, [str(folder)], "--workers", "2") as url:
        parent = next(
            int(pid)
            for pid in os.listdir("/proc")
            if pid.isdigit() and b"--workers" in _cmdline(int(pid))
        )
        wait_for(lambda: len(worker_pids(parent)) >= 2, "two workers started")
        assert await best_id(url) is None  # nothing about it yet
        workers = worker_pids(parent)
        lock = tmp_path / "data" / WRITER_LOCK
        wait_for(lambda: lock.exists() and len(lock_holders(lock)) == 1, "one writer")
        [writer] = lock_holders(lock)
        assert writer in workers
        [follower] = [pid for pid in workers if pid != writer]

        write_lesson(folder, "zorblax", "Calibrating the zorblax", "Turn the zorblax dial to 7.")
        # The writer notices, reads the file and commits it; each worker then follows.
        # Asked until seen (a warm answer takes milliseconds, so a count of tries alone
        # could end before the commit does), for at most a minute.
        deadline = time.monotonic() + 60
        while await best_id(url) != "zorblax":
            if time.monotonic() > deadline:
                raise AssertionError("the change was never seen")
            await asyncio.sleep(0.05)
        for stopped in (writer, follower):
            # Only the other worker takes connections while this one is stopped.
            os.kill(stopped, signal.SIGSTOP)
            try:
                for _ in range(200):
                    if await best_id(url) == "zorblax":
                        break
                else:
                    raise AssertionError(f"worker {stopped}'s peer never saw the change")
                for _ in range(5):
                    assert await best_id(url) == "zorblax"
            finally:
                os.kill(stopped, signal.SIGCONT)
