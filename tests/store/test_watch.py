"""Watching a real folder (no fake watcher): only documents and folders count (never
hidden names, other files or an ignored data folder), folders moved in or removed
count, and the watcher stops at once when told to or cancelled. Bursts, thousands of
files at once and the real settling time are in `tests/e2e/test_watch_bursts.py`."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import watchfiles

from tests.helpers.watching import WAIT, Watching, covers, is_markdown, write
from tui_assistant.store.watch import DocumentChanges, settled_changes

# Fast settling: these tests are about what counts, not about when.
SETTLE = 0.3


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "notes"
    path.mkdir()
    return path


@pytest.fixture
async def watching(folder: Path) -> AsyncIterator[Watching]:
    watcher = Watching(folder, settle_seconds=SETTLE)
    await watcher.ready()
    yield watcher
    watcher.stop.set()
    await asyncio.wait_for(watcher.task, WAIT)


async def test_hidden_names_other_files_and_the_data_folder_do_not_count(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "notes"
    data = folder / "data"
    data.mkdir(parents=True)
    (folder / "sub").mkdir()
    watcher = Watching(folder, settle_seconds=SETTLE, ignored=[data])
    await watcher.ready()

    write(folder, ".hidden.md")
    write(folder, ".git/HEAD.md")
    write(folder, "sub/.draft.md")
    write(folder, "image.png")
    write(folder, "notes.md~")
    write(folder, "data/libraries/store.md")

    await watcher.nothing_more()
    watcher.stop.set()
    await asyncio.wait_for(watcher.task, WAIT)


async def test_folders_moved_in_and_removed_count(
    tmp_path: Path, folder: Path, watching: Watching
) -> None:
    outside = tmp_path / "elsewhere"
    write(outside, "guide/install.md")
    write(folder, "old/a.md")
    assert covers(await watching.next_batch(), "old/a.md")

    shutil.move(outside / "guide", folder / "guide")
    assert await watching.next_batch() == {"guide"}
    shutil.rmtree(folder / "old")
    assert "old" in await watching.next_batch()


async def test_setting_the_stop_event_ends_the_watch_at_once(watching: Watching) -> None:
    started = time.monotonic()
    watching.stop.set()

    await asyncio.wait_for(watching.task, WAIT)

    assert time.monotonic() - started < 2.0
    assert watching.task.exception() is None


async def test_cancelling_the_task_ends_the_watch(folder: Path) -> None:
    watcher = Watching(folder, settle_seconds=SETTLE)
    await watcher.ready()

    watcher.task.cancel()

    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(watcher.task, WAIT)


async def test_a_missing_folder_cannot_be_watched(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        async for _ in settled_changes(tmp_path / "nowhere", is_markdown):
            pass


def test_the_filter_keeps_documents_and_folders_only(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    (folder / "sub").mkdir(parents=True)
    (folder / "file").write_text("no suffix")
    os.symlink(tmp_path, folder / "link")
    keep = DocumentChanges(folder, is_markdown, ignored=[folder / "data"])
    added, deleted = watchfiles.Change.added, watchfiles.Change.deleted

    assert keep(added, str(folder / "a.md"))
    assert keep(deleted, str(folder / "sub" / "b.md"))
    assert keep(added, str(folder / "sub"))
    assert keep(deleted, str(folder / "gone-folder"))
    assert not keep(added, str(folder / "file"))
    assert not keep(added, str(folder / "link"))
    assert not keep(deleted, str(folder / "gone.png"))
    assert not keep(added, str(folder / ".hidden.md"))
    assert not keep(added, str(folder / ".git" / "x.md"))
    assert not keep(added, str(folder / "data" / "x.md"))
    assert not keep(added, str(tmp_path / "outside.md"))
    assert not keep(added, str(folder))
