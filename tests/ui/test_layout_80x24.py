"""The main screen on a small terminal (80x24), as a user reads it: a conversation
column wide enough for prose whatever the side column lists, an answer that opens at
its question with the source line in view, and a footer whose keys are all whole,
every key of the contract still listed in the help."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    HangingProvider,
    ask,
    concluded,
    make_app,
    make_context,
    running,
    screen_lines,
    status,
    wait_until,
)
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.dialogs.help_screen import HelpScreen
from tui_assistant.ui.widgets.chat_pane import ChatPane
from tui_assistant.ui.widgets.key_footer import KeyFooter

SMALL = (80, 24)
# Six or seven words a line: a refusal's reason reads in two or three lines.
READABLE = 36
ANSWERED = "how much salt for pasta water"
REFUSED = "how do I fix my car"


def chat_width(app: AssistantApp) -> int:
    return app.main.query_one(ChatPane).outer_size.width


def chat_shown(app: AssistantApp) -> str:
    """The conversation's visible region as on screen, its lines joined."""
    region = app.main.query_one(ChatPane).scrollable_content_region
    lines = screen_lines(app)[region.y : region.bottom]
    return " ".join(" ".join(line[region.x : region.right] for line in lines).split())


@pytest.mark.parametrize("size", [SMALL, (120, 35)])
async def test_an_answer_opens_with_its_question_and_source_line_in_view(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, size) as pilot:
        # A refusal first: the side column lists passages and takes the most room.
        await ask(pilot, REFUSED)
        await wait_until(pilot, lambda: concluded(app) and status(app).startswith("refused"))
        assert chat_width(app) >= READABLE
        await ask(pilot, ANSWERED)
        await wait_until(pilot, lambda: concluded(app) and status(app) == "answered")
        await wait_until(pilot, lambda: f"> {ANSWERED}" in chat_shown(app))
        await pilot.pause(0.1)  # nothing scrolls it away afterwards
        shown = chat_shown(app)
        assert f"> {ANSWERED}" in shown
        assert "source: lessons/pasta-water.md:1–11" in shown
        # The answer is longer than the pane: its end is below, not what opens.
        assert app.main.chat.max_scroll_y > 0
        assert chat_width(app) >= READABLE


async def test_the_conversation_stays_readable_while_the_side_column_lists_passages(
    tmp_path: Path,
) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SMALL) as pilot:
        assert chat_width(app) >= READABLE
        await ask(pilot, REFUSED)
        await wait_until(pilot, lambda: concluded(app))
        await pilot.pause()
        assert app.main.query_one("#side").has_class("-listing")
        assert chat_width(app) >= READABLE
        screen = "\n".join(screen_lines(app))
        # The refusal's reason wraps over at most three lines of the conversation.
        reason_lines = [line for line in screen.splitlines() if "█" in line.split("││")[0]]
        assert 1 <= len(reason_lines) <= 3


def footer_is_whole(app: AssistantApp) -> bool:
    """Every key on the footer's line is drawn whole, inside the footer, none over
    another or under the command palette's key."""
    footer = app.main.query_one(KeyFooter)
    keys = footer.keys_shown()
    if not keys:
        return False
    line = screen_lines(app)[footer.region.y]
    parts = [part for part in footer.children if part.display]
    palette = [part for part in parts if part.has_class("-command-palette")]
    edge = palette[0].region.x if palette else footer.region.right
    for part in parts:
        region = part.region
        if not (footer.region.x <= region.x and region.right <= footer.region.right):
            return False
        if part not in palette and region.right > edge:
            return False
    for key in keys:
        if f"{key.key_display} {key.description}".strip() not in line:
            return False
    spans = sorted((part.region.x, part.region.right) for part in parts)
    return all(right <= next_x for (_, right), (next_x, _) in pairwise(spans))


def footer_actions(app: AssistantApp) -> set[str]:
    return {key.action for key in app.main.query_one(KeyFooter).keys_shown()}


async def test_the_footer_shows_whole_keys_at_80_columns_in_every_state(tmp_path: Path) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SMALL) as pilot:
        await wait_until(pilot, lambda: footer_is_whole(app))
        assert {"focus_library", "help", "quit", "command_palette"} <= footer_actions(app)
        await ask(pilot, ANSWERED)
        await wait_until(pilot, provider.started.is_set)
        # In flight: escape stops it, and the footer says so.
        await wait_until(pilot, lambda: "cancel" in footer_actions(app) and footer_is_whole(app))
        assert {"help", "command_palette"} <= footer_actions(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: status(app) == "cancelled")
        await ask(pilot, REFUSED)
        await wait_until(pilot, lambda: concluded(app) and status(app).startswith("refused"))
        # Every key the screen offers now (the passage steps too) fits whole.
        await wait_until(pilot, lambda: "evidence_step(1)" in footer_actions(app))
        await wait_until(pilot, lambda: footer_is_whole(app))
        assert {"focus_library", "help", "quit", "command_palette"} <= footer_actions(app)
        # In the list of closest passages: its number keys, one group, fit too.
        await pilot.press("ctrl+down")
        await wait_until(pilot, lambda: "open(1)" in footer_actions(app))
        await wait_until(pilot, lambda: footer_is_whole(app))
        assert {"help", "command_palette"} <= footer_actions(app)


async def test_a_narrower_footer_gives_up_keys_but_keeps_help_and_the_help_lists_them(
    tmp_path: Path,
) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, (60, 20)) as pilot:
        await ask(pilot, REFUSED)
        await wait_until(pilot, lambda: concluded(app))
        await wait_until(pilot, lambda: footer_is_whole(app))
        shown = footer_actions(app)
        assert "help" in shown
        assert "reload" not in shown  # the first to give way
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        listed = {str(key.render()) for key in app.screen.query(".key").results(Static)}
        for key in ("enter", "escape", "ctrl+l", "ctrl+q", "f1", "ctrl+p", "ctrl+r"):
            assert key in listed, key
