"""The status bar as drawn: the outcome first at any width, then the note, the work
under way and the mode line, which give up their room as the terminal narrows."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from tests.helpers.tui import bar_line, wait_until
from tui_assistant.core.outcome import Outcome, OutcomeKind
from tui_assistant.ui.editor import BACK_FROM_EDITOR
from tui_assistant.ui.widgets.status_bar import StatusBar, fit_status

MODE = ("deterministic", "2,349 passages", "hybrid")
EDITOR_NOTE = BACK_FROM_EDITOR


class BarApp(App[object]):
    def compose(self) -> ComposeResult:
        yield StatusBar(clock=lambda: 0.0)

    @property
    def bar(self) -> StatusBar:
        return self.query_one(StatusBar)


def drawn(app: BarApp) -> str:
    """The bar's one line as the terminal shows it."""
    line = bar_line(app.bar)
    assert "\n" not in line and app.bar.region.height == 1
    return line


def test_the_outcome_is_never_cut_for_the_rest() -> None:
    refused = "refused: nothing in the library is close in meaning to the question"
    texts = fit_status(78, refused, "reload failed, still using the loaded library", "", MODE)
    assert texts.state == refused
    # 10 cells are left: too few for the note (a lone `…` says nothing), none for the mode.
    assert (texts.note, texts.mode) == ("", "")


def test_the_mode_line_drops_the_passage_count_then_the_retrieval_mode() -> None:
    whole = fit_status(60, "answered", mode_parts=MODE)
    assert whole.mode == "deterministic · 2,349 passages · hybrid"
    assert fit_status(40, "answered", mode_parts=MODE).mode == "deterministic · hybrid"
    assert fit_status(30, "answered", mode_parts=MODE).mode == "deterministic"
    assert fit_status(20, "answered", mode_parts=MODE).mode == ""


def test_work_is_shown_whole_or_not_at_all() -> None:
    assert fit_status(40, "ready", work="embedding 160/1,396").work == "embedding 160/1,396"
    assert fit_status(20, "ready", work="embedding 160/1,396").work == ""


def test_a_state_wider_than_the_bar_is_cut_at_its_end() -> None:
    texts = fit_status(20, "refused: the provider did not answer", "a note", "work", MODE)
    assert texts == type(texts)("refused: the provid…")


@pytest.mark.parametrize("size", [(80, 24), (120, 35)])
async def test_the_editor_note_fits_after_the_outcome(size: tuple[int, int]) -> None:
    app = BarApp()
    async with app.run_test(size=size) as pilot:
        bar = app.bar
        bar.show_library("deterministic", 2349)
        bar.retrieval = "hybrid"
        bar.work = "embedding 160/2,349"
        bar.show_outcome(Outcome("q", OutcomeKind.ANSWERED))
        bar.note = EDITOR_NOTE
        await wait_until(pilot, lambda: EDITOR_NOTE in drawn(app))
        line = drawn(app)
        assert line.startswith(f"answered  {EDITOR_NOTE}  embedding 160/2,349")
        if size[0] >= 120:
            assert line.endswith("deterministic · 2,349 passages · hybrid")
        else:
            # Too little room is left for the mode: it is left out rather than cut.
            assert line.endswith("embedding 160/2,349")
        assert "…" not in line


@pytest.mark.parametrize("size", [(80, 24), (120, 35)])
async def test_asking_comes_first_and_the_mode_follows_on_a_resize(size: tuple[int, int]) -> None:
    app = BarApp()
    async with app.run_test(size=size) as pilot:
        app.bar.show_library("demo-model at http://127.0.0.1:8000/v1", 2349)
        app.bar.show_asking()
        await wait_until(pilot, lambda: drawn(app).startswith("asking… 0.0 s (esc to stop)"))
        assert "2,349 passages" in drawn(app) or size[0] < 120
        await pilot.resize_terminal(40, 12)
        await wait_until(pilot, lambda: "demo-model" not in drawn(app))
        assert drawn(app) == "asking… 0.0 s (esc to stop)"
