"""An unsure question in the running app, as a user sees it at 80x24 and 120x35: the
possible passages listed by title, the best one's matching sentence in view without a
key press, each of the others one key away, and the status bar saying `not sure`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import FixedRetriever
from tests.helpers.tui import (
    ask,
    concluded,
    make_app,
    make_context,
    running,
    screen_lines,
    status,
    wait_until,
    wheel_up,
)
from tui_assistant.core.retrieval.types import NoEvidence
from tui_assistant.core.service import AnswerService
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.widgets.candidate_list import CandidateList
from tui_assistant.wiring.context import AppContext

PROVIDERS = ("aws", "azure", "google")
QUESTION = "how do I give a function more memory"


def provider_page(provider: str) -> str:
    """A long page whose one sentence about memory stands near its end."""
    steps = "\n\n".join(
        f"Step {number} of the {provider} deployment writes region, stage and log settings."
        for number in range(1, 26)
    )
    return (
        f"# {provider.upper()} functions\n\n## Function memory\n\n{steps}\n\n"
        f"To give a function more memory on {provider}, set memorySize in its settings.\n\n"
        "Logs keep the old value until the next deploy.\n"
    )


@pytest.fixture
def unsure_app(tmp_path: Path) -> AssistantApp:
    """The app over three provider pages, retrieval not sure between them (its result
    is given, so what the screen makes of it is tested, not a ranking)."""
    folder = tmp_path / "cloud"
    folder.mkdir()
    for provider in PROVIDERS:
        (folder / f"{provider}.md").write_text(provider_page(provider), encoding="utf-8")
    context = make_context(folder, tmp_path / "data", retrieval="ranked")
    candidates = tuple(filter(None, map(context.library.get, PROVIDERS)))
    assert len(candidates) == len(PROVIDERS)
    unsure = NoEvidence("close, none sure", candidates, mode="ranked", ambiguous=True)
    service = AnswerService(FixedRetriever(context.library, unsure))
    return make_app(AppContext(context.settings, context.library, service))


def sentence_in_view(app: AssistantApp, provider: str) -> bool:
    """The provider's sentence about memory is on screen in the passage's reader (its
    words, wherever a line wraps it: the reader's lines are read on their own, not
    joined to the conversation's beside them or to its scrollbar)."""
    region = app.main.evidence.reader.scrollable_content_region
    lines = [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]
    screen = " ".join(" ".join(lines).split())
    return f"more memory on {provider}" in screen and "memorySize" in screen


@pytest.mark.parametrize("size", [(80, 24), (120, 35)])
async def test_the_best_passage_s_sentence_and_every_title_are_on_screen_at_once(
    unsure_app: AssistantApp, size: tuple[int, int]
) -> None:
    app = unsure_app
    async with running(app, size) as pilot:
        await ask(pilot, QUESTION)
        await wait_until(pilot, lambda: concluded(app) and sentence_in_view(app, "aws"))
        lines = screen_lines(app)
        screen = "\n".join(lines)
        assert status(app) == "not sure: 3 possible passages, best first"
        assert lines[-2].strip().startswith("not sure: 3 possible passages, best first")
        assert "refused" not in screen
        for number, provider in enumerate(PROVIDERS, start=1):
            assert f"{number}  {provider.upper()} functions" in screen
        # Read without a key press: the question box keeps the focus.
        assert app.focused is app.main.question_box
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.source_path == "cloud/aws.md"


async def test_each_possible_passage_is_one_key_away(unsure_app: AssistantApp) -> None:
    app = unsure_app
    async with running(app, (80, 24)) as pilot:
        await ask(pilot, QUESTION)
        await wait_until(pilot, lambda: concluded(app) and sentence_in_view(app, "aws"))

        def opened() -> str:
            passage = app.main.evidence.passage
            return passage.source_path if passage else ""

        await pilot.press("ctrl+down")  # from the question box: the next one, in the list
        assert isinstance(app.focused, CandidateList)
        assert opened() == "cloud/azure.md"
        await wait_until(pilot, lambda: sentence_in_view(app, "azure"))
        await pilot.press("3")
        assert opened() == "cloud/google.md"
        await wait_until(pilot, lambda: sentence_in_view(app, "google"))
        await pilot.press("1")
        assert opened() == "cloud/aws.md"
        await pilot.press("down")
        assert opened() == "cloud/azure.md"
        await pilot.press("ctrl+up", "ctrl+up")
        assert opened() == "cloud/google.md"
        await pilot.press("escape")
        assert app.focused is app.main.question_box
        assert status(app) == "not sure: 3 possible passages, best first"


async def test_the_library_stays_one_key_away_while_possible_passages_are_shown(
    unsure_app: AssistantApp,
) -> None:
    app = unsure_app
    async with running(app, (80, 24)) as pilot:
        await ask(pilot, QUESTION)
        await wait_until(pilot, lambda: concluded(app) and sentence_in_view(app, "aws"))
        tree = app.main.library_panel.library_browser.library_tree
        folded = tree.region.height
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: tree.region.height > folded)
        assert app.focused is tree
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: app.main.evidence.passage is not None)


def best_line_shown(app: AssistantApp) -> bool:
    """The reader is scrolled down, past the passage's first steps, to its sentence."""
    return sentence_in_view(app, "aws") and app.main.evidence.reader.scroll_y > 0


async def test_the_best_sentence_stays_in_view_when_the_terminal_shrinks(
    unsure_app: AssistantApp,
) -> None:
    app = unsure_app
    async with running(app, (120, 35)) as pilot:
        await ask(pilot, QUESTION)
        await wait_until(pilot, lambda: concluded(app) and best_line_shown(app))
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: app.size == (80, 24) and best_line_shown(app))


async def test_a_passage_the_user_scrolled_stays_where_they_left_it_on_a_resize(
    unsure_app: AssistantApp,
) -> None:
    app = unsure_app
    async with running(app, (120, 35)) as pilot:
        reader = app.main.evidence.reader
        await ask(pilot, QUESTION)
        await wait_until(pilot, lambda: concluded(app) and best_line_shown(app))
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: app.size == (80, 24) and best_line_shown(app))
        # Back up to the passage's first steps, with the wheel.
        await wheel_up(pilot, reader, notches=60)
        await wait_until(pilot, lambda: reader.scroll_y == 0)
        assert not sentence_in_view(app, "aws")
        width = reader.size.width
        await pilot.resize_terminal(120, 35)
        await wait_until(pilot, lambda: reader.size.width > width)
        await pilot.pause()
        await pilot.pause()
        assert reader.scroll_y == 0
        assert "Step 1 of the aws deployment" in " ".join(screen_lines(app))
