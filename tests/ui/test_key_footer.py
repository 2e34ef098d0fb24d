"""The footer's keys at any width, worked out on plain values, and the footer in a small
app: a click does what the key does, a key that cannot be pressed now is dimmed."""

from __future__ import annotations

from typing import ClassVar

from hypothesis import given
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen

from tests.helpers.properties import PROPERTY
from tests.helpers.tui import wait_until
from tui_assistant.ui.widgets.key_footer import (
    COMPACT_PADDING,
    PALETTE_EDGE,
    FooterEntry,
    KeyChip,
    KeyFooter,
    Plan,
    plan,
)


def key(display: str, description: str, action: str, group: str | None = None) -> FooterEntry:
    return FooterEntry(display, display, description, action, group=group)


ASK = key("⏎", "Ask", "submit")
LIBRARY = key("^l", "Library", "focus_library")
EDIT = key("^o", "Edit", "open_in_editor")
NEXT = key("^↓", "Next passage", "evidence_step(1)")
PREVIOUS = key("^↑", "Previous passage", "evidence_step(-1)")
RELOAD = key("^r", "Reload", "reload")
QUIT = key("^q", "Quit", "quit")
HELP = key("f1", "Help", "help")
PALETTE = key("^p", "palette", "command_palette")
MAIN = [ASK, LIBRARY, EDIT, NEXT, PREVIOUS, RELOAD, QUIT, HELP]
OPEN = [key(str(number), str(number), f"open({number})", group="Open") for number in (1, 2, 3)]


def line(drawn: Plan) -> str:
    """The footer's line as drawn, the palette's key last."""
    chips = [*drawn.chips, *([drawn.palette] if drawn.palette else [])]
    return "".join(text for chip in chips for text, _ in chip.pieces)


def actions(drawn: Plan) -> list[str]:
    return [chip.entry.action for chip in drawn.chips if chip.entry is not None]


def used(drawn: Plan) -> int:
    edge = 0 if drawn.palette is None else PALETTE_EDGE + drawn.palette.width
    return (COMPACT_PADDING if drawn.compact else 0) + sum(c.width for c in drawn.chips) + edge


def test_a_wide_footer_shows_every_key_with_its_whole_label() -> None:
    drawn = plan(MAIN, PALETTE, 120)

    assert not drawn.compact
    assert actions(drawn) == [entry.action for entry in MAIN]
    assert " ^↑ Previous passage " in line(drawn)
    assert line(drawn).endswith(" f1 Help  ^p palette  ")


def test_below_100_columns_the_footer_is_compact_and_long_labels_short() -> None:
    drawn = plan(MAIN, PALETTE, 80)

    assert drawn.compact
    assert line(drawn).startswith("⏎ Ask ^l Library ^o Edit ^↓ Next ^↑ Prev ^r Reload")
    assert line(drawn).endswith("f1 Help ^p palette ")
    assert used(drawn) <= 80


def test_keys_give_way_least_needed_first_and_help_last() -> None:
    assert "reload" not in actions(plan(MAIN, PALETTE, 70))
    narrow = plan(MAIN, PALETTE, 50)
    assert {"reload", "open_in_editor", "evidence_step(-1)"}.isdisjoint(actions(narrow))
    # Then from the right, f1 Help kept to the last.
    tiny = plan(MAIN, PALETTE, 22)
    assert actions(tiny) == ["help"]
    assert tiny.palette is not None
    assert actions(plan(MAIN, PALETTE, 10)) == []


def test_the_keys_of_a_group_come_and_go_together_with_its_label() -> None:
    drawn = plan([*OPEN, *MAIN], PALETTE, 80)

    assert line(drawn).startswith("1 2 3 Open ")
    assert {chip.entry.description for chip in drawn.chips[:3] if chip.entry} == {""}
    gone = plan([*OPEN, *MAIN], PALETTE, 30)
    assert not {"open(1)", "open(2)", "open(3)"} & set(actions(gone))
    assert " Open " not in line(gone)


@PROPERTY
@given(
    width=st.integers(min_value=0, max_value=160),
    grouped=st.booleans(),
)
def test_whatever_the_width_the_keys_shown_fit_and_keep_their_order(
    width: int, grouped: bool
) -> None:
    keys = [*OPEN, *MAIN] if grouped else MAIN
    drawn = plan(keys, PALETTE, width)

    shown = actions(drawn)
    if shown:
        assert used(drawn) <= width
    order = [entry.action for entry in keys]
    assert shown == [action for action in order if action in shown]
    assert len(set(shown) & {"open(1)", "open(2)", "open(3)"}) in (0, 3)


class KeysScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "poke", "Poke", id="test.poke"),
        Binding("f3", "later", "Later", id="test.later"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.poked = 0

    def compose(self) -> ComposeResult:
        yield KeyFooter()

    def action_poke(self) -> None:
        self.poked += 1

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "later" else True  # None: shown, but dimmed


class KeysApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.bells = 0

    def get_default_screen(self) -> Screen[None]:
        return KeysScreen()

    def bell(self) -> None:
        self.bells += 1


def chip(app: KeysApp, action: str) -> KeyChip:
    return next(c for c in app.screen.query_one(KeyFooter).keys_shown() if c.action == action)


async def test_a_click_on_a_key_does_what_the_key_does_and_a_dimmed_key_only_rings() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        screen = app.screen
        assert isinstance(screen, KeysScreen)
        footer = screen.query_one(KeyFooter)
        # Both keys drawn where a click lands on them.
        await wait_until(
            pilot,
            lambda: {"poke", "later"} <= {c.action for c in footer.keys_shown() if c.region.width},
        )
        assert chip(app, "later").has_class("-disabled")
        assert not chip(app, "poke").has_class("-disabled")

        assert await pilot.click(chip(app, "poke"))
        await wait_until(pilot, lambda: screen.poked == 1)
        assert await pilot.click(chip(app, "later"))
        await wait_until(pilot, lambda: app.bells == 1)
        assert screen.poked == 1


async def test_the_footer_is_drawn_again_when_the_width_crosses_100_columns() -> None:
    app = KeysApp()
    async with app.run_test(size=(120, 10)) as pilot:
        footer = app.screen.query_one(KeyFooter)
        await wait_until(pilot, lambda: bool(footer.keys_shown()))
        assert not footer.has_class("-compact")
        await pilot.resize_terminal(80, 10)
        await wait_until(pilot, lambda: footer.has_class("-compact"))
        await wait_until(pilot, lambda: bool(footer.keys_shown()))
