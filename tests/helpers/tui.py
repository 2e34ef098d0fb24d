"""Fakes at the provider boundary and helpers for driving and reading the real app in tests."""

from __future__ import annotations

import asyncio
import contextlib
import html
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

from textual import events
from textual.app import App
from textual.command import CommandList, CommandPalette
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static
from textual.widgets.tree import TreeNode

from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.core.service import AnswerProvider, AnswerService
from tui_assistant.settings import Settings
from tui_assistant.store.history import HistoryStore
from tui_assistant.store.index_store import Progress
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.hooks import AppHooks
from tui_assistant.ui.widgets.chat_pane import TurnView
from tui_assistant.ui.widgets.library_browser import LibraryTree, NodeData
from tui_assistant.ui.widgets.status_bar import StatusBar, StatusPart
from tui_assistant.wiring.context import AppContext, build_retriever, load_library


class CitingProvider:
    """Answers at once with a fixed sentence that cites the lesson it was given."""

    def __init__(self, answer: str = "Use about 10 grams of salt per litre.") -> None:
        self.deadline_seconds = 5.0
        self.answer = answer
        self.calls: list[tuple[str, str]] = []

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        lesson = passages[0]
        self.calls.append((question, lesson.id))
        return ModelAnswer(f"{self.answer} [source:{lesson.id}]")


class HangingProvider:
    """Waits for `release` (or forever); records whether it was cancelled."""

    def __init__(self, deadline_seconds: float = 15.0, swallow_cancel: bool = False) -> None:
        self.deadline_seconds = deadline_seconds
        self.release = asyncio.Event()
        self.started = asyncio.Event()
        self.cancelled = False
        self.swallow_cancel = swallow_cancel
        self.calls = 0

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        lesson = passages[0]
        self.calls += 1
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            if not self.swallow_cancel:
                raise
            # A misbehaving provider that answers anyway, a moment later.
            await asyncio.sleep(0.05)
        return ModelAnswer(f"LATE ANSWER [source:{lesson.id}]")


def make_context(
    library: Path | list[str],
    data_dir: Path,
    provider: AnswerProvider | None = None,
    service_class: type[AnswerService] = AnswerService,
    **settings: object,
) -> AppContext:
    """An AppContext built like `open_context`, with a fake provider plugged in."""
    config = Settings(library=library, data_dir=data_dir, **settings)  # type: ignore[arg-type]
    loaded = load_library(config)
    service = service_class(
        build_retriever(config, loaded),
        provider,
        config.support_check,
        deadline_seconds=config.deadline_seconds,
        passages_sent=config.passages,
    )
    return AppContext(settings=config, library=loaded, service=service)


def make_app(
    context: AppContext,
    history: HistoryStore | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> AssistantApp:
    """The app, handed `context` by its start-up worker instead of building one."""

    def start(settings: Settings, progress: Progress | None) -> AppContext:
        return context

    return AssistantApp(
        context.settings,
        hooks=AppHooks(start=start, history=history, clock=clock, cursor_blink=False),
    )


def ask_workers_done(app: AssistantApp) -> bool:
    """No provider call is still running (a cancelled one included)."""
    return all(worker.is_finished for worker in app.workers if worker.group == "ask")


class SlowStart:
    """A start-up that reports progress, then waits for `release` before giving the
    context: the picture of a long first indexing."""

    def __init__(self, context: AppContext, total: int = 20000) -> None:
        self.context = context
        self.total = total
        self.release = threading.Event()
        self.reported = threading.Event()

    def __call__(self, settings: Settings, progress: Progress | None) -> AppContext:
        assert progress is not None
        progress(1200, self.total)
        self.reported.set()
        if not self.release.wait(10):
            raise AssertionError("the slow start was never released")
        progress(self.total, self.total)
        return self.context


class SlowReload:
    """A reload that reports progress, then waits for `release` before reading the
    library again for real: the picture of a long reindexing."""

    def __init__(self, done: int = 3, total: int = 9) -> None:
        self.done = done
        self.total = total
        self.release = threading.Event()
        self.reported = threading.Event()

    def __call__(self, settings: Settings, progress: Progress | None) -> Library:
        assert progress is not None
        progress(self.done, self.total)
        self.reported.set()
        if not self.release.wait(10):
            raise AssertionError("the slow reload was never released")
        return load_library(settings, progress)


@contextlib.asynccontextmanager
async def running(
    app: AssistantApp, size: tuple[int, int] = (100, 32)
) -> AsyncIterator[Pilot[int]]:
    """`app.run_test`, once the library is loaded (its worker has handed it over)."""
    async with app.run_test(size=size) as pilot:
        # Generous: a real start may load a sentence-embedding model first.
        await wait_until(pilot, lambda: app.main.library.loaded, timeout=30)
        await pilot.pause()
        yield pilot


async def background_done(pilot: Pilot[int], app: AssistantApp) -> None:
    """Wait until background work (reading an embedding model `auto` found, embedding)
    is over, so a tight deadline measures the provider alone."""
    await pilot.pause()
    await wait_until(pilot, lambda: not app.main.status_bar.work, timeout=60)


async def wait_until(
    pilot: Pilot[object], condition: Callable[[], bool], timeout: float = 5.0
) -> None:
    """Poll `condition` while the app runs; fail with a clear message after `timeout`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        await pilot.pause(0.02)


async def ask(pilot: Pilot[object], question: str, *, typed: bool = False) -> None:
    """Put a question into the focused question box and press enter.

    By default the text arrives as a paste (one event, as from a terminal's paste) to
    keep tests fast; `typed=True` presses one key per character.
    """
    if typed:
        await pilot.press(*question)
    else:
        focused = pilot.app.focused
        assert focused is not None
        focused.post_message(events.Paste(question))
        await pilot.pause()
    await pilot.press("enter")


async def wheel_up(pilot: Pilot[object], widget: Widget, notches: int = 1) -> None:
    """Turn the mouse wheel up over the middle of `widget`, as the terminal reports it."""
    region = widget.region
    x, y = region.x + region.width // 2, region.y + region.height // 2
    for _ in range(notches):
        pilot.app.post_message(
            events.MouseScrollUp(widget, x, y, 0, -1, 0, False, False, False, x, y)
        )
        await pilot.pause()


async def run_command(pilot: Pilot[object], app: AssistantApp, words: str) -> None:
    """Open the command palette with ctrl+p, type, and run the first match."""
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*words)
    await wait_until(pilot, lambda: _first_match_names(app, words))
    await pilot.press("enter")
    await wait_until(pilot, lambda: not isinstance(app.screen, CommandPalette))
    await pilot.pause()


def _first_match_names(app: AssistantApp, words: str) -> bool:
    """Whether the palette's highlighted command holds every word typed (its search for
    the whole text has come back)."""
    palette = app.screen
    if not isinstance(palette, CommandPalette):
        return False
    found = palette.query(CommandList)
    if not found:
        return False
    commands = found.first()
    if commands.highlighted is None:
        return False
    prompt = commands.get_option_at_index(commands.highlighted).prompt
    shown = (prompt.plain if hasattr(prompt, "plain") else str(prompt)).casefold()
    return all(word in shown for word in words.casefold().split())


async def history_loaded(app: AssistantApp) -> None:
    """Wait until the stored conversation has been read and shown."""
    await app.workers.wait_for_complete([w for w in app.workers if w.group == "history"])


def status(app: AssistantApp) -> str:
    """The status bar's state words (outcome or work under way) in full; `status_line`
    is the bar as drawn, where a state wider than the terminal is cut."""
    return app.main.status_bar.state


def concluded(app: AssistantApp) -> bool:
    """The latest question's outcome is drawn: in the status bar, and in the chat in
    place of its waiting line."""
    state = status(app)
    if state == "ready" or state.startswith(("asking", "indexing")):
        return False
    views = app.main.chat.query(TurnView)
    if not views:
        return False
    latest = views.last()
    return latest.turn is not None and len(latest.children) > 1 and not latest.query(".waiting")


def status_line(app: AssistantApp) -> str:
    """The status bar as drawn: every line of it, each part where it stands."""
    return bar_line(app.main.status_bar)


def bar_line(bar: StatusBar) -> str:
    """A status bar as drawn: every line of it, each part where it stands."""
    rows = [[" "] * bar.region.width for _ in range(bar.region.height)]
    for part in bar.query(StatusPart):
        region = part.region
        for y, strip in enumerate(part.render_lines(Region(0, 0, region.width, region.height))):
            x = region.x - bar.region.x
            row = region.y - bar.region.y + y
            rows[row][x : x + region.width] = strip.text[: region.width].ljust(region.width)
    return "\n".join("".join(row).strip() for row in rows)


def drawn_lines(widget: Widget) -> list[str]:
    """A widget's lines as the terminal shows them: wrapped, shortened and cut at its
    width (`str(static.render())` is the text before any of that)."""
    region = widget.region
    strips = widget.render_lines(Region(0, 0, region.width, region.height))
    return [strip.text.rstrip() for strip in strips]


def chat_text(app: AssistantApp) -> str:
    """Every line of text in the chat, as the user reads it."""
    return "\n".join(str(static.render()) for static in app.main.chat.query(Static))


def note(app: AssistantApp) -> str:
    """The status bar's note beside the outcome."""
    return app.main.status_bar.note


def notices(app: AssistantApp) -> list[str]:
    """The chat's notices (warnings about the library, history and so on)."""
    return [str(static.render()) for static in app.main.chat.query(".notice")]


def labels(tree: LibraryTree) -> list[str]:
    """The visible lines of the tree, indented two spaces per level."""
    shown: list[str] = []

    def walk(node: TreeNode[NodeData], depth: int) -> None:
        for child in node.children:
            shown.append("  " * depth + str(child.label))
            if child.is_expanded:
                walk(child, depth + 1)

    walk(tree.root, 0)
    return shown


def evidence_text(app: AssistantApp) -> str:
    return "\n".join(str(static.render()) for static in app.main.evidence.query(Static))


# A run of text in the app's SVG screenshot: its x position and the screen row it is on.
_SVG_TEXT = re.compile(
    r'<text [^>]*?x="([\d.]+)"[^>]*?clip-path="url\(#terminal-\d+-line-(\d+)\)">([^<]*)</text>'
)
# The width of one cell in that screenshot (Rich draws 0.61 of a 20-pixel font).
_SVG_CELL = 12.2


def screen_lines(app: App[object]) -> list[str]:
    """The screen as the terminal shows it, row by row, read back from the app's own
    screenshot: what is scrolled out of view or covered is not there."""
    width, height = app.size
    rows = [[" "] * width for _ in range(height)]
    for x, row, text in _SVG_TEXT.findall(app.export_screenshot()):
        column = round(float(x) / _SVG_CELL)
        for offset, character in enumerate(html.unescape(text).replace("\xa0", " ")):
            if int(row) < height and column + offset < width:
                rows[int(row)][column + offset] = character
    return ["".join(row).rstrip() for row in rows]
