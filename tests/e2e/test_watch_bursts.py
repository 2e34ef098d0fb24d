"""Watching a real folder with the real settling time: a burst of writes is one batch
once the folder is quiet, thousands of files changed at once (a checkout) are one
batch, a burst that goes on is one batch after its last write, and one that never
settles still gives a batch in time."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest

from tests.helpers.watching import WAIT, Watching, covers, write
from tui_assistant.store.watch import SETTLE_SECONDS


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "notes"
    path.mkdir()
    return path


async def test_a_burst_of_writes_is_one_batch_once_the_folder_is_quiet(folder: Path) -> None:
    watcher = Watching(folder)  # the real settling time
    await watcher.ready()
    write(folder, "a.md")
    write(folder, "guide/b.md")
    (folder / "a.md").write_text("# A\n\nedited\n")
    write(folder, "c.md")
    (folder / "c.md").unlink()

    started = time.monotonic()
    batch = await watcher.next_batch()

    assert {"a.md", "guide", "c.md"} <= batch <= {"a.md", "guide", "guide/b.md", "c.md"}
    assert time.monotonic() - started >= SETTLE_SECONDS * 0.9
    await watcher.nothing_more()
    watcher.stop.set()
    await asyncio.wait_for(watcher.task, WAIT)


async def test_thousands_of_files_changed_at_once_are_one_batch(folder: Path) -> None:
    for number in range(2000):
        write(folder, f"part-{number // 100}/doc-{number}.md")
    watcher = Watching(folder)
    await watcher.ready()

    # A checkout: 1,000 files rewritten, 500 removed, 500 added, as fast as possible.
    for number in range(1000):
        write(folder, f"part-{number // 100}/doc-{number}.md", "# Changed\n\nnew text\n")
    for number in range(1000, 1500):
        (folder / f"part-{number // 100}/doc-{number}.md").unlink()
    for number in range(2000, 2500):
        write(folder, f"part-{number // 100}/doc-{number}.md")

    batch = await watcher.next_batch()

    changed = [
        f"part-{number // 100}/doc-{number}.md" for number in [*range(1500), *range(2000, 2500)]
    ]
    assert all(covers(batch, path) for path in changed)
    await watcher.nothing_more()
    watcher.stop.set()
    await asyncio.wait_for(watcher.task, WAIT)


async def test_a_burst_that_goes_on_is_one_batch_after_its_last_write(folder: Path) -> None:
    # A settling time far above the gap between saves, so a busy machine's stall cannot
    # pass for the folder going quiet.
    watcher = Watching(folder, settle_seconds=3 * SETTLE_SECONDS)
    await watcher.ready()
    # Someone saving a new file every fifth of a second, for two seconds.
    saves = [f"draft-{number}.md" for number in range(10)]
    for name in saves:
        write(folder, name)
        await asyncio.sleep(SETTLE_SECONDS / 5)

    # One batch, cut after the last save: it holds every one of them.
    assert await watcher.next_batch() == set(saves)
    await watcher.nothing_more()
    watcher.stop.set()
    await asyncio.wait_for(watcher.task, WAIT)


async def test_a_burst_that_never_settles_still_gives_a_batch_in_time(folder: Path) -> None:
    # Writes every tenth of a second never leave the folder quiet for three.
    watcher = Watching(folder, settle_seconds=3.0, max_wait_seconds=0.5)
    got: list[frozenset[str]] = []
    deadline = time.monotonic() + WAIT
    number = 0
    while not got and time.monotonic() < deadline:
        number += 1
        (folder / "busy.md").write_text(f"# Busy\n\n{number}\n")
        with contextlib.suppress(TimeoutError):
            got.append(await watcher.next_batch(timeout=0.1))

    assert got == [{"busy.md"}]
    watcher.stop.set()
    await asyncio.wait_for(watcher.task, WAIT)
