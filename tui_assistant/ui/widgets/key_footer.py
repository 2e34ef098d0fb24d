"""The footer, fitted to the terminal's width: every key it shows is whole.

Below `WIDE` cells it is compact (less space around each key) and the longest labels
read shorter; keys that still do not fit give way, the least needed first (reload,
editor, the passage steps), then from the right, f1 Help last of all, so the help,
which lists every key, is always one key away. The command palette's key keeps its
place at the right. Keys of one group (`1`–`5` Open) come and go together.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

from tui_assistant.ui.keys import NEXT_PASSAGE, OPEN_IN_EDITOR, PREVIOUS_PASSAGE, RELOAD

# Narrower than this, the footer is compact and its long labels short.
WIDE = 100
SHORT_LABELS = {NEXT_PASSAGE.description: "Next", PREVIOUS_PASSAGE.description: "Prev"}
# Given up first when the keys do not fit, in this order.
FIRST_TO_GO = (RELOAD.action, OPEN_IN_EDITOR.action, PREVIOUS_PASSAGE.action, NEXT_PASSAGE.action)
LAST_TO_GO = "help"
PALETTE = "-command-palette"

# A binding on the footer: whether it can be pressed now, and its tooltip.
Shown = tuple[Binding, bool, str]
# What shows or hides as one: a key, or a group of keys with its label.
Unit = list[Widget]


class KeyFooter(Footer):
    DEFAULT_CSS = """
    KeyFooter.-compact { padding-left: 1; }
    KeyFooter.-compact FooterLabel { margin-right: 1; }
    """

    def __init__(self) -> None:
        super().__init__(id="footer")
        self._width = 0

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        narrow = self.app.size.width < WIDE
        self.set_reactive(Footer.compact, narrow)
        self.set_class(narrow, "-compact")
        shown: dict[str, Shown] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in shown:
                shown[binding.action] = (binding, enabled, tooltip)
        for group, grouped in groupby(shown.values(), lambda item: item[0].group):
            items = list(grouped)
            if group is not None and len(items) > 1:
                with KeyGroup(classes="-compact" if group.compact else ""):
                    for binding, enabled, tooltip in items:
                        yield self._key(binding, "", enabled, tooltip, "-grouped")
                yield FooterLabel(group.description)
                continue
            for binding, enabled, tooltip in items:
                label = SHORT_LABELS.get(binding.description, "") if narrow else ""
                yield self._key(binding, label or binding.description, enabled, tooltip)
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                _, binding, enabled, _ = palette
                yield self._key(binding, binding.description, enabled, "", PALETTE)
        self.call_after_refresh(self._fit)

    def _key(
        self, binding: Binding, label: str, enabled: bool, tooltip: str, classes: str = ""
    ) -> FooterKey:
        return FooterKey(
            binding.key,
            self.app.get_key_display(binding),
            label,
            binding.action,
            disabled=not enabled,
            tooltip=tooltip or binding.tooltip or binding.description,
            classes=classes,
        ).data_bind(compact=Footer.compact)

    def on_resize(self) -> None:
        if self.size.width != self._width:
            self._width = self.size.width
            self.call_after_refresh(self.recompose)

    def _fit(self) -> None:
        """Hide the keys that would be cut, least needed first."""
        units, palette = _units(self.children)
        room = self.size.width - sum(_width(widget) for widget in palette)
        widths = [sum(_width(widget) for widget in unit) for unit in units]
        used = sum(widths)
        for index in _giving_way(units):
            if used <= room:
                break
            for widget in units[index]:
                widget.display = False
            used -= widths[index]

    def keys_shown(self) -> list[FooterKey]:
        """The keys on the line, left to right (the palette's last)."""
        return [
            key
            for key in self.query(FooterKey)
            if key.display and (not isinstance(key.parent, KeyGroup) or key.parent.display)
        ]


def _units(children: Iterable[Widget]) -> tuple[list[Unit], list[Widget]]:
    """The footer's keys as units that show or hide together, and the palette's key."""
    units: list[Unit] = []
    palette: list[Widget] = []
    for child in children:
        if child.has_class(PALETTE):
            palette.append(child)
        elif isinstance(child, FooterLabel) and units and isinstance(units[-1][0], KeyGroup):
            units[-1].append(child)
        else:
            units.append([child])
    return units, palette


def _actions(unit: Unit) -> set[str]:
    return {
        key.action
        for widget in unit
        for key in [widget, *widget.query(FooterKey)]
        if isinstance(key, FooterKey)
    }


def _giving_way(units: list[Unit]) -> Iterable[int]:
    """The units' indices in the order they give way to a narrow screen."""
    actions = [_actions(unit) for unit in units]
    for action in FIRST_TO_GO:
        yield from (index for index, held in enumerate(actions) if action in held)
    chosen = set(FIRST_TO_GO) | {LAST_TO_GO}
    yield from (index for index in reversed(range(len(units))) if not actions[index] & chosen)
    yield from (index for index, held in enumerate(actions) if LAST_TO_GO in held)


def _width(widget: Widget) -> int:
    margin = widget.styles.margin
    return widget.outer_size.width + margin.left + margin.right
