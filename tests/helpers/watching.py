"""A real watcher over a real folder, its batches in a queue, for the watch tests.

In the app, `watched` waits until its watcher sees changes.

"Nothing else came" is shown without sleeping: after a batch, a marker file is
written, and the next batch must hold the marker alone."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from pathlib import Path

from textual.pilot import Pilot

from tests.helpers import write_lesson
from tests.helpers.tui import wait_until
from tui_assistant.store.watch import SETTLE_SECONDS, settled_changes
from tui_assistant.ui.app import AssistantApp

WAIT = 20.0


def is_markdown(name: str) -> bool:
    return name.endswith(".md")


def covers(batch: frozenset[str], path: str) -> bool:
    """Whether `path`, or a folder holding it, is in the batch: a file written at once
    into a new folder may come only as the folder (inotify watches it a moment later)."""
    parts = path.split("/")
    return any("/".join(parts[:end]) in batch for end in range(1, len(parts) + 1))


def write(folder: Path, relative: str, text: str = "# T\n\ntext\n") -> None:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


class Watching:
    """A running watcher over `folder`, its batches in a queue."""

    def __init__(self, folder: Path, **options: object) -> None:
        self.folder = folder
        settle = options.get("settle_seconds", SETTLE_SECONDS)
        assert isinstance(settle, float)
        self.settle = settle
        self.stop = asyncio.Event()
        self.batches: asyncio.Queue[frozenset[str]] = asyncio.Queue()
        self.task = asyncio.create_task(self._run(options))
        self.probes = 0

    async def _run(self, options: dict[str, object]) -> None:
        async for batch in settled_changes(
            self.folder,
            is_markdown,
            stop=self.stop,
            **options,  # type: ignore[arg-type]
        ):
            await self.batches.put(batch)

    async def next_batch(self, timeout: float = WAIT) -> frozenset[str]:
        return await asyncio.wait_for(self.batches.get(), timeout)

    async def ready(self) -> None:
        """Wait until the watcher sees changes: write a probe until a batch has the
        latest one (a batch of earlier probes only is a late one, passed over)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            self.probes += 1
            probe = f"probe-{self.probes}.md"
            write(self.folder, probe)
            with contextlib.suppress(TimeoutError):
                if probe in await self.next_batch(timeout=self.settle + 1.0):
                    return
        raise AssertionError("the watcher never saw a change")

    async def nothing_more(self) -> None:
        """The next batch is a fresh marker's alone: nothing else came since."""
        self.probes += 1
        marker = f"marker-{self.probes}.md"
        write(self.folder, marker)
        assert await self.next_batch() == {marker}


def passage_ids(app: AssistantApp) -> set[str]:
    return {passage.id for passage in app.main.context.library}


async def watched(pilot: Pilot[int], app: AssistantApp, folder: Path) -> None:
    """Wait until the watcher sees changes: add probe documents until one is reloaded,
    then until every probe is in and no reload is under way."""
    names = (f"probe-{number}" for number in itertools.count())
    written: list[str] = []
    for _ in range(10):
        name = next(names)
        write_lesson(folder, name, f"Probe {name}", f"Probe text {name}.")
        written.append(name)
        try:
            await wait_until(pilot, lambda probe=name: probe in passage_ids(app), timeout=5)
            break
        except AssertionError:
            continue
    await wait_until(
        pilot,
        lambda: (
            set(written) <= passage_ids(app)
            and not (app.main.library.reloading or app.main.library.changed_on_disk)
        ),
        timeout=WAIT,
    )
