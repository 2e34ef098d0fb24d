"""A team's calls all run at once: each `hybrid` call waits on a thread of its own for
its question's batch, so the server lends tool calls as many threads as a batch holds."""

from __future__ import annotations

import threading

import anyio
import anyio.to_thread

from tui_assistant.mcp.server import CALLS_AT_ONCE, allow_calls_at_once


def test_as_many_calls_as_a_batch_holds_wait_at_once() -> None:
    # Every call waits until all of them are waiting, as calls wait for one batch: a
    # call left without a thread would break the barrier (its timeout) for all.
    waiting = threading.Barrier(CALLS_AT_ONCE, timeout=30)
    passed: list[int] = []

    def call(number: int) -> None:
        waiting.wait()
        passed.append(number)

    async def team() -> None:
        allow_calls_at_once()
        async with anyio.create_task_group() as group:
            for number in range(CALLS_AT_ONCE):
                group.start_soon(anyio.to_thread.run_sync, call, number)

    anyio.run(team)
    assert sorted(passed) == list(range(CALLS_AT_ONCE))
