"""The footer, fitted to the terminal's width: every key it shows is whole.

Below `WIDE` cells it is compact (less space around each key) and the longest labels
read shorter; keys that still do not fit give way, the least needed first (reload,
editor, the passage steps), then from the right, f1 Help last of all, so the help,
which lists every key, is always one key away. The command palette's key keeps its
place at the right. Keys of one group (`1`–`5` Open) come and go together.

What fits is worked out on plain values (`plan`), measured in cells, before anything
is drawn; the widget draws the plan again whenever the screen's bindings change
(focus, a question in flight) or the footer's width does. Textual's public API only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import TYPE_CHECKING, Literal

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.widget import Widget

from tui_assistant.ui.keys import NEXT_PASSAGE, OPEN_IN_EDITOR, PREVIOUS_PASSAGE, RELOAD

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.screen import Screen

# Narrower than this, the footer is compact and its long labels short.
WIDE = 100
SHORT_LABELS = {NEXT_PASSAGE.description: "Next", PREVIOUS_PASSAGE.description: "Prev"}
# Given up first when the keys do not fit, in this order.
FIRST_TO_GO = (RELOAD.action, OPEN_IN_EDITOR.action, PREVIOUS_PASSAGE.action, NEXT_PASSAGE.action)
LAST_TO_GO = "help"
PALETTE = "-command-palette"
# The palette key's left edge (a thin rule) takes a cell; a compact footer, one on its left.
PALETTE_EDGE = 1
COMPACT_PADDING = 1

# Which part of a chip a piece of text is: drawn in the key's or the label's colours.
Role = Literal["key", "description", "space"]
Piece = tuple[str, Role]


@dataclass(frozen=True)
class FooterEntry:
    """A key the footer can offer: what it shows, what it does, whether it can now."""

    key: str
    key_display: str
    description: str
    action: str
    enabled: bool = True
    tooltip: str = ""
    group: str | None = None  # the label of the keys shown as one (`1`–`5` Open)
    # Where the action runs (the node whose binding it is); None runs it on the app.
    namespace: DOMNode | None = None


@dataclass(frozen=True)
class Chip:
    """One drawn part of the footer: a key, or a group's label (`entry` None)."""

    pieces: tuple[Piece, ...]
    entry: FooterEntry | None = None

    @property
    def width(self) -> int:
        return sum(cell_len(text) for text, _ in self.pieces)


@dataclass(frozen=True)
class Plan:
    """What the footer draws: compact or not, its chips left to right, the palette's."""

    compact: bool
    chips: tuple[Chip, ...]
    palette: Chip | None


def entry(active: ActiveBinding, key_display: Callable[[Binding], str]) -> FooterEntry:
    """What the footer shows of an active binding (`key_display`: the app's name for a key)."""
    node, binding, enabled, tooltip = active
    return FooterEntry(
        binding.key,
        key_display(binding),
        binding.description,
        binding.action,
        enabled,
        tooltip or binding.tooltip or binding.description,
        binding.group.description if binding.group is not None else None,
        node,
    )


def entries(
    active: Iterable[ActiveBinding], key_display: Callable[[Binding], str]
) -> list[FooterEntry]:
    """The bindings to show, one per action, in the screen's order."""
    shown: dict[str, FooterEntry] = {}
    for each in active:
        if each.binding.show and each.binding.action not in shown:
            shown[each.binding.action] = entry(each, key_display)
    return list(shown.values())


def plan(keys: Sequence[FooterEntry], palette: FooterEntry | None, width: int) -> Plan:
    """The chips that fit in `width` cells, the least needed given up first."""
    compact = width < WIDE
    units = _units(keys, compact)
    palette_chip = None if palette is None else _palette_chip(palette, compact)
    room = width - (COMPACT_PADDING if compact else 0)
    if palette_chip is not None:
        room -= PALETTE_EDGE + palette_chip.width
    widths = [sum(chip.width for chip in unit) for unit in units]
    kept = set(range(len(units)))
    used = sum(widths)
    for index in _giving_way(units):
        if used <= room:
            break
        kept.discard(index)
        used -= widths[index]
    chips = tuple(chip for index, unit in enumerate(units) if index in kept for chip in unit)
    return Plan(compact, chips, palette_chip)


def _units(keys: Sequence[FooterEntry], compact: bool) -> list[list[Chip]]:
    """The chips as units that show or hide together: a key, or a group and its label."""
    units: list[list[Chip]] = []
    for group, grouped in groupby(keys, lambda key: key.group):
        items = list(grouped)
        if group is not None and len(items) > 1:
            # The keys alone, one space apart, then the group's label.
            unit = [
                Chip(
                    (("" if compact and index == 0 else " ", "space"), (key.key_display, "key")),
                    replace(key, description=""),
                )
                for index, key in enumerate(items)
            ]
            units.append([*unit, Chip(((f" {group} ", "description"),))])
        else:
            units.extend([_key_chip(key, compact)] for key in items)
    return units


def _key_chip(key: FooterEntry, compact: bool) -> Chip:
    if compact:
        label = SHORT_LABELS.get(key.description, key.description)
        pieces: tuple[Piece, ...] = ((key.key_display, "key"),)
        if label:
            pieces += ((f" {label}", "description"),)
        return Chip((*pieces, (" ", "space")), replace(key, description=label))
    pieces = ((f" {key.key_display} ", "key"),)
    if key.description:
        pieces += ((f"{key.description} ", "description"),)
    return Chip(pieces, key)


def _palette_chip(entry: FooterEntry, compact: bool) -> Chip:
    """At the right edge, a cell clear of it."""
    if compact:
        pieces: tuple[Piece, ...] = (
            (entry.key_display, "key"),
            (f" {entry.description}", "description"),
        )
    else:
        pieces = ((f" {entry.key_display} ", "key"), (f"{entry.description} ", "description"))
    return Chip((*pieces, (" ", "space")), entry)


def _giving_way(units: list[list[Chip]]) -> Iterable[int]:
    """The units' indices in the order they give way to a narrow screen."""
    actions = [{chip.entry.action for chip in unit if chip.entry is not None} for unit in units]
    for action in FIRST_TO_GO:
        yield from (index for index, held in enumerate(actions) if action in held)
    chosen = set(FIRST_TO_GO) | {LAST_TO_GO}
    yield from (index for index in reversed(range(len(units))) if not actions[index] & chosen)
    yield from (index for index, held in enumerate(actions) if LAST_TO_GO in held)


class KeyChip(Widget):
    """A key on the footer (a click does what the key does), or a group's label."""

    COMPONENT_CLASSES = {"key-chip--key", "key-chip--description"}  # noqa: RUF012
    DEFAULT_CSS = """
    KeyChip {
        width: auto;
        height: 1;
        text-wrap: nowrap;
        background: $footer-item-background;
        .key-chip--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-chip--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        &.-key:hover {
            pointer: pointer;
            background: $block-hover-background;
        }
        &.-disabled { text-style: dim; }
    }
    """

    def __init__(self, chip: Chip, classes: str = "") -> None:
        entry = chip.entry
        if entry is not None:
            classes += " -key" if entry.enabled else " -key -disabled"
        super().__init__(classes=classes)
        self.chip = chip
        if entry is not None and entry.tooltip:
            self.tooltip = entry.tooltip

    @property
    def key(self) -> str:
        return "" if self.chip.entry is None else self.chip.entry.key

    @property
    def key_display(self) -> str:
        return "" if self.chip.entry is None else self.chip.entry.key_display

    @property
    def description(self) -> str:
        """The label shown beside the key ("" for a key of a group)."""
        return "" if self.chip.entry is None else self.chip.entry.description

    @property
    def action(self) -> str:
        return "" if self.chip.entry is None else self.chip.entry.action

    def render(self) -> Text:
        styles = {
            "key": self.get_component_rich_style("key-chip--key"),
            "description": self.get_component_rich_style("key-chip--description"),
        }
        text = Text.assemble(*((part, styles.get(role, "")) for part, role in self.chip.pieces))
        text.stylize_before(self.rich_style)
        return text

    async def on_click(self, event: events.Click) -> None:
        entry = self.chip.entry
        if entry is None:
            return
        event.stop()
        if entry.enabled:
            await self.app.run_action(entry.action, entry.namespace)
        else:
            self.app.bell()


class KeyFooter(Widget, can_focus=False, can_focus_children=False):
    DEFAULT_CSS = """
    KeyFooter {
        layout: horizontal;
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        KeyChip.-command-palette {
            dock: right;
            border-left: vkey $foreground 20%;
        }
    }
    """

    def __init__(self) -> None:
        super().__init__(id="footer")
        self._drawn: Plan | None = None
        # The screen's bindings are asked for once it says they are ready: before
        # that, its `check_action` may look for widgets still being mounted.
        self._ready = False

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen:
            self._ready = True
            self.call_after_refresh(self._redraw)

    def on_resize(self) -> None:
        self._redraw()

    def _plan(self) -> Plan:
        active = self.screen.active_bindings
        keys = entries(active.values(), self.app.get_key_display)
        palette = None
        # Shown whatever its binding's `show`, as Textual's own footer does.
        found = active.get(self.app.COMMAND_PALETTE_BINDING)
        if self.app.ENABLE_COMMAND_PALETTE and found is not None:
            palette = entry(found, self.app.get_key_display)
        # Before its first layout the footer has no width: it spans the screen.
        return plan(keys, palette, self.outer_size.width or self.screen.size.width)

    def _redraw(self) -> None:
        """Draw again, only when what the footer shows would change."""
        if self._ready and self.is_attached and self._plan() != self._drawn:
            self.refresh(recompose=True)

    def compose(self) -> ComposeResult:
        if not self._ready:
            return
        drawn = self._drawn = self._plan()
        self.set_class(drawn.compact, "-compact")
        self.styles.padding = (0, 0, 0, COMPACT_PADDING if drawn.compact else 0)
        for chip in drawn.chips:
            yield KeyChip(chip)
        if drawn.palette is not None:
            yield KeyChip(drawn.palette, PALETTE)

    def keys_shown(self) -> list[KeyChip]:
        """The keys on the line, left to right (the palette's last)."""
        return [chip for chip in self.query(KeyChip) if chip.chip.entry is not None]
